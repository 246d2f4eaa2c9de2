"""The memory editor: title, topics, importance, Markdown body with a preview, dirty state.

Saving runs on the write lane through the session; a file changed on disk since it was opened
is never overwritten silently (:func:`prompts.ask_conflict`). Leaving a memory with unsaved
edits asks first (:func:`prompts.ask_unsaved`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QStackedWidget, QWidget

from pixelmem.core.errors import ConflictError, PixelmemError
from pixelmem.core.vault.memory import DEFAULT_IMPORTANCE, Memory, preview_line
from pixelmem.gui.bus import DELETED, ChangeSet, MemoryBus
from pixelmem.gui.editor import prompts
from pixelmem.gui.editor.editor_form import EditorForm, parse_aliases, parse_topics
from pixelmem.gui.editor.link_completion import LinkCompleter
from pixelmem.gui.editor.properties import PropertiesError
from pixelmem.gui.session import VaultSession, describe_error

Then = Callable[[], None] | None


def utf16_offset(text: str, index: int) -> int:
    """Qt counts UTF-16 units (and shows ``\\r\\n`` as one break); Python counts code points."""
    prefix = text[: max(0, index)].replace("\r\n", "\n")
    return len(prefix.encode("utf-16-le")) // 2


class MemoryEditor(QStackedWidget):
    """Shows one memory (or a new draft). ``memory_opened(id)`` with "" for a draft / nothing."""

    memory_opened = Signal(str)
    dirty_changed = Signal(bool)
    saved = Signal(object)  # the saved Memory
    title_changed = Signal(str, str, str)  # (memory id, old title, new title) after a save

    def __init__(
        self, session: VaultSession, bus: MemoryBus, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.form = EditorForm(session.engine.vault, self)
        self.form.preview.notes = session.store.list  # ![[embeds]], looked up on a worker
        self.link_completer = LinkCompleter(self.form.body_edit, session, bus)
        self.placeholder = self.form.placeholder_page()
        self.addWidget(self.placeholder)
        self.addWidget(self.form)
        self._memory: Memory | None = None  # what is on disk, as last read or saved
        self._open = False
        self._saving = False
        self._dirty = False
        self._renaming = False  # our save renamed the file: its row is being replaced
        self._after_save: list[Callable[[], None]] = []
        self.form.changed.connect(self._update_dirty)
        self.form.save_requested.connect(lambda: self.save())
        self.form.delete_requested.connect(self._delete)
        bus.memory_updated.connect(self._memory_updated)

    # -- state -----------------------------------------------------------------------------

    @property
    def current_id(self) -> str | None:
        return self._memory.id if self._open and self._memory is not None else None

    @property
    def is_open(self) -> bool:
        return self._open

    @property
    def is_dirty(self) -> bool:
        return self._dirty

    def _update_dirty(self) -> None:
        dirty = self._open and self.form.differs_from(self._memory)
        self.form.show_dirty(dirty)
        if dirty != self._dirty:
            self._dirty = dirty
            self.dirty_changed.emit(dirty)

    # -- opening ---------------------------------------------------------------------------

    def open_memory(
        self, memory_id: str, span: tuple[int, int] | None = None, terms: Sequence[str] = ()
    ) -> None:
        """Show a memory (asking about unsaved edits first); ``span`` selects part of the body
        and ``terms`` are marked in it."""
        if self._renaming:  # the list's row moved off the renamed file's old row: not a choice
            return
        if self.current_id == memory_id and not self._saving:
            if span is not None:
                self.select_span(*span, terms)
            return
        self.maybe_save(lambda: self._load_id(memory_id, span, terms))

    def _load_id(
        self, memory_id: str, span: tuple[int, int] | None, terms: Sequence[str] = ()
    ) -> None:
        try:
            memory = self.session.store.get(memory_id)
        except PixelmemError as exc:
            self.session.bus.error_reported.emit(describe_error(exc))
            return
        self.load(memory)
        if span is not None:
            self.select_span(*span, terms)

    def load(self, memory: Memory) -> None:
        """Show ``memory`` as saved on disk (no prompt; callers asked already)."""
        self._memory, self._open = memory, True
        self.form.fill(memory)
        self.setCurrentWidget(self.form)
        self._update_dirty()
        self.memory_opened.emit(memory.id)

    def new_memory(self) -> None:
        """A blank draft; the file is created on the first save."""
        self.maybe_save(self._new_draft)

    def _new_draft(self) -> None:
        self._memory, self._open = None, True
        self.form.fill(Memory(id="", title="", importance=DEFAULT_IMPORTANCE))
        self.setCurrentWidget(self.form)
        self.form.title_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self._update_dirty()
        self.memory_opened.emit("")

    def close_memory(self) -> None:
        self._memory, self._open = None, False
        self.setCurrentWidget(self.placeholder)
        self._update_dirty()
        self.memory_opened.emit("")

    def select_span(self, start: int, end: int, terms: Sequence[str] = ()) -> None:
        """Show body[start:end] (a search hit's chunk): scrolled into view and selected, with
        the matched words marked. A chunk that is the whole body is not selected: a fully
        blue page says nothing, the marked words do."""
        self.form.show_preview(False)
        body = self.form.body_edit
        text = self._memory.body if self._memory is not None else body.toPlainText()
        last = body.document().characterCount() - 1
        begin, finish = min(utf16_offset(text, start), last), min(utf16_offset(text, end), last)
        cursor = body.textCursor()
        cursor.setPosition(finish)
        body.setTextCursor(cursor)  # scroll so the end, then the start, is visible
        cursor.setPosition(begin)
        if finish - begin < 0.9 * last:
            cursor.setPosition(finish, QTextCursor.MoveMode.KeepAnchor)
        body.setTextCursor(cursor)
        body.centerCursor()
        self.form.mark_terms(terms, begin, finish)
        body.setFocus(Qt.FocusReason.OtherFocusReason)

    # -- saving ----------------------------------------------------------------------------

    def draft(self) -> Memory:
        """The memory as the fields show it now (the original's fingerprint kept)."""
        form = self.form
        body = form.body_text(self._memory)
        title = form.title_edit.text().strip() or preview_line(body)[:80] or self.tr("Untitled")
        old_extra = self._memory.extra if self._memory is not None else {}
        extra, dropped = form.properties.properties(old_extra)  # PropertiesError if unreadable
        fields: dict[str, Any] = {
            "title": title,
            "topics": parse_topics(form.topics_edit.text()),
            "aliases": parse_aliases(form.aliases_edit.text()),
            "importance": form.importance_combo.currentData() or DEFAULT_IMPORTANCE,
            "body": body,
            "extra": extra,
            "drop_keys": dropped,
        }
        if self._memory is None:
            return Memory(id="", **fields)
        return dataclasses.replace(self._memory, **fields)

    def save(self, then: Then = None, *, force: bool = False) -> None:
        """Write the draft; ``then`` runs after a successful save."""
        if not self._open:
            return
        if then is not None:
            self._after_save.append(then)
        if self._saving:
            return  # the running save will pick up the queued follow-up
        if not self._dirty and not force:  # nothing to write (an empty draft is not saved)
            self._finish_save()
            return
        try:
            draft = self.draft()
        except PropertiesError as exc:
            self._after_save.clear()
            self.form.show_banner(
                self.tr("Not saved: the properties cannot be read ({why}).").format(why=exc)
            )
            return
        self._saving = True
        if self._memory is None:
            self.session.create(
                draft, lambda m: self._saved(m, draft), self._save_failed, initiator=self
            )
        else:
            self.session.save(
                draft,
                force=force,
                on_done=lambda m: self._saved(m, draft),
                on_error=self._save_failed,
                initiator=self,
            )

    def _saved(self, memory: Memory, sent: Memory) -> None:
        self._saving = self._renaming = False
        old_title = self._memory.title if self._memory is not None else ""
        self._memory = memory
        self.form.accept_saved(memory, sent)  # edits typed during the save stay dirty
        self._update_dirty()
        self.memory_opened.emit(memory.id)
        self.saved.emit(memory)
        self.session.bus.message_reported.emit(
            self.tr("Saved “{title}”").format(title=memory.title)
        )
        if old_title and old_title != memory.title:
            self.title_changed.emit(memory.id, old_title, memory.title)
        self._finish_save()

    def _finish_save(self) -> None:
        pending, self._after_save = self._after_save, []
        for then in pending:
            then()

    def _save_failed(self, exc: BaseException) -> None:
        self._saving = self._renaming = False
        if isinstance(exc, ConflictError) and self._memory is not None:
            self._resolve_conflict()
            return
        self._after_save.clear()
        self.session.bus.error_reported.emit(describe_error(exc))

    def _resolve_conflict(self) -> None:
        assert self._memory is not None
        choice = prompts.ask_conflict(self, self._memory.title)
        if choice == prompts.OVERWRITE:
            self.save(force=True)
        elif choice == prompts.KEEP_BOTH:
            draft = self.draft()
            self._saving = True
            self.session.save_copy(draft, lambda m: self._kept_both(m), initiator=self)
        elif choice == prompts.RELOAD:
            self._after_save.clear()
            self.session.reload(self._memory, self.load, initiator=self)
        else:
            self._after_save.clear()

    def _kept_both(self, copy: Memory) -> None:
        self._saving = False
        self.load(copy)
        self._finish_save()

    def maybe_save(self, then: Callable[[], None]) -> None:
        """Run ``then`` once unsaved edits are saved or discarded; not at all on Cancel."""
        if not self._dirty:
            then()
            return
        answer = prompts.ask_unsaved(self, self.form.title_edit.text().strip())
        if answer == prompts.SAVE:
            self.save(then)
        elif answer == prompts.DISCARD:
            self._dirty = False
            then()

    # -- changes from elsewhere ------------------------------------------------------------

    def _delete(self) -> None:
        if self.current_id:
            self.delete_current()
        elif self._open:  # an unsaved draft: nothing on disk to trash
            self.close_memory()

    def delete_current(self) -> None:
        """Trash the open memory; its unsaved edits go with it (the user asked, and can undo)."""
        memory_id = self.current_id
        if memory_id:
            self._dirty = False
            self.session.delete(memory_id)

    def _follow_rename(self, changes: ChangeSet, memory_id: str) -> None:
        """Our save renamed the file (a new title in an Obsidian vault) and its id, which came
        from its path, changed: the editor takes the new id before the list drops the old row,
        so the list's current row moving to a neighbour neither opens it nor asks to save."""
        renamed = len(changes.created) == 1 and changes.action_of(memory_id) == DELETED
        if self._saving and self._memory is not None and renamed:
            self._memory = dataclasses.replace(self._memory, id=changes.created[0])
            self._renaming = True

    def _memory_updated(self, changes: ChangeSet, initiator: object) -> None:
        memory_id = self.current_id
        if initiator is self and memory_id is not None:
            self._follow_rename(changes, memory_id)
        if initiator is self or memory_id is None:
            return  # our own save is already shown
        action = changes.action_of(memory_id)
        if action is None:
            return
        if action == DELETED:
            if self._dirty:  # keep the words; saving will create the memory again
                self._memory = None
                self.form.show_banner(self.tr("This memory was deleted. Saving creates it again."))
            else:
                self.close_memory()
            return
        try:
            fresh = self.session.store.get(memory_id)
        except PixelmemError:
            return
        if self._dirty:
            self.form.show_banner(
                self.tr("This memory changed on disk. Saving will ask what to do.")
            )
        else:
            self.form.refill(fresh)  # keeps the cursor where it was
            self._memory = fresh
            self._update_dirty()
