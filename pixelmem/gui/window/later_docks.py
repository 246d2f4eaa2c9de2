"""The docks the main window builds after its first paint: chat, inbox and map.

Their modules pull in httpx, the chat engine and the map's layout code, ~0.2 s of a 10k-vault
launch before the list could show. The window builds them once the scan is done (or at
first use, through its ``chat_dock`` / ``inbox`` / ``map_view`` … properties) and puts each
where the saved layout had it: ``restoreState`` keeps a place for a dock it does not know yet,
and ``restoreDockWidget`` fills it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow, QWidget

if TYPE_CHECKING:
    from pixelmem.gui.chat.pane import ChatPane
    from pixelmem.gui.map.map_view import MapView
    from pixelmem.gui.panels.inbox_view import InboxView
    from pixelmem.gui.window.main_window import MainWindow


# What build_later_docks imports (the window imports them on a worker first).
LATER_DOCK_MODULES = (
    "pixelmem.gui.chat.pane",
    "pixelmem.gui.panels.inbox_view",
    "pixelmem.gui.map.map_view",
)


class LaterDocks(NamedTuple):
    chat: ChatPane  # a QDockWidget itself
    inbox: InboxView
    inbox_dock: QDockWidget
    map_view: MapView
    map_dock: QDockWidget


def new_dock(window: QMainWindow, name: str, widget: QWidget) -> QDockWidget:
    """A closable, movable, floatable dock named ``name`` (the saved layout's key)."""
    dock = QDockWidget(window)
    dock.setObjectName(name)
    dock.setWidget(widget)
    dock.setFeatures(
        QDockWidget.DockWidgetFeature.DockWidgetClosable
        | QDockWidget.DockWidgetFeature.DockWidgetMovable
        | QDockWidget.DockWidgetFeature.DockWidgetFloatable
    )
    return dock


def build_later_docks(window: MainWindow) -> LaterDocks:
    """Build the three docks, connect them to ``window`` and place them; View-menu toggles."""
    from pixelmem.gui.chat.pane import ChatPane
    from pixelmem.gui.map.map_view import MapView
    from pixelmem.gui.panels.inbox_view import InboxView

    chat = ChatPane(window.engine, window.bus, window.settings, window, session=window.session)
    chat.setObjectName("chatDock")
    chat.open_memory_requested.connect(window.open_memory)
    chat.settings_requested.connect(window.show_settings)
    inbox = InboxView(window.session, window.bus, window)
    map_view = MapView(window.session, window)
    map_view.open_memory_requested.connect(window.open_memory)
    docks = LaterDocks(
        chat,
        inbox,
        new_dock(window, "inboxDock", inbox),
        map_view,
        new_dock(window, "mapDock", map_view),
    )
    # Where the saved layout had them; else the default: chat and map as tabs beside search,
    # the inbox beside the list.
    left, right = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
    for dock in (docks.chat, docks.inbox_dock, docks.map_dock):
        window.covered_tabs.watch(dock)  # Tab skips them while another tab covers them
    for dock, area, beside in (
        (docks.chat, right, window.search_dock),
        (docks.inbox_dock, left, window.list_dock),
        (docks.map_dock, right, window.search_dock),
    ):
        if not window.restoreDockWidget(dock):
            window.addDockWidget(area, dock)
            window.tabifyDockWidget(beside, dock)
            beside.raise_()
        window.menus["view"].addAction(dock.toggleViewAction())  # type: ignore[attr-defined]
    return docks
