"""A grey line saying what a list shows, with "Show all" beside it while a filter is on: the
timeline strip's and the Tags pane's (a long text is cut, never widening the dock)."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QToolButton, QWidget

from pixelmem.gui.widgets.elided_label import ElidedLabel


class FilterCaption(QWidget):
    """``cleared`` when "Show all" is pressed; :meth:`show_text` sets the line."""

    cleared = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = ElidedLabel()
        self.label.setEnabled(False)  # grey, like the list's other hints
        self.clear_button = QToolButton()
        self.clear_button.setAutoRaise(True)
        self.clear_button.hide()
        self.clear_button.clicked.connect(self.cleared)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.label, 1)
        row.addWidget(self.clear_button)
        self.retranslate()

    def retranslate(self) -> None:
        self.clear_button.setText(self.tr("Show all"))

    def show_text(self, text: str, *, filtering: bool) -> None:
        """Say ``text``; offer "Show all" while ``filtering``."""
        self.label.setText(text)
        self.clear_button.setVisible(filtering)
