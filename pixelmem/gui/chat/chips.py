"""Chips: the pinned and excluded memories at the top of the chat, wrapping like words."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize, Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QLayout,
    QLayoutItem,
    QToolButton,
    QWidget,
)

from pixelmem.gui.chat.widgets import escape_html, muted
from pixelmem.gui.colors import chip_background

CHIP_TEXT_WIDTH = 200  # px: a long title is elided (full title in the tooltip)


class ChipBar(QWidget):
    """``Pinned: [Title ×] [Title ×]``; a click on a title opens it, × removes it."""

    removed = Signal(str)
    open_memory = Signal(str)

    def __init__(self, label: str, empty_hint: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._flow = FlowLayout(self, spacing=4)
        self._flow.setContentsMargins(0, 0, 0, 0)
        self._label = QLabel(label)
        muted(self._label)
        self._hint = QLabel(empty_hint)
        self._hint.setWordWrap(True)  # a narrow dock wraps the hint instead of widening
        muted(self._hint)
        self._flow.addWidget(self._label)
        self._flow.addWidget(self._hint)
        self._chips: dict[str, QFrame] = {}

    def set_texts(self, label: str, empty_hint: str) -> None:
        self._label.setText(label)
        self._hint.setText(empty_hint)

    def set_items(self, items: list[tuple[str, str]]) -> None:
        """``(id, title)`` pairs, in order."""
        for chip in self._chips.values():
            self._flow.removeWidget(chip)
            chip.deleteLater()
        self._chips = {memory_id: self._chip(memory_id, title) for memory_id, title in items}
        for chip in self._chips.values():
            self._flow.addWidget(chip)
        self._hint.setVisible(not items and bool(self._hint.text()))

    def ids(self) -> list[str]:
        return list(self._chips)

    def chip_text(self, memory_id: str) -> str:
        return self._chips[memory_id].findChild(QLabel).text()

    def close_button(self, memory_id: str) -> QToolButton:
        return self._chips[memory_id].findChild(QToolButton)

    def _chip(self, memory_id: str, title: str) -> QFrame:
        chip = QFrame()
        chip.setObjectName("memoryChip")
        background = chip_background(self.palette()).name()
        chip.setStyleSheet(f"#memoryChip {{ background: {background}; border-radius: 9px; }}")
        metrics = self.fontMetrics()
        shown = metrics.elidedText(title, Qt.TextElideMode.ElideRight, CHIP_TEXT_WIDTH)
        name = QLabel(f'<a href="open" style="text-decoration:none">{escape_html(shown)}</a>')
        name.setToolTip(f"{title}\n{memory_id}")
        name.linkActivated.connect(lambda _link: self.open_memory.emit(memory_id))
        close = QToolButton()
        close.setText("×")
        close.setAutoRaise(True)
        close.setToolTip(self.tr("Remove"))
        close.clicked.connect(lambda: self.removed.emit(memory_id))
        row = QHBoxLayout(chip)
        row.setContentsMargins(8, 0, 2, 0)
        row.setSpacing(0)
        row.addWidget(name)
        row.addWidget(close)
        return chip


class FlowLayout(QLayout):
    """Lays widgets out left to right and wraps them onto new lines (Qt's flow layout example)."""

    def __init__(self, parent: QWidget | None = None, spacing: int = 4) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._spacing = spacing

    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._arrange(QRect(0, 0, width, 0), move=False)

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._arrange(rect, move=True)

    def sizeHint(self) -> QSize:
        return self.minimumSize()

    def minimumSize(self) -> QSize:
        size = QSize()
        for item in self._items:
            size = size.expandedTo(item.minimumSize())
        margins = self.contentsMargins()
        return size + QSize(margins.left() + margins.right(), margins.top() + margins.bottom())

    def _arrange(self, rect: QRect, *, move: bool) -> int:
        margins = self.contentsMargins()
        area = rect.adjusted(margins.left(), margins.top(), -margins.right(), -margins.bottom())
        x, y, line_height = area.x(), area.y(), 0
        for item in self._items:
            if item.widget() is not None and item.widget().isHidden():
                continue
            hint = item.sizeHint()
            if x + hint.width() > area.right() + 1 and line_height > 0:
                x, y = area.x(), y + line_height + self._spacing
                line_height = 0
            if move:
                item.setGeometry(QRect(QPoint(x, y), hint))
            x += hint.width() + self._spacing
            line_height = max(line_height, hint.height())
        return y + line_height - rect.y() + margins.bottom()
