"""A thinking model's reasoning above its answer: one line, collapsed, to open on a click.

The reasoning is shown only: it is never part of the answer's text (copy, save as memory,
the next turn's history all use the answer alone).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QToolButton, QVBoxLayout, QWidget

from pixelmem.core.providers.thinking import reasoning_tokens


class ReasoningBox(QWidget):
    """A toggle ("Reasoning · about N tokens") and the reasoning text, hidden until opened."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._text = ""
        self.toggle = QToolButton()
        self.toggle.setCheckable(True)
        self.toggle.setAutoRaise(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.toggle.toggled.connect(self._opened)
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.label.setEnabled(False)  # muted: it is not the answer
        self.label.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.toggle, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.label)
        self.hide()

    @property
    def text(self) -> str:
        return self._text

    def set_text(self, text: str) -> None:
        self._text = text
        self.setVisible(bool(text))
        if self.label.isVisible():
            self.label.setText(text)
        self.retranslate()

    def add(self, piece: str) -> None:
        self.set_text(self._text + piece)

    def retranslate(self) -> None:
        tokens = reasoning_tokens(self._text)
        self.toggle.setText(self.tr("Reasoning · about {n} tokens").format(n=f"{tokens:,}"))

    def _opened(self, opened: bool) -> None:
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if opened else Qt.ArrowType.RightArrow)
        self.label.setText(self._text if opened else "")
        self.label.setVisible(opened)
