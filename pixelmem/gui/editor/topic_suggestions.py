"""Suggested topics for the open memory, from its nearest memories' topics; one click adds one.

A strip above the editor: "Suggested topics: [coffee] [brewing]". Computed on a worker when a
memory is opened and after the index changes; a click appends the topic to the editor's
topics field (the person saves as usual).
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QPushButton, QWidget

from pixelmem.core.index.engine import Engine
from pixelmem.core.insight.memory_vectors import memory_vectors
from pixelmem.core.insight.topic_suggestions import suggest_for_memory
from pixelmem.gui.bus import MemoryBus
from pixelmem.gui.workers import LatestOnly


def suggestions_for(engine: Engine, memory_id: str) -> list[str]:
    vectors = memory_vectors(engine.index)
    topics = {m.id: m.topics for m in engine.store.list()}
    return suggest_for_memory(memory_id, vectors, topics, limit=4)


class TopicSuggestions(QWidget):
    shown = Signal(list)

    def __init__(
        self, engine: Engine, bus: MemoryBus, topics_edit: QLineEdit, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.engine = engine
        self.topics_edit = topics_edit
        self.memory_id = ""
        self._latest = LatestOnly()
        self.label = QLabel()
        self._row = QHBoxLayout(self)
        self._row.setContentsMargins(10, 2, 10, 2)
        self._row.addWidget(self.label)
        self._row.addStretch(1)
        self.buttons: list[QPushButton] = []
        bus.index_changed.connect(self.refresh)
        self.retranslate()
        self.hide()

    def retranslate(self) -> None:
        self.label.setText(self.tr("Suggested topics:"))

    def set_memory(self, memory_id: str) -> None:
        self.memory_id = memory_id
        self.refresh()

    def refresh(self) -> None:
        memory_id, engine = self.memory_id, self.engine
        if not memory_id:
            self._latest.invalidate()
            self._show([])
            return
        self._latest.submit(  # context: nothing is shown once the editor is gone
            lambda: suggestions_for(engine, memory_id),
            self._show,
            lambda _exc: self._show([]),
            context=self,
        )

    def _show(self, topics: list[str]) -> None:
        for button in self.buttons:
            button.deleteLater()
        current = {t.strip().casefold() for t in self.topics_edit.text().split(",")}
        topics = [t for t in topics if t.casefold() not in current]
        self.buttons = []
        for topic in topics:
            button = QPushButton(f"+ {topic}")
            button.setFlat(True)
            button.clicked.connect(lambda _=False, t=topic: self.add(t))
            self._row.insertWidget(self._row.count() - 1, button)
            self.buttons.append(button)
        self.setVisible(bool(topics))
        self.shown.emit(topics)

    def add(self, topic: str) -> None:
        text = self.topics_edit.text().strip().rstrip(",")
        self.topics_edit.setText(f"{text}, {topic}" if text else topic)
        self._show([t.text()[2:] for t in self.buttons if t.text()[2:] != topic])
