"""What the chat pane's mixins (:mod:`.history`, :mod:`.proposing`) use of the pane: ``PaneParts``.

The mixins are typed against this protocol instead of :class:`~.pane.ChatPane`, which imports
them (no import circle); :class:`~.pane.ChatPane` has every member.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance

    from pixelmem.core.assist.conversation import ChatMemories, Turn
    from pixelmem.core.assist.conversations import Conversation, ConversationStore
    from pixelmem.core.assist.injection import InjectedPrompt
    from pixelmem.core.settings import Settings
    from pixelmem.gui.bus import MemoryBus
    from pixelmem.gui.chat.body import ChatBody
    from pixelmem.gui.chat.widgets import MemoriesPanel, MessageWidget


class PaneParts(Protocol):
    engine: Any
    bus: MemoryBus
    settings: Settings
    body: ChatBody
    memories: ChatMemories
    conversations: ConversationStore
    conversation: Conversation
    _saved: dict[str, Conversation]
    _turn: Turn | None
    _turn_by_message: dict[int, Turn]
    _panels: list[MemoriesPanel]

    @property
    def proposals_made(self) -> SignalInstance: ...

    @property
    def busy(self) -> bool: ...

    @property
    def pinned(self) -> list[str]: ...

    def ask(self, question: str) -> None: ...

    def stop(self) -> None: ...

    def message_widgets(self) -> list[MessageWidget]: ...

    def tr(self, source: str, disambiguation: str | None = ..., n: int = ..., /) -> str: ...

    def _add_message(self, role: str, sender: str) -> MessageWidget: ...

    def _add_panel(
        self, message: MessageWidget, prompt: InjectedPrompt, titles: dict[str, str]
    ) -> MemoriesPanel: ...

    def _model_name(self) -> str: ...

    def _refresh_state(self) -> None: ...
