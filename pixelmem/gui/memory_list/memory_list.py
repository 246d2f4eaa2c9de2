"""The left panel: every memory, sortable and filterable by topic, importance and date."""

from __future__ import annotations

import html
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from PySide6.QtCore import QItemSelectionModel, QLocale, QModelIndex, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence, QPaintEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QLabel,
    QListView,
    QMenu,
    QSizePolicy,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from pixelmem.core.vault.memory import IMPORTANCE_LEVELS, Memory
from pixelmem.gui.memory_list.importance_legend import dot_icon, legend_html, level_label
from pixelmem.gui.memory_list.memory_delegate import MemoryDelegate
from pixelmem.gui.memory_list.memory_list_model import (
    WITHOUT_TOPICS,
    IdRole,
    MemoryFilterProxy,
    MemoryListModel,
    ShownRows,
)
from pixelmem.gui.widgets.elided_label import ElidedComboBox
from pixelmem.gui.widgets.flow_layout import FlowLayout

TOPIC_COMBO_CHARACTERS = 16  # the topic filter's preferred width, whatever the topics are


class MemoryListView(QListView):
    """The list; ``rows_painted`` once the first paint with rows is done (the moment a launch
    shows the vault: the window builds its other views after it)."""

    rows_painted = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._rows_painted = False

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if not self._rows_painted and self.model() is not None and self.model().rowCount():
            self._rows_painted = True
            QTimer.singleShot(0, self, self.rows_painted.emit)  # once out of the paint


