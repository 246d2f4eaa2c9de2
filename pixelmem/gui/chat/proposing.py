"""The chat pane asks its model for memories from the conversation: on the Propose memories
button, and on its own when a conversation ends (a new chat, another one chosen) with
``chat.extract_on_end on``. Proposals wait in the review inbox; the status bar says how many.

The request runs on a worker (it is a whole answer from the model); a conversation is proposed
from at most once per session on its own, however often it is left.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from pixelmem.core.archive.inbox import Inbox
from pixelmem.core.assist.conversations import Conversation
from pixelmem.gui.session import describe_error
from pixelmem.gui.workers import run_in_pool, write_lane

if TYPE_CHECKING:
    from pixelmem.gui.chat.pane_parts import PaneParts

    _Base = PaneParts
else:
    _Base = object


class ProposingMixin(_Base):
    def propose_memories(self, conversation: Conversation | None = None) -> None:
        """Ask for memories from ``conversation`` (the one shown if None) on a worker."""
        conversation = copy.deepcopy(conversation or self.conversation)
        if not any(m.role == "assistant" and m.content for m in conversation.messages):
            return
        if not self.settings.chat.provider:
            return
        self._mark_proposed(conversation.id, len(conversation.messages))
        engine, inbox, chat = self.engine, Inbox(self.engine.vault), self.settings.chat
        self.bus.message_reported.emit(self.tr("Asking the model for memories…"))

        def work() -> Any:
            from pixelmem.core.assist.extraction import propose_from_messages

            return propose_from_messages(
                engine, inbox, chat, conversation.messages, conversation=conversation
            )

        run_in_pool(
            work,
            self._proposed,
            lambda exc: self.bus.error_reported.emit(describe_error(exc)),
            context=self,
        )

    def _proposed(self, report: Any) -> None:
        count = len(report.drafts)
        if count:
            text = self.tr("%n proposed memories wait in the review inbox", "", count)
        else:
            text = self.tr("The model found nothing new to remember in this conversation")
        self.bus.message_reported.emit(text)
        self.proposals_made.emit(count)

    def _conversation_ending(self) -> None:
        """The shown conversation is being left: propose from it if the setting says so and
        answers came since the last proposal (quitting does not end it: it is shown again at
        the next start, and proposed from when it is left then)."""
        conversation = self.conversation
        if self.settings.chat.extract_on_end == "on" and conversation.unproposed_answers():
            self.propose_memories(conversation)

    def _mark_proposed(self, conversation_id: str, count: int) -> None:
        """Remember in the conversation's file how far it was proposed from (no new time:
        proposing is not a change of the conversation)."""
        for held in (self.conversation, self._saved.get(conversation_id)):
            if held is not None and held.id == conversation_id:
                held.proposed = max(held.proposed, count)
        saved = self._saved.get(conversation_id)
        if saved is None:
            return  # never saved (nothing to remember it in)
        snapshot, store = copy.deepcopy(saved), self.conversations
        write_lane().submit(
            lambda: store.save(snapshot, touch=False),
            None,
            lambda exc: self.bus.error_reported.emit(describe_error(exc)),
            context=self,
        )
