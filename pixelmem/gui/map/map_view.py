"""The Map pane: every memory as a point, coloured by cluster or topic, searchable, taggable.

The map is computed on a worker (:func:`~pixelmem.core.insight.semantic_map.engine_map`)
whenever the
index changes while the pane is visible; when hidden it only notes that it is stale. Typing in
the box highlights the memories a search finds; Shift+drag selects points, "Tag…" adds one
topic to all of them through the session's write lane.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from PySide6.QtCore import QTimer, Signal
from PySide6.QtGui import QPolygonF, QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QInputDialog,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from pixelmem.core.errors import PixelmemError
from pixelmem.core.index.engine import Engine
from pixelmem.core.insight.semantic_map import MapStore, SemanticMap, engine_map
from pixelmem.core.paths import appdata_dir
from pixelmem.gui.dialogs.duplicates_dialog import DuplicatesDialog
from pixelmem.gui.map.map_canvas import MapCanvas
from pixelmem.gui.map.map_paint import SCALE, polygons_by_cluster, scene_points
from pixelmem.gui.session import VaultSession
from pixelmem.gui.widgets.colors import HUES
from pixelmem.gui.widgets.flow_layout import FlowLayout
from pixelmem.gui.workers import LatestOnly

SEARCH_DELAY_MS = 250
SEARCH_K = 100


@dataclass(frozen=True)
class PreparedMap:
    """The map and what drawing it needs, made on the worker so the GUI thread only hands it
    to the canvas (reading 10k memories for titles and topics there stalled it)."""

    map: SemanticMap | None
    xy: np.ndarray  # scene coordinates
    titles: list[str]
    topic_groups: np.ndarray  # colour per point when coloured by topic
    by_cluster: dict[int, QPolygonF] = field(default_factory=dict)  # points by colour
    by_topic: dict[int, QPolygonF] = field(default_factory=dict)


def prepare_map(engine: Engine, maps: MapStore) -> PreparedMap:
    """The current map with titles and topic colours (worker thread)."""
    m = engine_map(engine, maps)
    if m is None:
        return PreparedMap(None, np.zeros((0, 2)), [], np.zeros(0, np.int32))
    memories = {x.id: x for x in engine.store.list()}
    titles = [memories[mid].title if mid in memories else mid for mid in m.ids]
    firsts = [
        memories[mid].topics[0].casefold() if mid in memories and memories[mid].topics else ""
        for mid in m.ids
    ]
    return prepare_drawing(m, titles, firsts)


def prepare_drawing(m: SemanticMap, titles: list[str], first_topics: list[str]) -> PreparedMap:
    """What the canvas needs for ``m``; ``first_topics[i]``: point i's first topic or ""."""
    xy, topics = scene_points(m), topic_groups(first_topics)
    return PreparedMap(
        m,
        xy,
        titles,
        topics,
        polygons_by_cluster(xy, m.clusters),
        polygons_by_cluster(xy, topics),
    )


def topic_groups(firsts: list[str]) -> np.ndarray:
    """Colour index per point: its first topic among the most common ones, else grey."""
    counts: dict[str, int] = {}
    for topic in firsts:
        if topic:
            counts[topic] = counts.get(topic, 0) + 1
    common = sorted(counts, key=lambda t: (-counts[t], t))[: len(HUES) - 1]
    index = {t: i for i, t in enumerate(common)}
    other = len(HUES) - 1
    return np.array([index.get(t, other) for t in firsts], np.int32)


