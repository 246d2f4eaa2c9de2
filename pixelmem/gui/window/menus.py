"""Menus and keyboard shortcuts of the main window, declared once as a table.

Each :class:`Entry` names the command it runs (a method of
:class:`~pixelmem.gui.window.commands.WindowCommands`); the View menu's "go to" entries of the
dock panels come from their registrations (:mod:`pixelmem.gui.panels.registry`), where
:data:`PANEL_ENTRIES` stands. Labels are marked with ``QT_TRANSLATE_NOOP`` for lupdate and
translated when shown, again after a language switch (:func:`relabel`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu

from pixelmem.gui.panels.registry import Panel

Key = QKeySequence.StandardKey
Shortcut = Key | str | tuple[str, ...]  # several keys for one action: a tuple


def _label(text: object) -> str:
    return str(text)


@dataclass(frozen=True)
class Entry:
    menu: str
    name: str  # the action's key in ``actions_by_name``
    label: str
    shortcut: Shortcut
    command: str  # the WindowCommands method it runs


@dataclass(frozen=True)
class Separator:
    menu: str


PANEL_ENTRIES = Separator("view")  # where the panels' "go to" entries go (then a separator)

MENU_TITLES = {
    "file": _label(QT_TRANSLATE_NOOP("menus", "&File")),
    "edit": _label(QT_TRANSLATE_NOOP("menus", "&Edit")),
    "view": _label(QT_TRANSLATE_NOOP("menus", "&View")),
    "help": _label(QT_TRANSLATE_NOOP("menus", "&Help")),
}

MENU_TABLE: tuple[Entry | Separator, ...] = (
    Entry("file", "new", _label(QT_TRANSLATE_NOOP("menus", "&New Memory")), Key.New, "new_memory"),
    Entry(
        "file",
        "import",
        _label(QT_TRANSLATE_NOOP("menus", "&Import Files…")),
        "Ctrl+I",
        "import_files",
    ),
    Entry(
        "file",
        "import_folder",
        _label(QT_TRANSLATE_NOOP("menus", "Import &Folder…")),
        "Ctrl+Shift+I",
        "import_folder",
    ),
    Entry(
        "file",
        "import_chats",
        _label(QT_TRANSLATE_NOOP("menus", "Import &Chats…")),
        "",
        "import_chats",
    ),
    Separator("file"),
    # Ctrl+O is the quick switcher's, as in Obsidian.
    Entry(
        "file",
        "open_vault",
        _label(QT_TRANSLATE_NOOP("menus", "&Open Vault…")),
        "Ctrl+Shift+O",
        "choose_vault",
    ),
    Entry(
        "file",
        "settings",
        _label(QT_TRANSLATE_NOOP("menus", "&Settings…")),
        "Ctrl+,",
        "show_settings",
    ),
    Separator("file"),
    Entry("file", "quit", _label(QT_TRANSLATE_NOOP("menus", "&Quit")), Key.Quit, "quit"),
    Entry("edit", "save", _label(QT_TRANSLATE_NOOP("menus", "&Save")), Key.Save, "save_memory"),
    Entry(
        "edit",
        "delete",
        _label(QT_TRANSLATE_NOOP("menus", "Move to &Trash")),
        "Ctrl+Del",
        "delete_memory",
    ),
    Entry(
        "edit",
        "undo_delete",
        _label(QT_TRANSLATE_NOOP("menus", "&Undo Delete")),
        Key.Undo,  # text fields keep Ctrl+Z while they have typing to undo (undo_delete.py)
        "undo_delete",
    ),
    Separator("edit"),
    Entry(
        "edit",
        "search",
        _label(QT_TRANSLATE_NOOP("menus", "&Find in Memories")),
        "Ctrl+K",
        "focus_search",
    ),
    Entry(
        "edit",
        "quick_switch",
        _label(QT_TRANSLATE_NOOP("menus", "&Quick Switcher…")),
        ("Ctrl+P", "Ctrl+O"),
        "show_quick_switcher",
    ),
    Separator("edit"),
    Entry("edit", "reindex", _label(QT_TRANSLATE_NOOP("menus", "&Rebuild Index")), "", "reindex"),
    Entry(
        "edit", "skipped", _label(QT_TRANSLATE_NOOP("menus", "S&kipped Files…")), "", "show_skipped"
    ),
    Entry(
        "view",
        "focus_list",
        _label(QT_TRANSLATE_NOOP("menus", "Go to &List")),
        "Ctrl+1",
        "focus_list",
    ),
    Entry(
        "view",
        "focus_editor",
        _label(QT_TRANSLATE_NOOP("menus", "Go to &Editor")),
        "Ctrl+2",
        "focus_editor",
    ),
    PANEL_ENTRIES,
    Entry("help", "about", _label(QT_TRANSLATE_NOOP("menus", "&About pixelmem")), "", "show_about"),
)


def build_menus(
    window: QMainWindow,
    commands: QObject,
    panels: Sequence[Panel],
    reveal: Callable[[str], None],
) -> tuple[dict[str, QMenu], dict[str, QAction]]:
    """The menu bar: the table's entries run ``commands``' methods; a panel's "go to" entry
    runs its command, else ``reveal(panel name)``. Returns (menus, actions by name)."""
    bar = window.menuBar()
    # Menus made here, not by ``bar.addMenu(title)``: a wrapper of a menu Qt made goes stale
    # when Python drops the bar's wrapper, and the next relabel or View entry raised
    # "QMenu already deleted" (issue 28).
    menus = {key: QMenu(window) for key in MENU_TITLES}
    for menu in menus.values():
        bar.addMenu(menu)
    actions: dict[str, QAction] = {}
    for row in MENU_TABLE:
        menu = menus[row.menu]
        if row is PANEL_ENTRIES:
            for entry, run in _panel_entries(panels, commands, reveal):
                menu.addAction(_action(window, entry, run, actions))
        if isinstance(row, Separator):
            menu.addSeparator()
        else:
            menu.addAction(_action(window, row, getattr(commands, row.command), actions))
    relabel(menus, actions, panels)
    return menus, actions


def _panel_entries(
    panels: Sequence[Panel], commands: QObject, reveal: Callable[[str], None]
) -> list[tuple[Entry, Callable[[], None]]]:
    found = []
    for panel in panels:
        goto = panel.goto
        if goto is None:
            continue
        entry = Entry("view", goto.action, goto.label, goto.shortcut, goto.command)
        run = getattr(commands, goto.command) if goto.command else _revealer(reveal, panel.name)
        found.append((entry, run))
    return found


def _revealer(reveal: Callable[[str], None], name: str) -> Callable[[], None]:
    return lambda: reveal(name)


def _action(
    window: QMainWindow, entry: Entry, run: Callable[[], object], actions: dict[str, QAction]
) -> QAction:
    action = QAction(window)
    shortcut = entry.shortcut
    if isinstance(shortcut, tuple):
        action.setShortcuts([QKeySequence(key) for key in shortcut])
    elif shortcut:
        action.setShortcut(QKeySequence(shortcut))
    action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
    action.triggered.connect(lambda _checked=False: run())
    actions[entry.name] = action
    return action


def relabel(menus: dict[str, QMenu], actions: dict[str, QAction], panels: Sequence[Panel]) -> None:
    """Label every menu and action in the current language."""
    for key, menu in menus.items():
        menu.setTitle(_tr(MENU_TITLES[key]))
    labels = {row.name: row.label for row in MENU_TABLE if isinstance(row, Entry)}
    labels |= {p.goto.action: p.goto.label for p in panels if p.goto is not None}
    for name, label in labels.items():
        actions[name].setText(_tr(label))


def _tr(text: str) -> str:
    return QCoreApplication.translate("menus", text)
