"""The main window: the memory list | the editor | the dock panels, a status bar, menus.

It puts its parts together and owns no logic beyond the launch order: every engine call is in
:mod:`~pixelmem.gui.session`, every view refreshes itself from the bus, the menus' commands are
in :mod:`.commands`, opening memories in :mod:`.navigation`, the dock panels are the
registry's (:mod:`pixelmem.gui.panels.registry`, made by :mod:`.panel_docks`).

The launch shows the window with the memory list filled from the scan cache first (the only
view built with the window); right after that first paint, the editor (:mod:`.main_views`) and
the ``AFTER_PAINT`` panels; once the scan is done, the ``AFTER_SCAN`` ones. Each has its modules
imported on a worker first, and any of them is built on the spot when used before its time (a
shortcut pressed early, a saved layout that shows it).
"""

from __future__ import annotations

import gc
import logging
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

import shiboken6
from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QResizeEvent
from PySide6.QtWidgets import QDockWidget, QMainWindow, QWidget

from pixelmem.core import step_aside
from pixelmem.core.index.engine import Engine
from pixelmem.core.settings import Settings
from pixelmem.gui import workers
from pixelmem.gui.bus import MemoryBus
from pixelmem.gui.i18n.retranslate import is_language_change, retranslate_tree
from pixelmem.gui.memory_list.memory_list import MemoryListPanel
from pixelmem.gui.memory_list.memory_list_model import MemoryFilterProxy, MemoryListModel
from pixelmem.gui.memory_list.timeline_strip import TimelineStrip, above_list
from pixelmem.gui.panels.registry import PANELS, RIGHT, Panel, Stage
from pixelmem.gui.session import VaultSession, describe_error
from pixelmem.gui.widgets.focus_ring import FocusRing
from pixelmem.gui.widgets.type_warmup import TypeWarmup
from pixelmem.gui.window.chat_focus import ChatFocus
from pixelmem.gui.window.commands import WindowCommands
from pixelmem.gui.window.layout_policy import CoveredTabs
from pixelmem.gui.window.menus import build_menus, relabel
from pixelmem.gui.window.navigation import Navigator
from pixelmem.gui.window.panel_docks import PanelDocks, new_dock
from pixelmem.gui.window.recent_menu import RecentVaultsMenu
from pixelmem.gui.window.saved_layout import first_sizes, restore_layout, save_layout
from pixelmem.gui.window.status_bar import StatusBar
from pixelmem.gui.window.undo_delete import UndoDeleteKey
from pixelmem.gui.window.view_state import restore_list_state

if TYPE_CHECKING:  # built after the first paint
    from pixelmem.gui.chat.pane import ChatPane
    from pixelmem.gui.editor.duplicate_banner import DuplicateBanner
    from pixelmem.gui.editor.editor import MemoryEditor
    from pixelmem.gui.editor.topic_suggestions import TopicSuggestions
    from pixelmem.gui.map.map_view import MapView
    from pixelmem.gui.panels.backlinks_panel import BacklinksPanel
    from pixelmem.gui.panels.inbox_view import InboxView
    from pixelmem.gui.panels.link_index import LinkIndex
    from pixelmem.gui.panels.related_panel import RelatedPanel
    from pixelmem.gui.panels.search_panel import SearchPanel
    from pixelmem.gui.window.main_views import MainViews
    from pixelmem.gui.window.quick_switcher import QuickSwitcher

log = logging.getLogger(__name__)

