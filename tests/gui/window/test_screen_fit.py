"""Windows that fit the screen (issue 28): the first window sized to the screen's free area,
a layout saved on a bigger screen (or a monitor that is gone) brought back onto the screen at
hand, list titles keeping their room before dates; at 800×600 and 1366×768, in English and
Chinese, with nothing clipped or outside (tests/gui/layout_check.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from layout_check import layout_problems, settle
from PySide6.QtCore import QRect, QSize

from pixelmem.core.index.engine import Engine
from pixelmem.gui import i18n
from pixelmem.gui.memory_list.memory_delegate import title_room
from pixelmem.gui.panels.registry import Stage
from pixelmem.gui.window import screen_fit
from pixelmem.gui.window.screen_fit import first_geometry, fitted, screen_for

SCREENS = {  # available areas: a task bar along the bottom
    "800x600": QRect(0, 0, 800, 570),
    "1366x768": QRect(0, 0, 1366, 728),
}
EXTRA = screen_fit.FRAME_GUESS


def test_the_first_size_is_the_screens_where_it_is_smaller() -> None:
    small = first_geometry(SCREENS["800x600"])
    assert small.size() == QSize(800 - EXTRA.width(), 570 - EXTRA.height())
    assert small.top() >= EXTRA.height()
    big = first_geometry(QRect(0, 0, 2560, 1400))
    assert big.size() == screen_fit.FIRST_SIZE
    assert QRect(0, 0, 2560, 1400).contains(big)


def test_a_geometry_is_clamped_onto_the_screen_it_overlaps_most() -> None:
    left, right = QRect(0, 0, 1920, 1040), QRect(1920, 0, 1366, 728)
    saved = QRect(2000, 300, 1800, 1000)  # mostly on the right screen, too big for it
    area = screen_for(saved, [left, right])
    assert area == right
    placed = fitted(saved, area, EXTRA)
    assert right.contains(placed.adjusted(0, -EXTRA.height(), EXTRA.width(), 0))
    gone = QRect(5000, 5000, 800, 600)  # a monitor that is not there any more
    assert screen_for(gone, [left, right]) == left


def test_list_titles_keep_their_room_before_dates() -> None:
    assert title_room(100, 60, 400) == (330, False)  # both fit
    assert title_room(300, 60, 400) == (330, False)  # the title keeps most of the line
    assert title_room(300, 70, 150) == (150, True)  # "Cat…" beside "18 分钟前": date below


@pytest.fixture
def _english_afterwards(qapp) -> Iterator[None]:
    yield
    i18n.install_translator("en")


def _window(qtbot, engine: Engine, settings):
    from pixelmem.gui.window.main_window import MainWindow

    window = MainWindow(engine, settings)
    qtbot.addWidget(window)
    window._closing_ok = True
    return window


def _start(qtbot, window) -> None:
    window.show()
    qtbot.waitExposed(window)
    with qtbot.waitSignal(window.session.indexing_finished, timeout=10_000):
        window.start()
    qtbot.waitUntil(lambda: window.panels.is_built(Stage.AFTER_SCAN), timeout=10_000)
    settle(qtbot)


def _fits(window, area: QRect) -> None:
    geometry = window.geometry()
    assert geometry.width() <= area.width() and geometry.height() <= area.height()
    assert area.contains(geometry), (geometry, area)
    assert layout_problems(window) == []


@pytest.mark.usefixtures("_english_afterwards")
@pytest.mark.parametrize("language", ["en", "zh_CN"])
@pytest.mark.parametrize("screen", SCREENS)
def test_the_first_window_fits_the_screen(
    qtbot, monkeypatch, engine, settings, language, screen
) -> None:
    area = SCREENS[screen]
    monkeypatch.setattr(screen_fit, "available_areas", lambda: [area])
    i18n.install_translator(language)
    window = _window(qtbot, engine, settings)
    _start(qtbot, window)
    _fits(window, area)
    window.session.shutdown()


@pytest.mark.usefixtures("_english_afterwards")
@pytest.mark.parametrize("language", ["en", "zh_CN"])
@pytest.mark.parametrize("screen", SCREENS)
def test_a_layout_saved_on_a_big_screen_comes_back_fitted(
    qtbot, monkeypatch, engine, settings, embedder, language, screen
) -> None:
    big = QRect(0, 0, 1920, 1040)
    monkeypatch.setattr(screen_fit, "available_areas", lambda: [big])
    first = _window(qtbot, engine, settings)
    _start(qtbot, first)
    first.setGeometry(QRect(100, 60, 1800, 960))
    settle(qtbot)
    first.close()  # saves the layout (ui.ini)
    first.session.shutdown()

    area = SCREENS[screen]
    monkeypatch.setattr(screen_fit, "available_areas", lambda: [area])
    i18n.install_translator(language)
    again = _window(qtbot, Engine(engine.vault, settings, embedder=embedder), settings)
    _start(qtbot, again)
    _fits(again, area)
    again.session.shutdown()


@pytest.mark.usefixtures("_english_afterwards")
@pytest.mark.parametrize("language", ["en", "zh_CN"])
@pytest.mark.parametrize("screen", SCREENS)
def test_the_folders_and_tags_panes_keep_the_window_on_the_screen(
    qtbot, monkeypatch, engine, settings, language, screen
) -> None:
    area = SCREENS[screen]
    monkeypatch.setattr(screen_fit, "available_areas", lambda: [area])
    i18n.install_translator(language)
    window = _window(qtbot, engine, settings)
    _start(qtbot, window)
    for name in ("folders", "tags"):
        window.panels.reveal(name)
        settle(qtbot)
        assert window.panels.dock(name).isVisible()
        _fits(window, area)  # a short window shows them as tabs beside the list, not below
    window.session.shutdown()
