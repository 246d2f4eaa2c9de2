"""Wrappers that outlive what they wrap (issue 28): a live EN→ZH switch raised "QMenu already
deleted" in the menus' relabel and left half the UI English, and the chat stopped following
answers ("QScrollBar already deleted"). The class: a Python reference (an attribute, a lambda's
capture) to a wrapper of an object Qt made (``addMenu(title)``, ``verticalScrollBar()``), which
shiboken invalidates once Python drops a wrapper above it; and lambdas connected without a
receiver, which outlive the object they call. Menus are made in Python now, the chat asks its
scroll area for the bar each time, and slots are bound methods of the QObject that owns them.

Here: a window is made and dropped (a vault switch), another is built whole, then the language
switches back and forth with a garbage collection before each switch; every menu and dock
title follows, no Qt-event-loop exception is raised (pytest-qt fails the test on one), and the
chat still follows a new message to the bottom.
"""

from __future__ import annotations

import copy
import gc

import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel

from pixelmem.core.index.engine import Engine
from pixelmem.gui import i18n
from pixelmem.gui.panels.registry import Stage

MENU_TITLES = {
    "en": ["&File", "&Edit", "&View", "&Help"],
    "zh_CN": ["文件", "编辑", "视图", "帮助"],
}


def _switch(window, qtbot, language: str) -> None:
    gc.collect()  # what dropped the wrappers' owners before: now, not at a random moment
    new = copy.deepcopy(window.settings)
    new.language = language
    window.commands.use_settings(new)
    qtbot.wait(30)


def _menu_titles(window) -> list[str]:
    return [menu.title() for menu in window.menus.values()]


def test_switching_languages_again_and_again_relabels_everything(
    qtbot, settings, embedder, engine
) -> None:
    from pixelmem.gui.window.main_window import MainWindow

    vault = engine.vault
    first = MainWindow(Engine(vault, settings, embedder=embedder), settings)
    first._closing_ok = True
    first.panels.build(Stage.AFTER_SCAN)
    first.session.shutdown()
    first.deleteLater()  # the window of the vault left behind
    qtbot.wait(10)
    gc.collect()

    window = MainWindow(engine, settings)
    qtbot.addWidget(window)
    window._closing_ok = True
    window.resize(1000, 700)
    window.show()
    with qtbot.waitSignal(window.session.indexing_finished, timeout=10_000):
        window.start()
    _open_with_the_switcher(qtbot, window)  # the way the stale menu showed itself first
    qtbot.waitUntil(lambda: window.panels.is_built(Stage.AFTER_SCAN), timeout=10_000)
    try:
        for round_ in range(3):
            for language in ("zh_CN", "en"):
                _switch(window, qtbot, language)
                assert all(shiboken6.isValid(menu) for menu in window.menus.values())
                titles = _menu_titles(window)
                assert [t.split("(")[0] for t in titles] == MENU_TITLES[language], round_
                chat_title = window.panels.dock("chat").windowTitle()
                assert chat_title == ("聊天" if language == "zh_CN" else "Chat")
        _chat_follows_new_messages(qtbot, window)
    finally:
        i18n.install_translator("en")
        window.session.shutdown()


def _open_with_the_switcher(qtbot, window) -> None:
    switcher = window.quick_switcher
    with qtbot.waitSignal(switcher.results_shown, timeout=5000):
        window.actions_by_name["quick_switch"].trigger()
    with qtbot.waitSignal(switcher.results_shown, timeout=5000):
        QTest.keyClicks(switcher.query_edit, "espresso")
    QTest.keyClick(switcher.query_edit, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: bool(window.editor.current_id), timeout=5000)


def _chat_follows_new_messages(qtbot, window) -> None:
    body = window.chat_dock.body
    body.scroll_area.resize(300, 200)
    window.chat_dock.show()
    window.chat_dock.raise_()
    gc.collect()
    for number in range(30):  # taller than the area: the bar must move to the bottom
        body.messages.insertWidget(body.messages.count() - 1, QLabel(f"line {number}"))
    bar = body.scroll_area.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0 and bar.value() == bar.maximum(), timeout=3000)
