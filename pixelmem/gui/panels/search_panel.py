"""Search as you type: debounced, numbered, off the GUI thread; stale answers never shown."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QModelIndex, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from pixelmem.core.index.engine import Engine
from pixelmem.core.index.search import SearchHit
from pixelmem.core.index.time_search import time_search
from pixelmem.core.search_mode import DEFAULT_MODE, SearchMode, uses_meaning
from pixelmem.gui.bus import ChangeSet, MemoryBus
from pixelmem.gui.panels.search_results import (
    Picture,
    ResultDelegate,
    ResultRow,
    SearchResultsModel,
    placeholder_label,
    result_rows,
    results_view,
)
from pixelmem.gui.session import describe_error
from pixelmem.gui.workers import LatestOnly

DEBOUNCE_MS = 150
RESULTS_LIMIT = 20  # the panel shows more than the chat's top-k: it is for browsing
WEAKER_LIMIT = 3  # hits below the floor offered behind "Show weaker matches"


@dataclass(frozen=True)
class SearchOutcome:
    query: str
    mode: str
    hits: list[SearchHit]
    seconds: float
    semantic_error: str
    time_range: str = ""  # the range read from the query ("2024-03-01 – 2024-03-31")
    time_text: str = ""  # the words it was read from ("in March 2024")
    rows: tuple[ResultRow, ...] = ()  # the hits' rows (result_rows), made on the worker
    pictures: tuple[Picture, ...] = ()  # the first screenful drawn (row_pictures), on the worker


class SearchPanel(QWidget):
    """Emits ``hit_activated(hit)`` when a result is opened (Enter, click)."""

    hit_activated = Signal(object)
    results_shown = Signal(str, int)  # (query, number of hits): for tests and the status bar

    def __init__(
        self,
        engine: Engine,
        bus: MemoryBus,
        *,
        index_ready: Callable[[], bool] = lambda: True,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.engine = engine
        self._index_ready = index_ready
        self._latest = LatestOnly(interactive=True)
        self._debounce = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self._debounce.timeout.connect(self.run_search)
        self._build()
        self._connect(bus)
        self.retranslate()

    def _build(self) -> None:
        self.search_box = QLineEdit()
        self.search_box.setClearButtonEnabled(True)
        self.search_box.installEventFilter(self)
        self.mode_combo = QComboBox()
        self.info_label = QLabel()
        self.info_label.setEnabled(False)
        self.warning_label = QLabel()
        self.warning_label.setWordWrap(True)
        self.warning_label.setObjectName("semanticWarning")
        self.warning_label.hide()
        self.model = SearchResultsModel(self)
        self.view = results_view(self.model)
        delegate = self.view.itemDelegate()
        assert isinstance(delegate, ResultDelegate)
        self.delegate = delegate
        self.empty_label = placeholder_label(top_margin=24)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.empty_label)
        self.stack.addWidget(self.view)
        self.weaker_button = QPushButton()
        self.weaker_button.setFlat(True)
        self.weaker_button.hide()
        self._weaker_open = False
        self._weaker_count = 0
        self._outcome: SearchOutcome | None = None
        top = QHBoxLayout()
        top.addWidget(self.search_box, 1)
        top.addWidget(self.mode_combo)
        header = QVBoxLayout()
        header.setContentsMargins(10, 8, 10, 4)
        header.setSpacing(4)
        header.addLayout(top)
        header.addWidget(self.warning_label)
        header.addWidget(self.info_label)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addLayout(header)
        layout.addWidget(self.stack, 1)
        layout.addWidget(self.weaker_button)
        self.setFocusProxy(self.search_box)

    def _connect(self, bus: MemoryBus) -> None:
        self.search_box.textChanged.connect(self._debounce.start)
        self.mode_combo.currentIndexChanged.connect(self.run_search)
        self.view.activated.connect(self._activated)
        self.view.clicked.connect(self._activated)
        self.weaker_button.clicked.connect(self._toggle_weaker)
        bus.index_changed.connect(self._rerun)
        bus.memory_updated.connect(self._memory_updated)

    def retranslate(self) -> None:
        self.search_box.setPlaceholderText(self.tr("Search memories…  (Ctrl+K)"))
        current = self.mode_combo.currentData() or self.engine.settings.search.mode
        self.mode_combo.blockSignals(True)
        self.mode_combo.clear()
        labels = {
            SearchMode.HYBRID: self.tr("Hybrid"),
            SearchMode.SEMANTIC: self.tr("Semantic"),
            SearchMode.KEYWORD: self.tr("Keyword"),
            SearchMode.EXACT: self.tr("Exact phrase"),
        }
        for mode in SearchMode:
            self.mode_combo.addItem(labels[mode], mode.value)
        self.mode_combo.setCurrentIndex(max(0, self.mode_combo.findData(current)))
        self.mode_combo.blockSignals(False)
        tip = self.tr("Search by meaning, by keyword, both, or for an exact phrase")
        self.mode_combo.setToolTip(tip)
        self._show_weaker_button(self._weaker_count)
        self._show_idle()

    # -- running a search ------------------------------------------------------------------

    @property
    def query(self) -> str:
        return self.search_box.text().strip()

    @property
    def mode(self) -> str:
        return self.mode_combo.currentData() or DEFAULT_MODE.value

    def set_mode(self, mode: str) -> None:
        self.mode_combo.setCurrentIndex(max(0, self.mode_combo.findData(mode)))

    def focus_search(self) -> None:
        self.search_box.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search_box.selectAll()

    def run_search(self) -> None:
        """Start a search for the box's text now; any answer still on its way becomes stale."""
        self._debounce.stop()
        query, mode, engine = self.query, self.mode, self.engine
        if not query:
            self._latest.invalidate()
            self.model.set_hits("", [])
            self._show_idle()
            return

        looks = self.delegate.answer_looks(self.stack.contentsRect().size())

        def work() -> SearchOutcome:
            start = time.perf_counter()
            found = time_search(
                engine, query, mode=mode, k=RESULTS_LIMIT, weaker=WEAKER_LIMIT, explain=True
            )
            elapsed = time.perf_counter() - start
            span = found.range
            label, words = (span.label(), span.text) if span is not None else ("", "")
            error = engine.semantic_error
            rows = tuple(result_rows(query, found.hits))
            pictures = tuple(looks.first_screen([r for r in rows if not r.hit.weaker]))
            return SearchOutcome(
                query, mode, found.hits, elapsed, error, label, words, rows, pictures
            )

        self._latest.submit(work, self._show, self._failed, context=self)

    def _rerun(self) -> None:
        if self.query:
            self.run_search()

    def _memory_updated(self, changes: ChangeSet, _initiator: object) -> None:
        for memory_id in changes.deleted:  # at once; the index catches up a moment later
            self.model.remove_memory(memory_id)

    def _show(self, outcome: SearchOutcome) -> None:
        if self._outcome is None or self._outcome.query != outcome.query:
            self._weaker_open = False  # a new question starts with the weaker ones folded
        self._outcome = outcome
        strong = [r for r in outcome.rows if not r.hit.weaker]
        weaker = [r for r in outcome.rows if r.hit.weaker]
        shown = strong + weaker if self._weaker_open else strong
        self.delegate.adopt(outcome.pictures)
        self.model.set_rows(outcome.query, shown)
        self._show_weaker_button(len(weaker))
        self._show_warning(outcome)
        count = len(strong)
        if shown:
            self.info_label.setText(
                self.tr("%Ln results · {ms} ms", "", count).format(
                    ms=max(1, round(outcome.seconds * 1000))
                )
                + self._time_note(outcome)
            )
            self.stack.setCurrentWidget(self.view)
            self.view.setCurrentIndex(self.model.index(0))
        else:
            self.info_label.setText("")
            self.empty_label.setText(self._empty_text(outcome.query))
            self.stack.setCurrentWidget(self.empty_label)
        self.results_shown.emit(outcome.query, count)

    def _show_weaker_button(self, count: int) -> None:
        """Below the results: the hits under the floor, folded, one click away."""
        self._weaker_count = count
        self.weaker_button.setVisible(count > 0)
        if self._weaker_open:
            self.weaker_button.setText(self.tr("▴ Hide weaker matches"))
        else:
            self.weaker_button.setText(self.tr("▾ Show %n weaker match(es)", "", count))

    def _toggle_weaker(self) -> None:
        self._weaker_open = not self._weaker_open
        if self._outcome is not None:
            self._show(self._outcome)

    def _time_note(self, outcome: SearchOutcome) -> str:
        """The time read from the query: memories from then are listed first."""
        if not outcome.time_range:
            return ""
        note = self.tr(" · from {range} first (“{words}”)")
        return note.format(range=outcome.time_range, words=outcome.time_text)

    def _empty_text(self, query: str) -> str:
        if not self._index_ready():
            return self.tr("Still indexing… results will appear when the index is ready.")
        return self.tr("Nothing relevant to “{query}” in your memories.").format(query=query)

    def _show_warning(self, outcome: SearchOutcome) -> None:
        if outcome.semantic_error and uses_meaning(outcome.mode):
            self.warning_label.setText(
                self.tr(
                    "⚠ Semantic search is unavailable: {reason}. Showing keyword matches."
                ).format(reason=outcome.semantic_error.rstrip("."))
            )
            self.warning_label.show()
        else:
            self.warning_label.hide()

    def _failed(self, exc: BaseException) -> None:
        self.model.set_hits(self.query, [])
        self.empty_label.setText(
            self.tr("Search failed: {error}").format(error=describe_error(exc))
        )
        self.stack.setCurrentWidget(self.empty_label)

    def _show_idle(self) -> None:
        self.weaker_button.hide()
        self.info_label.setText("")
        self.warning_label.hide()
        self.empty_label.setText(
            self.tr("Type to search by meaning and keyword.\nEnter opens the selected result.")
        )
        self.stack.setCurrentWidget(self.empty_label)

    # -- keyboard --------------------------------------------------------------------------

    def _activated(self, index: QModelIndex) -> None:
        if index.isValid():
            self.hit_activated.emit(self.model.hit_at(index.row()))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """In the box: Enter opens, Up/Down move through results, Esc clears."""
        if watched is self.search_box and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            return self._search_key(event.key())
        return super().eventFilter(watched, event)

    def _search_key(self, key: int) -> bool:
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if self._debounce.isActive() or not self.model.rowCount():
                self.run_search()
                return True
            self._activated(self.view.currentIndex())
            return True
        if key in (Qt.Key.Key_Down, Qt.Key.Key_Up) and self.model.rowCount():
            step = 1 if key == Qt.Key.Key_Down else -1
            row = max(0, min(self.model.rowCount() - 1, self.view.currentIndex().row() + step))
            self.view.setCurrentIndex(self.model.index(row))
            return True
        if key == Qt.Key.Key_Escape and self.search_box.text():
            self.search_box.clear()
            return True
        return False
