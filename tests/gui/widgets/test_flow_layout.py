"""The flow layout's remembered heights follow every change that can move its lines."""

from __future__ import annotations

from PySide6.QtWidgets import QPushButton, QWidget

from pixelmem.gui.widgets.flow_layout import FlowLayout


def _shown_row(qtbot, buttons: list[QPushButton]) -> tuple[QWidget, FlowLayout]:
    """The buttons in a flow layout of a shown widget (kept by the caller: Python owns it)."""
    box = QWidget()
    qtbot.addWidget(box)
    layout = FlowLayout(box)
    for button in buttons:
        layout.addWidget(button)
    box.show()
    return box, layout


def test_heights_follow_hidden_items_and_new_size_hints(qtbot) -> None:
    buttons = [QPushButton(f"button {i}") for i in range(4)]
    _box, layout = _shown_row(qtbot, buttons)
    width = buttons[0].sizeHint().width() + 10  # one button a line
    four_lines = layout.heightForWidth(width)
    assert layout.heightForWidth(width) == four_lines  # asked again: the same

    buttons[1].hide()
    buttons[2].hide()
    two_lines = layout.heightForWidth(width)
    assert two_lines < four_lines

    buttons[1].show()
    assert two_lines < layout.heightForWidth(width) < four_lines

    wide = layout.one_line_width()
    one_line = layout.heightForWidth(wide)
    buttons[0].setText("a much longer text than the others, so the line breaks")
    assert layout.heightForWidth(wide) > one_line

    layout.addWidget(QPushButton("five"))
    taken = layout.takeAt(0)
    assert taken is not None and layout.count() == 4


class _CountingButton(QPushButton):
    asked = 0

    def sizeHint(self):
        _CountingButton.asked += 1
        return super().sizeHint()


def test_each_item_hint_is_read_once_per_change(qtbot) -> None:
    """A layout pass asks the height at many widths: the items' hints are read once, until
    one of them changes (a widget's sizeHint can cost milliseconds: a long combo box)."""
    buttons: list[QPushButton] = [_CountingButton(f"button {i}") for i in range(3)]
    _box, layout = _shown_row(qtbot, buttons)
    layout.heightForWidth(500)
    _CountingButton.asked = 0
    for width in (80, 120, 200, 300, 400):
        layout.heightForWidth(width)
    assert _CountingButton.asked == 0
    buttons[0].setText("a much longer text than before")  # its hint changes: read again
    layout.heightForWidth(80)
    assert _CountingButton.asked >= 1
