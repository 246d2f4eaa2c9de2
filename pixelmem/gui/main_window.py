"""The main window: list | editor | search and related, status bar, menus, optional docks.

It wires views to the session and the bus and owns no logic of its own beyond that: every
engine call is in :mod:`session`, every view refreshes itself from the bus.
"""

from __future__ import annotations

import contextlib
import copy
import gc
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import shiboken6
from PySide6.QtCore import QByteArray, QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QMainWindow,
    QMenu,
    QMessageBox,
    QWidget,
)

from pixelmem import __version__
from pixelmem.core.errors import PixelmemError
from pixelmem.core.index.engine import Engine
from pixelmem.core.settings import Settings
from pixelmem.gui import i18n, prompts, workers
from pixelmem.gui.bus import MemoryBus
from pixelmem.gui.focus_ring import FocusRing
from pixelmem.gui.later_docks import LATER_DOCK_MODULES, LaterDocks, build_later_docks, new_dock
from pixelmem.gui.layout_policy import CoveredTabs, DockShares, fit_tab_bars
from pixelmem.gui.memory_list import MemoryListPanel
from pixelmem.gui.memory_list_model import MemoryListModel
from pixelmem.gui.menus import build_menus
from pixelmem.gui.recent_vaults import recent_vaults, ui_state
from pixelmem.gui.retranslate import is_language_change, retranslate_tree
from pixelmem.gui.session import VaultSession, describe_error
from pixelmem.gui.status_bar import StatusBar
from pixelmem.gui.timeline_strip import TimelineStrip, above_list
from pixelmem.gui.undo_delete import UndoDeleteKey
from pixelmem.gui.view_state import restore_list_state

# Everything below is built after the first paint (main_views, later_docks) or used later.
if TYPE_CHECKING:
    from pixelmem.core.index.search import SearchHit
    from pixelmem.core.vault.links import Mention
    from pixelmem.core.writes import ImportResult
    from pixelmem.gui.backlinks_panel import BacklinksPanel
    from pixelmem.gui.chat.pane import ChatPane
    from pixelmem.gui.duplicate_banner import DuplicateBanner
    from pixelmem.gui.editor import MemoryEditor
    from pixelmem.gui.inbox_view import InboxView
    from pixelmem.gui.link_index import LinkIndex
    from pixelmem.gui.main_views import MainViews
    from pixelmem.gui.map_view import MapView
    from pixelmem.gui.quick_switcher import QuickSwitcher
    from pixelmem.gui.related_panel import RelatedPanel
    from pixelmem.gui.search_panel import SearchPanel
    from pixelmem.gui.topic_suggestions import TopicSuggestions

log = logging.getLogger(__name__)

IMPORT_FILTER = "Documents (*.md *.markdown *.txt *.pdf *.docx);;All files (*)"
# The chat, inbox and map docks are built once the scan is done and the list has painted, or
# this long after start at the latest (a first scan of a big vault), or when first used.
LATER_DOCKS_MS = 80
LATER_DOCKS_LATEST_MS = 3000
# The editor, search, related and backlinks views (main_views) are built once the list has
# painted the scan cache's picture, or at once when there is none; or this long after start at
# the latest (a slow disk).
VIEWS_LATEST_MS = 2000


