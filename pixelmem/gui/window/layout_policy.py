"""How the main window's docks behave in a small window and under the keyboard.

:class:`DockShares` keeps the docks' share of the width as the window is resized, and a
short window's first layout stacks Related (and Backlinks) as tabs beside Search instead of
below it.

Qt keeps the dock widgets of a tabbed area that are not the current tab *visible*, just
stacked below the current one, so Tab walks through the controls of the Chat, Map or Inbox
tab while the Search or Memories tab is shown: stops where nothing visible changes.
:class:`CoveredTabs` tracks the covered docks (``visibilityChanged``) and Tab visits only the
controls on screen, column by column (list, editor, right docks, status bar) rather than in
the order the views happened to be built.
"""

from __future__ import annotations

from collections.abc import Callable

import shiboken6
from PySide6.QtCore import QEvent, QObject, QSize, Qt, QTimer
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QMainWindow,
    QTabBar,
    QTabWidget,
    QWidget,
)

from pixelmem.gui.widgets.sized_dock import SizedDock


class CoveredTabs(QObject):
    """Knows which docks are covered by another tab (``visibilityChanged``), so that Tab
    skips their controls: see :meth:`focus_next`."""

    def __init__(self, window: QMainWindow) -> None:
        super().__init__(window)
        self._window = window
        self.covered: set[str] = set()
        for dock in window.findChildren(QDockWidget):
            self.watch(dock)

    def watch(self, dock: QDockWidget) -> None:
        """Track ``dock`` too (one built after the window: chat, inbox, map), before it is
        placed: placing it beside another tab is what says whether it is covered."""
        dock.visibilityChanged.connect(lambda shown, d=dock: self._seen(d, shown))

    def _seen(self, dock: QDockWidget, shown: bool) -> None:
        (self.covered.discard if shown else self.covered.add)(dock.objectName())
        if shiboken6.isValid(self._window):  # also emitted while the window is destroyed
            fit_tab_bars(self._window)  # docks were (re)arranged: a tab bar may be new

    def is_shown(self, widget: QWidget) -> bool:
        """Whether a person can see ``widget``: visible, and not in a covered dock tab."""
        if not widget.isVisible() or _is_empty_tab_bar(widget):
            return False
        parent: QWidget | None = widget
        while parent is not None:
            if isinstance(parent, QDockWidget) and parent.objectName() in self.covered:
                return False
            parent = parent.parentWidget()
        return True

    def focus_next(self, step: Callable[[bool], bool], forward: bool) -> bool:
        """Tab (``forward``) or Shift+Tab: the next of :meth:`tab_stops`; from a widget that
        is not one of them, Qt's own ``focusNextPrevChild`` (``step``), past covered tabs."""
        stops = self.tab_stops()
        at = _index_of(stops, QApplication.focusWidget())
        if at is None:
            return self._step_past_covered(step, forward)
        target = stops[(at + (1 if forward else -1)) % len(stops)]
        reason = Qt.FocusReason.TabFocusReason if forward else Qt.FocusReason.BacktabFocusReason
        target.setFocus(reason)
        return True

    def tab_stops(self) -> list[QWidget]:
        """The controls Tab visits, in reading order: the list column, the editor, the docks
        on the right, the status bar; within a column in Qt's focus chain order (the order
        the views were built in)."""
        window = self._window
        found: list[QWidget] = []
        widget = window.nextInFocusChain()
        while widget is not None and widget is not window and len(found) < 5000:
            if self._takes_tab(widget):
                found.append(widget)
            widget = widget.nextInFocusChain()
        return sorted(found, key=self._column)  # stable: keeps the chain order in a column

    def _takes_tab(self, widget: QWidget) -> bool:
        return (
            bool(widget.focusPolicy() & Qt.FocusPolicy.TabFocus)
            and widget.isEnabled()
            and widget.focusProxy() is None
            and widget.window() is self._window
            and self.is_shown(widget)
        )

    def _column(self, widget: QWidget) -> int:
        window = self._window
        centre = widget.mapTo(window, widget.rect().center())
        status = window.statusBar()
        if status.isVisible() and centre.y() >= status.y():
            return 3
        central = window.centralWidget()
        if central is None or not central.isVisible():
            return 1
        area = central.geometry()
        return 0 if centre.x() < area.left() else 1 if centre.x() <= area.right() else 2

    def _step_past_covered(self, step: Callable[[bool], bool], forward: bool) -> bool:
        start = QApplication.focusWidget()
        for _ in range(500):  # the focus chain is finite; never loop for ever
            if not step(forward):
                return False
            now = QApplication.focusWidget()
            if now is None or now is start or self.is_shown(now):
                return True
        return True


