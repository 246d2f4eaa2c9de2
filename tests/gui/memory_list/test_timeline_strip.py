"""The timeline strip above the memory list: weeks by topic, click or drag to filter."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt

from pixelmem.core.vault.store import MemoryStore
from pixelmem.gui.memory_list.memory_list_model import WITHOUT_TOPICS
from tests.gui.conftest import MEMORIES

OLD_DAY = date(2024, 1, 10)  # a Wednesday, long before the fixture's memories


@pytest.fixture
def small_vault(vault: Path) -> Path:
    """The usual memories, plus one written on OLD_DAY without topics."""
    store = MemoryStore(vault)
    for title, body, topics, importance in MEMORIES:
        store.create(title, body, topics=topics, importance=importance)
    (vault / "old-note.md").write_text(
        "---\ntitle: Old note\ncreated: 2024-01-10T12:00:00\n---\nWritten long ago.\n",
        encoding="utf-8",
    )
    return vault


def _shown(window) -> list[str]:
    return sorted(m.title for m in window.list_panel.visible_memories())


def _x_of(bars, week: int) -> int:
    return int((week + 0.5) * bars.width() / len(bars.timeline))


def _shown_timeline(qtbot, window):
    strip = window.timeline
    if not len(strip.bars.timeline):
        with qtbot.waitSignal(strip.timeline_shown, timeout=5000):
            pass
    return strip


def test_weeks_by_topic_and_a_click_filters_the_list(qtbot, window):
    strip = _shown_timeline(qtbot, window)
    timeline = strip.bars.timeline
    assert timeline.weeks[0] == OLD_DAY - timedelta(days=OLD_DAY.weekday())
    assert int(timeline.totals.sum()) == 6 and timeline.totals[0] == 1
    window.list_dock.show()
    strip.bars.resize(1200, 44)  # wide enough for a bar per week (narrower weeks share one)
    first_week = QPoint(_x_of(strip.bars, 0), 20)
    with qtbot.waitSignal(strip.period_selected) as picked:
        qtbot.mouseClick(strip.bars, Qt.MouseButton.LeftButton, pos=first_week)
    assert picked.args[0] == (date(2024, 1, 8), date(2024, 1, 15))
    assert _shown(window) == ["Old note"]
    assert "2024-01-08" in strip.caption.label.text() and not strip.caption.clear_button.isHidden()
    assert "1 memory" in strip.bars.describe(0) and "No topic: 1" in strip.bars.describe(0)
    strip.caption.clear_button.click()
    assert len(_shown(window)) == 6 and strip.period() is None
    assert strip.caption.label.text().startswith("Per week, 2024-01-08 to ")


def test_drag_picks_a_range_and_clicking_the_week_again_clears(qtbot, window):
    strip = _shown_timeline(qtbot, window)
    bars = strip.bars
    bars.resize(300, 44)
    last = len(bars.timeline) - 1
    qtbot.mousePress(bars, Qt.MouseButton.LeftButton, pos=QPoint(_x_of(bars, 0), 20))
    qtbot.mouseMove(bars, QPoint(_x_of(bars, last), 20))
    qtbot.mouseRelease(bars, Qt.MouseButton.LeftButton, pos=QPoint(_x_of(bars, last), 20))
    assert bars.chosen == (0, last) and len(_shown(window)) == 6
    qtbot.mouseClick(bars, Qt.MouseButton.LeftButton, pos=QPoint(_x_of(bars, last), 20))
    assert bars.chosen == (last, last)
    assert "Old note" not in _shown(window)
    qtbot.mouseClick(bars, Qt.MouseButton.LeftButton, pos=QPoint(_x_of(bars, last), 20))
    assert bars.chosen is None and len(_shown(window)) == 6


def test_updates_after_a_save(qtbot, window):
    strip = _shown_timeline(qtbot, window)
    before = int(strip.bars.timeline.totals.sum())
    from pixelmem.core.vault.memory import Memory

    with qtbot.waitSignal(strip.timeline_shown, timeout=5000):
        window.session.create(Memory(id="", title="New one", body="Text.", topics=["garden"]))
    assert int(strip.bars.timeline.totals.sum()) == before + 1


def test_memories_without_topics_filter(qtbot, window):
    _shown_timeline(qtbot, window)
    combo = window.list_panel.topic_combo
    index = combo.findData(WITHOUT_TOPICS)
    assert index == 1 and "(1)" in combo.itemText(index)
    combo.setCurrentIndex(index)
    assert _shown(window) == ["Old note"]


def test_years_of_weeks_share_bars_in_a_narrow_strip(qtbot):
    from datetime import UTC, datetime

    from pixelmem.core.insight.timeline import build_timeline
    from pixelmem.core.vault.memory import Memory
    from pixelmem.gui.memory_list.timeline_strip import TimelineBars

    start = datetime(2016, 1, 4, 12, tzinfo=UTC)
    memories = [
        Memory(str(i), "t", topics=["a"] if i % 2 else [], created=start + timedelta(days=i))
        for i in range(0, 3650, 3)
    ]
    bars = TimelineBars()
    qtbot.addWidget(bars)
    bars.resize(200, 44)
    bars.set_timeline(build_timeline(memories))
    assert len(bars.timeline) > 500
    image = bars.grab().toImage()
    base = image.pixelColor(0, 0)  # the top row stays background (bars are never taller)
    painted = [x for x in range(200) if image.pixelColor(x, 43) != base]
    assert painted[0] <= 3 and painted[-1] >= 196  # the first and the last week are drawn
    last = len(bars.timeline) - 1
    assert bars.bar_at(199)[1] == last and bars.bar_at(0)[0] == 0  # a click takes a whole bar
    qtbot.mouseClick(bars, Qt.MouseButton.LeftButton, pos=QPoint(199, 20))
    assert bars.chosen == bars.bar_at(199) and bars.chosen[0] < last
