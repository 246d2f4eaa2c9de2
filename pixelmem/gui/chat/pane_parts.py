"""What the chat pane's mixins (:mod:`.history`, :mod:`.proposing`) use of the pane: ``PaneParts``.

The mixins are typed against this class instead of :class:`~.pane.ChatPane`, which imports them
(no import circle); :class:`~.pane.ChatPane` has every member. It is a dock widget to the type
checker only (the mixins pass the pane as a parent and a worker's context); at run time the
mixins' base is ``object``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QDockWidget

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance

    from pixelmem.core.assist.conversation import ChatMemories, Turn
    from pixelmem.core.assist.conversations import Conversation, ConversationStore
    from pixelmem.core.assist.injection import InjectedPrompt
    from pixelmem.core.settings import Settings
    from pixelmem.gui.bus import MemoryBus
    from pixelmem.gui.chat.body import ChatBody
    from pixelmem.gui.chat.widgets import MemoriesPanel, MessageWidget


class PaneParts(QDockWidget):
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

    # The pane's members the mixins call (declared, not defined: the pane defines them).
    proposals_made: SignalInstance
    conversations_listed: SignalInstance
    conversations_read: bool
    ask: Callable[[str], None]
    stop: Callable[[], None]
    message_widgets: Callable[[], list[MessageWidget]]
    _add_message: Callable[[str, str], MessageWidget]
    _add_panel: Callable[[MessageWidget, InjectedPrompt, dict[str, str]], MemoriesPanel]
    _model_name: Callable[[], str]
    _refresh_state: Callable[[], None]
    _conversation_ending: Callable[[], None]

    @property
    def busy(self) -> bool:
        raise NotImplementedError

    @property
    def pinned(self) -> list[str]:
        raise NotImplementedError
