"""Menus and keyboard shortcuts of the main window, declared once as a table."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PySide6.QtGui import QAction, QKeySequence

if TYPE_CHECKING:
    from pixelmem.gui.main_window import MainWindow

Key = QKeySequence.StandardKey


def _tr(text: str) -> str:
    return QCoreApplication.translate("menus", text)


# (menu, action name, label, shortcut, method of MainWindow); None = separator.
# QT_TRANSLATE_NOOP only marks labels for lupdate; _tr translates them when shown.
MENU_TABLE: list[tuple[str, str, str, object, str] | tuple[str, None]] = [
    ("file", "new", QT_TRANSLATE_NOOP("menus", "&New Memory"), Key.New, "new_memory"),
    ("file", "import", QT_TRANSLATE_NOOP("menus", "&Import Files…"), "Ctrl+I", "import_files"),
    (
        "file",
        "import_folder",
        QT_TRANSLATE_NOOP("menus", "Import &Folder…"),
        "Ctrl+Shift+I",
        "import_folder",
    ),
    ("file", "import_chats", QT_TRANSLATE_NOOP("menus", "Import &Chats…"), None, "import_chats"),
    ("file", None),
    # Ctrl+O is the quick switcher's, as in Obsidian.
    (
        "file",
        "open_vault",
        QT_TRANSLATE_NOOP("menus", "&Open Vault…"),
        "Ctrl+Shift+O",
        "choose_vault",
    ),
    ("file", "settings", QT_TRANSLATE_NOOP("menus", "&Settings…"), "Ctrl+,", "show_settings"),
    ("file", None),
    ("file", "quit", QT_TRANSLATE_NOOP("menus", "&Quit"), Key.Quit, "close"),
    ("edit", "save", QT_TRANSLATE_NOOP("menus", "&Save"), Key.Save, "save_memory"),
    ("edit", "delete", QT_TRANSLATE_NOOP("menus", "Move to &Trash"), "Ctrl+Del", "delete_memory"),
    (
        "edit",
        "undo_delete",
        QT_TRANSLATE_NOOP("menus", "&Undo Delete"),
        Key.Undo,  # text fields keep Ctrl+Z while they have typing to undo (undo_delete.py)
        "undo_delete",
    ),
    ("edit", None),
    ("edit", "search", QT_TRANSLATE_NOOP("menus", "&Find in Memories"), "Ctrl+K", "focus_search"),
    (
        "edit",
        "quick_switch",
        QT_TRANSLATE_NOOP("menus", "&Quick Switcher…"),
        ["Ctrl+P", "Ctrl+O"],
        "show_quick_switcher",
    ),
    ("edit", None),
    ("edit", "reindex", QT_TRANSLATE_NOOP("menus", "&Rebuild Index"), "", "reindex"),
    ("edit", "skipped", QT_TRANSLATE_NOOP("menus", "S&kipped Files…"), "", "show_skipped"),
    ("view", "focus_list", QT_TRANSLATE_NOOP("menus", "Go to &List"), "Ctrl+1", "focus_list"),
    ("view", "focus_editor", QT_TRANSLATE_NOOP("menus", "Go to &Editor"), "Ctrl+2", "focus_editor"),
    ("view", "focus_search", QT_TRANSLATE_NOOP("menus", "Go to &Search"), "Ctrl+3", "focus_search"),
    ("view", "focus_chat", QT_TRANSLATE_NOOP("menus", "Focus &Chat"), "Ctrl+4", "focus_chat"),
    ("view", "show_map", QT_TRANSLATE_NOOP("menus", "Semantic &Map"), "Ctrl+5", "show_map"),
    ("view", None),
    ("help", "about", QT_TRANSLATE_NOOP("menus", "&About pixelmem"), "", "show_about"),
]
MENU_TITLES = {
    "file": QT_TRANSLATE_NOOP("menus", "&File"),
    "edit": QT_TRANSLATE_NOOP("menus", "&Edit"),
    "view": QT_TRANSLATE_NOOP("menus", "&View"),
    "help": QT_TRANSLATE_NOOP("menus", "&Help"),
}


def build_menus(window: MainWindow, *, retranslate_only: bool = False) -> dict[str, QAction]:
    """Create the menu bar (or re-label it after a language switch)."""
    if retranslate_only:
        _relabel(window)
        return window.actions_by_name
    bar = window.menuBar()
    menus = {key: bar.addMenu("") for key in ("file", "edit", "view", "help")}
    actions: dict[str, QAction] = {}
    for row in MENU_TABLE:
        menu = menus[row[0]]
        if row[1] is None:
            menu.addSeparator()
            continue
        _menu, name, _label, shortcut, method = row  # type: ignore[misc]
        action = QAction(window)
        if isinstance(shortcut, list):  # several keys for one action
            action.setShortcuts([QKeySequence(key) for key in shortcut])
        elif shortcut:
            action.setShortcut(QKeySequence(shortcut))  # type: ignore[arg-type]
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.triggered.connect(_call(window, method))
        menu.addAction(action)
        actions[name] = action
    for dock in window.toggle_docks():
        menus["view"].addAction(dock.toggleViewAction())
    window.menus = menus  # type: ignore[attr-defined]
    window.actions_by_name = actions
    _relabel(window)
    return actions


def _relabel(window: MainWindow) -> None:
    for key, menu in window.menus.items():  # type: ignore[attr-defined]
        menu.setTitle(_tr(MENU_TITLES[key]))
    for row in MENU_TABLE:
        if row[1] is not None:
            window.actions_by_name[row[1]].setText(_tr(row[2]))  # type: ignore[misc]


def _call(window: MainWindow, method: str) -> Callable[[], None]:
    return lambda: getattr(window, method)()
