"""Every dock panel of the main window, declared once: a new panel is one file and one entry here.

A :class:`Panel` says what the panel is called (its dock's ``objectName``, the key its place is
saved under), which module holds it and which function builds it, where its dock goes the first
time, when it is built and which shortcut goes to it. The window
(:class:`~pixelmem.gui.window.panel_docks.PanelDocks`) does the rest for every entry: the dock,
its place (the saved layout's, else the default), its View-menu toggle and "go to" action, its
title in the current language, building it on time with its module imported on a worker first.

Entries name modules as strings and import nothing: a panel's module (numpy, httpx, the search
stack…) must not load before the window's first paint, nor this table pull it in. The build
function receives a :class:`~pixelmem.gui.panels.host.PanelHost` (the window) and returns the
panel's widget, connected to what it needs (the bus, ``host.memory_opened``, ``open_memory``).
The recipe, with the tag pane as the example, is in ``docs/ARCHITECTURE.md (The GUI)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt

LEFT = Qt.DockWidgetArea.LeftDockWidgetArea
RIGHT = Qt.DockWidgetArea.RightDockWidgetArea


def _title(text: object) -> str:
    """QT_TRANSLATE_NOOP marks a title for lupdate; the dock shows its translation."""
    return str(text)


class Stage(Enum):
    """When a panel is built (and at its first use before that, whatever the stage)."""

    # Right after the memory list's first paint: the launch's second step. The dock is in the
    # window from the start, holding an empty widget, so the saved layout is restored at once
    # and nothing moves when the panel arrives.
    AFTER_PAINT = "after paint"
    # Once the vault is scanned (its import would share the GIL with the scan): the dock is
    # made then and goes where the saved layout had it (``restoreDockWidget``).
    AFTER_SCAN = "after scan"


@dataclass(frozen=True)
class GoTo:
    """The View-menu action that shows a panel and puts the keyboard in it."""

    action: str  # its name in ``window.actions_by_name``
    label: str  # QT_TRANSLATE_NOOP("menus", …): translated in the menus' context
    shortcut: str
    focus: str = "setFocus"  # the panel's method that takes the keyboard
    command: str = ""  # a window command to run instead (the chat takes the whole window)


@dataclass(frozen=True)
class Panel:
    """One dock panel. ``factory`` is ``module:function`` or a function of ``module``."""

    name: str  # its dock is ``<name>Dock``: the saved layout's key, never renamed
    title: str  # QT_TRANSLATE_NOOP("MainWindow", …): the dock titles are the window's
    module: str  # imported on a worker before the panel is built
    area: Qt.DockWidgetArea
    stage: Stage = Stage.AFTER_SCAN
    factory: str = "build_panel"  # (host: PanelHost) -> QWidget; a QDockWidget is its own dock
    tab_of: str = ""  # first place: a tab behind this panel's dock (it stays on top)
    # first place: below this panel's dock (and below every dock placed in the area before,
    # as the area stacks them in the registry's order)
    below: str = ""
    hidden: bool = False  # first place: closed until the View menu (or its shortcut) opens it
    goto: GoTo | None = None

    @property
    def dock_name(self) -> str:
        return f"{self.name}Dock"

    @property
    def factory_path(self) -> tuple[str, str]:
        """(module, function) of the build function."""
        module, _, function = self.factory.rpartition(":")
        return module or self.module, function


BUILTIN = "pixelmem.gui.panels.builtin"

# The window's panels in the order their View-menu entries appear. The memory list is not one
# of them: it is the window's first paint, built with it (window.main_window).
PANELS: tuple[Panel, ...] = (
    Panel(
        "search",
        _title(QT_TRANSLATE_NOOP("MainWindow", "Search")),
        "pixelmem.gui.panels.search_panel",
        RIGHT,
        Stage.AFTER_PAINT,
        factory=f"{BUILTIN}:search",
        goto=GoTo(
            "focus_search",
            _title(QT_TRANSLATE_NOOP("menus", "Go to &Search")),
            "Ctrl+3",
            "focus_search",
        ),
    ),
    Panel(
        "related",
        _title(QT_TRANSLATE_NOOP("MainWindow", "Related")),
        "pixelmem.gui.panels.related_panel",
        RIGHT,
        Stage.AFTER_PAINT,
        factory=f"{BUILTIN}:related",
        below="search",
    ),
    Panel(
        "backlinks",
        _title(QT_TRANSLATE_NOOP("MainWindow", "Backlinks")),
        "pixelmem.gui.panels.backlinks_panel",
        RIGHT,
        Stage.AFTER_PAINT,
        factory=f"{BUILTIN}:backlinks",
        tab_of="related",
    ),
    Panel(
        "chat",
        _title(QT_TRANSLATE_NOOP("MainWindow", "Chat")),
        "pixelmem.gui.chat.pane",
        RIGHT,
        factory=f"{BUILTIN}:chat",
        tab_of="search",
        goto=GoTo(
            "focus_chat",
            _title(QT_TRANSLATE_NOOP("menus", "Focus &Chat")),
            "Ctrl+4",
            command="focus_chat",
        ),
    ),
    Panel(
        "inbox",
        _title(QT_TRANSLATE_NOOP("MainWindow", "Inbox")),
        "pixelmem.gui.panels.inbox_view",
        LEFT,
        factory=f"{BUILTIN}:inbox",
        tab_of="memories",
    ),
    Panel(
        "map",
        _title(QT_TRANSLATE_NOOP("MainWindow", "Map")),
        "pixelmem.gui.map.map_view",
        RIGHT,
        factory=f"{BUILTIN}:map_pane",
        tab_of="search",
        goto=GoTo(
            "show_map", _title(QT_TRANSLATE_NOOP("menus", "Semantic &Map")), "Ctrl+5", "focus_map"
        ),
    ),
    Panel(
        "tags",
        _title(QT_TRANSLATE_NOOP("MainWindow", "Tags")),
        "pixelmem.gui.panels.tag_pane",
        LEFT,
        below="memories",
        hidden=True,
        goto=GoTo("show_tags", _title(QT_TRANSLATE_NOOP("menus", "&Tags")), "Ctrl+6"),
    ),
    Panel(
        "folders",
        _title(QT_TRANSLATE_NOOP("MainWindow", "Folders")),
        "pixelmem.gui.panels.folder_tree",
        LEFT,
        below="memories",
        hidden=True,
        goto=GoTo("show_folders", _title(QT_TRANSLATE_NOOP("menus", "F&olders")), "Ctrl+7"),
    ),
)


def panel_named(name: str, panels: Sequence[Panel] = PANELS) -> Panel:
    for panel in panels:
        if panel.name == name:
            return panel
    raise KeyError(f"no panel is called {name!r}")


def check_panels(panels: tuple[Panel, ...], *, fixed_docks: tuple[str, ...] = ()) -> None:
    """Raise ValueError when an entry cannot work: a name used twice, a first place next to a
    dock that does not exist yet when this one is placed, a shortcut or action name taken."""
    known = set(fixed_docks)
    actions: set[str] = set()
    shortcuts: set[str] = set()
    stages = list(Stage)
    for panel in sorted(panels, key=lambda p: stages.index(p.stage)):  # the order docks are made
        if panel.name in known:
            raise ValueError(f"two docks are called {panel.name!r}")
        for neighbour in (panel.tab_of, panel.below):
            if neighbour and neighbour not in known:
                raise ValueError(f"{panel.name!r} is placed next to {neighbour!r}, not made yet")
        if panel.goto is not None:
            if panel.goto.action in actions or panel.goto.shortcut in shortcuts:
                raise ValueError(f"{panel.name!r}: its go-to action or shortcut is taken")
            actions.add(panel.goto.action)
            shortcuts.add(panel.goto.shortcut)
        known.add(panel.name)