class MapView(QWidget):
    open_memory_requested = Signal(str)
    map_shown = Signal(int)  # points on the map, after each refresh

    def __init__(self, session: VaultSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.engine = session.engine
        self.map: SemanticMap | None = None
        self._prepared = PreparedMap(None, np.zeros((0, 2)), [], np.zeros(0, np.int32))
        self._maps = MapStore(appdata_dir(self.engine.vault))
        self._latest = LatestOnly()
        self._search = LatestOnly(interactive=True)
        self._stale = True
        self.canvas = MapCanvas()
        self.query = QLineEdit()
        self.query.setClearButtonEnabled(True)
        self.colour_by = QComboBox()
        self.tag_button = QPushButton()
        self.tag_button.setEnabled(False)
        self.duplicates_button = QPushButton()
        self.info = QLabel()
        self.info.setWordWrap(True)
        self._timer = QTimer(self, singleShot=True, interval=SEARCH_DELAY_MS)
        self._layout()
        self.retranslate()
        self._timer.timeout.connect(self._run_search)
        self.query.textChanged.connect(lambda _: self._timer.start())
        self.colour_by.currentIndexChanged.connect(lambda _: self._draw(keep_view=True))
        self.tag_button.clicked.connect(self.tag_selected)
        self.duplicates_button.clicked.connect(self.show_duplicates)
        self.canvas.point_clicked.connect(self._clicked)
        self.canvas.selection_changed.connect(self._selected)
        session.bus.index_changed.connect(self.refresh_if_visible)
        session.bus.memory_updated.connect(self._mark_stale)

    def _layout(self) -> None:
        self.colour_by.setMinimumContentsLength(6)  # a narrow dock elides, never widens
        self.colour_by.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.query.setMinimumWidth(self.fontMetrics().horizontalAdvance("x" * 8))
        bar = QWidget()  # wraps onto two lines in a narrow dock
        row = FlowLayout(bar, spacing=6)
        row.setContentsMargins(0, 0, 0, 0)
        for widget in (self.query, self.colour_by, self.tag_button, self.duplicates_button):
            row.addWidget(widget)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(bar)
        layout.addWidget(self.canvas, 1)
        layout.addWidget(self.info)

    def retranslate(self) -> None:
        self.query.setPlaceholderText(self.tr("Highlight memories matching…"))
        self.tag_button.setText(self.tr("Tag…"))
        self.tag_button.setToolTip(self.tr("Add a topic to the memories selected (Shift+drag)"))
        self.duplicates_button.setText(self.tr("Duplicates…"))
        current = max(self.colour_by.currentIndex(), 0)
        self.colour_by.blockSignals(True)
        self.colour_by.clear()
        self.colour_by.addItems([self.tr("Colour by cluster"), self.tr("Colour by topic")])
        self.colour_by.setCurrentIndex(current)
        self.colour_by.blockSignals(False)
        self._show_info()

    # -- computing the map -----------------------------------------------------------------

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.ensure_current()

    def focus_map(self) -> None:
        """Take the keyboard (Ctrl+5), with the map current."""
        self.setFocus()
        self.ensure_current()

    def ensure_current(self) -> None:
        """Recompute if something changed since the map was last drawn."""
        if self._stale:
            self.refresh()

    def _mark_stale(self, *_: object) -> None:
        self._stale = True

    def refresh_if_visible(self) -> None:
        self._stale = True
        if self.isVisible():
            self.refresh()

    def refresh(self) -> None:
        """Recompute the map on a worker (cheap when only a few memories changed)."""
        self._stale = False
        engine, maps = self.engine, self._maps
        self._latest.submit(lambda: prepare_map(engine, maps), self._show_map, self._failed)

    def _failed(self, exc: BaseException) -> None:
        self.info.setText(str(exc) if isinstance(exc, PixelmemError) else repr(exc))

    def _show_map(self, prepared: PreparedMap) -> None:
        first = self.map is None
        self.map, self._prepared = prepared.map, prepared
        self._draw(keep_view=not first)
        self._run_search()
        self.map_shown.emit(len(prepared.map) if prepared.map else 0)

    def _draw(self, *, keep_view: bool) -> None:
        m, prepared = self.map, self._prepared
        if m is None:
            self.canvas.set_points(np.zeros((0, 2)), np.zeros(0, np.int32), [], [])
            self._show_info()
            return
        by_topic = self.colour_by.currentIndex() == 1
        groups = prepared.topic_groups if by_topic else m.clusters
        polygons = prepared.by_topic if by_topic else prepared.by_cluster
        labels = (
            []
            if by_topic
            else [(c.x * SCALE, -c.y * SCALE, c.label) for c in m.cluster_info if c.keywords]
        )
        self.canvas.set_points(
            prepared.xy, groups, prepared.titles, labels, keep_view=keep_view, polygons=polygons
        )
        self._show_info()

    def _show_info(self) -> None:
        m = self.map
        if m is None:
            self.info.setText(self.tr("The map appears once memories are embedded."))
            return
        parts = (
            self.tr("%Ln memories", "", len(m)),
            self.tr("%Ln clusters", "", len(m.cluster_info)),
            self.tr("drag to pan, wheel to zoom"),
        )
        self.info.setText(" · ".join(parts))

    # -- search, click, select -------------------------------------------------------------

    def _run_search(self) -> None:
        query, engine = self.query.text().strip(), self.engine
        if not query or self.map is None:
            self._search.invalidate()
            self.canvas.set_marks(np.zeros(0, np.int64))
            return
        self._search.submit(
            lambda: [h.memory_id for h in engine.search(query, k=SEARCH_K)], self._highlight
        )

    def _highlight(self, ids: list[str]) -> None:
        if self.map is None:
            return
        rows = {mid: i for i, mid in enumerate(self.map.ids)}
        self.canvas.set_marks(np.array([rows[m] for m in ids if m in rows], np.int64))

    def highlighted_count(self) -> int:
        return self.canvas.points._marked.size()

    def _clicked(self, row: int) -> None:
        if self.map is not None:
            self.open_memory_requested.emit(self.map.ids[row])

    def _selected(self, rows: np.ndarray) -> None:
        self.tag_button.setEnabled(bool(len(rows)))
        self._highlight_current()

    def _highlight_current(self) -> None:
        self._run_search() if self.query.text().strip() else self.canvas.set_marks(
            np.zeros(0, np.int64)
        )

    def selected_ids(self) -> list[str]:
        if self.map is None:
            return []
        return [self.map.ids[i] for i in self.canvas.selected.tolist()]

    def tag_selected(self) -> None:
        ids = self.selected_ids()
        if not ids:
            return
        topic, ok = QInputDialog.getText(
            self,
            self.tr("Tag memories"),
            self.tr("Topic to add to %n memories:", "", len(ids)),
        )
        if ok and topic.strip():
            self.add_topic(ids, topic.strip())

    def show_duplicates(self) -> DuplicatesDialog:
        dialog = DuplicatesDialog(self.session, self)
        dialog.open_memory_requested.connect(self.open_memory_requested)
        dialog.open()
        return dialog

    def add_topic(self, ids: list[str], topic: str) -> None:
        """Add ``topic`` to each memory that lacks it (one save each, through the write lane)."""
        for memory_id in ids:
            try:
                memory = self.session.store.get(memory_id)
            except PixelmemError:
                continue
            if topic.casefold() not in (t.casefold() for t in memory.topics):
                memory.topics = [*memory.topics, topic]
                self.session.save(memory)
