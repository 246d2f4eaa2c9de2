"""The window's dock panels, made from the registry (:mod:`pixelmem.gui.panels.registry`).

For every :class:`~pixelmem.gui.panels.registry.Panel`: a dock named ``<name>Dock`` in its first
place (a tab of another, below another, maybe closed) or where the saved layout had it, titled in
the current language, with its toggle in the View menu; the panel built at its stage with its
modules imported on a worker first (numpy, the search stack, httpx: 0.1-0.2 s each would freeze
the window just painted; building the widgets takes ~25 ms), or at once on its first use
(:meth:`PanelDocks.widget`, :meth:`PanelDocks.dock`, :meth:`PanelDocks.reveal`).

A stage's docks are made when the stage says: ``AFTER_PAINT`` ones with the window (an empty
widget until the panel comes, so ``restoreState`` places them at once), ``AFTER_SCAN`` ones when
built (``restoreState`` keeps a place for a dock it does not know yet; ``restoreDockWidget``
fills it).

On time, a stage is built one step per turn of the event loop (:meth:`PanelDocks.load`): its
``before_stage`` (the editor), then each panel, each a timer of its own. One panel takes 2-10 ms
on the GUI thread and the editor ~20 ms; a stage in one go took 20-50 ms, over the one frame
(16 ms) the window may be late while a vault indexes (issue 29). A first use builds the rest of
its stage at once, as before.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMenu, QWidget

from pixelmem.core import step_aside
from pixelmem.gui import workers
from pixelmem.gui.panels.host import PanelHost
from pixelmem.gui.panels.registry import PANELS, Panel, Stage, check_panels, panel_named
from pixelmem.gui.widgets.sized_dock import SizedDock
from pixelmem.gui.window.layout_policy import SHORT_WINDOW, CoveredTabs, fit_tab_bars

BELOW_SHARE = 200  # px: with twice that above it, a dock placed below takes a third
# How long background work steps aside for each part built in turns: the part (2-20 ms) and the
# polish, layout and paint of what it made, which Qt runs in the turns after it.
BUILD_HOLD_S = 0.06


def new_dock(window: QMainWindow, name: str, widget: QWidget) -> QDockWidget:
    """A closable, movable, floatable dock named ``name`` (the saved layout's key)."""
    dock = SizedDock(window)
    dock.setObjectName(name)
    dock.setWidget(widget)
    dock.setFeatures(
        QDockWidget.DockWidgetFeature.DockWidgetClosable
        | QDockWidget.DockWidgetFeature.DockWidgetMovable
        | QDockWidget.DockWidgetFeature.DockWidgetFloatable
    )
    return dock


class PanelDocks(QObject):
    """The registered panels of one window. ``stage_built(stage)`` once a stage's panels are
    built and placed; ``before_stage(stage)`` runs first (the window builds the editor there):
    it yields between its parts, each a turn of its own when the stage is built in turns."""

    stage_built = Signal(object)  # Stage

    def __init__(
        self,
        window: QMainWindow,
        host: PanelHost,
        *,
        covered: CoveredTabs,
        view_menu: QMenu,
        before_stage: Callable[[Stage], Iterable[None]] = lambda _stage: (),
        panels: Sequence[Panel] = PANELS,
    ) -> None:
        super().__init__(window)
        check_panels(tuple(panels), fixed_docks=_fixed_docks(window))
        self._window = window
        self._host = host
        self._covered = covered
        self._view_menu = view_menu
        self._before_stage = before_stage
        self.panels = tuple(panels)
        self._docks: dict[str, QDockWidget] = {}
        self._widgets: dict[str, QWidget] = {}
        self._loading: set[Stage] = set()
        self._building: set[Stage] = set()
        self._preparing: dict[Stage, Iterator[None]] = {}  # a before_stage under way
        self._prepared: set[Stage] = set()  # its before_stage has run
        self._built: set[Stage] = set()
        for panel in self.of_stage(Stage.AFTER_PAINT):
            self._add(panel, new_dock(window, panel.dock_name, QWidget()), restore=False)

    # -- reading ---------------------------------------------------------------------------

    def of_stage(self, stage: Stage) -> list[Panel]:
        return [panel for panel in self.panels if panel.stage is stage]

    def is_built(self, stage: Stage) -> bool:
        return stage in self._built

    def dock(self, name: str) -> QDockWidget:
        """The panel's dock; a dock made when its panel is built is built now if need be."""
        if name not in self._docks:
            self.build(self._panel(name).stage)
        return self._docks[name]

    def widget(self, name: str) -> Any:
        """The panel (built now, with its stage, if it is not there yet)."""
        if name not in self._widgets:
            self.build(self._panel(name).stage)
        return self._widgets[name]

    def made_docks(self) -> list[QDockWidget]:
        """The docks made so far, in the registry's order."""
        return [self._docks[p.name] for p in self.panels if p.name in self._docks]

    # -- building --------------------------------------------------------------------------

    def load_soon(self, stage: Stage, msecs: int = 0, *, also: Sequence[str] = ()) -> None:
        """:meth:`load` from the event loop, in ``msecs``."""
        QTimer.singleShot(msecs, self, lambda: self.load(stage, also=also))

    def load(self, stage: Stage, *, also: Sequence[str] = ()) -> None:
        """Import the stage's modules (and ``also``) on a worker, then build it here. An import
        that fails is raised again by :meth:`build`, where the error handler reports it."""
        if stage in self._built or stage in self._loading:
            return
        self._loading.add(stage)
        modules = [*also]
        for panel in self.of_stage(stage):
            modules += [panel.module, panel.factory_path[0]]
        modules = list(dict.fromkeys(modules))
        workers.import_then(modules, lambda: self._build_in_turns(stage), context=self)

    def build(self, stage: Stage) -> None:
        """Build every panel of ``stage`` not built yet, now (once)."""
        if stage in self._built or stage in self._building:
            return
        self._building.add(stage)
        try:
            self._prepare(stage)
            for panel in self.of_stage(stage):
                self._build(panel)
        finally:
            self._building.discard(stage)
        self._finish(stage)

    def _build_in_turns(self, stage: Stage) -> None:
        """Build ``stage`` one step per event-loop turn: the window paints and answers between
        them. A first use meanwhile (:meth:`build`) builds the rest at once and ends this."""
        steps: list[Callable[[], None]] = [partial(self._build, p) for p in self.of_stage(stage)]
        steps.append(lambda: self._finish(stage))

        def next_step() -> None:
            if stage in self._built or stage in self._building:
                return  # built at once by a first use
            step_aside.window_building(BUILD_HOLD_S)  # this part and its first layout
            if not self._prepare_part(stage):
                steps.pop(0)()
            if steps:
                QTimer.singleShot(0, self, next_step)

        next_step()

    def _prepare(self, stage: Stage) -> None:
        """The stage's ``before_stage``, all that is left of it."""
        while self._prepare_part(stage):
            pass

    def _prepare_part(self, stage: Stage) -> bool:
        """Run the next part of the stage's ``before_stage``; False when none was left."""
        if stage in self._prepared:
            return False
        parts = self._preparing.setdefault(stage, iter(self._before_stage(stage)))
        if next(parts, StopIteration) is StopIteration:  # that was its last part
            self._prepared.add(stage)
            del self._preparing[stage]
        return True

    def _finish(self, stage: Stage) -> None:
        if stage in self._built:
            return
        self._built.add(stage)
        fit_tab_bars(self._window)  # their tabs may have made a new tab bar
        self.stage_built.emit(stage)

    def _build(self, panel: Panel) -> None:
        if panel.name in self._widgets:
            return
        module, function = panel.factory_path
        factory: Callable[[PanelHost], QWidget] = getattr(importlib.import_module(module), function)
        widget = factory(self._host)
        self._widgets[panel.name] = widget
        if panel.name in self._docks:  # made with the window: the panel takes the empty one's place
            dock = self._docks[panel.name]
            empty = dock.widget()
            dock.setWidget(widget)
            if empty is not None:
                empty.deleteLater()
            return
        if isinstance(widget, QDockWidget):  # a panel that is a dock itself (the chat)
            widget.setObjectName(panel.dock_name)
            self._add(panel, widget, restore=True)
        else:
            self._add(panel, new_dock(self._window, panel.dock_name, widget), restore=True)

    def _add(self, panel: Panel, dock: QDockWidget, *, restore: bool) -> None:
        self._docks[panel.name] = dock
        # Titled before it is placed: a placed dock's new title relays out the window's dock
        # areas and their tab bars (19 ms on the GUI thread with the window's docks open).
        self._retitle(panel, dock)
        self._covered.watch(dock)  # before placing it: placing says whether it is covered
        if not (restore and self._window.restoreDockWidget(dock)):
            self._place(panel, dock)
        self._view_menu.addAction(dock.toggleViewAction())

    def _place(self, panel: Panel, dock: QDockWidget) -> None:
        """The panel's first place: a tab behind another dock, or below the docks of its area
        (``below``; not splitDockWidget, which makes it one more tab when its neighbour is in
        a tab group, as the memory list is with the inbox). In a window lower than
        ``SHORT_WINDOW`` a ``below`` panel is a tab beside that neighbour."""
        window = self._window
        window.addDockWidget(panel.area, dock, Qt.Orientation.Vertical)  # last in its area
        if panel.tab_of:
            beside = self._neighbour(panel.tab_of)
            window.tabifyDockWidget(beside, dock)
            beside.raise_()
        elif panel.below and window.height() < SHORT_WINDOW:
            # No room below in a short window (800×600): the two docks' least heights would
            # make the window taller than the screen. A tab beside the neighbour instead.
            beside = self._neighbour(panel.below)
            window.tabifyDockWidget(beside, dock)
            beside.raise_()
        elif panel.below:
            self._third_when_shown(self._neighbour(panel.below), dock)
        if panel.hidden:
            dock.hide()

    def _third_when_shown(self, above: QDockWidget, dock: QDockWidget) -> None:
        """The first time ``dock`` shows (placed below ``above``), it takes a third of their
        height: the dock above (the memory list) keeps the most room. A hidden dock cannot be
        sized, and Qt's own share follows the docks' minimum heights, not their use."""
        window, vertical = self._window, Qt.Orientation.Vertical

        def share(shown: bool) -> None:
            if shown:
                dock.visibilityChanged.disconnect(share)
                sizes = [2 * BELOW_SHARE, BELOW_SHARE]
                QTimer.singleShot(
                    0, dock, lambda: window.resizeDocks([above, dock], sizes, vertical)
                )

        dock.visibilityChanged.connect(share)

    def _neighbour(self, name: str) -> QDockWidget:
        if name in self._docks:
            return self._docks[name]
        dock = self._window.findChild(QDockWidget, f"{name}Dock")
        assert dock is not None, name  # check_panels made sure
        return dock

    # -- using -----------------------------------------------------------------------------

    def reveal(self, name: str) -> None:
        """Show the panel's dock on top of its tabs and put the keyboard in the panel."""
        panel, widget = self._panel(name), self.widget(name)
        dock = self.dock(name)
        dock.show()
        dock.raise_()
        getattr(widget, panel.goto.focus if panel.goto else "setFocus")()

    def retranslate(self) -> None:
        for panel in self.panels:
            if panel.name in self._docks:
                self._retitle(panel, self._docks[panel.name])

    def _retitle(self, panel: Panel, dock: QDockWidget) -> None:
        dock.setWindowTitle(QCoreApplication.translate("MainWindow", panel.title))

    def _panel(self, name: str) -> Panel:
        return panel_named(name, self.panels)


def _fixed_docks(window: QMainWindow) -> tuple[str, ...]:
    """The window's own docks (the memory list) a panel may be placed beside."""
    names = (dock.objectName() for dock in window.findChildren(QDockWidget))
    return tuple(name.removesuffix("Dock") for name in names if name.endswith("Dock"))
