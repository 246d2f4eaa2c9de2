"""Focus Chat (Ctrl+4): the chat takes the whole window; again, and the layout comes back."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QByteArray, QObject, Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow, QWidget


class ChatFocus(QObject):
    """``chat()`` gives the chat's dock (built on first use); :meth:`toggle` switches."""

    def __init__(self, window: QMainWindow, chat: Callable[[], QDockWidget]) -> None:
        super().__init__(window)
        self._window = window
        self._chat = chat
        self._layout_before: QByteArray | None = None  # while the chat fills the window

    @property
    def active(self) -> bool:
        return self._layout_before is not None

    def toggle(self) -> None:
        window, chat = self._window, self._chat()
        central = window.centralWidget() or QWidget()
        if self._layout_before is not None:
            central.show()
            window.restoreState(self._layout_before)
            self._layout_before = None
            chat.raise_()  # the person was chatting: the chat stays the open tab
            return
        self._layout_before = window.saveState()
        for dock in window.findChildren(QDockWidget):
            if dock is not chat:
                dock.hide()
        central.hide()  # the docks take the freed room
        chat.show()
        chat.input.setFocus(Qt.FocusReason.ShortcutFocusReason)  # type: ignore[attr-defined]
