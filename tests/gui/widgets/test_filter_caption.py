"""The filter caption: its line, "Show all" only while filtering, and the click reported."""

from __future__ import annotations

from pixelmem.gui.widgets.filter_caption import FilterCaption


def test_show_all_is_offered_while_filtering_and_reports_the_click(qtbot) -> None:
    caption = FilterCaption()
    qtbot.addWidget(caption)
    caption.show()
    caption.show_text("Per week, 2024 to 2025", filtering=False)
    assert caption.label.text() == "Per week, 2024 to 2025"
    assert not caption.clear_button.isVisible()
    caption.show_text("Week of 2024-03-04", filtering=True)
    assert caption.clear_button.isVisible() and caption.clear_button.text() == "Show all"
    with qtbot.waitSignal(caption.cleared, timeout=1000):
        caption.clear_button.click()


def test_a_long_line_never_widens_it(qtbot) -> None:
    caption = FilterCaption()
    qtbot.addWidget(caption)
    caption.show_text("x" * 400, filtering=True)
    assert caption.minimumSizeHint().width() < 200  # cut with "…", the whole in the tooltip
