"""The chat pane: ask the configured model, with the relevant memories injected and shown.

Each message goes through three steps, none of them on the GUI thread: build the prompt
(search + injection rules, :mod:`pixelmem.core.assist.injection`) on a pool worker, stream the
answer
on the pane's own pool (tokens come back as queued signals), save drafts on the write lane.
Under every answer the memories it was given are listed; pins and exclusions apply to the
following messages of this chat. "Clear" starts a new chat: it forgets the messages and the
exclusions but keeps the pinned memories, which stay visible as chips at the top.

Every finished turn is saved (write lane) as the conversation's file in the vault's
``.pixelmem/chats/`` (:mod:`pixelmem.core.assist.conversations`); the newest conversation comes back
when the pane opens. The last answer can be regenerated: the turn is taken back and asked again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any

from PySide6.QtCore import QThreadPool, QTimer, Signal, Slot
from PySide6.QtWidgets import QWidget

from pixelmem.core.assist.conversation import (
    ChatMemories,
    Prepared,
    Turn,
    empty_answer_text,
    prepare,
    record_turn,
)
from pixelmem.core.assist.conversations import Conversation, ConversationStore
from pixelmem.core.assist.injection import InjectedPrompt, Message
from pixelmem.core.errors import (
    AnswerCutOff,
    ContextExceeded,
    InvalidIdError,
    MemoryNotFound,
    PixelmemError,
    ProviderAuthError,
    ProviderModelNotFound,
    ProviderUnavailable,
)
from pixelmem.core.providers.chat import (
    LENGTH,
    OLLAMA_DEFAULT_MODEL,
    OPENAI_DEFAULT_MODEL,
    ChatNotConfigured,
    create_chat_client,
)
from pixelmem.core.settings import Settings
from pixelmem.core.vault.memory import Memory
from pixelmem.gui.bus import ChangeSet, MemoryBus
from pixelmem.gui.chat.body import ChatBody
from pixelmem.gui.chat.dialogs import Draft, PromptDialog, SaveMemoryDialog, draft_from_text
from pixelmem.gui.chat.history import ConversationsMixin
from pixelmem.gui.chat.proposing import ProposingMixin
from pixelmem.gui.chat.state import StreamSignals, stream_job
from pixelmem.gui.chat.widgets import MemoriesPanel, MessageWidget
from pixelmem.gui.session import VaultSession, describe_error
from pixelmem.gui.widgets.sized_dock import SizedDock
from pixelmem.gui.workers import run_in_pool

log = logging.getLogger(__name__)

RENDER_INTERVAL_MS = 30  # re-render the streamed Markdown at most this often
_SETTINGS_ERRORS = (
    ChatNotConfigured,
    ProviderUnavailable,
    ProviderAuthError,
    ProviderModelNotFound,
    ContextExceeded,
)


class ChatPane(ConversationsMixin, ProposingMixin, SizedDock):
    """Dockable chat with memory injection. Connect ``open_memory_requested`` to the editor and
    ``settings_requested`` to the settings dialog; call :meth:`shutdown` before quitting."""

    open_memory_requested = Signal(str)
    settings_requested = Signal()
    prompt_ready = Signal(object)  # the InjectedPrompt of the message being answered
    answer_finished = Signal(str)  # done | stopped | cutoff | failed | unconfigured
    memory_saved = Signal(str)  # id of a memory saved from the chat
    proposals_made = Signal(int)  # how many memories a conversation's proposal put in the inbox
    conversations_listed = Signal()  # the saved conversations were read (on a worker)

    def __init__(
        self,
        engine: Any,
        bus: MemoryBus,
        settings: Settings,
        parent: QWidget | None = None,
        *,
        session: VaultSession | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("chatPane")
        self.engine = engine
        self.bus = bus
        # Saving as a memory goes through the app's session (one write lane and gateway).
        self.session = session or VaultSession(engine, bus, parent=self)
        self.settings = settings
        self.last_dialog: SaveMemoryDialog | PromptDialog | None = None
        self.memories = ChatMemories()
        self.conversations = ConversationStore(engine.vault)
        self.conversation = Conversation()
        self._saved: dict[str, Conversation] = {}  # on disk, newest first
        self.conversations_read = False  # the saved ones listed (history._list_saved)
        self._turn: Turn | None = None
        self._turns = 0
        self._turn_by_message: dict[int, Turn] = {}
        self._panels: list[MemoriesPanel] = []
        self._pool = QThreadPool(self)  # streams may wait minutes: keep them off the shared pool
        self._pool.setMaxThreadCount(4)
        self._render_timer = QTimer(self, singleShot=True, interval=RENDER_INTERVAL_MS)
        self._render_timer.timeout.connect(self._render_turn)
        self.body = ChatBody(lambda memory_id: memory_id in engine.store)
        self.setWidget(self.body)
        self.input = self.body.input
        self._connect()
        self.retranslate()
        self._update_banner()
        self._restore_latest()
        self._refresh_state()

    def _connect(self) -> None:
        body = self.body
        body.banner_button.clicked.connect(self.settings_requested)
        body.pinned_bar.removed.connect(self.unpin)
        body.pinned_bar.open_memory.connect(self.open_memory_requested)
        body.excluded_bar.removed.connect(self.include)
        body.excluded_bar.open_memory.connect(self.open_memory_requested)
        body.memories_dropped.connect(self._pin_all)
        body.input.submitted.connect(self.send)
        body.send_button.clicked.connect(self.send)
        body.stop_button.clicked.connect(self.stop)
        body.preview_button.clicked.connect(self.preview_prompt)
        body.clear_button.clicked.connect(self.clear)
        body.conversation_bar.chosen.connect(self.choose_conversation)
        body.conversation_bar.rename_requested.connect(self.rename_conversation)
        body.conversation_bar.delete_requested.connect(self.delete_conversation)
        body.conversation_bar.propose_requested.connect(lambda: self.propose_memories())
        self.bus.memory_updated.connect(self._on_memory_updated)
        self.bus.settings_changed.connect(self.set_settings)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Chat"))
        self.body.retranslate()
        self._refresh_conversation_list()  # "New chat" for the one not saved yet

    # -- settings --------------------------------------------------------------------------

    @Slot(object)
    def set_settings(self, settings: Settings) -> None:
        self.settings = settings
        self._update_banner()

    def _update_banner(self) -> None:
        self.body.banner.setVisible(not self.settings.chat.provider)

    def _model_name(self) -> str:
        chat = self.settings.chat
        default = OLLAMA_DEFAULT_MODEL if chat.provider == "ollama" else OPENAI_DEFAULT_MODEL
        return chat.model or default if chat.provider else self.tr("Assistant")

    # -- sending ---------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        return self._turn is not None and self._turn.active

    @Slot()
    def send(self) -> None:
        """Send the input box's text (Enter); ignored while an answer is still coming."""
        question = self.input.toPlainText().strip()
        if not question or self.busy:
            return
        self.input.clear()
        self.ask(question)

    def ask(self, question: str) -> None:
        """Ask ``question`` as the next turn of this conversation."""
        user = self._add_message("user", self.tr("You"))
        user.view.set_plain(question)
        message = self._add_message("assistant", self._model_name())
        message.set_status(self.tr("searching memories…"))
        self._turns += 1
        turn = Turn(self._turns, question, message)
        self._turn = turn
        self._turn_by_message[id(message)] = turn
        self.body.set_busy(True)
        self._update_actions()
        history = self.conversation.history()  # injection keeps the newest turns that fit
        run_in_pool(
            self._prepare_job(question, history),
            lambda prepared: self._on_prepared(turn, prepared),
            lambda exc: self._on_failed(turn, exc),
            context=self,
        )

    def _prepare_job(self, question: str, history: list[Message]) -> Callable[[], Prepared]:
        """Search and injection for a worker: a snapshot of the pins goes in, plain data out."""
        engine, memories = self.engine, self.memories
        pinned, excluded = list(memories.pinned), set(memories.excluded)
        chat = self.settings.chat
        return lambda: prepare(
            engine, question, pinned=pinned, excluded=excluded, history=history, chat=chat
        )

    def _on_prepared(self, turn: Turn, prepared: Prepared) -> None:
        if turn is not self._turn or turn.state != "searching":
            return  # stopped or cleared meanwhile
        turn.prepared = prepared
        self._add_memories_panel(turn, prepared)
        self.prompt_ready.emit(prepared.prompt)
        try:
            client = create_chat_client(prepared.chat or self.settings.chat)
        except ChatNotConfigured as exc:
            turn.state = "unconfigured"
            turn.message.set_status("")
            turn.message.show_error(describe_error(exc), offer_settings=True)
            self._end_turn(turn, "unconfigured")
            return
        turn.state = "waiting"
        turn.message.set_status(self.tr("waiting for the model…"))
        signals = StreamSignals()
        signals.token.connect(self._on_token)
        signals.reasoning.connect(self._on_reasoning)
        job = stream_job(client, prepared.prompt.messages, turn.cancel, signals, turn.number)
        run_in_pool(
            job,
            lambda reason: self._on_stream_end(turn, reason),
            lambda exc: self._on_failed(turn, exc),
            pool=self._pool,
            context=self,
        )

    @Slot(int, str)
    def _on_reasoning(self, number: int, piece: str) -> None:
        turn = self._turn
        if turn is None or turn.number != number or not turn.active:
            return
        if turn.state == "waiting":
            turn.state = "thinking"
            turn.message.set_status(self.tr("thinking…"))
        turn.reasoning += piece  # shown collapsed, also when the server ignored chat.think off
        turn.message.reasoning.add(piece)

    @Slot(int, str)
    def _on_token(self, number: int, piece: str) -> None:
        turn = self._turn
        if turn is None or turn.number != number or not turn.active:
            return  # a stopped stream's last tokens
        if turn.state in ("waiting", "thinking"):
            turn.state = "streaming"
            turn.message.set_status(self.tr("answering…"))
        turn.text += piece
        if not self._render_timer.isActive():
            self._render_timer.start()

    def _render_turn(self, turn: Turn | None = None) -> None:
        turn = turn or self._turn
        if turn is not None:
            titles = turn.prepared.titles if turn.prepared else {}
            turn.message.view.set_markdown(turn.text, titles)

    def _on_stream_end(self, turn: Turn, reason: str = "") -> None:
        if turn is not self._turn or not turn.active:
            return
        self._render_turn(turn)
        if not turn.text.strip():
            turn.message.set_status(self.tr("no answer"))
            chat = turn.prepared.chat if turn.prepared and turn.prepared.chat else None
            message = empty_answer_text(turn, reason, chat or self.settings.chat)
            turn.message.show_error(message, offer_settings=True)
        elif reason == LENGTH:
            note = self.tr("stopped at the token limit (chat.max_tokens = {n})")
            turn.message.set_status(note.format(n=f"{self.settings.chat.max_tokens:,}"))
        else:
            turn.message.set_status("")
        self._end_turn(turn, "done", LENGTH if reason == LENGTH else "done")

    def _on_failed(self, turn: Turn, exc: BaseException) -> None:
        if turn is not self._turn or not turn.active:
            return
        if not isinstance(exc, PixelmemError):  # a bug, not a provider's fault: keep the trace
            log.error("chat failed", exc_info=exc)
        self._render_turn(turn)
        # An answer that stopped mid-way is marked as such: its text stays, and is not trusted
        # as a complete answer (the model sees it again only as what it was).
        cut_off = isinstance(exc, AnswerCutOff)
        turn.message.set_status(self.tr("cut off") if cut_off else self.tr("failed"))
        turn.message.show_error(
            describe_error(exc), offer_settings=isinstance(exc, _SETTINGS_ERRORS)
        )
        self._end_turn(turn, "cutoff" if cut_off else "failed")

    @Slot()
    def stop(self) -> None:
        """Stop the answer now; what arrived so far stays (and is remembered by the chat)."""
        turn = self._turn
        if turn is None or not turn.active:
            return
        turn.cancel.set()  # also shuts the socket, so the worker ends at once
        self._render_turn(turn)
        turn.message.set_status(self.tr("stopped"))
        self._end_turn(turn, "stopped")

    def _end_turn(self, turn: Turn, state: str, saved_state: str = "") -> None:
        self._render_timer.stop()
        turn.state = state
        turn.message.offer_code_blocks()
        self.body.set_busy(False)
        if state != "unconfigured":
            error = turn.message.error_label.text() if state in ("failed", "cutoff") else ""
            record_turn(self.conversation, turn, saved_state or state, error)
            self._save_conversation()
        self._update_actions()
        self.input.setFocus()
        self.answer_finished.emit(state)

    def shutdown(self, msecs: int = 5000) -> bool:
        """Stop any answer and wait for the stream worker (before the app quits)."""
        self.stop()
        return self._pool.waitForDone(msecs)

    # -- messages and panels ---------------------------------------------------------------

    def _add_message(self, role: str, sender: str) -> MessageWidget:
        message = MessageWidget(role, sender)
        message.regenerate_requested.connect(self.regenerate)
        message.view.memory_link_clicked.connect(self.open_memory_requested)
        message.save_requested.connect(lambda text: self.save_as_memory(text, message))
        message.settings_requested.connect(self.settings_requested)
        self.body.add_message(message)
        return message

    def message_widgets(self) -> list[MessageWidget]:
        return self.body.message_widgets()

    def _add_memories_panel(self, turn: Turn, prepared: Prepared) -> None:
        self._add_panel(turn.message, prepared.prompt, prepared.titles)

    def _add_panel(
        self, message: MessageWidget, prompt: InjectedPrompt, titles: dict[str, str]
    ) -> MemoriesPanel:
        panel = MemoriesPanel(prompt, titles)
        panel.open_memory.connect(self.open_memory_requested)
        panel.pin_toggled.connect(lambda mid, on: self.pin(mid) if on else self.unpin(mid))
        panel.exclude_toggled.connect(
            lambda mid, on: self.exclude(mid) if on else self.include(mid)
        )
        panel.show_prompt.connect(lambda: self._show_prompt(prompt, sent=True))
        message.add_below(panel)
        self._panels.append(panel)
        for used in prompt.used:
            self.memories.titles.setdefault(used.id, used.title)
        panel.update_state(set(self.memories.pinned), set(self.memories.excluded))
        return panel

    # -- pins and exclusions (they shape the next prompt) ------------------------------------

    @Slot(str)
    def pin(self, memory_id: str) -> None:
        """Send this memory with every following message of the chat (the editor calls it)."""
        if memory_id in self.memories.pinned:
            return
        try:
            title = self.engine.store.get(memory_id).title
        except (MemoryNotFound, InvalidIdError) as exc:
            self.bus.error_reported.emit(describe_error(exc))
            self._refresh_state()  # a row's Pin button must not stay checked
            return
        self.memories.pin(memory_id, title)
        self._refresh_state()

    @Slot(str)
    def unpin(self, memory_id: str) -> None:
        self.memories.unpin(memory_id)
        self._refresh_state()

    @Slot(str)
    def exclude(self, memory_id: str) -> None:
        """Never send this memory again in this chat (it also stops being pinned)."""
        self.memories.exclude(memory_id)
        self._refresh_state()

    @Slot(str)
    def include(self, memory_id: str) -> None:
        self.memories.include(memory_id)
        self._refresh_state()

    @property
    def pinned(self) -> list[str]:
        return list(self.memories.pinned)

    @property
    def excluded(self) -> list[str]:
        return list(self.memories.excluded)

    def _pin_all(self, ids: Iterable[str]) -> None:
        for memory_id in ids:
            self.pin(memory_id)

    def _refresh_state(self) -> None:
        memories = self.memories
        self.body.pinned_bar.set_items(memories.items(memories.pinned))
        self.body.excluded_bar.set_items(memories.items(memories.excluded))
        self.body.excluded_bar.setVisible(bool(memories.excluded))
        for panel in self._panels:
            panel.update_state(set(memories.pinned), set(memories.excluded))

    @Slot(object, object)
    def _on_memory_updated(self, changes: ChangeSet, _initiator: object) -> None:
        """Keep the chips current: a deleted memory goes, a renamed one shows its new title."""
        known = [i for i in changes.ids if self.memories.knows(i)]
        for memory_id in known:
            try:
                deleted = memory_id in changes.deleted
                memory = None if deleted else self.engine.store.get(memory_id)
            except (MemoryNotFound, InvalidIdError):
                memory = None
            if memory is None:
                self.memories.forget(memory_id)
            else:
                self.memories.titles[memory_id] = memory.title
        if known:
            self._refresh_state()

    # -- prompts -------------------------------------------------------------------------------

    @Slot()
    def preview_prompt(self) -> None:
        """What the model would get for the text in the input box, without sending anything."""
        question = self.input.toPlainText().strip()
        history = self.conversation.history()
        run_in_pool(
            self._prepare_job(question, history),
            lambda prepared: self._show_prompt(prepared.prompt, sent=False),
            lambda exc: self.bus.error_reported.emit(describe_error(exc)),
            context=self,
        )

    def _show_prompt(self, prompt: InjectedPrompt, *, sent: bool) -> None:
        count = len(prompt.used)
        context = self.tr("%n memories, {chars} of {budget} context characters", "", count)
        context = context.format(chars=f"{prompt.context_chars:,}", budget=f"{prompt.budget:,}")
        if sent:
            heading = self.tr("Sent to the model: {context}.").format(context=context)
        else:
            heading = self.tr("Not sent yet. With the current pins and exclusions: {context}.")
            heading = heading.format(context=context)
        if prompt.history_dropped:
            note = self.tr(
                "%n earlier messages left out to fit the model's context ({tokens}).",
                "",
                prompt.history_dropped,
            )
            tokens = self.tr("about {used} of {room} tokens, chat.context_window").format(
                used=f"{prompt.prompt_tokens:,}", room=f"{prompt.prompt_room:,}"
            )
            heading += " " + note.format(tokens=tokens)
        dialog = PromptDialog(prompt.as_text(), heading, self)
        self._open_dialog(dialog)

    # -- saving as a memory ----------------------------------------------------------------

    def save_as_memory(self, text: str, message: MessageWidget | None = None) -> None:
        """Open a pre-filled draft; nothing is written until the person presses Save."""
        topics: list[str] = []
        turn = self._turn_of(message)
        if turn is not None and turn.prepared is not None:
            topics = turn.prepared.topics
        self._open_save_dialog(draft_from_text(text, topics))

    def _turn_of(self, message: MessageWidget | None) -> Turn | None:
        return self._turn_by_message.get(id(message)) if message is not None else None

    def _open_save_dialog(self, draft: Draft, error: str = "") -> None:
        dialog = SaveMemoryDialog(draft, self, error)
        dialog.accepted.connect(lambda: self._save(dialog.draft()))
        self._open_dialog(dialog)

    def _save(self, draft: Draft) -> None:
        """Write through the session's one write lane; the index catches up on its own."""
        memory = Memory(
            id="",
            title=draft.title,
            body=draft.body,
            topics=list(draft.topics),
            importance=draft.importance,
            source=draft.source,
        )
        self.session.create(
            memory,
            self._on_saved,
            lambda exc: self._open_save_dialog(draft, describe_error(exc)),  # nothing lost
            initiator=self,
        )

    def _on_saved(self, memory: Any) -> None:
        self.bus.message_reported.emit(self.tr("Saved “{title}”").format(title=memory.title))
        self.memory_saved.emit(memory.id)

    def _open_dialog(self, dialog: SaveMemoryDialog | PromptDialog) -> None:
        dialog.finished.connect(dialog.deleteLater)
        self.last_dialog = dialog
        dialog.open()
