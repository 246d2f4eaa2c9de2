"""The list model stays sorted and changes row by row: no reset per change."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

from pixelmem.core.errors import MemoryNotFound
from pixelmem.core.vault.memory import Memory
from pixelmem.gui.memory_list.memory_list_model import MemoryFilterProxy, MemoryListModel

NOW = datetime(2025, 5, 1, tzinfo=UTC)


def _memory(mid: str, title: str, days_ago: int, topics=(), importance="medium") -> Memory:
    stamp = NOW - timedelta(days=days_ago)
    return Memory(
        mid, title, topics=list(topics), importance=importance, created=stamp, updated=stamp
    )


def _model(memories: list[Memory]) -> tuple[MemoryListModel, dict[str, Memory]]:
    table = {m.id: m for m in memories}

    def lookup(mid: str) -> Memory:
        if mid not in table:
            raise MemoryNotFound(mid)
        return table[mid]

    model = MemoryListModel(lookup)
    model.set_memories(memories)
    return model, table


def _titles(model: MemoryListModel) -> list[str]:
    return [model.memory_at(r).title for r in range(model.rowCount())]


def test_rows_are_newest_first_and_pass_the_model_tester(qtmodeltester) -> None:
    model, _ = _model([_memory("a", "Old", 10), _memory("b", "New", 1), _memory("c", "Mid", 5)])
    assert _titles(model) == ["New", "Mid", "Old"]
    qtmodeltester.check(model)


def test_changes_are_incremental(qtbot) -> None:
    model, table = _model([_memory("a", "Old", 10), _memory("b", "New", 1)])
    resets: list[bool] = []
    model.modelReset.connect(lambda: resets.append(True))
    table["c"] = _memory("c", "Newest", 0)
    with qtbot.waitSignal(model.rowsInserted) as inserted:
        model.apply_change("created", "c")
    assert inserted.args[1:] == [0, 0]
    table["a"] = dataclasses.replace(table["a"], updated=NOW + timedelta(hours=1))
    with qtbot.waitSignal(model.rowsMoved):
        model.apply_change("updated", "a")
    assert _titles(model) == ["Old", "Newest", "New"]
    table["b"] = dataclasses.replace(table["b"], title="New, renamed")
    with qtbot.waitSignal(model.dataChanged):
        model.apply_change("updated", "b")
    with qtbot.waitSignal(model.rowsRemoved):
        model.apply_change("deleted", "c")
    assert _titles(model) == ["Old", "New, renamed"]
    assert resets == []


def test_sort_keeps_the_selection_on_the_same_memory(qtmodeltester) -> None:
    model, _ = _model(
        [_memory("a", "banana", 1), _memory("b", "apple", 2), _memory("c", "cherry", 3)]
    )
    from PySide6.QtCore import QPersistentModelIndex

    held = QPersistentModelIndex(model.index(model.row_of("c")))
    model.set_sort("title")
    assert _titles(model) == ["apple", "banana", "cherry"]
    assert held.row() == model.row_of("c") == 2
    qtmodeltester.check(model)


def test_filters_by_topic_importance_and_date() -> None:
    model, _ = _model(
        [
            _memory("a", "A", 1, ["rust"], "high"),
            _memory("b", "B", 40, ["rust"], "low"),
            _memory("c", "C", 2, ["garden"], "high"),
        ]
    )
    proxy = MemoryFilterProxy()
    proxy.setSourceModel(model)
    proxy.set_filters(topic="rust")
    assert proxy.rowCount() == 2
    proxy.set_filters(topic="rust", importance="high")
    assert proxy.rowCount() == 1
    proxy.set_filters(since=NOW - timedelta(days=7))
    assert proxy.rowCount() == 2
    assert model.topic_counts() == {"rust": 2, "garden": 1}


def test_count_label_says_one_memory_not_one_memories(qtbot) -> None:
    from pixelmem.core.vault.memory import Memory
    from pixelmem.gui.memory_list.memory_list import MemoryListPanel
    from pixelmem.gui.memory_list.memory_list_model import MemoryListModel

    memories = {"a": Memory("a", "Only one")}
    model = MemoryListModel(memories.__getitem__)
    panel = MemoryListPanel(model)
    qtbot.addWidget(panel)
    model.set_memories(list(memories.values()))
    qtbot.waitUntil(lambda: panel.count_label.text() == "1 memory", timeout=2000)


def test_filters_memories_without_topics_and_by_period() -> None:
    from pixelmem.gui.memory_list.memory_list_model import WITHOUT_TOPICS

    model, _ = _model(
        [
            _memory("a", "A", 1, ["rust"]),
            _memory("b", "B", 2),
            _memory("c", "C", 40),
        ]
    )
    proxy = MemoryFilterProxy()
    proxy.setSourceModel(model)
    proxy.set_filters(topic=WITHOUT_TOPICS)
    assert sorted(proxy.index(r, 0).data() for r in range(proxy.rowCount())) == ["B", "C"]
    assert model.without_topics_count() == 2
    day = (NOW - timedelta(days=2)).astimezone().date()
    proxy.set_period((day, day + timedelta(days=1)))
    assert [proxy.index(r, 0).data() for r in range(proxy.rowCount())] == ["B"]
    proxy.set_filters()
    assert proxy.rowCount() == 1 and proxy.period == (day, day + timedelta(days=1))
    proxy.set_period(None)
    assert proxy.rowCount() == 3


def test_a_panels_rule_filters_with_the_others_and_goes_again(qtbot) -> None:
    model, _ = _model(
        [
            _memory("a", "Espresso", 1, ["coffee"], "high"),
            _memory("b", "Pour-over", 2, ["coffee"]),
            _memory("c", "Sourdough", 3, ["baking"], "high"),
        ]
    )
    proxy = MemoryFilterProxy()
    proxy.setSourceModel(model)

    def shown() -> list[str]:
        return [proxy.index(r, 0).data() for r in range(proxy.rowCount())]

    proxy.set_rule("tag", lambda memory: "coffee" in memory.topics)
    assert shown() == ["Espresso", "Pour-over"] and proxy.filtering
    proxy.set_filters(importance="high")  # rules and the list's own filters both apply
    assert shown() == ["Espresso"]
    proxy.set_filters()
    proxy.set_rule("tag", None)
    assert shown() == ["Espresso", "Pour-over", "Sourdough"] and not proxy.filtering
    proxy.set_rule("never set", None)  # dropping a rule that is not there changes nothing
    assert proxy.rule("tag") is None


def test_topic_counts_follow_every_change_without_a_recount() -> None:
    """Counted once when the rows come (on the worker that orders them), then row by row."""
    from collections import Counter

    memories = [
        _memory("a", "A", 3, ["garden", "tomato"]),
        _memory("b", "B", 2, ["garden"]),
        _memory("c", "C", 1),
    ]
    model, table = _model([])
    model.set_memories(model.in_order(memories))  # as the session does, off the GUI thread

    def recount() -> tuple[Counter[str], int]:
        rows = model.memories()
        return Counter(t for m in rows for t in m.topics), sum(not m.topics for m in rows)

    def check() -> None:
        assert (model.topic_counts(), model.without_topics_count()) == recount()

    check()
    table.update({m.id: m for m in memories})
    table["d"] = _memory("d", "D", 0, ["rust"])
    model.apply_change("created", "d")
    check()
    table["b"] = dataclasses.replace(table["b"], topics=["rust"])  # in place
    model.apply_change("updated", "b")
    check()
    table["a"] = dataclasses.replace(table["a"], topics=[], updated=NOW)  # moves to the top
    model.apply_change("updated", "a")
    check()
    model.apply_change("deleted", "d")
    check()
    model.adopt([dataclasses.replace(table["c"], topics=["garden"])])
    check()
    assert "tomato" not in model.topic_counts()  # no memory carries it any more


def test_topic_filter_width_does_not_measure_every_topic(qtbot) -> None:
    """A big vault has thousands of topics: the filter's preferred width is a fixed number of
    characters (measuring each entry at every refill stalled the window while indexing)."""
    from pixelmem.gui.memory_list.memory_list import MemoryListPanel

    model, _ = _model([_memory("a", "A", 1, ["garden"])])
    panel = MemoryListPanel(model)
    qtbot.addWidget(panel)
    panel.refresh_topics()
    few = panel.topic_combo.sizeHint().width()
    long_topic = "a-very-long-topic-name-that-would-widen-the-row " * 3
    model.set_memories([_memory(f"m{i}", "M", 1, [f"{long_topic}{i}"]) for i in range(2000)])
    panel.refresh_topics()
    assert panel.topic_combo.count() == 2001
    assert panel.topic_combo.sizeHint().width() == few
