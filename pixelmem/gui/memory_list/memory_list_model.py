"""The memory list: a model over the store's memories, kept sorted, updated per change set.

Sorting happens here in Python (one ``list.sort`` on load, ``bisect`` per change) rather than in
the proxy: a proxy sort calls back into Python twice per comparison, which on 10k memories
costs more than the whole start-up budget. The proxy (:class:`MemoryFilterProxy`) only filters.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Callable, Iterable
from datetime import UTC, date, datetime
from operator import itemgetter
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    Signal,
)

from pixelmem.core.errors import PixelmemError
from pixelmem.core.insight.timeline import memory_day
from pixelmem.core.vault.memory import IMPORTANCE_LEVELS, Memory
from pixelmem.core.writes import DELETED, ChangeSet
from pixelmem.gui.bus import MemoryBus
from pixelmem.gui.memory_list.importance_legend import row_tooltip_line

MemoryRole = Qt.ItemDataRole.UserRole + 1
IdRole = Qt.ItemDataRole.UserRole + 2
TopicsRole = Qt.ItemDataRole.UserRole + 3
ImportanceRole = Qt.ItemDataRole.UserRole + 4
UpdatedRole = Qt.ItemDataRole.UserRole + 5

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
SORT_KEYS = ("updated", "created", "title", "importance")
_RANK = {level: rank for rank, level in enumerate(IMPORTANCE_LEVELS)}

WITHOUT_TOPICS = "\x00without"  # the topic filter's value for "memories without topics"
BATCH_ROWS = 32  # above this many changes one reset is cheaper than row-by-row signals
AnyIndex = QModelIndex | QPersistentModelIndex
Lookup = Callable[[str], Memory]
Rule = Callable[[Memory], bool]  # a panel's filter of the list: which memories it shows


def _stamp(value: datetime | None) -> float:
    return (value or EPOCH).timestamp()


def sort_key(memory: Memory, by: str) -> tuple[Any, ...]:
    """Ascending key for ``by``; dates and importance sort newest / highest first."""
    title = memory.title.casefold()
    if by == "title":
        return (title, memory.id)
    if by == "importance":
        rank = -_RANK.get(memory.importance, 1)
        return (rank, -_stamp(memory.updated or memory.created), memory.id)
    if by == "created":
        return (-_stamp(memory.created), title, memory.id)
    return (-_stamp(memory.updated or memory.created), title, memory.id)


class OrderedMemories(list[Memory]):
    """Memories in a list order (``by``), with the sort key and row of each and their topics
    counted: what the list model holds, made off the GUI thread for a launch's first picture
    of the vault."""

    by: str
    keys: list[tuple[Any, ...]]
    row_of: dict[str, int]
    topics: TopicTally


class TopicTally:
    """How many memories carry each topic, and how many none: kept up to date row by row (a
    count over 10k memories on the GUI thread took ~35 ms at every scan and edit)."""

    def __init__(self, memories: Iterable[Memory] = ()) -> None:
        self.counts: Counter[str] = Counter()
        self.without = 0
        for memory in memories:
            self.add(memory)

    def add(self, memory: Memory) -> None:
        self.counts.update(memory.topics)
        self.without += not memory.topics

    def remove(self, memory: Memory) -> None:
        self.counts.subtract(memory.topics)
        self.without -= not memory.topics

    def replace(self, old: Memory, new: Memory) -> None:
        if old.topics != new.topics:
            self.remove(old)
            self.add(new)


class MemoryListModel(QAbstractListModel):
    """Rows of memories (read-only objects from the store) in the chosen order."""

    def __init__(self, lookup: Lookup, parent: Any = None, *, bus: MemoryBus | None = None) -> None:
        super().__init__(parent)
        self._lookup = lookup
        self._loaded = False  # changes before the first load are already in it
        self._rows: list[Memory] = []
        self._keys: list[tuple[Any, ...]] = []
        self._row_of: dict[str, int] = {}
        self._topics = TopicTally()
        self._sort_by = "updated"
        self._bus: MemoryBus | None = None
        if bus is not None:
            self.follow(bus)

    # -- Qt model interface --------------------------------------------------------------

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008 - Qt default
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        memory = self._rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return memory.title
        if role == MemoryRole:
            return memory
        if role == IdRole:
            return memory.id
        if role == TopicsRole:
            return list(memory.topics)
        if role == ImportanceRole:
            return memory.importance
        if role == UpdatedRole:
            return memory.updated or memory.created
        if role == Qt.ItemDataRole.ToolTipRole:  # asked for when shown: current language
            tip = memory.title + (f"\n{memory.path}" if memory.path else "")  # a cut title
            if memory.aliases:  # Obsidian's other names for the note
                names = ", ".join(memory.aliases)
                tip += "\n" + self.tr("Also called: {names}").format(names=names)
            return f"{tip}\n{row_tooltip_line(memory.importance)}"
        return None

    # -- Python-side access (the proxy and views use these; no QVariant round trip) -------

    def memory_at(self, row: int) -> Memory:
        return self._rows[row]

    def row_of(self, memory_id: str) -> int:
        return self._row_of.get(memory_id, -1)

    def memories(self) -> list[Memory]:
        return list(self._rows)

    def topic_counts(self) -> Counter[str]:
        return +self._topics.counts  # (topics no memory carries any more left out)

    def without_topics_count(self) -> int:
        return self._topics.without

    @property
    def sort_by(self) -> str:
        return self._sort_by

    # -- changes ---------------------------------------------------------------------------

    def set_memories(self, memories: Iterable[Memory]) -> None:
        """Replace every row (the initial load): one reset, not thousands of inserts. Memories
        ordered on a worker (:meth:`in_order`) for the current sort go in as they are."""
        self._loaded = True
        if not isinstance(memories, OrderedMemories) or memories.by != self._sort_by:
            memories = self.in_order(memories)
        self.beginResetModel()
        self._keys = memories.keys
        self._rows = list(memories)
        self._row_of = memories.row_of
        self._topics = memories.topics
        self.endResetModel()

    def in_order(self, memories: Iterable[Memory]) -> OrderedMemories:
        """``memories`` in the list's current order, with their sort keys (10k: ~30 ms; safe
        on a worker: it only reads the sort choice)."""
        by = self._sort_by
        keyed = sorted(((sort_key(m, by), m) for m in memories), key=itemgetter(0))
        ordered = OrderedMemories(memory for _, memory in keyed)
        ordered.by, ordered.keys = by, [key for key, _ in keyed]  # each key made once
        ordered.row_of = {m.id: i for i, m in enumerate(ordered)}
        ordered.topics = TopicTally(ordered)
        return ordered

    def adopt(self, memories: Iterable[Memory]) -> None:
        """Hold these memories in place of the rows with their ids, without a signal: the scan's
        whole memories for the cached listing's picture of them (no path, only the line a list
        shows as the body) once the scan found that picture exact."""
        rows = self._rows
        for memory in memories:
            row = self._row_of.get(memory.id)
            if row is not None:
                self._topics.replace(rows[row], memory)
                rows[row] = memory

    def set_sort(self, by: str) -> None:
        if by not in SORT_KEYS or by == self._sort_by:
            return
        self.layoutAboutToBeChanged.emit()
        old = [m.id for m in self._rows]
        self._sort_by = by
        self._rows.sort(key=lambda m: sort_key(m, by))
        self._rebuild_keys()
        self._move_persistent_indexes(old)
        self.layoutChanged.emit()

    def follow(self, bus: MemoryBus) -> None:
        """Apply ``bus``'s change sets, after every slot connected so far (a view that must
        hear of a change before the list connects first, then calls this again)."""
        if self._bus is bus:
            bus.memory_updated.disconnect(self._memory_updated)
        self._bus = bus
        bus.memory_updated.connect(self._memory_updated)

    def _memory_updated(self, changes: ChangeSet, _initiator: object) -> None:
        if self._loaded:
            self.apply_changes(changes)

    def apply_changes(self, changes: ChangeSet) -> None:
        """Apply one change set: row by row when small, else one sorted rebuild and reset."""
        if len(changes) <= BATCH_ROWS:
            for action, memory_id in changes.pairs():
                self.apply_change(action, memory_id)
            return
        rows = {m.id: m for m in self._rows}
        for memory_id in changes.deleted:
            rows.pop(memory_id, None)
        for memory_id in (*changes.created, *changes.updated):
            try:
                rows[memory_id] = self._lookup(memory_id)
            except PixelmemError:  # gone again already
                rows.pop(memory_id, None)
        self.set_memories(rows.values())

    def apply_change(self, action: str, memory_id: str) -> None:
        """The bus said a memory changed: insert, update in place / move, or remove its row."""
        if action == DELETED:
            self._remove(memory_id)
            return
        try:
            memory = self._lookup(memory_id)
        except PixelmemError:  # gone again already (deleted right after); nothing to show
            self._remove(memory_id)
            return
        if memory_id in self._row_of:
            self._update(memory)
        else:
            self._insert(memory)

    def _insert(self, memory: Memory) -> None:
        key = sort_key(memory, self._sort_by)
        row = bisect.bisect_left(self._keys, key)
        self.beginInsertRows(QModelIndex(), row, row)
        self._topics.add(memory)
        self._rows.insert(row, memory)
        self._keys.insert(row, key)
        self._reindex_from(row)
        self.endInsertRows()

    def _remove(self, memory_id: str) -> None:
        row = self._row_of.get(memory_id)
        if row is None:
            return
        self.beginRemoveRows(QModelIndex(), row, row)
        self._topics.remove(self._rows[row])
        del self._rows[row], self._keys[row]
        self._row_of.pop(memory_id)
        self._reindex_from(row)
        self.endRemoveRows()

    def _update(self, memory: Memory) -> None:
        old_row = self._row_of[memory.id]
        self._topics.replace(self._rows[old_row], memory)
        key = sort_key(memory, self._sort_by)
        del self._keys[old_row]
        new_row = bisect.bisect_left(self._keys, key)
        if new_row == old_row:
            self._keys.insert(old_row, key)
            self._rows[old_row] = memory
            index = self.index(old_row)
            self.dataChanged.emit(index, index)
            return
        # Qt counts the destination before the removal: moving down lands one further on.
        self.beginMoveRows(
            QModelIndex(), old_row, old_row, QModelIndex(), new_row + (new_row > old_row)
        )
        del self._rows[old_row]
        self._rows.insert(new_row, memory)
        self._keys.insert(new_row, key)
        self._reindex_from(min(old_row, new_row))
        self.endMoveRows()

    def _rebuild_keys(self) -> None:
        self._keys = [sort_key(m, self._sort_by) for m in self._rows]
        self._row_of = {m.id: i for i, m in enumerate(self._rows)}

    def _reindex_from(self, row: int) -> None:
        for i in range(row, len(self._rows)):
            self._row_of[self._rows[i].id] = i

    def _move_persistent_indexes(self, old: list[str]) -> None:
        """Keep selections on the same memories across a re-sort."""
        moved_from = self.persistentIndexList()
        moved_to = [self.index(self._row_of[old[i.row()]]) for i in moved_from]
        self.changePersistentIndexList(moved_from, moved_to)


class MemoryFilterProxy(QSortFilterProxyModel):
    """Filters by topic (or :data:`WITHOUT_TOPICS`), importance, "updated since", a period
    of the timeline (days the memories were written) and the rules panels set
    (:meth:`set_rule`: the tag pane's tag); empty values mean "any". ``filtering_changed``
    says when it starts or stops filtering (:class:`ShownRows` puts it in the list then)."""

    filtering_changed = Signal(bool)

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._topic = ""
        self._importance = ""
        self._since: datetime | None = None
        self._period: tuple[date, date] | None = None  # first day, day after the last
        self._rules: dict[str, Rule] = {}

    def set_filters(
        self, *, topic: str = "", importance: str = "", since: datetime | None = None
    ) -> None:
        if (topic, importance, since) == (self._topic, self._importance, self._since):
            return

        def apply() -> None:
            self._topic, self._importance, self._since = topic, importance, since

        self._change_filter(apply)

    def set_period(self, period: tuple[date, date] | None) -> None:
        """Only memories written from ``period[0]`` to the day before ``period[1]``
        (:func:`~pixelmem.core.insight.timeline.memory_day`); None: any day."""
        if period == self._period:
            return

        def apply() -> None:
            self._period = period

        self._change_filter(apply)

    def _change_filter(self, apply: Callable[[], None]) -> None:
        """Run ``apply`` (it changes what the filter accepts) and re-filter the rows."""
        was_filtering = self.filtering
        if hasattr(self, "beginFilterChange"):  # Qt >= 6.9; invalidateRowsFilter is deprecated
            self.beginFilterChange()
            apply()
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:  # pragma: no cover - older Qt
            apply()
            self.invalidateRowsFilter()
        if self.filtering != was_filtering:
            self.filtering_changed.emit(self.filtering)

    def set_rule(self, name: str, accepts: Rule | None) -> None:
        """Show only the memories ``accepts`` (and every other rule) is true of; None drops
        the rule called ``name``. A panel filters the list with one without the list knowing
        the panel (the tag pane: memories with a tag)."""
        if accepts is None and name not in self._rules:
            return

        def apply() -> None:
            if accepts is None:
                self._rules.pop(name, None)
            else:
                self._rules[name] = accepts

        self._change_filter(apply)

    def rule(self, name: str) -> Rule | None:
        return self._rules.get(name)

    @property
    def period(self) -> tuple[date, date] | None:
        return self._period

    @property
    def filtering(self) -> bool:
        return bool(self._topic or self._importance or self._since or self._period or self._rules)

    def filterAcceptsRow(self, source_row: int, source_parent: AnyIndex) -> bool:
        if not self.filtering:
            return True
        model = self.sourceModel()
        assert isinstance(model, MemoryListModel)
        return self.accepts(model.memory_at(source_row))

    def accepts(self, memory: Memory) -> bool:
        """Whether the filters set now show ``memory``."""
        if self._topic == WITHOUT_TOPICS:
            if memory.topics:
                return False
        elif self._topic and self._topic not in memory.topics:
            return False
        if self._period and not _within(memory_day(memory), self._period):
            return False
        if self._importance and memory.importance != self._importance:
            return False
        stamp = memory.updated or memory.created
        if self._since and (stamp is None or stamp < self._since):
            return False
        return all(accepts(memory) for accepts in self._rules.values())


class ShownRows(QSortFilterProxyModel):
    """The rows the list view shows: the model's own while nothing filters, the filter
    proxy's while something does.

    Why: Qt asks a proxy's ``filterAcceptsRow`` once per row whenever it maps the rows (a
    reset, the first look after one, an insert before any look), and a Python override takes
    the GIL for each call, waiting its turn behind every worker running Python. A vault's
    scan resets 10k rows at launch, beside the scan, link and index workers:
    ``benchmarks/bench_list_reset.py`` measured the reset and first show of 10k rows at 16 ms
    with the GUI thread alone, 126 ms beside one busy worker and 243 ms beside two with the
    proxy always in the list, and 5, 17 and 37 ms with this. So the proxy is in the list
    (and attached to the model) only while a filter is set; the view's model — this — stays
    the same object, so its selection model and connections do too. Switching resets the
    view; the list keeps its current memory across resets (MemoryListPanel).

    This is a proxy that does not filter (Qt's own test: an empty pattern accepts a row
    without asking anyone), not an identity proxy: a view asks its model for every row's
    index as it lays the rows out, and an identity proxy asks the Python model's
    ``rowCount`` for each (twice as slow as the proxy beside a busy worker); a sorting and
    filtering proxy answers from its own mapping."""

    def __init__(self, model: MemoryListModel, row_filter: MemoryFilterProxy,
                 parent: Any = None) -> None:  # fmt: skip
        super().__init__(parent)
        self._model = model
        self._filter = row_filter
        row_filter.filtering_changed.connect(self._follow)
        self._follow(row_filter.filtering)

    @property
    def filtered(self) -> bool:
        return self.sourceModel() is self._filter

    def _follow(self, filtering: bool) -> None:
        if filtering == self.filtered and self.sourceModel() is not None:
            return
        if filtering:
            self._filter.setSourceModel(self._model)
            self.setSourceModel(self._filter)
        else:
            self.setSourceModel(self._model)
            # An unseen proxy would still map every row at an insert. (None: Qt takes no
            # model; the stubs do not say so.)
            self._filter.setSourceModel(None)  # type: ignore[arg-type]

    def index_of_row(self, model_row: int) -> QModelIndex:
        """The shown index of the model's row ``model_row`` (invalid when filtered out)."""
        index = self._model.index(model_row)
        if self.filtered:
            index = self._filter.mapFromSource(index)
        return self.mapFromSource(index)

    def memory_at(self, row: int) -> Memory:
        """The memory on shown row ``row``."""
        index = self.mapToSource(self.index(row, 0))
        if self.filtered:
            index = self._filter.mapToSource(index)
        return self._model.memory_at(index.row())


def _within(day: date | None, period: tuple[date, date]) -> bool:
    return day is not None and period[0] <= day < period[1]
