"""Chips: the pinned and excluded memories at the top of the chat, wrapping like words."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QToolButton,
    QWidget,
)

from pixelmem.gui.chat.widgets import escape_html, muted
from pixelmem.gui.widgets.colors import chip_background
from pixelmem.gui.widgets.flow_layout import FlowLayout

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
        label = self._chips[memory_id].findChild(QLabel)
        return label.text() if label is not None else ""

    def close_button(self, memory_id: str) -> QToolButton:
        button = self._chips[memory_id].findChild(QToolButton)
        assert button is not None  # every chip is made with one
        return button

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
