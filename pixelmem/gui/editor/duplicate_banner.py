"""After a save: "Looks like «X» — Compare / Keep both", when the memory nearly repeats another.

Non-blocking: the save has happened; the check runs on a worker once the index includes the
saved memory (the first ``index_changed`` after its ``memory_updated``), and the banner sits
above the editor until dismissed. "Compare" shows both texts side by side with a button to
open the other one; "Keep both" hides the banner and does not warn about that pair again.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from pixelmem.core.errors import PixelmemError
from pixelmem.core.index.engine import Engine
from pixelmem.core.insight.duplicates import duplicates_of
from pixelmem.core.insight.memory_vectors import memory_vectors
from pixelmem.gui.bus import ChangeSet, MemoryBus
from pixelmem.gui.workers import LatestOnly


def find_duplicates(engine: Engine, memory_id: str) -> list[tuple[str, float]]:
    """Near-duplicates of one memory in the engine's current snapshot (worker thread)."""
    embedder = engine.embedder
    vectors = memory_vectors(engine.index)
    if embedder is None or memory_id not in vectors.ids:
        return []
    memories = {m.id: m.text for m in engine.store.list()}
    texts = [memories.get(mid, "") for mid in vectors.ids]
    return duplicates_of(memory_id, vectors, texts, limit=3)


class DuplicateBanner(QFrame):
    open_memory_requested = Signal(str)
    checked = Signal(str, list)  # (memory id, [(other id, score)]) after each check

    def __init__(self, engine: Engine, bus: MemoryBus, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.engine = engine
        self._pending = ""
        self._pair: tuple[str, str] | None = None
        self._kept: set[frozenset[str]] = set()
        self._latest = LatestOnly()
        self.setObjectName("duplicateBanner")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setStyleSheet("#duplicateBanner { background: palette(alternate-base); }")
        self.text = QLabel()
        self.compare_button = QPushButton()
        self.keep_button = QPushButton()
        row = QHBoxLayout(self)
        row.setContentsMargins(10, 4, 6, 4)
        row.addWidget(self.text, 1)
        row.addWidget(self.compare_button)
        row.addWidget(self.keep_button)
        self.compare_button.clicked.connect(self.compare)
        self.keep_button.clicked.connect(self.keep_both)
        bus.memory_updated.connect(self._memory_updated)
        bus.index_changed.connect(self._index_changed)
        self.retranslate()
        self.hide()

    def retranslate(self) -> None:
        self.compare_button.setText(self.tr("Compare side by side"))
        self.keep_button.setText(self.tr("Keep both"))

    def _memory_updated(self, changes: ChangeSet, _initiator: object) -> None:
        written = (*changes.created, *changes.updated)
        if written:
            self._pending = written[-1]
        if self._pair is not None and any(m in self._pair for m in changes.deleted):
            self.hide()  # one of the two went to the trash

    def _index_changed(self) -> None:
        memory_id, self._pending = self._pending, ""
        if memory_id:
            self.check(memory_id)

    def check(self, memory_id: str) -> None:
        """Look for near-duplicates of ``memory_id`` on a worker; show the banner if any."""
        engine = self.engine
        self._latest.submit(
            lambda: find_duplicates(engine, memory_id),
            lambda found: self._show(memory_id, found),
            lambda _exc: None,  # a failed check must never get in the way of writing
            context=self,
        )

    def _show(self, memory_id: str, found: list[tuple[str, float]]) -> None:
        fresh = [(o, s) for o, s in found if frozenset((memory_id, o)) not in self._kept]
        self.checked.emit(memory_id, fresh)
        if not fresh:
            return
        other = fresh[0][0]
        try:
            title = self.engine.store.get(other).title
        except PixelmemError:
            return
        self._pair = (memory_id, other)
        self.text.setText(
            self.tr("Looks like «{title}» — an earlier memory says much the same.").format(
                title=title
            )
        )
        self.show()

    def keep_both(self) -> None:
        if self._pair is not None:
            self._kept.add(frozenset(self._pair))
        self.hide()

    def compare(self) -> None:
        if self._pair is None:
            return
        dialog = CompareDialog(self.engine, *self._pair, parent=self)
        dialog.open_memory_requested.connect(self.open_memory_requested)
        dialog.open()


class CompareDialog(QDialog):
    """Two memories side by side, read-only; a button opens the other one in the editor."""

    open_memory_requested = Signal(str)

    def __init__(self, engine: Engine, mine: str, other: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Compare memories"))
        self.resize(980, 560)
        columns = QHBoxLayout()
        for memory_id in (mine, other):
            try:
                memory = engine.store.get(memory_id)
                title, body = memory.title, memory.body
            except PixelmemError:
                title, body = memory_id, ""
            column = QVBoxLayout()
            heading = QLabel(f"<b>{title}</b>")
            text = QPlainTextEdit(body)
            text.setReadOnly(True)
            column.addWidget(heading)
            column.addWidget(text, 1)
            columns.addLayout(column)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        open_other = buttons.addButton(
            self.tr("Open the other"), QDialogButtonBox.ButtonRole.ActionRole
        )
        open_other.clicked.connect(lambda: self._open(other))
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(columns, 1)
        layout.addWidget(buttons)

    def _open(self, memory_id: str) -> None:
        self.open_memory_requested.emit(memory_id)
        self.accept()


def above_editor(editor: QWidget, *strips: QWidget) -> QWidget:
    """The central widget: strips (hidden until needed) above the editor."""
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(0)
    for strip in strips:
        layout.addWidget(strip)
    layout.addWidget(editor, 1)
    return box