def fit_tab_bars(window: QMainWindow) -> None:
    """The dock tab bars elide their titles ("Backl…") before hiding tabs behind scroll
    arrows when a narrow window has more tabs than room (Search, Chat, Map, Related, …); the
    arrows come only when even the elided tabs do not fit, so a column of many tabs (the list
    with Inbox, Folders and Tags on an 800×600 screen) never makes the window wider than it."""
    for bar in window.findChildren(QTabBar, options=Qt.FindChildOption.FindDirectChildrenOnly):
        if bar.elideMode() != Qt.TextElideMode.ElideRight:
            bar.setElideMode(Qt.TextElideMode.ElideRight)


def _index_of(stops: list[QWidget], widget: QWidget | None) -> int | None:
    """Where ``widget`` (or the stop it belongs to: a spin box's line edit) is in ``stops``."""
    for index, stop in enumerate(stops):
        if widget is not None and (stop is widget or stop.isAncestorOf(widget)):
            return index
    return None


def _is_empty_tab_bar(widget: QWidget) -> bool:
    """A tab bar Qt keeps for a dock group that is gone: no titles, and drawn behind a dock."""
    return isinstance(widget, QTabBar) and not any(widget.tabText(i) for i in range(widget.count()))


# The first layout's shares of the window's width: the list, and search/chat/map/related.
LEFT_SHARE, RIGHT_SHARE = 0.26, 0.32
SHORT_WINDOW = 720  # px high: below this the first layout puts Related in a tab