class MemoryListPanel(QWidget):
    """Emits ``memory_selected(id)`` when the current row changes, ``delete_requested(id)``."""

    memory_selected = Signal(str)
    delete_requested = Signal(str)

    def __init__(self, model: MemoryListModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.proxy = MemoryFilterProxy(self)  # the filters; in the view only while set
        self.shown = ShownRows(model, self.proxy, self)
        self._kept_current: str | None = None
        self._build()
        self._connect()
        self.retranslate()

    # -- building --------------------------------------------------------------------------

    def _build(self) -> None:
        self.count_label = QLabel()
        self.count_label.setObjectName("memoryCount")
        self.sort_combo = ElidedComboBox()  # "Recently upd…" in a narrow dock, not clipped
        self.topic_combo = ElidedComboBox()
        self.importance_combo = ElidedComboBox()
        self.date_combo = ElidedComboBox()
        # Preferred width: the longest entry; minimum: a few characters. A narrow dock (an
        # 800 px window) shows "Any imp…" instead of pushing the window wider than the screen.
        narrow = self.fontMetrics().horizontalAdvance("x" * 5) + 36
        for combo in (self.sort_combo, self.topic_combo, self.importance_combo, self.date_combo):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
            combo.setMinimumWidth(narrow)
        # The topics are the vault's (thousands in a big one): measuring every entry for the
        # preferred width took 20-25 ms on the GUI thread at each refill while indexing. The
        # combo expands into the row's room anyway; its popup still widens to the entries.
        self.topic_combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.topic_combo.setMinimumContentsLength(TOPIC_COMBO_CHARACTERS)
        self.view = MemoryListView()
        self.view.setModel(self.shown)
        self.view.setItemDelegate(MemoryDelegate(self.view))
        self.view.setUniformItemSizes(True)  # 10k rows: never measure each one
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.setFrameShape(QListView.Shape.NoFrame)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.empty_label = QLabel()
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setWordWrap(True)
        self.empty_label.setEnabled(False)  # drawn in the palette's disabled (grey) text
        self.stack = QStackedWidget()
        self.stack.addWidget(self.view)
        self.stack.addWidget(self.empty_label)
        self.delete_action = QAction(self)
        self.delete_action.setShortcut(QKeySequence(QKeySequence.StandardKey.Delete))
        self.delete_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.view.addAction(self.delete_action)
        self._layout()

    def _layout(self) -> None:
        # Both rows wrap in a narrow dock (an 800 px window) rather than widening it.
        self.count_label.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.topic_combo.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        top = QVBoxLayout()
        top.setContentsMargins(10, 8, 10, 6)
        top.setSpacing(6)
        for widgets in (
            (self.count_label, self.sort_combo),
            (self.topic_combo, self.importance_combo, self.date_combo),
        ):
            row = QWidget()
            flow = FlowLayout(row, spacing=6)
            flow.setContentsMargins(0, 0, 0, 0)
            for widget in widgets:
                flow.addWidget(widget)
            top.addWidget(row)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addLayout(top)
        layout.addWidget(self.stack, 1)

    def _connect(self) -> None:
        for combo in (self.topic_combo, self.importance_combo, self.date_combo):
            combo.currentIndexChanged.connect(self._apply_filters)
        self.sort_combo.currentIndexChanged.connect(self._apply_sort)
        for _key, choice in self._choice_combos():
            choice.currentIndexChanged.connect(self._show_choices_in_tooltips)
        self.view.selectionModel().currentChanged.connect(self._current_changed)
        self.view.customContextMenuRequested.connect(self._context_menu)
        self.delete_action.triggered.connect(self._delete_current)
        for signal in (
            self.model.modelReset,
            self.model.rowsInserted,
            self.model.rowsRemoved,
            self.shown.rowsInserted,
            self.shown.rowsRemoved,
            self.shown.modelReset,
        ):
            signal.connect(self._refresh_counts)
        # Keep the same memory current across a reset of the shown rows: a big change set
        # resets the model (and the rows shown of it), and setting or clearing a filter puts
        # the filter in the view or takes it out.
        self.shown.modelAboutToBeReset.connect(self._remember_current)
        self.shown.modelReset.connect(lambda: self.select(self._kept_current))
        self.model.modelReset.connect(self.refresh_topics)
        self.model.rowsInserted.connect(self.refresh_topics)
        self.model.dataChanged.connect(self.refresh_topics)

    def retranslate(self) -> None:
        self.delete_action.setText(self.tr("Move to Trash"))
        _fill(
            self.sort_combo,
            [
                (self.tr("Recently updated"), "updated"),
                (self.tr("Recently created"), "created"),
                (self.tr("Title"), "title"),
                (self.tr("Importance"), "importance"),
            ],
        )
        _fill(
            self.importance_combo,
            [(self.tr("Any importance"), "")]
            + [(level_label(level), level) for level in reversed(IMPORTANCE_LEVELS)],
        )
        for index in range(1, self.importance_combo.count()):  # each entry shows its dot
            level = str(self.importance_combo.itemData(index))
            self.importance_combo.setItemIcon(index, dot_icon(self.palette(), level))
        self._tooltips = {
            self.sort_combo: self.tr("Order of the list"),
            self.topic_combo: self.tr("Show only the memories with this topic"),
            self.importance_combo: legend_html(self.palette()),
            self.date_combo: self.tr("Show only the memories updated in this period"),
        }
        self._show_choices_in_tooltips()
        _fill(
            self.date_combo,
            [
                (self.tr("Any time"), None),
                (self.tr("Today"), 1),
                (self.tr("Past 7 days"), 7),
                (self.tr("Past 30 days"), 30),
                (self.tr("Past year"), 365),
            ],
        )
        self.refresh_topics()
        self._refresh_counts()

    def choices(self) -> dict[str, str]:
        """The sort and filter choices, as strings (kept in ui.ini between runs)."""
        combos = self._choice_combos()
        return {key: "" if c.currentData() is None else str(c.currentData()) for key, c in combos}

    def restore_choices(self, choices: dict[str, str]) -> None:
        """Choose what :meth:`choices` returned (unknown values are ignored)."""
        for key, combo in self._choice_combos():
            value = choices.get(key)
            if not value:
                continue
            if key == "topic" and combo.findData(value) < 0:
                _fill(combo, [(combo.itemText(0), ""), (value, value)], keep=value)
            found = next((i for i in range(combo.count()) if str(combo.itemData(i)) == value), -1)
            if found >= 0:
                combo.setCurrentIndex(found)  # applied through currentIndexChanged

    def _choice_combos(self) -> list[tuple[str, QComboBox]]:
        return [
            ("sort", self.sort_combo),
            ("topic", self.topic_combo),
            ("importance", self.importance_combo),
            ("days", self.date_combo),
        ]

    def _show_choices_in_tooltips(self, *_: object) -> None:
        """A narrow dock cuts the combo boxes' text: the tooltip says the whole choice."""
        for combo, about in getattr(self, "_tooltips", {}).items():
            combo.setToolTip(f"<b>{html.escape(combo.currentText())}</b><br>{about}")

    # -- behaviour -------------------------------------------------------------------------

    def refresh_topics(self, *_: object) -> None:
        """Topics by how often they are used; the chosen one stays chosen."""
        current = self.topic_combo.currentData() or ""
        counts = self.model.topic_counts()
        items: list[tuple[str, object]] = [(self.tr("All topics"), "")]
        without = self.model.without_topics_count()
        if without or current == WITHOUT_TOPICS:
            label = self.tr("Without topics ({count})").format(count=f"{without:,}")
            items.append((label, WITHOUT_TOPICS))
        items += [(f"{t} ({n})", t) for t, n in sorted(counts.items(), key=lambda c: (-c[1], c[0]))]
        if current and current not in counts and current != WITHOUT_TOPICS:
            items.append((current, current))
        _fill(self.topic_combo, items, keep=current)
        self._show_choices_in_tooltips()

    def _apply_filters(self) -> None:
        days = self.date_combo.currentData()
        since = datetime.now(UTC) - timedelta(days=days) if days else None
        self.proxy.set_filters(
            topic=self.topic_combo.currentData() or "",
            importance=self.importance_combo.currentData() or "",
            since=since,
        )
        self._refresh_counts()

    def _apply_sort(self) -> None:
        by = self.sort_combo.currentData()
        if by:
            self.model.set_sort(by)
            self.view.scrollTo(self.view.currentIndex())

    def _refresh_counts(self, *_: object) -> None:
        shown, total = self.shown.rowCount(), self.model.rowCount()
        if shown == total:
            self.count_label.setText(self.tr("%Ln memories", "", total))
        else:
            text = self.tr("{shown} of %Ln memories", "", total)
            self.count_label.setText(text.format(shown=QLocale().toString(shown)))
        if total:
            self.empty_label.setText(self.tr("No memory matches these filters."))
        else:
            self.empty_label.setText(self.tr("No memories yet.\nPress Ctrl+N to write one."))
        self.stack.setCurrentWidget(self.view if shown else self.empty_label)

    def _remember_current(self) -> None:
        self._kept_current = self.current_id()

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        memory_id = current.data(IdRole) if current.isValid() else None
        if memory_id:
            self.memory_selected.emit(memory_id)

    def _delete_current(self) -> None:
        memory_id = self.current_id()
        if memory_id:
            self.delete_requested.emit(memory_id)

    def _context_menu(self, pos: QPoint) -> None:
        index = self.view.indexAt(pos)
        if not index.isValid():
            return
        menu = QMenu(self)
        menu.addAction(self.delete_action)
        menu.exec(self.view.viewport().mapToGlobal(pos))

    def current_id(self) -> str | None:
        index = self.view.currentIndex()
        return index.data(IdRole) if index.isValid() else None

    def select(self, memory_id: str | None) -> None:
        """Show ``memory_id`` as current without announcing it (the editor already has it)."""
        row = self.model.row_of(memory_id) if memory_id else -1
        index = self.shown.index_of_row(row) if row >= 0 else QModelIndex()
        selection = self.view.selectionModel()
        blocked = selection.blockSignals(True)
        if index.isValid():
            flags = QItemSelectionModel.SelectionFlag.ClearAndSelect
            selection.setCurrentIndex(index, flags)
            self.view.scrollTo(index)
        else:
            selection.clearSelection()
            selection.setCurrentIndex(QModelIndex(), QItemSelectionModel.SelectionFlag.Clear)
        selection.blockSignals(blocked)
        self.view.viewport().update()

    def memory_count(self) -> int:
        return self.model.rowCount()

    def visible_memories(self) -> list[Memory]:
        return [self.shown.memory_at(row) for row in range(self.shown.rowCount())]


def _fill(combo: QComboBox, items: Sequence[tuple[str, object]], keep: object = ...) -> None:
    """Replace a combo's items, keeping the current choice, without firing change signals."""
    current = combo.currentData() if keep is ... else keep
    blocked = combo.blockSignals(True)
    combo.clear()
    for label, data in items:
        combo.addItem(label, data)
    found = combo.findData(current)
    combo.setCurrentIndex(max(found, 0))
    combo.blockSignals(blocked)
