"""The chat pane: ask the configured model, with the relevant memories injected and shown.

Each message goes through three steps, none of them on the GUI thread: build the prompt
(search + injection rules, :mod:`pixelmem.core.injection`) on a pool worker, stream the answer
on the pane's own pool (tokens come back as queued signals), save drafts on the write lane.
Under every answer the memories it was given are listed; pins and exclusions apply to the
following messages of this chat. "Clear" starts a new chat: it forgets the messages and the
exclusions but keeps the pinned memories, which stay visible as chips at the top.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject, Qt, QThreadPool, QTimer, Signal, Slot
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QDockWidget,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from pixelmem.core.chat import (
    OLLAMA_DEFAULT_MODEL,
    OPENAI_DEFAULT_MODEL,
    CancelToken,
    ChatNotConfigured,
    create_chat_client,
)
from pixelmem.core.errors import (
    InvalidIdError,
    MemoryNotFound,
    PixelmemError,
    ProviderAuthError,
    ProviderModelNotFound,
    ProviderUnavailable,
)
from pixelmem.core.injection import InjectedPrompt, build_prompt_for
from pixelmem.core.settings import Settings
from pixelmem.gui.bus import CREATED, DELETED, UPDATED, MemoryBus
from pixelmem.gui.chat_dialogs import Draft, PromptDialog, SaveMemoryDialog, draft_from_text
from pixelmem.gui.chat_widgets import (
    ChatInput,
    ChipBar,
    MemoriesPanel,
    MessageWidget,
    ids_from_mime,
)
from pixelmem.gui.session import describe_error
from pixelmem.gui.workers import run_in_pool, write_lane

log = logging.getLogger(__name__)

MAX_HISTORY_MESSAGES = 20  # earlier turns sent back to the model (10 questions and answers)
RENDER_INTERVAL_MS = 30  # re-render the streamed Markdown at most this often
MAX_DRAFT_TOPICS = 3
_ACTIVE = ("searching", "waiting", "streaming")
_SETTINGS_ERRORS = (
    ChatNotConfigured,
    ProviderUnavailable,
    ProviderAuthError,
    ProviderModelNotFound,
)


@dataclass
class Prepared:
    """What the prompt worker hands back: the prompt, and titles/topics to show."""

    prompt: InjectedPrompt
    titles: dict[str, str]  # every id the panel names (used and dropped)
    topics: list[str]  # topics of the memories used, to pre-fill a draft


@dataclass
class _Turn:
    number: int
    question: str
    message: MessageWidget
    cancel: CancelToken = field(default_factory=CancelToken)
    prepared: Prepared | None = None
    text: str = ""
    state: str = "searching"  # searching, waiting, streaming, done, stopped, failed, unconfigured

    @property
    def active(self) -> bool:
        return self.state in _ACTIVE


class _StreamSignals(QObject):
    """Lives on the GUI thread; the stream worker emits on it, so tokens arrive queued."""

    token = Signal(int, str)


class _DropArea(QWidget):
    """The pane's body: memories dropped anywhere on it are pinned."""

    def __init__(
        self, on_drop: Callable[[list[str]], None], is_known: Callable[[str], bool]
    ) -> None:
        super().__init__()
        self._on_drop = on_drop
        self._is_known = is_known
        self.setAcceptDrops(True)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if ids_from_mime(event.mimeData(), self._is_known):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        ids = ids_from_mime(event.mimeData(), self._is_known)
        if ids:
            event.acceptProposedAction()
            self._on_drop(ids)


