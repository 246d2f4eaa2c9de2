"""The window's size and dock layout: the first layout, and the one saved in ui.ini."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow

from pixelmem.gui.window import screen_fit
from pixelmem.gui.window.layout_policy import CoveredTabs, DockShares
from pixelmem.gui.window.recent_vaults import ui_state

FIRST_SIZE = (screen_fit.FIRST_SIZE.width(), screen_fit.FIRST_SIZE.height())
GEOMETRY_KEY, STATE_KEY = "main/geometry", "main/state"


def first_sizes(window: QMainWindow) -> None:
    """The first layout's sizes: the list and search columns, search above related."""
    docks = {dock.objectName(): dock for dock in window.findChildren(QDockWidget)}
    memories, search, related = docks["memoriesDock"], docks["searchDock"], docks["relatedDock"]
    window.resizeDocks([memories, search], [330, 400], Qt.Orientation.Horizontal)
    window.resizeDocks([search, related], [560, 260], Qt.Orientation.Vertical)


def restore_layout(
    window: QMainWindow, covered: CoveredTabs, tabs_when_short: Sequence[QDockWidget]
) -> DockShares:
    """Put the window and its docks back as saved, on a screen it fits
    (:mod:`~pixelmem.gui.window.screen_fit`); the policy that keeps the docks' shares
    (:class:`~pixelmem.gui.window.layout_policy.DockShares`) from now on."""
    state = ui_state()
    areas = screen_fit.available_areas()
    geometry = state.value(GEOMETRY_KEY)
    if geometry is not None:
        window.restoreGeometry(geometry)
    elif areas:
        window.setGeometry(screen_fit.first_geometry(areas[0]))
    else:
        window.resize(*FIRST_SIZE)
    layout = state.value(STATE_KEY)
    if layout is not None:
        window.restoreState(layout)
    screen_fit.fit_on_screen(window, areas)
    screen_fit.ScreenFit(window, areas)
    room = screen_fit.screen_for(window.frameGeometry(), areas) if areas else None
    target = room.size() - screen_fit.frame_extra(window) if room is not None else None
    return DockShares(
        window,
        covered,
        first_layout=layout is None,
        tabs_when_short=tuple(tabs_when_short),
        target=target,
    )


def save_layout(window: QMainWindow) -> None:
    """Keep the window's size and dock layout for the next start."""
    state = ui_state()
    state.setValue(GEOMETRY_KEY, window.saveGeometry())
    state.setValue(STATE_KEY, window.saveState())