class DockShares(QObject):
    """Docks keep their share of the width when the window is resized.

    Left alone, a narrower window takes its room from the docks first: at 800 px the search
    box shrank to 28 px while the editor kept 500. The first time the window is shown
    without a saved layout the docks get :data:`LEFT_SHARE` and :data:`RIGHT_SHARE`; a
    resize afterwards keeps whatever shares the person has set by dragging the separators.

    The shares are measured while the window's width stands still (a dock resized then is a
    separator dragged, or a dock that came or went: :class:`SizedDock`'s ``widened``) and
    given back after each resize (:meth:`window_resized`, from the window's ``resizeEvent``):
    by the time Qt delivers a resize, its layout has already taken the room from the docks.
    No event filter stays on the window: it would call Python for every event (each frame's
    repaint), and each call waits for Python's lock while a worker holds it.
    """

    def __init__(
        self,
        window: QMainWindow,
        covered: CoveredTabs,
        *,
        first_layout: bool,
        tabs_when_short: tuple[QDockWidget, ...] = (),
        target: QSize | None = None,
    ) -> None:
        super().__init__(window)
        self.window = window
        self._target = target  # the most the screen has room for
        self.covered = covered
        self._tabs_when_short = tabs_when_short
        self._first_layout = first_layout
        self.shares: dict[Qt.DockWidgetArea, float] = {}  # of the window's width, per side
        self._measured_at = -1  # the window width the shares were measured at
        self._due = False  # a resize's shares are due (one timer per burst of resizes)
        self._settling = False  # the layout of shares just given is not a person's doing
        self._measure_due = False  # a dock was widened: the shares are measured next turn
        self._followed: set[str] = set()  # the docks' names (one connection each)
        self.follow_docks()
        window.installEventFilter(self)  # until its first show: see eventFilter

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.window and event.type() == QEvent.Type.Show:
            self.window.removeEventFilter(self)
            if self._first_layout or self._docks_too_tall():
                self._stack_when_short()
            if self._first_layout:
                self._first_layout = False
                QTimer.singleShot(0, self, self._first_shares)  # once the layout placed the docks
            else:
                QTimer.singleShot(0, self, self._measure)  # the saved layout's, as placed
        return False

    def follow_docks(self) -> None:
        """Hear each :class:`SizedDock` of the window resized (docks made later too: called
        again when they come)."""
        for dock in self.window.findChildren(SizedDock):
            if dock.objectName() not in self._followed:
                self._followed.add(dock.objectName())
                dock.widened.connect(self._dock_widened)

    def window_resized(self, old: QSize, new: QSize) -> None:
        """The window's width changed (its ``resizeEvent``): the docks get their shares back
        once Qt's layout is done with the new size."""
        if not self.window.isVisible() or old.width() <= 0 or old.width() == new.width():
            return
        if self.shares and not self._due:
            self._due = True
            QTimer.singleShot(0, self, self._give_back)

    def _give_back(self) -> None:
        self._due = False
        self._measured_at = self.window.width()
        self._apply_shares()

    def _apply_shares(self) -> None:
        """The docks sized to :attr:`shares`; the layout that follows is not measured (a dock
        held at its minimum width in a narrow window would keep that share when it widens)."""
        self._settling = True
        width = self.window.width()
        self._apply({area: share * width for area, share in self.shares.items()})
        QTimer.singleShot(0, self, self._settled)  # after the layout request just posted

    def _settled(self) -> None:
        self._settling = False

    def _dock_widened(self) -> None:
        # The window's width stood still: a separator dragged, a dock shown, hidden or moved.
        # Measured once the layout pass that resized the docks is over (one pass resizes
        # several docks; measuring inside it added to the pass).
        if self._resting() and not self._measure_due:
            self._measure_due = True
            QTimer.singleShot(0, self, self._measure_if_resting)

    def _resting(self) -> bool:
        return not (self._due or self._settling) and self.window.width() == self._measured_at

    def _measure_if_resting(self) -> None:
        self._measure_due = False
        if self._resting():
            self._measure()

    def _measure(self) -> None:
        width = max(1, self.window.width())
        self._measured_at = width
        self.shares = {area: w / width for area, w in self._area_widths().items()}

    def _docks_too_tall(self) -> bool:
        """A layout saved on a taller screen: its docks above each other need more height
        than the screen has room for (the window would grow past the screen's bottom)."""
        room = self._target.height() if self._target is not None else self.window.height()
        return self.window.minimumSizeHint().height() > room

    def fit_docks(self) -> None:
        """After docks came (the chat, the map, built after the scan): if they make the window
        taller than its screen has room for, stack the right column and fit it again."""
        self.follow_docks()
        if self._docks_too_tall():
            self._stack_when_short()
            QTimer.singleShot(0, self, self._refit)

    def _refit(self) -> None:
        from pixelmem.gui.window.screen_fit import fit_on_screen

        fit_on_screen(self.window)

    def _stack_when_short(self) -> None:
        """A short window (800×600) cannot hold two docks above each other with the chat's
        input, buttons and banner in one of them: the others become tabs of the first."""
        if not self._tabs_when_short:
            return
        if self.window.height() >= SHORT_WINDOW and not self._docks_too_tall():
            return
        first, *others = self._tabs_when_short
        for other in others:
            self.window.tabifyDockWidget(first, other)
        first.raise_()
        # Five tabs do not fit under a 256 px dock: down its side they do, titles whole.
        self.window.setTabPosition(self.window.dockWidgetArea(first), QTabWidget.TabPosition.East)
        fit_tab_bars(self.window)

    def _first_shares(self) -> None:
        self._measured_at = self.window.width()
        self.shares = {LEFT: LEFT_SHARE, RIGHT: RIGHT_SHARE}
        self._apply_shares()

    def _docks_by_area(self) -> dict[Qt.DockWidgetArea, QDockWidget]:
        """One shown, docked widget per side (a tabbed or split area is sized as a whole)."""
        found: dict[Qt.DockWidgetArea, QDockWidget] = {}
        for dock in self.window.findChildren(QDockWidget):
            area = self.window.dockWidgetArea(dock)
            if area in (LEFT, RIGHT) and self.covered.is_shown(dock) and not dock.isFloating():
                found.setdefault(area, dock)
        return found

    def _area_widths(self) -> dict[Qt.DockWidgetArea, int]:
        return {area: dock.width() for area, dock in self._docks_by_area().items()}

    def _apply(self, widths: dict[Qt.DockWidgetArea, float]) -> None:
        docks = self._docks_by_area()
        chosen = [(docks[area], round(w)) for area, w in widths.items() if area in docks]
        if chosen:
            self.window.resizeDocks(
                [d for d, _ in chosen], [w for _, w in chosen], Qt.Orientation.Horizontal
            )


LEFT, RIGHT = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
