"""The review inbox: memories proposed by AI tools (MCP), to edit, accept or reject.

Drafts are files in ``<vault>/.pixelmem/inbox/`` written by another process (the MCP server),
so the view polls the folder's listing: a worker lists it (a ``stat`` per draft: a slow or
network disk would freeze the window if the GUI thread did it) and re-reads the drafts when it
changed; the GUI thread only applies what came back. Accepting goes through the session's write
gateway (announced on the bus like any new memory); rejecting and saving a draft touch only the
inbox, on the write lane.

The view is built in two event-loop turns (issue 29: no piece of the window's start longer than
a frame): the list and its count first, the editor below it in the next turn — or at once when
something needs it first (drafts loaded, a retranslation).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from pixelmem.core.archive.inbox import Draft, Inbox
from pixelmem.core.vault.frontmatter_io import without_final_newline
from pixelmem.core.vault.memory import IMPORTANCE_LEVELS, Memory
from pixelmem.gui.bus import MemoryBus
from pixelmem.gui.panels.proposal_view import ProposalPanel
from pixelmem.gui.session import VaultSession
from pixelmem.gui.widgets.dates import relative_date
from pixelmem.gui.widgets.flow_layout import FlowLayout
from pixelmem.gui.workers import LatestOnly, write_lane

POLL_MS = 1500
ID_ROLE = Qt.ItemDataRole.UserRole
UNSEEN = object()  # a listing no folder has: the drafts are read whatever the folder holds
Listing = frozenset[tuple[str, int]] | None  # (name, mtime_ns) of each entry; None: unreadable


class InboxView(QWidget):
    """Lists drafts with their count; the selected one can be edited, accepted or rejected."""

    count_changed = Signal(int)
    drafts_loaded = Signal()

    def __init__(
        self, session: VaultSession, bus: MemoryBus, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.engine = engine = session.engine
        self.bus = bus
        self.inbox = Inbox(engine.vault)
        self.drafts: list[Draft] = []
        self._loading = LatestOnly()
        self._in_flight = False  # a listing (and maybe a reading) is under way on a worker
        self._seen: object = UNSEEN
        self._shown: Draft | None = None  # the draft as loaded into the editor
        self._editor_built = False
        self._build()
        QTimer.singleShot(0, self, self._build_editor)
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self.poll)
        self._timer.start()
        self.refresh()

    # -- building --------------------------------------------------------------------------

    def _build(self) -> None:
        self.count_label = QLabel()
        self.count_label.setWordWrap(True)
        self.list = QListWidget()
        # Rows take the list's width and elide: a long title never needs a scroll bar.
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.currentItemChanged.connect(self._selected)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.addWidget(self.list)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.count_label)
        layout.addWidget(self.splitter)
        self._update_count()

    def _build_editor(self) -> None:
        """The draft's editor below the list (once): the second turn of the view's build."""
        if self._editor_built:
            return
        self._editor_built = True
        self.title_edit = QLineEdit()
        self.topics_edit = QLineEdit()
        self.importance_box = QComboBox()
        for level in IMPORTANCE_LEVELS:
            self.importance_box.addItem(level, level)  # labelled in retranslate()
        self.body_edit = QPlainTextEdit()
        self.proposal = ProposalPanel()  # an update's diff, or the memory it supersedes
        self.source_label = QLabel()
        self.source_label.setEnabled(False)
        self.save_button = QPushButton()
        self.accept_button = QPushButton()
        self.reject_button = QPushButton()
        self.save_button.clicked.connect(self.save_current)
        self.accept_button.clicked.connect(self.accept_current)
        self.reject_button.clicked.connect(self.reject_current)
        self.accept_button.setDefault(True)
        self.splitter.addWidget(self._editor())
        self._retranslate_editor()
        current = self.current_draft()
        self._show_draft(current)  # drafts loaded before the editor was there

    def _editor(self) -> QWidget:
        form = QFormLayout()
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)  # a narrow dock
        self.form_labels = [QLabel() for _ in range(3)]
        for label, field in zip(
            self.form_labels, (self.title_edit, self.topics_edit, self.importance_box), strict=True
        ):
            form.addRow(label, field)
        buttons = FlowLayout(spacing=6)  # wraps in a narrow dock instead of widening it
        for button in (self.save_button, self.reject_button, self.accept_button):
            buttons.addWidget(button)
        editor = QWidget()
        column = QVBoxLayout(editor)
        column.setContentsMargins(0, 0, 0, 0)
        column.addLayout(form)
        column.addWidget(self.proposal, 1)
        column.addWidget(self.body_edit, 1)
        column.addWidget(self.source_label)
        column.addLayout(buttons)
        return editor

    def retranslate(self) -> None:
        self._build_editor()
        self._retranslate_editor()
        self._update_count()
        for row, draft in enumerate(self.drafts):
            item = self.list.item(row)
            if item is not None:
                item.setText(self._item_text(draft))

    def _retranslate_editor(self) -> None:
        for label, text in zip(
            self.form_labels,
            (self.tr("Title"), self.tr("Topics"), self.tr("Importance")),
            strict=True,
        ):
            label.setText(text)
        levels = (self.tr("Low"), self.tr("Medium"), self.tr("High"))
        for index, text in enumerate(levels):
            self.importance_box.setItemText(index, text)
        self.save_button.setText(self.tr("Save draft"))
        self.accept_button.setText(self.tr("Accept"))
        self.reject_button.setText(self.tr("Reject"))
        self._show_source(self._shown)

    # -- loading ---------------------------------------------------------------------------

    def poll(self) -> None:
        """Re-read the drafts if the inbox folder's listing changed (another process wrote):
        both on a worker. Skipped while a listing is under way (a slow disk)."""
        if not self._in_flight:
            self._look(self._seen)

    def refresh(self) -> None:
        """Read the drafts again, whatever the listing says (after a write of ours)."""
        self._look(UNSEEN)

    def _look(self, seen: object) -> None:
        inbox = self.inbox

        def work() -> tuple[Listing, list[Draft] | None]:
            listing = listing_of(inbox.folder)
            return listing, (None if listing == seen else inbox.list())

        self._in_flight = True
        self._loading.submit(work, self._looked, self._failed, context=self)

    def _looked(self, answer: tuple[Listing, list[Draft] | None]) -> None:
        self._in_flight = False
        self._seen, drafts = answer
        if drafts is not None:
            self._loaded(drafts)

    def _loaded(self, drafts: list[Draft]) -> None:
        current, keep_editor = self.current_id(), self.has_unsaved_edits()
        self.drafts = drafts
        self.list.blockSignals(True)
        self.list.clear()
        for draft in drafts:
            item = QListWidgetItem(self._item_text(draft))
            item.setSizeHint(QSize(1, self.list.fontMetrics().lineSpacing() * 2 + 6))
            item.setData(ID_ROLE, draft.id)
            item.setToolTip(draft.body[:500])
            self.list.addItem(item)
        row = next((i for i, d in enumerate(drafts) if d.id == current), 0)
        if drafts:
            self.list.setCurrentRow(row)
        self.list.blockSignals(False)
        self._update_count()
        if not (keep_editor and drafts and drafts[row].id == current):
            self._show_draft(drafts[row] if drafts else None)  # unsaved edits are never wiped
        self.drafts_loaded.emit()

    def _item_text(self, draft: Draft) -> str:
        return f"{draft.title}\n{draft.source or ''} · {relative_date(draft.created)}"

    def _failed(self, exc: BaseException) -> None:
        self._in_flight = False
        self.bus.error_reported.emit(str(exc))

    def _update_count(self) -> None:
        count = len(self.drafts)
        if count:
            text = self.tr("%n drafts from AI tools waiting for review", "", count)
        else:
            text = self.tr(
                "No drafts waiting. Memories that AI tools propose over MCP appear here."
            )
        self.count_label.setText(text)
        self.count_changed.emit(count)

    # -- the selected draft ----------------------------------------------------------------

    def current_id(self) -> str:
        item = self.list.currentItem()
        return str(item.data(ID_ROLE)) if item is not None else ""

    def current_draft(self) -> Draft | None:
        return next((d for d in self.drafts if d.id == self.current_id()), None)

    def _selected(self, *_: Any) -> None:
        if self.has_unsaved_edits():  # switching drafts keeps what was typed
            self.save_current()
        self._show_draft(self.current_draft())

    def _show_draft(self, draft: Draft | None) -> None:
        self._build_editor()
        self._shown = draft
        self.title_edit.setText(draft.title if draft else "")
        self.title_edit.setCursorPosition(0)  # a long title shows its start
        self.topics_edit.setText(", ".join(draft.topics) if draft else "")
        level = draft.importance if draft else "medium"
        self.importance_box.setCurrentIndex(max(self.importance_box.findData(level), 0))
        self.body_edit.setPlainText(draft.body if draft else "")
        self._show_source(draft)
        self.proposal.show_for(draft, self.engine.store)
        for widget in (self.title_edit, self.topics_edit, self.importance_box, self.body_edit):
            widget.setEnabled(draft is not None)
        for button in (self.save_button, self.accept_button, self.reject_button):
            button.setEnabled(draft is not None)

    def _show_source(self, draft: Draft | None) -> None:
        source = draft.source if draft else ""
        self.source_label.setText(self.tr("From: {source}").format(source=source) if source else "")

    def edited_draft(self) -> Draft | None:
        """The draft in the editor, with the editor's values."""
        draft = self._shown
        if draft is None or not self._editor_built:
            return None
        topics = self.topics_edit.text().replace("，", ",").split(",")
        return Draft(
            id=draft.id,
            title=self.title_edit.text(),
            body=self.body_edit.toPlainText(),
            topics=[t.strip() for t in topics if t.strip()],
            importance=str(self.importance_box.currentData()),
            source=draft.source,
            created=draft.created,
            path=draft.path,
            extra=dict(draft.extra),  # a proposal stays one when edited
        )

    def has_unsaved_edits(self) -> bool:
        return self._shown is not None and self._differs(self._shown)

    def _differs(self, draft: Draft) -> bool:
        """Whether the editor's values differ from ``draft``'s."""
        edited = self.edited_draft()
        if edited is None:
            return False
        # Saved files end with a line break the editor need not show: not an edit.
        if without_final_newline(draft.body) != without_final_newline(edited.body):
            return True
        fields = ("title", "topics", "importance")
        return any(getattr(draft, f) != getattr(edited, f) for f in fields)

    # -- actions ---------------------------------------------------------------------------

    def save_current(self) -> None:
        edited = self.edited_draft()
        if edited is not None:
            self._write(lambda: self.inbox.update(edited), self._saved)

    def accept_current(self) -> None:
        edited = self.edited_draft()
        if edited is None:
            return
        self.session.accept_draft(
            self.inbox,
            edited,
            update=self.has_unsaved_edits(),
            on_done=self._accepted,
            on_error=self._failed_write,
            initiator=self,
        )

    def reject_current(self) -> None:
        draft = self._shown
        if draft is not None:
            draft_id = draft.id
            self._write(lambda: self.inbox.reject(draft_id), lambda _path: self._rejected(draft))

    def _write(self, work: Callable[[], Any], done: Callable[[Any], None]) -> None:
        write_lane().submit(work, done, self._failed_write, context=self)

    def _saved(self, draft: Draft) -> None:
        if self._shown is not None and self._shown.id == draft.id and not self._differs(draft):
            self._shown = draft  # the editor now matches the file
        self.bus.message_reported.emit(self.tr("Draft saved"))
        self.refresh()

    def _accepted(self, memory: Memory) -> None:
        self.bus.message_reported.emit(
            self.tr("Accepted “{title}” into the vault").format(title=memory.title)
        )
        self.refresh()

    def _rejected(self, draft: Draft) -> None:
        self.bus.message_reported.emit(
            self.tr("Rejected “{title}” (moved to the vault's trash)").format(title=draft.title)
        )
        self.refresh()

    def _failed_write(self, exc: BaseException) -> None:
        self.bus.error_reported.emit(str(exc))
        self.refresh()


def listing_of(folder: Path) -> Listing:
    """The folder's entries with their modification times (on a worker: a ``stat`` each)."""
    try:
        with os.scandir(folder) as entries:
            return frozenset((e.name, e.stat().st_mtime_ns) for e in entries)
    except OSError:
        return None