MAIN_VIEWS = "pixelmem.gui.window.main_views"
# PySide's lazily made types are NOT made on that worker beforehand (all of QtWidgets', QtGui's
# and QtCore's, as rounds 5-9 did to spare the GUI thread 9-23 ms): shiboken's lazy type
# creation races the GUI thread's own use of the types, and 4 of 120 loaded launches crashed
# (SIGSEGV in the event loop while the worker made enums). The views' imports make what they
# name; QtWidgets' and QtGui's types are made on the GUI thread in small steps after the first
# paint (widgets.type_warmup), the rest where it is first used.
# The views are built once the list has painted the scan cache's picture, or at once when there
# is none; or this long after start at the latest (a slow disk).
VIEWS_LATEST_MS = 2000
# The AFTER_SCAN panels are built this long after the scan, or after start at the latest (a
# first scan of a big vault).
AFTER_SCAN_MS = 80
AFTER_SCAN_LATEST_MS = 3000
# Background work steps aside this long while the list takes a scanned vault (10k: its reset
# and first layout, ~20-40 ms of the GUI thread over a few turns).
SCAN_SHOWN_HOLD_S = 0.08
# The window's first turns (its first show and paint) beside the scan's listing, the views'
# imports and the saved index's load: the three take steps aside for this long (bench_ui's
# first 0.8 s at 10k memories, 6 runs each: longest stall 3.2-7.9 ms against 6.9-20.4 without).
START_HOLD_S = 0.05


T = TypeVar("T")


