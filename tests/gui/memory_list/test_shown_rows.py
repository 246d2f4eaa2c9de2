"""The list's rows: the filter proxy is in the view (and asked about rows) only while a filter
is set, and the current memory stays current as it comes and goes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from pixelmem.core.vault.memory import Memory
from pixelmem.gui.memory_list.memory_list_model import (
    MemoryFilterProxy,
    MemoryListModel,
    ShownRows,
)

NOW = datetime(2025, 5, 1, tzinfo=UTC)


def _memory(mid: str, title: str, days_ago: int, topics: list[str]) -> Memory:
    stamp = NOW - timedelta(days=days_ago)
    return Memory(mid, title, topics=topics, created=stamp, updated=stamp)


def _model(memories: list[Memory]) -> tuple[MemoryListModel, dict[str, Memory]]:
    table = {memory.id: memory for memory in memories}
    model = MemoryListModel(table.__getitem__)
    model.set_memories(memories)
    return model, table


class CountingFilter(MemoryFilterProxy):
    """The filter proxy, counting the rows Qt asks it about."""

    def __init__(self) -> None:
        super().__init__()
        self.asked = 0

    def filterAcceptsRow(self, source_row: int, source_parent: Any) -> bool:
        self.asked += 1
        return super().filterAcceptsRow(source_row, source_parent)


def _memories(count: int) -> list[Memory]:
    return [
        _memory(f"m{i}", f"Note {i}", i, ["even" if i % 2 == 0 else "odd"]) for i in range(count)
    ]


def _titles(shown: ShownRows) -> list[str]:
    return [shown.memory_at(row).title for row in range(shown.rowCount())]


def test_no_row_is_asked_about_while_nothing_filters(qtmodeltester) -> None:
    model, table = _model([])
    row_filter = CountingFilter()
    shown = ShownRows(model, row_filter)
    model.set_memories(_memories(200))  # the scan's reset
    assert shown.rowCount() == 200 and not shown.filtered
    assert row_filter.sourceModel() is None and row_filter.asked == 0
    table["new"] = _memory("new", "Newest", 0, ["odd"])
    model.apply_change("created", "new")  # an insert: an unseen proxy would map every row
    assert shown.rowCount() == 201 and row_filter.asked == 0
    qtmodeltester.check(shown)


def test_a_filter_is_in_the_view_while_set_and_maps_rows_both_ways(qtmodeltester) -> None:
    model, _ = _model(_memories(6))
    row_filter = CountingFilter()
    shown = ShownRows(model, row_filter)
    row_filter.set_filters(topic="even")
    assert shown.filtered and row_filter.sourceModel() is model
    assert _titles(shown) == ["Note 0", "Note 2", "Note 4"] and row_filter.asked > 0
    assert shown.index_of_row(model.row_of("m2")).row() == 1
    assert not shown.index_of_row(model.row_of("m3")).isValid()  # filtered out
    qtmodeltester.check(shown)
    row_filter.set_rule("named", lambda memory: memory.title != "Note 0")  # still filtering
    assert shown.filtered and _titles(shown) == ["Note 2", "Note 4"]
    row_filter.set_rule("named", None)
    row_filter.set_filters()
    assert not shown.filtered and row_filter.sourceModel() is None
    assert shown.rowCount() == 6 and shown.index_of_row(model.row_of("m3")).row() == 3


def test_the_list_keeps_its_current_memory_as_a_filter_comes_and_goes(qtbot) -> None:
    from pixelmem.gui.memory_list.memory_list import MemoryListPanel

    memories = _memories(8)
    table = {memory.id: memory for memory in memories}
    model = MemoryListModel(table.__getitem__)
    panel = MemoryListPanel(model)
    qtbot.addWidget(panel)
    model.set_memories(memories)
    assert panel.view.model() is panel.shown and not panel.shown.filtered
    panel.select("m4")
    panel.proxy.set_filters(topic="even")
    assert panel.shown.filtered and panel.current_id() == "m4"
    assert [memory.id for memory in panel.visible_memories()] == ["m0", "m2", "m4", "m6"]
    qtbot.waitUntil(lambda: panel.count_label.text() == "4 of 8 memories", timeout=2000)
    panel.proxy.set_filters()
    assert not panel.shown.filtered and panel.current_id() == "m4"
    assert len(panel.visible_memories()) == 8
    panel.proxy.set_filters(topic="odd")  # the current memory is filtered out: none is current
    assert panel.current_id() is None
