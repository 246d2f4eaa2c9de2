"""The chat pane's Qt side of a turn: tokens streamed from a worker arrive as queued signals.

The rest of a turn's state (pins, preparing, recording) is Qt-free, in
:mod:`pixelmem.core.assist.conversation`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from pixelmem.core.assist.injection import Message
from pixelmem.core.providers.chat import ChatClient


class StreamSignals(QObject):
    """Lives on the GUI thread; the stream worker emits on it, so tokens arrive queued."""

    token = Signal(int, str)  # (turn number, text)
    reasoning = Signal(int, str)  # (turn number, a piece of a thinking model's reasoning)


def stream_job(
    client: ChatClient,
    messages: list[Message],
    cancel: threading.Event,
    signals: StreamSignals,
    number: int,
) -> Callable[[], str]:
    """The worker's task: every token goes out as a signal; returns the finish reason."""

    def run() -> str:
        try:
            stream = client.stream_chat(messages, cancel=cancel)
            stream.on_reasoning = lambda piece: signals.reasoning.emit(number, piece)
            for piece in stream:
                signals.token.emit(number, piece)
            return stream.finish_reason
        finally:
            client.close()

    return run