class BuiltLater(Generic[T]):
    """One of :class:`~.main_views.MainViews`: reading it builds the views if need be."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, window: None, owner: type | None = None) -> BuiltLater[T]: ...
    @overload
    def __get__(self, window: MainWindow, owner: type | None = None) -> T: ...
    def __get__(self, window: MainWindow | None, owner: type | None = None) -> Any:
        return self if window is None else getattr(window.views, self.name)


class PanelWidget(Generic[T]):
    """A registered panel (or, with ``dock=True``, its dock), built on first read."""

    def __init__(self, name: str, *, dock: bool = False) -> None:
        self.panel, self.dock = name, dock

    @overload
    def __get__(self, window: None, owner: type | None = None) -> PanelWidget[T]: ...
    @overload
    def __get__(self, window: MainWindow, owner: type | None = None) -> T: ...
    def __get__(self, window: MainWindow | None, owner: type | None = None) -> Any:
        if window is None:
            return self
        panels = window.panels
        return panels.dock(self.panel) if self.dock else panels.widget(self.panel)


class MainWindow(QMainWindow):
    open_vault_requested = Signal(str)
    views_ready = Signal()  # the views built after the first paint are in place
    memory_opened = Signal(str)  # the editor shows this memory now ("": a draft, or nothing)

    # Shortcuts to the views and the built-in panels (tests, scripts); a new panel needs none:
    # ``window.panels.widget(name)``.
    editor: BuiltLater[MemoryEditor] = BuiltLater()
    duplicate_banner: BuiltLater[DuplicateBanner] = BuiltLater()
    topic_suggestions: BuiltLater[TopicSuggestions] = BuiltLater()
    link_index: BuiltLater[LinkIndex] = BuiltLater()
    search_panel: PanelWidget[SearchPanel] = PanelWidget("search")
    related_panel: PanelWidget[RelatedPanel] = PanelWidget("related")
    backlinks_panel: PanelWidget[BacklinksPanel] = PanelWidget("backlinks")
    chat_dock: PanelWidget[ChatPane] = PanelWidget("chat")  # the chat pane is its own dock
    inbox: PanelWidget[InboxView] = PanelWidget("inbox")
    map_view: PanelWidget[MapView] = PanelWidget("map")
    search_dock: PanelWidget[QDockWidget] = PanelWidget("search", dock=True)
    related_dock: PanelWidget[QDockWidget] = PanelWidget("related", dock=True)
    backlinks_dock: PanelWidget[QDockWidget] = PanelWidget("backlinks", dock=True)
    inbox_dock: PanelWidget[QDockWidget] = PanelWidget("inbox", dock=True)
    map_dock: PanelWidget[QDockWidget] = PanelWidget("map", dock=True)

    def __init__(
        self,
        engine: Engine,
        settings: Settings,
        *,
        first_run: bool = False,
        parent: QWidget | None = None,
        panels: Sequence[Panel] = PANELS,
    ) -> None:
        super().__init__(parent)
        self.engine = engine
        self.settings = settings
        self.bus = MemoryBus(self)
        self.session = VaultSession(engine, self.bus, first_run=first_run, parent=self)
        self._closing_ok = False
        self._views: MainViews | None = None
        self._quick_switcher: QuickSwitcher | None = None
        self.type_warmup: TypeWarmup | None = None  # started by the first paint
        self._scanned_before_views = False  # the views take the scan once built
        self.setDockNestingEnabled(True)
        self._build_list()
        self.covered_tabs = CoveredTabs(self)
        self.commands = WindowCommands(self)
        self.navigator = Navigator(self)
        self.chat_focus = ChatFocus(self, lambda: self.chat_dock)
        self.menus, self.actions_by_name = build_menus(self, self.commands, panels, self._reveal)
        self._add_to_menus()
        self.panels = PanelDocks(
            self,
            self,
            covered=self.covered_tabs,
            view_menu=self.menus["view"],
            before_stage=self._before_stage,
            panels=panels,
        )
        self.panels.stage_built.connect(self._stage_built)
        first_sizes(self)
        self._connect()
        self.retranslate()
        self.dock_shares = restore_layout(self, self.covered_tabs, self._right_column())
        restore_list_state(self.list_panel)  # sort and filters as the person left them
        self.focus_ring = FocusRing(self)  # a clear keyboard focus frame in any palette

    # -- building --------------------------------------------------------------------------

    def _build_list(self) -> None:
        """What the first paint shows: the list (with the timeline above it) and the status
        bar; the editor's place is held by an empty widget until :attr:`views` are built."""
        self.list_model = MemoryListModel(self.session.store.get, self)
        self.list_model.follow(self.bus)  # again after the editor's: see main_views
        self.list_panel = MemoryListPanel(self.list_model)
        self.status = StatusBar()
        self.setStatusBar(self.status)
        self.setCentralWidget(QWidget())
        self.timeline = TimelineStrip(self.session, self.bus, self)
        self.timeline.period_selected.connect(self.list_panel.proxy.set_period)
        self.list_dock = new_dock(self, "memoriesDock", above_list(self.timeline, self.list_panel))
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.list_dock)

    def _add_to_menus(self) -> None:
        """File → Recent Vaults, and the memory list's toggle first among the View menu's."""
        self.recent_menu = RecentVaultsMenu(self.engine.vault, self.commands.open_vault, self)
        self.menus["file"].insertMenu(self.actions_by_name["settings"], self.recent_menu)
        self.menus["view"].addAction(self.list_dock.toggleViewAction())

    @property
    def views(self) -> MainViews:
        """The editor and its companions (built after the first paint, or now)."""
        if self._views is None:
            self.panels.build(Stage.AFTER_PAINT)
        assert self._views is not None
        return self._views

    @property
    def quick_switcher(self) -> QuickSwitcher:
        """The quick switcher, made at its first use: a hidden popup has no business in the
        views' build, which runs while a new vault indexes (its first QListWidget and drop
        shadow made ~9 ms of Qt types there; bench_ui --why: the longest indexing stall)."""
        if self._quick_switcher is None:
            from pixelmem.gui.window.quick_switcher import QuickSwitcher

            session = self.session
            switcher = QuickSwitcher(lambda: session.store.list(), self, lambda: session.store.root)
            switcher.memory_chosen.connect(self.navigator.open_memory)
            self._quick_switcher = switcher
        return self._quick_switcher

    def _before_stage(self, stage: Stage) -> Iterator[None]:
        """The AFTER_PAINT panels need the editor's views (the link graph, memory_opened). Built
        in three parts (event-loop turns on time: the editor, its companions, their place)."""
        if stage is not Stage.AFTER_PAINT or self._views is not None:
            return
        from pixelmem.gui.window.main_views import build_views, editor_area

        views = yield from build_views(self, self, self.list_model)  # the editor, its companions
        yield  # they take their place (laid out, shown) in the next part
        central = editor_area(views)
        self.setCentralWidget(central)  # deletes the placeholder
        central.setHidden(self.chat_focus.active)  # the chat has the whole window for now
        self.navigator.follow(views)
        self._views = views

    def _stage_built(self, stage: Stage) -> None:
        if hasattr(self, "dock_shares"):  # new docks may not fit a short screen as saved
            self.dock_shares.fit_docks()
        if all(self.panels.is_built(s) for s in (Stage.AFTER_PAINT, Stage.AFTER_SCAN)):
            self.session.release_index()
        if stage is Stage.AFTER_PAINT:
            if self._scanned_before_views:
                self._views_take_scan()
            self.views_ready.emit()
        else:
            # Their modules and widgets live as long as the window: out of the cyclic GC's
            # scans, or the next full collection stalls whatever runs then (~0.2 s, a save).
            gc.freeze()

    def _warm_types(self) -> None:
        """Once the list has painted: Qt's widget types made in small steps while the views'
        modules import on a worker (widgets.type_warmup)."""
        if self.type_warmup is None:
            self.type_warmup = TypeWarmup(self)
            self.type_warmup.start()

    def _load_views(self, msecs: int = 0) -> None:
        self.panels.load_soon(Stage.AFTER_PAINT, msecs, also=[MAIN_VIEWS])

    def _right_column(self) -> list[QDockWidget]:
        """A short window's first layout stacks these as tabs (layout_policy.DockShares)."""
        panels = self.panels
        return [panels.dock(p.name) for p in panels.of_stage(Stage.AFTER_PAINT) if p.area == RIGHT]

    def _reveal(self, name: str) -> None:
        self.panels.reveal(name)

    @property
    def list_filter(self) -> MemoryFilterProxy:
        return self.list_panel.proxy

    def _connect(self) -> None:
        session, bus, status = self.session, self.bus, self.status
        workers.set_error_handler(self._report_error)
        session.arrange_listing = self.list_model.in_order
        session.memories_listed.connect(self.list_model.set_memories)  # the scan cache's
        session.memories_loaded.connect(self._memories_loaded)
        bus.open_memory_requested.connect(self.open_memory)
        bus.error_reported.connect(status.show_error)
        bus.message_reported.connect(status.show_message)
        bus.index_progress.connect(status.show_progress)
        session.indexing_started.connect(status.indexing_started)
        session.indexing_finished.connect(status.indexing_stopped)
        session.indexing_cancelled.connect(
            lambda: status.indexing_stopped(session.status, cancelled=True)
        )
        session.trashed.connect(status.show_trashed)
        session.trash_refused.connect(self.commands.trash_protected)
        status.undo_requested.connect(lambda record: session.undo_delete(record, self.open_memory))
        status.cancel_requested.connect(session.cancel_indexing)
        status.skipped_requested.connect(self.commands.show_skipped)
        status.multilingual_requested.connect(self.commands.use_multilingual_model)
        self.list_panel.memory_selected.connect(self.open_memory)
        self.list_panel.delete_requested.connect(self.commands.delete_memory)
        self.list_panel.view.rows_painted.connect(self._load_views)
        session.nothing_listed.connect(self._load_views)
        self.list_panel.view.rows_painted.connect(self._warm_types)
        session.nothing_listed.connect(self._warm_types)
        session.imported.connect(self._show_import_report)
        session.settings_reloaded.connect(self.commands.use_settings)  # another process saved them
        undo = self.actions_by_name["undo_delete"]
        self.undo_delete_key = UndoDeleteKey(self, undo, session.trashed, status.undo_requested)

    def _report_error(self, exc: BaseException) -> None:
        """Errors of background work nobody else handled: one place shows them."""
        if shiboken6.isValid(self.bus):  # this window may be gone (vault switched)
            self.bus.error_reported.emit(describe_error(exc))
        else:
            log.error("background task failed: %s", exc)

    def retranslate(self) -> None:
        # Qt appends the application display name ("— pixelmem") itself.
        self.setWindowTitle(f"{self.engine.vault.name}[*]")
        self.status.set_vault(self.engine.vault)
        self.list_dock.setWindowTitle(self.tr("Memories"))
        self.panels.retranslate()
        relabel(self.menus, self.actions_by_name, self.panels.panels)
        retranslate_tree(self)  # every view with a retranslate(): list, editor, chat, inbox, …

    def focusNextPrevChild(self, next: bool) -> bool:
        """Tab stops only at controls a person can see (not in a dock tab that is covered)."""
        return self.covered_tabs.focus_next(super().focusNextPrevChild, next)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if hasattr(self, "dock_shares"):  # the docks keep their shares of the width
            self.dock_shares.window_resized(event.oldSize(), event.size())

    def changeEvent(self, event: QEvent) -> None:
        if is_language_change(event):  # Qt posts it when a translator comes or goes
            self.retranslate()
        super().changeEvent(event)

    # -- start and stop --------------------------------------------------------------------

    def start(self) -> None:
        """Show-then-load: the window is up before the vault is scanned; its list shows the
        scan cache's picture first, then the other views come."""
        # The modules imported so far and the window's widgets live as long as the window:
        # out of the cyclic GC's scans from now on, or the first full collection of the run
        # walks them all while its thread holds the GIL (24 ms on the index thread while a
        # 2k vault's saved index loaded, bench_ui --why).
        gc.freeze()
        step_aside.window_building(START_HOLD_S)
        self.session.hold_index()  # released once the panels are built (_stage_built)
        self.session.open()
        self._load_views(VIEWS_LATEST_MS)
        self.panels.load_soon(Stage.AFTER_SCAN, AFTER_SCAN_LATEST_MS)

    def _memories_loaded(self, memories: list) -> None:
        # The list takes the scanned vault and lays it out over the next turns, while the link
        # graph and the timeline start on workers: they let it run first (core/step_aside).
        step_aside.window_building(SCAN_SHOWN_HOLD_S)
        if self.session.listing_confirmed:  # the list shows these already, as a picture
            self.list_model.adopt(memories)
        else:
            self.list_model.set_memories(memories)
        self.timeline.refresh()
        self.panels.load_soon(Stage.AFTER_SCAN, AFTER_SCAN_MS)  # not sharing the GIL with it
        if self._views is None:
            # A small vault is scanned before the views are built (their modules still
            # importing on a worker): reading one here would import and build them all at
            # once on this thread (50-140 ms, bench_ui's 200-note window). They are built in
            # turns now, and take the scanned vault when they are in place.
            self._scanned_before_views = True
            self._load_views()
            return
        self._views_take_scan()

    def _views_take_scan(self) -> None:
        """The views' part of a finished scan: the link graph, and the memory to open."""
        self._scanned_before_views = False
        self.link_index.rebuild()
        if self.navigator.open_when_loaded():
            return
        if self.session.first_run and self.list_model.rowCount() and not self.editor.is_open:
            self.open_memory(self.list_model.memory_at(0).id)

    def open_memory(
        self, memory_id: str, span: tuple[int, int] | None = None, terms: Sequence[str] = ()
    ) -> None:
        self.navigator.open_memory(memory_id, span, terms)

    def _show_import_report(self, result: Any) -> None:
        from pixelmem.gui.dialogs.import_report import import_report

        box = import_report(self, result)
        if box is not None:
            box.open()  # not modal-blocking: the list may be long and work goes on

    def closeEvent(self, event: QCloseEvent) -> None:
        # Closed before its views were built (right after the launch): no edits to save, and
        # nothing is built just to be closed.
        if self._closing_ok or self._views is None:
            self._save_layout()
            self.hide()  # feels instant while a cancelled embedding batch winds down
            self.session.shutdown()
            event.accept()
            return
        event.ignore()  # close again once unsaved edits are saved or discarded
        self.editor.maybe_save(self._close_later)

    def _close_later(self) -> None:
        self._closing_ok = True
        QTimer.singleShot(0, self.close)  # not from inside closeEvent: Qt ignores that

    def _save_layout(self) -> None:
        self.panels.build(Stage.AFTER_SCAN)  # saved where they are, not as placeholders
        if self.chat_focus.active:
            self.chat_focus.toggle()  # save the everyday layout, not the focused one
        save_layout(self)