class ChatPane(QDockWidget):
    """Dockable chat with memory injection. Connect ``open_memory_requested`` to the editor and
    ``settings_requested`` to the settings dialog; call :meth:`shutdown` before quitting."""

    open_memory_requested = Signal(str)
    settings_requested = Signal()
    prompt_ready = Signal(object)  # the InjectedPrompt of the message being answered
    answer_finished = Signal(str)  # done | stopped | failed | unconfigured
    memory_saved = Signal(str)  # id of a memory saved from the chat

    def __init__(
        self, engine: Any, bus: MemoryBus, settings: Settings, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("chatPane")
        self.engine = engine
        self.bus = bus
        self.settings = settings
        self.last_dialog: SaveMemoryDialog | PromptDialog | None = None
        self._pinned: list[str] = []
        self._excluded: list[str] = []
        self._titles: dict[str, str] = {}
        self._history: list[dict[str, str]] = []
        self._turn: _Turn | None = None
        self._turns = 0
        self._turn_by_message: dict[int, _Turn] = {}
        self._panels: list[MemoriesPanel] = []
        self._pool = QThreadPool(self)  # streams may wait minutes: keep them off the shared pool
        self._pool.setMaxThreadCount(4)
        self._render_timer = QTimer(self, singleShot=True, interval=RENDER_INTERVAL_MS)
        self._render_timer.timeout.connect(self._render_turn)
        self._stick_to_bottom = True
        self._build()
        bus.memory_updated.connect(self._on_memory_updated)
        bus.settings_changed.connect(self.set_settings)
        self.retranslate()
        self._update_banner()
        self._refresh_state()

    # -- building --------------------------------------------------------------------------

    def _build(self) -> None:
        self.banner_label = QLabel()
        self.banner_label.setWordWrap(True)
        self.banner_button = QPushButton()
        self.banner_button.clicked.connect(self.settings_requested)
        self.banner = QFrame()
        self.banner.setObjectName("chatBanner")
        self.banner.setFrameShape(QFrame.Shape.StyledPanel)
        banner_row = QHBoxLayout(self.banner)
        banner_row.addWidget(self.banner_label, 1)
        banner_row.addWidget(self.banner_button)

        self.pinned_bar = ChipBar("", "")
        self.pinned_bar.removed.connect(self.unpin)
        self.pinned_bar.open_memory.connect(self.open_memory_requested)
        self.excluded_bar = ChipBar("", "")
        self.excluded_bar.removed.connect(self.include)
        self.excluded_bar.open_memory.connect(self.open_memory_requested)

        self.empty_label = QLabel()
        self.empty_label.setWordWrap(True)
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setEnabled(False)
        self.messages = QVBoxLayout()
        self.messages.setSpacing(8)
        self.messages.addWidget(self.empty_label)
        self.messages.addStretch(1)
        container = QWidget()
        container.setLayout(self.messages)
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll.setWidget(container)
        bar = self.scroll.verticalScrollBar()
        bar.rangeChanged.connect(lambda _lo, hi: self._stick_to_bottom and bar.setValue(hi))
        bar.valueChanged.connect(self._track_bottom)

        self.input = ChatInput()
        self.input.submitted.connect(self.send)
        self.input.memories_dropped.connect(self._pin_all)
        self.send_button = QPushButton()
        self.send_button.setDefault(True)
        self.send_button.clicked.connect(self.send)
        self.stop_button = QPushButton()
        self.stop_button.clicked.connect(self.stop)
        self.preview_button = QPushButton()
        self.preview_button.clicked.connect(self.preview_prompt)
        self.clear_button = QPushButton()
        self.clear_button.clicked.connect(self.clear)
        buttons = QHBoxLayout()
        buttons.addWidget(self.preview_button)
        buttons.addWidget(self.clear_button)
        buttons.addStretch(1)
        buttons.addWidget(self.stop_button)
        buttons.addWidget(self.send_button)

        body = _DropArea(self._pin_all, lambda memory_id: memory_id in self.engine.store)
        body.setObjectName("chatBody")
        self._body = body
        layout = QVBoxLayout(body)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.banner)
        layout.addWidget(self.pinned_bar)
        layout.addWidget(self.excluded_bar)
        layout.addWidget(self.scroll, 1)
        layout.addWidget(self.input)
        layout.addLayout(buttons)
        self.setWidget(body)
        self._set_busy(False)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Chat"))
        self.banner_label.setText(
            self.tr("No chat model is configured — open Settings → Chat to choose one.")
        )
        self.banner_button.setText(self.tr("Open Settings"))
        self.pinned_bar.set_texts(
            self.tr("Pinned:"), self.tr("drop memories here to send them with every message")
        )
        self.excluded_bar.set_texts(self.tr("Excluded:"), "")
        self.empty_label.setText(
            self.tr(
                "Ask anything. Relevant memories are added to the prompt, and every answer "
                "shows which ones."
            )
        )
        self.input.setPlaceholderText(
            self.tr("Ask about your memories… (Enter to send, Shift+Enter for a new line)")
        )
        self.send_button.setText(self.tr("Send"))
        self.stop_button.setText(self.tr("Stop"))
        self.preview_button.setText(self.tr("Preview prompt"))
        self.preview_button.setToolTip(self.tr("See what would be sent, without sending it"))
        self.clear_button.setText(self.tr("Clear"))
        self.clear_button.setToolTip(self.tr("Start a new chat (pinned memories stay)"))

    # -- settings --------------------------------------------------------------------------

    @Slot(object)
    def set_settings(self, settings: Settings) -> None:
        self.settings = settings
        self._update_banner()

    def _update_banner(self) -> None:
        self.banner.setVisible(not self.settings.chat.provider)

    def _model_name(self) -> str:
        chat = self.settings.chat
        default = OLLAMA_DEFAULT_MODEL if chat.provider == "ollama" else OPENAI_DEFAULT_MODEL
        return chat.model or default if chat.provider else self.tr("Assistant")

    # -- sending ---------------------------------------------------------------------------

    @Slot()
    def send(self) -> None:
        """Send the input box's text (Enter); ignored while an answer is still coming."""
        question = self.input.toPlainText().strip()
        if not question or (self._turn is not None and self._turn.active):
            return
        self.input.clear()
        user = self._add_message("user", self.tr("You"))
        user.view.set_plain(question)
        message = self._add_message("assistant", self._model_name())
        message.set_status(self.tr("searching memories…"))
        self._turns += 1
        turn = _Turn(self._turns, question, message)
        self._turn = turn
        self._turn_by_message[id(message)] = turn
        self._stick_to_bottom = True
        self._set_busy(True)
        history = self._history[-MAX_HISTORY_MESSAGES:]
        run_in_pool(
            self._prepare_job(question, history),
            lambda prepared: self._on_prepared(turn, prepared),
            lambda exc: self._on_failed(turn, exc),
            context=self,
        )

    def _prepare_job(self, question: str, history: list[dict[str, str]]) -> Callable[[], Prepared]:
        """Search and injection, on a worker: only plain data goes in and out."""
        engine, pinned, excluded = self.engine, list(self._pinned), set(self._excluded)

        def job() -> Prepared:
            prompt = build_prompt_for(
                engine, question, pinned=pinned, excluded=excluded, history=history
            )
            titles = {used.id: used.title for used in prompt.used}
            topics: list[str] = []
            for memory_id in [u.id for u in prompt.used] + prompt.dropped_for_budget:
                try:
                    memory = engine.store.get(memory_id)
                except (MemoryNotFound, InvalidIdError):
                    continue  # deleted since
                titles.setdefault(memory_id, memory.title)
                if memory_id not in prompt.dropped_for_budget:
                    topics += [t for t in memory.topics if t not in topics]
            return Prepared(prompt, titles, topics[:MAX_DRAFT_TOPICS])

        return job

    def _on_prepared(self, turn: _Turn, prepared: Prepared) -> None:
        if turn is not self._turn or turn.state != "searching":
            return  # stopped or cleared meanwhile
        turn.prepared = prepared
        self._add_memories_panel(turn, prepared)
        self.prompt_ready.emit(prepared.prompt)
        try:
            client = create_chat_client(self.settings.chat)
        except ChatNotConfigured as exc:
            turn.state = "unconfigured"
            turn.message.set_status("")
            turn.message.show_error(describe_error(exc), offer_settings=True)
            self._end_turn(turn, "unconfigured")
            return
        turn.state = "waiting"
        turn.message.set_status(self.tr("waiting for the model…"))
        signals = _StreamSignals()
        signals.token.connect(self._on_token)
        messages, cancel, number = prepared.prompt.messages, turn.cancel, turn.number

        def stream() -> None:
            try:
                for piece in client.stream_chat(messages, cancel=cancel):
                    signals.token.emit(number, piece)
            finally:
                client.close()

        run_in_pool(
            stream,
            lambda _none: self._on_stream_end(turn),
            lambda exc: self._on_failed(turn, exc),
            pool=self._pool,
            context=self,
        )

    @Slot(int, str)
    def _on_token(self, number: int, piece: str) -> None:
        turn = self._turn
        if turn is None or turn.number != number or not turn.active:
            return  # a stopped stream's last tokens
        if turn.state == "waiting":
            turn.state = "streaming"
            turn.message.set_status(self.tr("answering…"))
        turn.text += piece
        if not self._render_timer.isActive():
            self._render_timer.start()

    def _render_turn(self, turn: _Turn | None = None) -> None:
        turn = turn or self._turn
        if turn is not None:
            titles = turn.prepared.titles if turn.prepared else {}
            turn.message.view.set_markdown(turn.text, titles)

    def _on_stream_end(self, turn: _Turn) -> None:
        if turn is not self._turn or not turn.active:
            return
        self._render_turn(turn)
        turn.message.set_status("")
        self._remember(turn)
        self._end_turn(turn, "done")

    def _on_failed(self, turn: _Turn, exc: BaseException) -> None:
        if turn is not self._turn or not turn.active:
            return
        if not isinstance(exc, PixelmemError):  # a bug, not a provider's fault: keep the trace
            log.error("chat failed", exc_info=exc)
        self._render_turn(turn)
        turn.message.set_status(self.tr("failed"))
        turn.message.show_error(
            describe_error(exc), offer_settings=isinstance(exc, _SETTINGS_ERRORS)
        )
        self._end_turn(turn, "failed")

    @Slot()
    def stop(self) -> None:
        """Stop the answer now; what arrived so far stays (and is remembered by the chat)."""
        turn = self._turn
        if turn is None or not turn.active:
            return
        turn.cancel.set()  # also shuts the socket, so the worker ends at once
        self._render_turn(turn)
        turn.message.set_status(self.tr("stopped"))
        if turn.text:
            self._remember(turn)
        self._end_turn(turn, "stopped")

    def _end_turn(self, turn: _Turn, state: str) -> None:
        self._render_timer.stop()
        turn.state = state
        self._set_busy(False)
        self.input.setFocus()
        self.answer_finished.emit(state)

    def _remember(self, turn: _Turn) -> None:
        self._history += [
            {"role": "user", "content": turn.question},
            {"role": "assistant", "content": turn.text},
        ]

    def _set_busy(self, busy: bool) -> None:
        self.send_button.setEnabled(not busy)
        self.stop_button.setEnabled(busy)

    @Slot()
    def clear(self) -> None:
        """A new chat: messages and exclusions go, pinned memories stay."""
        self.stop()
        self._turn = None
        self._history.clear()
        self._turn_by_message.clear()
        self._excluded.clear()
        self._panels.clear()
        while self.messages.count() > 2:  # keep the empty-state label and the stretch
            item = self.messages.takeAt(1)
            if item is not None and item.widget() is not None:
                item.widget().deleteLater()
        self.empty_label.show()
        self._refresh_state()

    def shutdown(self, msecs: int = 5000) -> bool:
        """Stop any answer and wait for the stream worker (before the app quits)."""
        self.stop()
        return self._pool.waitForDone(msecs)

    # -- messages and panels ---------------------------------------------------------------

    def _add_message(self, role: str, sender: str) -> MessageWidget:
        message = MessageWidget(role, sender)
        message.view.memory_link_clicked.connect(self.open_memory_requested)
        message.save_requested.connect(lambda text: self.save_as_memory(text, message))
        message.settings_requested.connect(self.settings_requested)
        self.empty_label.hide()
        self.messages.insertWidget(self.messages.count() - 1, message)
        return message

    def message_widgets(self) -> list[MessageWidget]:
        widgets = (self.messages.itemAt(i).widget() for i in range(self.messages.count()))
        return [w for w in widgets if isinstance(w, MessageWidget)]

    def _add_memories_panel(self, turn: _Turn, prepared: Prepared) -> None:
        panel = MemoriesPanel(prepared.prompt, prepared.titles)
        panel.open_memory.connect(self.open_memory_requested)
        panel.pin_toggled.connect(lambda mid, on: self.pin(mid) if on else self.unpin(mid))
        panel.exclude_toggled.connect(
            lambda mid, on: self.exclude(mid) if on else self.include(mid)
        )
        panel.show_prompt.connect(lambda: self._show_prompt(prepared.prompt, sent=True))
        turn.message.add_below(panel)
        self._panels.append(panel)
        for used in prepared.prompt.used:
            self._titles.setdefault(used.id, used.title)
        panel.update_state(set(self._pinned), set(self._excluded))

    def _track_bottom(self, value: int) -> None:
        self._stick_to_bottom = value >= self.scroll.verticalScrollBar().maximum() - 4

    # -- pins and exclusions (they shape the next prompt) ------------------------------------

    @Slot(str)
    def pin(self, memory_id: str) -> None:
        """Send this memory with every following message of the chat (the editor calls it)."""
        if memory_id in self._pinned:
            return
        try:
            title = self.engine.store.get(memory_id).title
        except (MemoryNotFound, InvalidIdError) as exc:
            self.bus.error_reported.emit(describe_error(exc))
            self._refresh_state()  # a row's Pin button must not stay checked
            return
        self._titles[memory_id] = title
        self._pinned.append(memory_id)
        if memory_id in self._excluded:
            self._excluded.remove(memory_id)
        self._refresh_state()

    @Slot(str)
    def unpin(self, memory_id: str) -> None:
        if memory_id in self._pinned:
            self._pinned.remove(memory_id)
        self._refresh_state()

    @Slot(str)
    def exclude(self, memory_id: str) -> None:
        """Never send this memory again in this chat (it also stops being pinned)."""
        if memory_id not in self._excluded:
            self._excluded.append(memory_id)
        if memory_id in self._pinned:
            self._pinned.remove(memory_id)
        self._refresh_state()

    @Slot(str)
    def include(self, memory_id: str) -> None:
        if memory_id in self._excluded:
            self._excluded.remove(memory_id)
        self._refresh_state()

    @property
    def pinned(self) -> list[str]:
        return list(self._pinned)

    @property
    def excluded(self) -> list[str]:
        return list(self._excluded)

    def _pin_all(self, ids: Iterable[str]) -> None:
        for memory_id in ids:
            self.pin(memory_id)

    def _refresh_state(self) -> None:
        self.pinned_bar.set_items([(i, self._titles.get(i, i)) for i in self._pinned])
        self.excluded_bar.set_items([(i, self._titles.get(i, i)) for i in self._excluded])
        self.excluded_bar.setVisible(bool(self._excluded))
        for panel in self._panels:
            panel.update_state(set(self._pinned), set(self._excluded))

    @Slot(str, str)
    def _on_memory_updated(self, action: str, memory_id: str) -> None:
        if memory_id not in self._pinned and memory_id not in self._excluded:
            return
        if action == DELETED:
            self._pinned = [i for i in self._pinned if i != memory_id]
            self._excluded = [i for i in self._excluded if i != memory_id]
        elif action in (UPDATED, CREATED):
            try:
                self._titles[memory_id] = self.engine.store.get(memory_id).title
            except (MemoryNotFound, InvalidIdError):
                self._pinned = [i for i in self._pinned if i != memory_id]
        self._refresh_state()

    # -- prompts -------------------------------------------------------------------------------

    @Slot()
    def preview_prompt(self) -> None:
        """What the model would get for the text in the input box, without sending anything."""
        question = self.input.toPlainText().strip()
        history = self._history[-MAX_HISTORY_MESSAGES:]
        run_in_pool(
            self._prepare_job(question, history),
            lambda prepared: self._show_prompt(prepared.prompt, sent=False),
            lambda exc: self.bus.error_reported.emit(describe_error(exc)),
            context=self,
        )

    def _show_prompt(self, prompt: InjectedPrompt, *, sent: bool) -> None:
        count = len(prompt.used)
        context = self.tr("{count} memories, {chars} of {budget} context characters").format(
            count=count, chars=f"{prompt.context_chars:,}", budget=f"{prompt.budget:,}"
        )
        if sent:
            heading = self.tr("Sent to the model: {context}.").format(context=context)
        else:
            heading = self.tr("Not sent yet. With the current pins and exclusions: {context}.")
            heading = heading.format(context=context)
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

    def _turn_of(self, message: MessageWidget | None) -> _Turn | None:
        return self._turn_by_message.get(id(message)) if message is not None else None

    def _open_save_dialog(self, draft: Draft, error: str = "") -> None:
        dialog = SaveMemoryDialog(draft, self, error)
        dialog.accepted.connect(lambda: self._save(dialog.draft()))
        self._open_dialog(dialog)

    def _save(self, draft: Draft) -> None:
        engine = self.engine

        def job() -> Any:
            return engine.create_memory(
                draft.title,
                draft.body,
                topics=draft.topics,
                importance=draft.importance,
                source=draft.source,
            )

        write_lane().submit(
            job,
            self._on_saved,
            lambda exc: self._open_save_dialog(draft, describe_error(exc)),  # nothing lost
            context=self,
        )

    def _on_saved(self, memory: Any) -> None:
        self.bus.memory_updated.emit(CREATED, memory.id)
        self.bus.message_reported.emit(self.tr("Saved “{title}”").format(title=memory.title))
        self.memory_saved.emit(memory.id)

    def _open_dialog(self, dialog: SaveMemoryDialog | PromptDialog) -> None:
        dialog.finished.connect(dialog.deleteLater)
        self.last_dialog = dialog
        dialog.open()