class BuiltLater:
    """A view of :mod:`~pixelmem.gui.main_views`: reading it builds the views if they are not
    there yet, so every use works whether or not the first paint has happened."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, window: MainWindow | None, owner: type | None = None) -> Any:
        if window is None:
            return self
        return getattr(window.views, self.name)


class MainWindow(QMainWindow):
    open_vault_requested = Signal(str)
    views_ready = Signal()  # the views built after the first paint are in place

    editor: MemoryEditor = BuiltLater()
    duplicate_banner: DuplicateBanner = BuiltLater()
    topic_suggestions: TopicSuggestions = BuiltLater()
    search_panel: SearchPanel = BuiltLater()
    related_panel: RelatedPanel = BuiltLater()
    link_index: LinkIndex = BuiltLater()
    backlinks_panel: BacklinksPanel = BuiltLater()
    quick_switcher: QuickSwitcher = BuiltLater()

    def __init__(
        self,
        engine: Engine,
        settings: Settings,
        *,
        first_run: bool = False,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.engine = engine
        self.settings = settings
        self.bus = MemoryBus(self)
        self.session = VaultSession(engine, self.bus, first_run=first_run, parent=self)
        self._closing_ok = False
        self._open_when_loaded: tuple[str, tuple[int, int] | None, Sequence[str]] | None = None
        self._views: MainViews | None = None
        self._views_loading = False  # their modules are being imported on a worker
        self._later_loading = False  # the same for the later docks
        self.setDockNestingEnabled(True)
        self._build_list()
        self._build_docks()
        self._layout_before_chat: QByteArray | None = None  # while the chat fills the window
        self.actions_by_name: dict[str, QAction] = build_menus(self)
        self._build_recent_menu()
        self._connect()
        self.retranslate()
        self.covered_tabs = CoveredTabs(self)
        self._restore_layout()
        restore_list_state(self)  # sort and filters as the person left them
        self.focus_ring = FocusRing(self)  # a clear keyboard focus frame in any palette

    # -- building --------------------------------------------------------------------------

    def _build_list(self) -> None:
        """What the first paint shows: the list (with the timeline) and the status bar; the
        editor's place is held by an empty widget until :attr:`views` are built."""
        self.list_model = MemoryListModel(self.session.store.get, self)
        self.list_model.follow(self.bus)  # again after the editor's: see main_views
        self.list_panel = MemoryListPanel(self.list_model)
        self.status = StatusBar()
        self.setStatusBar(self.status)
        self.setCentralWidget(QWidget())

    @property
    def views(self) -> MainViews:
        """The editor, search, related, backlinks… (built after the first paint, or now)."""
        if self._views is None:
            from pixelmem.gui.main_views import build_views

            self._views = build_views(self)  # into docks covered_tabs watches already
            self.views_ready.emit()
        return self._views

    def _build_views_soon(self, msecs: int = 0) -> None:
        QTimer.singleShot(msecs, self, self._load_views)

    def _load_views(self) -> None:
        """Import the views' modules on a worker, then build them here: their imports (numpy,
        the search stack, Markdown rendering: 0.12-0.2 s) would freeze the window just
        painted; building the widgets takes ~25 ms. A use meanwhile builds them at once."""
        if self._views is None and not self._views_loading:
            self._views_loading = True
            workers.import_then(["pixelmem.gui.main_views"], self._views_loaded, context=self)

    def _views_loaded(self) -> None:
        self.views  # noqa: B018 - reading it builds them (an import error is raised here)

    def _dock(self, name: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = new_dock(self, name, widget)
        self.addDockWidget(area, dock)
        return dock

    def _build_docks(self) -> None:
        """Every dock of the first paint; search, related and backlinks hold an empty widget
        until :attr:`views` puts the panels in them (the saved layout is restored at once)."""
        left, right = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
        self.list_dock = self._dock("memoriesDock", self._with_timeline(self.list_panel), left)
        self.search_dock = self._dock("searchDock", QWidget(), right)
        self.related_dock = self._dock("relatedDock", QWidget(), right)
        self.splitDockWidget(self.search_dock, self.related_dock, Qt.Orientation.Vertical)
        self.backlinks_dock = self._dock("backlinksDock", QWidget(), right)
        self.tabifyDockWidget(self.related_dock, self.backlinks_dock)
        self.related_dock.raise_()
        self.resizeDocks([self.list_dock, self.search_dock], [330, 400], Qt.Orientation.Horizontal)
        self.resizeDocks([self.search_dock, self.related_dock], [560, 260], Qt.Orientation.Vertical)
        self._later: LaterDocks | None = None

    # The chat, inbox and map docks come after the first paint (see later_docks); every use of
    # them goes through these properties, which build them first if they are not there yet.

    @property
    def chat_dock(self) -> ChatPane:
        return self._later_docks().chat

    @property
    def inbox(self) -> InboxView:
        return self._later_docks().inbox

    @property
    def inbox_dock(self) -> QDockWidget:
        return self._later_docks().inbox_dock

    @property
    def map_view(self) -> MapView:
        return self._later_docks().map_view

    @property
    def map_dock(self) -> QDockWidget:
        return self._later_docks().map_dock

    def _later_docks(self) -> LaterDocks:
        if self._later is None:
            self._later = build_later_docks(self)
            self._retranslate_later_docks()
            fit_tab_bars(self)  # their tabs may have made a new tab bar
            # Their modules and widgets live as long as the window: out of the cyclic GC's
            # scans, or the next full collection stalls whatever runs then (~0.2 s, a save).
            gc.freeze()
        return self._later

    def _build_later_docks_soon(self, msecs: int = LATER_DOCKS_MS) -> None:
        QTimer.singleShot(msecs, self, self._load_later_docks)

    def _load_later_docks(self) -> None:
        """As :meth:`_load_views`: their modules (httpx, the chat engine, the map's layout
        code: ~0.2 s) are imported on a worker, the docks built here."""
        if self._later is None and not self._later_loading:
            self._later_loading = True
            workers.import_then(LATER_DOCK_MODULES, self._later_docks, context=self)

    def _with_timeline(self, panel: MemoryListPanel) -> QWidget:
        """The memory list with the timeline strip above it; the strip filters the list."""
        self.timeline = TimelineStrip(self.session, self.bus, self)
        self.timeline.period_selected.connect(panel.proxy.set_period)
        return above_list(self.timeline, panel)

    def _connect(self) -> None:
        session, bus, status = self.session, self.bus, self.status
        workers.set_error_handler(self._report_error)
        session.arrange_listing = self.list_model.in_order
        session.memories_listed.connect(self._memories_listed)
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
        session.trash_refused.connect(self._trash_protected)
        status.undo_requested.connect(lambda record: session.undo_delete(record, self.open_memory))
        status.cancel_requested.connect(session.cancel_indexing)
        status.skipped_requested.connect(self.show_skipped)
        status.multilingual_requested.connect(self.use_multilingual_model)
        self.list_panel.memory_selected.connect(self.open_memory)
        self.list_panel.delete_requested.connect(self.delete_memory)
        self.list_panel.view.rows_painted.connect(self._build_views_soon)
        session.nothing_listed.connect(self._build_views_soon)
        session.imported.connect(self._show_import_report)
        session.settings_reloaded.connect(self._use_settings)  # another process saved them
        undo = self.actions_by_name["undo_delete"]
        self.undo_delete_key = UndoDeleteKey(self, undo, session.trashed, status.undo_requested)

    def _report_error(self, exc: BaseException) -> None:
        """Errors of background work nobody else handled (one place to show them: the bus)."""
        if shiboken6.isValid(self.bus):  # this window may be gone (vault switched)
            self.bus.error_reported.emit(describe_error(exc))
        else:
            log.error("background task failed: %s", exc)

    def _build_recent_menu(self) -> None:
        """File → Recent Vaults, filled each time it opens (another window may have added one)."""
        self.recent_menu = QMenu(self)
        self.recent_menu.setObjectName("recentVaults")
        file_menu = self.menus["file"]  # type: ignore[attr-defined]
        file_menu.insertMenu(self.actions_by_name["settings"], self.recent_menu)
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        others = [v for v in recent_vaults() if v != self.engine.vault]
        for vault in others:
            action = self.recent_menu.addAction(f"{vault.name}  —  {vault}")
            action.triggered.connect(lambda _=False, v=vault: self.open_vault(v))
        if not others:
            self.recent_menu.addAction(self.tr("No other vaults yet")).setEnabled(False)

    def open_vault(self, folder: Path) -> None:
        """Switch the window to ``folder`` (after the open memory is saved or discarded)."""
        if Path(folder) != self.engine.vault:
            self.editor.maybe_save(lambda: self.open_vault_requested.emit(str(folder)))

    def retranslate(self) -> None:
        # Qt appends the application display name ("— pixelmem") itself.
        self.setWindowTitle(f"{self.engine.vault.name}[*]")
        self.recent_menu.setTitle(self.tr("Recent &Vaults"))
        self.status.set_vault(self.engine.vault)
        self.list_dock.setWindowTitle(self.tr("Memories"))
        self.search_dock.setWindowTitle(self.tr("Search"))
        self.related_dock.setWindowTitle(self.tr("Related"))
        self.backlinks_dock.setWindowTitle(self.tr("Backlinks"))
        if self._later is not None:
            self._retranslate_later_docks()
        build_menus(self, retranslate_only=True)
        retranslate_tree(self)  # every view with a retranslate(): list, editor, chat, inbox, …

    def focusNextPrevChild(self, next: bool) -> bool:
        """Tab stops only at controls a person can see (not in a dock tab that is covered)."""
        return self.covered_tabs.focus_next(super().focusNextPrevChild, next)

    def changeEvent(self, event: QEvent) -> None:
        if is_language_change(event):  # Qt posts it when a translator comes or goes
            self.retranslate()
        super().changeEvent(event)

    def _retranslate_later_docks(self) -> None:
        """The later docks' titles (their views retranslate themselves: retranslate_tree)."""
        self.map_dock.setWindowTitle(self.tr("Map"))
        self.inbox_dock.setWindowTitle(self.tr("Inbox"))

    # -- start and stop --------------------------------------------------------------------

    def start(self) -> None:
        """Show-then-load: the window is up before the vault is scanned; its list shows the
        scan cache's picture first, then the other views come (see main_views)."""
        self.session.open()
        self._build_views_soon(VIEWS_LATEST_MS)
        self._build_later_docks_soon(LATER_DOCKS_LATEST_MS)

    def _memories_listed(self, memories: list) -> None:
        """The scan cache's picture of the vault, while the scan checks every file."""
        self.list_model.set_memories(memories)

    def _memories_loaded(self, memories: list) -> None:
        if self.session.listing_confirmed:  # the list shows these already, as a picture
            self.list_model.adopt(memories)
        else:
            self.list_model.set_memories(memories)
        self.timeline.refresh()
        self.link_index.rebuild()
        self._build_later_docks_soon()  # after the scan: it would share the GIL with them
        if self._open_when_loaded is not None:
            self.open_memory(*self._open_when_loaded)
        elif self.session.first_run and memories and not self.editor.is_open:
            self.open_memory(self.list_model.memory_at(0).id)

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

    def _restore_layout(self) -> None:
        state = ui_state()
        geometry = state.value("main/geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)
        else:
            self.resize(1280, 800)
        layout = state.value("main/state")
        if layout is not None:
            self.restoreState(layout)
        self.dock_shares = DockShares(
            self,
            self.covered_tabs,
            first_layout=layout is None,
            tabs_when_short=(self.search_dock, self.related_dock, self.backlinks_dock),
        )

    def _save_layout(self) -> None:
        self._later_docks()  # saved where they are, not as restoreState's placeholders
        if self.chat_focused:
            self.focus_chat()  # save the everyday layout, not the focused one
        state = ui_state()
        state.setValue("main/geometry", self.saveGeometry())
        state.setValue("main/state", self.saveState())

    # -- opening memories ------------------------------------------------------------------

    def open_memory(
        self, memory_id: str, span: tuple[int, int] | None = None, terms: Sequence[str] = ()
    ) -> None:
        if not self.session.loaded:  # a row of the scan cache's picture, clicked mid-scan:
            self._open_when_loaded = (memory_id, span, terms)  # the store is not read yet
            return
        self._open_when_loaded = None
        self.editor.open_memory(memory_id, span, terms)
        if self.editor.current_id != memory_id:  # the user kept editing the other one
            self.list_panel.select(self.editor.current_id)

    def open_hit(self, hit: SearchHit) -> None:
        """Open a related memory at its closest passage."""
        self.open_memory(hit.memory_id, (hit.start, hit.end))

    def open_search_hit(self, hit: SearchHit) -> None:
        """Open a search hit with its passage selected and the query's words marked in it."""
        from pixelmem.gui.highlight import hit_terms

        try:
            passage = self.session.store.get(hit.memory_id).body[hit.start : hit.end]
        except PixelmemError:
            passage = ""
        terms = [*hit.matched_terms, *hit_terms(self.search_panel.model.query, passage)]
        self.open_memory(hit.memory_id, (hit.start, hit.end), tuple(dict.fromkeys(terms)))

    def _memory_opened(self, memory_id: str) -> None:
        self.list_panel.select(memory_id or None)
        self.related_panel.set_memory(memory_id)
        self.backlinks_panel.set_memory(memory_id)

    def open_link(self, destination: str) -> None:
        """Follow a ``[[wiki link]]``: open the memory it names (at its heading, for
        ``Note#Heading``), or say none does."""
        target, _, heading = destination.partition("#")
        memory_id = self.link_index.resolve(target)
        if memory_id:
            span = None
            if heading:
                from pixelmem.core.vault.links import heading_span

                with contextlib.suppress(PixelmemError):
                    span = heading_span(self.session.store.get(memory_id).body, heading)
            self.open_memory(memory_id, span)
        else:
            self.status.show_message(
                self.tr("No memory is called “{target}” yet").format(target=target)
            )

    def link_mention(self, mention: Mention) -> None:
        """Turn an unlinked mention of the open memory into a ``[[link]]`` to it."""
        store = self.session.store
        try:
            source = store.get(mention.source_id)
            target = store.get(self.backlinks_panel.memory_id)
        except PixelmemError as exc:
            self.status.show_error(describe_error(exc))
            return
        from pixelmem.core.vault.links import plan_link_mention

        update = plan_link_mention(source, mention, target)
        if update is None:
            self.status.show_message(self.tr("That text has changed; nothing was linked"))
        else:
            self.session.apply_link_updates([update])

    def _offer_link_updates(self, memory_id: str, old_title: str, new_title: str) -> None:
        from pixelmem.gui.link_updates import offer_link_updates

        offer_link_updates(self, self.session, memory_id, old_title, new_title)

    # -- commands (menu actions) -----------------------------------------------------------

    def show_quick_switcher(self) -> None:
        self.quick_switcher.popup()

    def new_memory(self) -> None:
        self.editor.new_memory()

    def save_memory(self) -> None:
        self.editor.save()

    def delete_memory(self, memory_id: str | None = None) -> None:
        memory_id = memory_id or self.editor.current_id or self.list_panel.current_id()
        if memory_id and memory_id == self.editor.current_id:
            self.editor.delete_current()
        elif memory_id:
            self.session.delete(memory_id)

    def _trash_protected(self, memory_id: str, message: str) -> None:
        """A read-only note was not trashed: ask, and trash it on a clear yes."""
        if prompts.ask_trash_protected(self, message):
            self.session.delete(memory_id, force=True)

    def undo_delete(self) -> None:
        if self.status.last_trashed is not None:
            self.status.undo_button.click()

    def focus_list(self) -> None:
        self.list_dock.show()
        self.list_dock.raise_()
        self.list_panel.view.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def focus_editor(self) -> None:
        if self.editor.is_open:
            self.editor.form.body_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def show_map(self) -> None:
        self.map_dock.show()
        self.map_dock.raise_()
        self.map_view.setFocus()
        self.map_view.ensure_current()

    def focus_search(self) -> None:
        self.search_dock.show()
        self.search_dock.raise_()
        self.search_panel.focus_search()

    def focus_chat(self) -> None:
        """Give the chat the whole window; again, and the layout from before comes back."""
        central = self.centralWidget()
        if self._layout_before_chat is not None:
            central.show()
            self.restoreState(self._layout_before_chat)
            self._layout_before_chat = None
            self.chat_dock.raise_()  # the person was chatting: the chat stays the open tab
            return
        self._layout_before_chat = self.saveState()
        for dock in self.findChildren(QDockWidget):
            if dock is not self.chat_dock:
                dock.hide()
        central.hide()  # the docks take the freed room
        self.chat_dock.show()
        self.chat_dock.input.setFocus(Qt.FocusReason.ShortcutFocusReason)

    @property
    def chat_focused(self) -> bool:
        return self._layout_before_chat is not None

    def import_files(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(self, self.tr("Import files"), "", IMPORT_FILTER)
        if files:
            self.session.import_files(Path(f) for f in files)

    def import_chats(self) -> None:
        """A ChatGPT or Claude export, as conversations in the chat pane."""
        from pixelmem.gui.chat.chat_import import choose_and_import

        choose_and_import(self, self.engine.vault, self.bus, self.chat_dock)

    def import_folder(self) -> None:
        """Import every file below a folder (an Obsidian vault, a notes folder…)."""
        folder = QFileDialog.getExistingDirectory(self, self.tr("Import a folder"))
        if folder:
            self.session.import_files([Path(folder)])

    def _show_import_report(self, result: ImportResult) -> None:
        from pixelmem.gui.import_report import import_report

        box = import_report(self, result)
        if box is not None:
            box.open()  # not modal-blocking: the list may be long and work goes on

    def choose_vault(self) -> None:
        folder = QFileDialog.getExistingDirectory(
            self, self.tr("Open vault folder"), str(self.engine.vault)
        )
        if folder:
            self.open_vault(Path(folder))

    def reindex(self) -> None:
        self.session.request_reindex()

    def show_skipped(self) -> None:
        from pixelmem.gui.skipped_dialog import SkippedDialog

        SkippedDialog(self.engine.vault, self.session.store.skipped, self).exec()

    def show_settings(self) -> None:
        # Imported here: the dialog pulls in the embedder factory and httpx (~0.15 s at launch).
        from pixelmem.gui.settings_dialog import SettingsDialog

        dialog = SettingsDialog(self.settings, str(self.engine.vault), self)
        if dialog.exec() != SettingsDialog.DialogCode.Accepted:
            return
        new = dialog.result_settings()
        if new is not None:
            self.apply_settings(new, base=dialog.settings)

    def use_multilingual_model(self) -> None:
        """The status bar's one-click switch: this vault's notes need the multilingual model."""
        new = copy.deepcopy(self.settings)
        new.embedding.provider = "local-multilingual"
        self.status.model_button.hide()
        self.apply_settings(new)

    def apply_settings(self, new: Settings, base: Settings | None = None) -> None:
        """Save what changed from ``base`` (the snapshot ``new`` was edited from; default the
        current settings), merged with the file; then use the result."""
        base = base or self.settings
        switch = bool(new.vault) and Path(new.vault).expanduser() != self.engine.vault
        other_vault = new.vault
        try:
            new = new.save_changes(base)
        except (OSError, PixelmemError) as exc:
            self.bus.error_reported.emit(describe_error(exc))
        self._use_settings(new)
        if switch:
            self.editor.maybe_save(lambda: self.open_vault_requested.emit(other_vault))

    def _use_settings(self, new: Settings) -> None:
        """Use new settings (saved here or by another process): re-index when the model or
        chunking changed, switch language. The vault is never switched from here."""
        old, self.settings = self.settings, new
        if new.language != old.language:
            i18n.install_translator(new.language)  # re-labels through changeEvent
        self.search_panel.set_mode(new.search.mode)
        self.session.reconfigure(new)
        self.bus.settings_changed.emit(new)

    def show_about(self) -> None:
        QMessageBox.about(
            self,
            self.tr("About pixelmem"),
            self.tr(
                "<h3>pixelmem {version}</h3><p>Local-first knowledge memory: Markdown files in a "
                "folder you own, searched by meaning and by keyword, offline.</p>"
                "<p>Vault: {vault}</p>"
            ).format(version=__version__, vault=self.engine.vault),
        )

    def toggle_docks(self) -> list[QDockWidget]:
        """The docks whose View-menu toggles build_menus adds (the later docks add theirs)."""
        return [self.list_dock, self.search_dock, self.related_dock, self.backlinks_dock]
