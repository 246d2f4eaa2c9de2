"""The Duplicates list: every group of near-duplicate memories in the vault, open or merge.

Groups are found on a worker. Double-click a memory to open it; "Merge…" keeps the selected
memory (or the group's first), appends the others' texts and topics to it and moves them to
the trash — after a confirmation that names every memory involved.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QMessageBox,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from pixelmem.core.errors import PixelmemError
from pixelmem.core.index.engine import Engine
from pixelmem.core.insight.duplicates import DuplicateGroup, duplicate_groups
from pixelmem.core.insight.memory_vectors import memory_vectors
from pixelmem.core.insight.merge import MergeResult
from pixelmem.gui.session import VaultSession
from pixelmem.gui.workers import run_in_pool

ID_ROLE = Qt.ItemDataRole.UserRole


def find_groups(engine: Engine) -> list[DuplicateGroup]:
    embedder = engine.embedder
    vectors = memory_vectors(engine.index)
    if embedder is None or not len(vectors):
        return []
    memories = {m.id: m.text for m in engine.store.list()}
    texts = [memories.get(mid, "") for mid in vectors.ids]
    return duplicate_groups(vectors, texts)


class DuplicatesDialog(QDialog):
    open_memory_requested = Signal(str)
    groups_shown = Signal(int)
    merged = Signal(object)  # MergeResult, after a merge was written

    def __init__(self, session: VaultSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.setWindowTitle(self.tr("Near-duplicates"))
        self.resize(640, 480)
        self.status = QLabel(self.tr("Looking for memories that say the same thing…"))
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels([self.tr("Memory"), self.tr("Similarity")])
        self.tree.setColumnWidth(0, 460)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.merge_button = buttons.addButton(
            self.tr("Merge…"), QDialogButtonBox.ButtonRole.ActionRole
        )
        self.merge_button.setEnabled(False)
        layout = QVBoxLayout(self)
        layout.addWidget(self.status)
        layout.addWidget(self.tree, 1)
        layout.addWidget(buttons)
        buttons.rejected.connect(self.reject)
        self.merge_button.clicked.connect(self.merge_selected)
        self.tree.itemDoubleClicked.connect(self._double_clicked)
        self.tree.currentItemChanged.connect(
            lambda item, _: self.merge_button.setEnabled(item is not None)
        )
        self.refresh()

    def refresh(self) -> None:
        engine = self.session.engine
        run_in_pool(lambda: find_groups(engine), self._show, self._failed, context=self)

    def _failed(self, exc: BaseException) -> None:
        self.status.setText(str(exc))

    def _show(self, groups: list[DuplicateGroup]) -> None:
        self.tree.clear()
        store = self.session.store
        for group in groups:
            top = QTreeWidgetItem([self.tr("%n memories", "", len(group.ids))])
            top.setText(1, f"{group.score:.2f}")
            for memory_id in group.ids:
                try:
                    title = store.get(memory_id).title
                except PixelmemError:
                    continue
                child = QTreeWidgetItem([title])
                child.setData(0, ID_ROLE, memory_id)
                top.addChild(child)
            self.tree.addTopLevelItem(top)
            top.setExpanded(True)
        self.status.setText(
            self.tr("%n groups of near-duplicates. Double-click to open one.", "", len(groups))
            if groups
            else self.tr("No near-duplicates found.")
        )
        self.groups_shown.emit(len(groups))

    def _double_clicked(self, item: QTreeWidgetItem, _column: int) -> None:
        memory_id = item.data(0, ID_ROLE)
        if memory_id:
            self.open_memory_requested.emit(memory_id)

    def merge_selected(self, *, confirm: bool = True) -> None:
        item = self.tree.currentItem()
        if item is None:
            return
        group = item.parent() or item
        children = (group.child(i) for i in range(group.childCount()))
        ids = [child.data(0, ID_ROLE) for child in children if child is not None]
        keep_id = item.data(0, ID_ROLE) or ids[0]
        others = [m for m in ids if m != keep_id]
        if not others:
            return
        store = self.session.store
        try:
            keep, rest = store.get(keep_id), [store.get(m) for m in others]
        except PixelmemError as exc:
            self.status.setText(str(exc))
            return
        if confirm and not self._confirm(keep.title, [m.title for m in rest]):
            return
        self.session.merge(keep_id, others, self._merged, self._merge_failed)
        self.tree.takeTopLevelItem(self.tree.indexOfTopLevelItem(group))

    def _merged(self, result: MergeResult) -> None:
        links = len(result.links.updated)
        text = self.tr("Merged into «{title}».").format(title=result.kept.title)
        if links == 1:
            text += " " + self.tr("Links updated in 1 memory.")
        elif links:
            text += " " + self.tr("Links updated in {count} memories.").format(count=links)
        failed = result.links.failed
        if failed:  # the first few in the line, every one in its tooltip
            names = "; ".join(failed[:3]) + (" …" if len(failed) > 3 else "")
            text += " " + self.tr("Links left alone: {names}").format(names=names)
        self.status.setText(text)
        self.status.setToolTip("\n".join(failed))
        self.merged.emit(result)

    def _merge_failed(self, exc: BaseException) -> None:
        self.status.setText(str(exc) if isinstance(exc, PixelmemError) else repr(exc))
        self.refresh()

    def _confirm(self, keep: str, others: list[str]) -> bool:
        text = self.tr(
            "Keep «{keep}» and add to it the text and topics of:\n\n{others}\n\n"
            "Those will be moved to the trash (they can be restored)."
        ).format(keep=keep, others="\n".join(f"• {t}" for t in others))
        text += " " + self.tr("Links to them will lead to «{keep}».").format(keep=keep)
        answer = QMessageBox.question(self, self.tr("Merge memories"), text)
        return answer == QMessageBox.StandardButton.Yes
