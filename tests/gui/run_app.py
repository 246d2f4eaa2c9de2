"""Run the app's entry point in a test: its event loop replaced, the windows it opened
handed back closed (``run_app`` as a person starts it, minus the waiting)."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

import pixelmem.gui.app as app_module


def run_app_and_close(monkeypatch, qtbot) -> list:
    """run_app with its event loop replaced: the windows it opened, closed again."""
    windows: list = []
    real_open = app_module.AppController.open

    def open_(self, vault, *, first_run=False):
        ok = real_open(self, vault, first_run=first_run)
        windows.append(self.window)
        return ok

    monkeypatch.setattr(app_module.AppController, "open", open_)
    monkeypatch.setattr(QApplication, "exec", lambda self: 0)
    assert app_module.run_app() == 0
    for window in windows:
        qtbot.addWidget(window)
        qtbot.waitUntil(lambda w=window: w.session.index_ready, timeout=5000)
        window._closing_ok = True
        window.session.shutdown()
    return windows
