"""Memories closest in meaning to the open one; refreshed on open and whenever the index moves."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Signal
from PySide6.QtWidgets import QStackedWidget, QVBoxLayout, QWidget

from pixelmem.core.index.engine import Engine
from pixelmem.core.index.search import SearchHit
from pixelmem.gui.bus import ChangeSet, MemoryBus
from pixelmem.gui.panels.search_results import SearchResultsModel, placeholder_label, results_view
from pixelmem.gui.workers import LatestOnly

RELATED_COUNT = 8  # neighbours listed, those under the relevance floor marked weaker


class RelatedPanel(QWidget):
    hit_activated = Signal(object)  # SearchHit
    refreshed = Signal(str, int)  # (memory id, number of related memories)

    def __init__(self, engine: Engine, bus: MemoryBus, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.engine = engine
        self.memory_id = ""
        self._latest = LatestOnly(interactive=True)
        self.model = SearchResultsModel(self)
        self.view = results_view(self.model, snippet_lines=2)
        self.empty_label = placeholder_label(top_margin=16)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.empty_label)
        self.stack.addWidget(self.view)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.stack)
        self.view.activated.connect(self._activated)
        self.view.clicked.connect(self._activated)
        bus.index_changed.connect(self.refresh)
        bus.memory_updated.connect(self._memory_updated)
        self._show_empty()

    def set_memory(self, memory_id: str) -> None:
        self.memory_id = memory_id
        self.refresh()

    def refresh(self) -> None:
        memory_id, engine = self.memory_id, self.engine
        if not memory_id:
            self._latest.invalidate()
            self.model.set_hits("", [])
            self._show_empty()
            return
        self._latest.submit(
            lambda: engine.related(memory_id, k=RELATED_COUNT, weaker=RELATED_COUNT)[
                :RELATED_COUNT
            ],
            lambda hits: self._show(memory_id, hits),
            lambda _exc: self._show(memory_id, []),  # not indexed yet: nothing to relate
            context=self,
        )

    def _show(self, memory_id: str, hits: list[SearchHit]) -> None:
        self.model.set_hits("", hits)
        if hits:
            self.stack.setCurrentWidget(self.view)
        else:
            self._show_empty()
        self.refreshed.emit(memory_id, len(hits))

    def retranslate(self) -> None:
        self._empty_text()

    def _empty_text(self) -> None:
        index = self.engine.index
        if self.memory_id and not index.has_vectors and self.engine.semantic_error:
            self.empty_label.setText(
                self.tr("Related memories need the embedding model: {error}").format(
                    error=self.engine.semantic_error.rstrip(".")
                )
            )
        elif self.memory_id and (not index.has_vectors or self.memory_id not in index):
            self.empty_label.setText(
                self.tr("Still indexing… related memories appear when the index is ready.")
            )
        elif self.memory_id:
            self.empty_label.setText(self.tr("No other memory is close enough in meaning."))
        else:
            self.empty_label.setText(self.tr("Open a memory to see the ones closest in meaning."))

    def _show_empty(self) -> None:
        self._empty_text()
        self.stack.setCurrentWidget(self.empty_label)

    def _memory_updated(self, changes: ChangeSet, _initiator: object) -> None:
        for memory_id in changes.deleted:
            self.model.remove_memory(memory_id)

    def _activated(self, index: QModelIndex) -> None:
        if index.isValid():
            self.hit_activated.emit(self.model.hit_at(index.row()))
