"""Keyboard focus is visible and Tab only stops where a person can see something change."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QPlainTextEdit, QTextEdit

from pixelmem.gui.panels.registry import Stage


def _shown(qtbot, window, size=(800, 600)) -> None:
    window.resize(*size)
    window.show()
    window.activateWindow()
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    # Every panel in its place: the views come in turns after a scan (tiny vaults too).
    qtbot.waitUntil(lambda: window.panels.is_built(Stage.AFTER_SCAN), timeout=10_000)
    window.open_memory(window.list_model.memories()[0].id)


def _tab_stops(qtbot, window, *, forward: bool = True) -> list[tuple]:
    """Focus the list, then Tab round the whole window back to it: (stop, framed widget)."""
    window.commands.focus_list()
    start = QApplication.focusWidget()
    stops = []
    key = Qt.Key.Key_Tab if forward else Qt.Key.Key_Backtab
    for _ in range(80):
        here = QApplication.focusWidget()
        if isinstance(here, QPlainTextEdit | QTextEdit) and not here.tabChangesFocus():
            window.focusNextPrevChild(forward)  # Tab indents there; Ctrl+Tab moves on
        else:
            qtbot.keyClick(here, key)
        now = QApplication.focusWidget()
        if now is start:
            return stops
        stops.append((now, window.focus_ring.target))
    raise AssertionError(f"Tab never came back: {stops}")


@pytest.mark.parametrize("raised", ["search_dock", "chat_dock", "map_dock"])
def test_tab_stops_only_at_visible_controls(qtbot, window, raised: str) -> None:
    _shown(qtbot, window)
    getattr(window, raised).raise_()
    qtbot.wait(20)
    stops = _tab_stops(qtbot, window)
    assert len(stops) >= 8
    for widget, framed in stops:
        name = f"{type(widget).__name__} {widget.objectName()}"
        assert window.covered_tabs.is_shown(widget), f"{name} is not shown ({raised})"
        placed = QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())
        assert window.rect().intersects(placed) and widget.width() > 0, name
        assert framed is widget, f"no focus frame around {name}"
    widgets = [widget for widget, _ in stops]
    assert window.editor.form.title_edit in widgets and window.list_panel.sort_combo in widgets
    covered = [
        d
        for d in (window.search_dock, window.chat_dock, window.map_dock)
        if d is not getattr(window, raised)
    ]
    assert not any(dock.isAncestorOf(w) for dock in covered for w in widgets)


def test_shift_tab_walks_back_the_same_way(qtbot, window) -> None:
    _shown(qtbot, window)
    forward = [widget for widget, _ in _tab_stops(qtbot, window)]
    backward = [widget for widget, _ in _tab_stops(qtbot, window, forward=False)]
    assert backward == list(reversed(forward))


def test_no_focus_frame_after_a_click(qtbot, window) -> None:
    _shown(qtbot, window)
    window.commands.focus_list()
    assert window.focus_ring.target is window.list_panel.view  # from the keyboard (Ctrl+1)
    title = window.editor.form.title_edit
    qtbot.mouseClick(title, Qt.MouseButton.LeftButton)
    assert title.hasFocus() and window.focus_ring.target is None


def _dark() -> QPalette:
    palette = QPalette()
    for role, color in {
        QPalette.ColorRole.Window: "#2b2d31",
        QPalette.ColorRole.Base: "#1e1f22",
        QPalette.ColorRole.Text: "#e6e6e6",
        QPalette.ColorRole.Highlight: "#3d6fd8",
    }.items():
        palette.setColor(role, QColor(color))
    return palette


@pytest.mark.parametrize("palette", [QPalette, _dark], ids=["light", "dark"])
def test_the_frame_is_drawn_in_the_highlight_colour(qtbot, window, palette) -> None:
    _shown(qtbot, window)
    window.setPalette(palette())
    window.commands.focus_list()
    ring = window.focus_ring
    assert ring.isVisible() and ring.size() == window.list_panel.view.size()
    image = ring.grab().toImage()
    edge = image.pixelColor(ring.width() // 2, 1)
    highlight = ring.palette().color(QPalette.ColorGroup.Active, QPalette.ColorRole.Highlight)
    assert abs(edge.red() - highlight.red()) + abs(edge.blue() - highlight.blue()) < 40
    background = window.palette().color(QPalette.ColorRole.Base)
    contrast = abs(highlight.lightness() - background.lightness()) + abs(
        highlight.hue() - background.hue()
    )
    assert contrast > 60  # stands out against the page in both palettes


def test_tab_reads_the_window_column_by_column(qtbot, window) -> None:
    """From the list: the editor, then the search dock, the status bar, and round to the
    list's own filters (above the list) — not the order the views were built in."""
    _shown(qtbot, window)
    window.search_dock.raise_()
    qtbot.wait(20)
    stops = [widget for widget, _ in _tab_stops(qtbot, window)]
    order = [
        window.editor.form.title_edit,
        window.editor.form.body_edit,
        window.search_panel.search_box,
        window.status.counts_button,
        window.list_panel.sort_combo,
    ]
    positions = [stops.index(widget) for widget in order]
    assert positions == sorted(positions), [type(w).__name__ for w in stops]
