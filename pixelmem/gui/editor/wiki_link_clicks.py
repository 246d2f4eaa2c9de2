"""Ctrl+click on a ``[[wiki link]]`` in the Markdown editor follows it.

An event filter on a ``QPlainTextEdit``'s viewport: with Ctrl held the pointer becomes a hand
over a link, and a Ctrl+click emits ``link_clicked(target)`` instead of moving the cursor.
Embeds (``![[…]]``) are left alone.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, Signal
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QPlainTextEdit

from pixelmem.core.vault.links import WikiLink, parse_links


class WikiLinkClicks(QObject):
    link_clicked = Signal(str)  # "Target" or "Target#Heading"

    def __init__(self, editor: QPlainTextEdit) -> None:
        super().__init__(editor)
        self.editor = editor
        editor.viewport().installEventFilter(self)
        editor.viewport().setMouseTracking(True)

    def link_at(self, point: QPoint) -> WikiLink | None:
        """The link under ``point`` (viewport coordinates), if any."""
        cursor = self.editor.cursorForPosition(point)
        block = cursor.block().text()
        column = _code_points(block, cursor.positionInBlock())
        for link in parse_links(block):
            if link.start <= column < link.end and not link.embed:
                return link
        return None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind not in (QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonRelease) and (
            kind != QEvent.Type.MouseMove
        ):
            return False
        assert isinstance(event, QMouseEvent)
        ctrl = bool(event.modifiers() & Qt.KeyboardModifier.ControlModifier)
        link = self.link_at(event.position().toPoint()) if ctrl else None
        if kind == QEvent.Type.MouseMove:
            shape = Qt.CursorShape.PointingHandCursor if link else Qt.CursorShape.IBeamCursor
            self.editor.viewport().setCursor(shape)
            return False
        if link is None or event.button() != Qt.MouseButton.LeftButton:
            return False
        if kind == QEvent.Type.MouseButtonRelease:
            self.link_clicked.emit(link.destination)
        return True  # the press too: the cursor does not move, no selection starts


def _code_points(text: str, utf16_units: int) -> int:
    """Qt's position in a block (UTF-16 units) as a Python string index."""
    return len(text.encode("utf-16-le")[: 2 * utf16_units].decode("utf-16-le", "ignore"))
