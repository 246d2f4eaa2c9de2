"""The chat pane's conversations: saved after every turn, restored on start, listed, renamed,
deleted, and the last answer regenerated.

A mixin of :class:`~pixelmem.gui.chat.pane.ChatPane` (it uses the pane's widgets and its
``ask``); kept apart so the pane's module stays about one idea, the turn. Files are written on
the write lane; the list is read on a worker when the pane opens (every saved chat is a YAML
file to parse: hundreds of them took the window's thread for as long as they took to read) and
then kept in memory.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QInputDialog, QMessageBox

from pixelmem.core.assist.conversation import ChatMemories, restored_prompt
from pixelmem.core.assist.conversations import ChatMessage, Conversation
from pixelmem.core.providers.chat import LENGTH
from pixelmem.gui.session import describe_error
from pixelmem.gui.workers import run_in_pool, write_lane

if TYPE_CHECKING:
    from pixelmem.gui.chat.pane_parts import PaneParts

    _Base = PaneParts
else:
    _Base = object


class ConversationsMixin(_Base):
    def _save_conversation(self) -> None:
        self.conversation.pinned = list(self.memories.pinned)
        self.conversation.excluded = list(self.memories.excluded)
        snapshot, store = copy.deepcopy(self.conversation), self.conversations
        self._saved = {snapshot.id: snapshot, **self._saved}  # the newest first
        self._saved[snapshot.id] = snapshot
        self._refresh_conversation_list()
        write_lane().submit(
            lambda: store.save(snapshot),
            None,
            lambda exc: self.bus.error_reported.emit(describe_error(exc)),
            context=self,
        )

    def clear(self) -> None:
        """A new chat: messages and exclusions go, pinned memories stay (the old chat is kept
        on disk)."""
        self.stop()
        self._conversation_ending()
        self._show(Conversation(pinned=list(self.memories.pinned)))

    def regenerate(self) -> None:
        """Take the last turn back and ask its question again."""
        messages = self.conversation.messages
        if self.busy or len(messages) < 2 or messages[-2].role != "user":
            return
        question = messages[-2].content
        del messages[-2:]
        widgets = self.message_widgets()
        for widget in widgets[-2:]:
            self.body.remove_message(widget)
            self._turn_by_message.pop(id(widget), None)
        self._panels = [p for p in self._panels if p.parent() not in widgets[-2:]]
        self._turn = None
        self.ask(question)

    # -- conversations on disk -------------------------------------------------------------

    def _restore_latest(self) -> None:
        """Show the latest saved conversation once the list is read; a new chat meanwhile."""
        self._refresh_conversation_list()
        self._list_saved(self._restore_listed)

    def _restore_listed(self) -> None:
        # A question asked while the list was read made this chat the one to keep.
        if self._saved and not self.conversation.messages:
            self._show(copy.deepcopy(next(iter(self._saved.values()))))

    def _show(self, conversation: Conversation) -> None:
        """Show ``conversation`` (its messages, pins and exclusions) as the current chat."""
        self._turn = None
        self._turn_by_message.clear()
        self._panels.clear()
        self.body.clear_messages()
        self.conversation = conversation
        self.memories = ChatMemories()
        for memory_id in conversation.pinned:
            if memory_id in self.engine.store:
                self.memories.pin(memory_id, self.engine.store.get(memory_id).title)
        for memory_id in conversation.excluded:
            self.memories.exclude(memory_id)
        for message in conversation.messages:
            self._show_saved(message)
        self._update_actions()
        self._refresh_state()
        self._refresh_conversation_list()

    def _show_saved(self, saved: ChatMessage) -> None:
        if saved.role == "user":
            self._add_message("user", self.tr("You")).view.set_plain(saved.content)
            return
        message = self._add_message("assistant", self._model_name())
        message.view.set_markdown(saved.content, {u["id"]: u["title"] for u in saved.used})
        message.reasoning.set_text(saved.reasoning)
        status = {
            LENGTH: self.tr("stopped at the token limit"),
            "stopped": self.tr("stopped"),
            "cutoff": self.tr("cut off"),
            "failed": self.tr("failed"),
        }.get(saved.state, "")
        message.set_status(status)
        message.offer_code_blocks()
        if saved.error:
            message.show_error(saved.error, offer_settings=False)
        prompt = restored_prompt(saved)
        titles = {u.id: u.title for u in prompt.used}
        panel = self._add_panel(message, prompt, titles)
        panel.prompt_button.hide()  # the exact prompt of a past session is not kept

    def _update_actions(self) -> None:
        """Regenerate is offered on the last answer only, and not while one is coming."""
        answers = [m for m in self.message_widgets() if m.role == "assistant"]
        for message in answers:
            message.regenerate_button.setVisible(message is answers[-1] and not self.busy)

    def reload_conversations(self) -> None:
        """Conversations written by someone else (an import): listed again."""
        self._list_saved(lambda: None)

    def _list_saved(self, then: Callable[[], None]) -> None:
        """Read the vault's conversations on a worker, newest first; then list them and call
        ``then`` (on the GUI thread). What this pane saved meanwhile stays, as it has it."""

        def listed(found: list[Conversation]) -> None:
            here = self._saved  # saved by this pane since: the newest, as it has them
            self._saved = {**here, **{c.id: c for c in found if c.id not in here}}
            self._refresh_conversation_list()
            then()
            self.conversations_read = True
            self.conversations_listed.emit()

        run_in_pool(self.conversations.list, listed, context=self)

    def _refresh_conversation_list(self) -> None:
        current = self.conversation
        items = [(c.id, c.named()) for c in self._saved.values() if c.id != current.id]
        items.insert(0, (current.id, current.named() or self.tr("New chat")))
        self.body.conversation_bar.set_items(items, current.id)
        self.body.conversation_bar.delete_button.setEnabled(bool(current.messages))
        self.body.conversation_bar.rename_button.setEnabled(bool(current.messages))
        self.body.conversation_bar.propose_button.setEnabled(bool(current.messages))

    def choose_conversation(self, conversation_id: str) -> None:
        """Show a saved conversation (an answer still coming is stopped first)."""
        if conversation_id == self.conversation.id or conversation_id not in self._saved:
            return
        self.stop()
        self._conversation_ending()
        self._show(copy.deepcopy(self._saved[conversation_id]))

    def rename_conversation(self, title: str | None = None) -> None:
        if title is None:
            title, ok = QInputDialog.getText(
                self, self.tr("Rename chat"), self.tr("Name:"), text=self.conversation.named()
            )
            if not ok:
                return
        self.conversation.title = " ".join(title.split())
        self._save_conversation()

    def delete_conversation(self, *, confirm: bool = True) -> None:
        """Set the shown conversation aside (``chats/deleted/``) and show the next newest."""
        conversation = self.conversation
        if confirm:
            answer = QMessageBox.question(
                self,
                self.tr("Delete chat"),
                self.tr("Delete “{name}”?").format(name=conversation.named()),
            )
            if answer != QMessageBox.StandardButton.Yes:
                return
        self.stop()
        self._saved.pop(conversation.id, None)
        store = self.conversations
        write_lane().submit(
            lambda: store.delete(conversation.id),
            None,
            lambda exc: self.bus.error_reported.emit(describe_error(exc)),
            context=self,
        )
        rest = list(self._saved.values())
        self._show(copy.deepcopy(rest[0]) if rest else Conversation(pinned=self.pinned))
