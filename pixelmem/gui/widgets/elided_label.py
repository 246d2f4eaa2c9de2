"""One-line widgets that never widen their window: a long text is cut with "…" and the whole
text is in the tooltip. :class:`ElidedLabel` (the editor's footer: file name first) and
:class:`ElidedComboBox` (Qt's styles clip a narrow combo box's text without an ellipsis)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QSizePolicy,
    QStyle,
    QStyleOptionComboBox,
    QStylePainter,
    QWidget,
)


class ElidedLabel(QLabel):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

    def minimumSizeHint(self) -> QSize:
        return QSize(0, super().minimumSizeHint().height())

    def is_elided(self) -> bool:
        return self.fontMetrics().horizontalAdvance(self.text()) > self.contentsRect().width()

    def shown_text(self) -> str:
        """What is drawn: the text, cut in the middle to the label's width."""
        return self.fontMetrics().elidedText(
            self.text(), Qt.TextElideMode.ElideRight, self.contentsRect().width()
        )

    def paintEvent(self, _event: QPaintEvent) -> None:
        with QPainter(self) as painter:  # ended here, whoever keeps the frame (a stack sampler)
            painter.setPen(self.palette().color(self.foregroundRole()))
            flags = Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft
            self.style().drawItemText(
                painter,
                self.contentsRect(),
                int(flags),
                self.palette(),
                self.isEnabled(),
                self.shown_text(),
                self.foregroundRole(),
            )

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            self.setToolTip(self.text() if self.is_elided() else "")
        return super().event(event)


class ElidedComboBox(QComboBox):
    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QStylePainter(self)
        with painter:  # ended here, whoever keeps the frame (a stack sampler)
            option = QStyleOptionComboBox()
            self.initStyleOption(option)
            painter.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, option)
            text_rect = self.style().subControlRect(
                QStyle.ComplexControl.CC_ComboBox,
                option,
                QStyle.SubControl.SC_ComboBoxEditField,
                self,
            )
            room = text_rect.width() - (
                option.iconSize.width() + 4 if not option.currentIcon.isNull() else 0
            )
            option.currentText = self.fontMetrics().elidedText(
                option.currentText, Qt.TextElideMode.ElideRight, max(room, 0)
            )
            painter.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, option)
