"""The launch's first paint: `pixelmem --vault DIR` shows the list from the scan cache with only
what that needs loaded, then builds the other views.

The modules a launch loads before the list is painted are what its time is made of (numpy and
the search stack, the editor's Markdown rendering, the command groups: ~0.6 s of a 10k-vault
launch). Timing is for ``benchmarks/bench_ui.py``; this checks the structure, in a fresh
process through the real entry point.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

# Loaded later, never before the first paint with rows.
NOT_BEFORE_THE_LIST = (
    "numpy",
    "httpx",
    "pixelmem.commands.vault",
    "pixelmem.commands.chat",
    "pixelmem.core.index.search",
    "pixelmem.core.index.indexer",
    "pixelmem.gui.editor.editor",
    "pixelmem.gui.panels.search_panel",
    "pixelmem.gui.chat.pane",
    "pixelmem.gui.panels.tag_pane",  # registered panels: imported at their stage
    "pixelmem.gui.panels.builtin",
)

PROBE = textwrap.dedent(
    """
    import json, sys
    import pixelmem.gui.app as app_module
    from PySide6.QtCore import QEvent, QObject, QTimer
    from PySide6.QtWidgets import QApplication

    report = {{}}

    class FirstPaint(QObject):
        def __init__(self, window):
            super().__init__(window)
            self.window = window
            window.list_panel.view.viewport().installEventFilter(self)

        def eventFilter(self, watched, event):
            if event.type() == QEvent.Type.Paint and self.window.list_model.rowCount():
                report.setdefault("rows", self.window.list_model.rowCount())
                report.setdefault("modules", sorted(sys.modules))
            return False

    def watch(window):
        FirstPaint(window)

        def done():
            views = window._views  # not window.editor: reading it would build them
            if window.session.loaded and views is not None and views.editor.isVisible():
                report["editor_placed"] = window.centralWidget().isAncestorOf(views.editor)
                with open({out!r}, "w") as f:
                    json.dump(report, f)
                QApplication.instance().quit()

        poll = QTimer(window, interval=20)
        poll.timeout.connect(done)
        poll.start()

    real_open = app_module.AppController.open

    def open_(self, vault, **kwargs):
        ok = real_open(self, vault, **kwargs)
        watch(self.window)
        return ok

    app_module.AppController.open = open_
    from pixelmem.cli import main
    sys.exit(main({argv!r}))
    """
)


@pytest.mark.parametrize("order", ["--vault first", "app --vault"])
def test_the_list_paints_before_the_heavy_modules_load(
    warm_vault: Path, tmp_path: Path, order: str
) -> None:
    out = tmp_path / "report.json"
    argv = ["--vault", str(warm_vault)] if order == "--vault first" else ["app", "--vault"]
    if order != "--vault first":
        argv.append(str(warm_vault))
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(out=str(out), argv=argv)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(out.read_text())

    assert report["rows"] == 5  # the scan cache's picture, painted
    loaded = set(report["modules"])
    assert loaded.isdisjoint(NOT_BEFORE_THE_LIST), sorted(loaded & set(NOT_BEFORE_THE_LIST))
    assert report["editor_placed"]  # then the editor came, on its own
