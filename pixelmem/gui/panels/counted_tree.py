"""A pane that counts the memories under each node of a tree and filters the list to one node:
what the Tags pane (tags, nested ``a/b``) and the Folders pane (the vault's folders) share.

The tree is counted on a worker (:meth:`CountedTreePane.count`, pure Python over the store's
memories) after the vault is scanned and a moment after each change set while the pane is
visible; hidden, it only notes that it is behind. A click or Enter chooses a node, choosing
it again, Esc or the caption's "Show all" shows every memory, and so does closing the pane.
A subclass says what the nodes are (:meth:`count`) and the words it shows; its module's
``build_panel`` connects ``path_chosen`` to a rule of the list's filter.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import (
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSize,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QHideEvent, QKeyEvent, QShowEvent, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QDockWidget,
    QHeaderView,
    QLabel,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from pixelmem.core.vault.memory import Memory
from pixelmem.gui.bus import MemoryBus
from pixelmem.gui.session import VaultSession
from pixelmem.gui.widgets.filter_caption import FilterCaption
from pixelmem.gui.workers import LatestOnly

if TYPE_CHECKING:
    from pixelmem.gui.memory_list.memory_list_model import MemoryFilterProxy

REFRESH_DELAY_MS = 300  # after a change set: a burst of saves is counted once
PATH_ROLE = Qt.ItemDataRole.UserRole + 1  # the node's full path, folded ("garden/tomato")
SHOWN_ROWS = 6  # the height it asks for, in rows


@dataclass
class TreeNode:
    """One node: ``name`` its last level as first written, ``path`` the whole one, ``count``
    the memories under it (nested nodes included)."""

    name: str
    path: str
    count: int = 0
    children: list[TreeNode] = field(default_factory=list)

    def walk(self) -> Iterator[TreeNode]:
        yield self
        for child in self.children:
            yield from child.walk()


def nested_tree(paths_by_memory: Iterable[tuple[str, Iterable[str]]]) -> list[TreeNode]:
    """The tree of ``/``-separated paths, each node counting the memories on it or below
    (once each); a level differing only in case is one node, shown as first written. Most
    used first, then by name."""
    members: dict[str, set[str]] = {}  # folded path → ids of the memories under it
    spelling: dict[str, str] = {}  # folded path → as first written
    for memory_id, paths in paths_by_memory:
        for path in paths:
            levels = path.split("/")
            for depth in range(1, len(levels) + 1 if path else 1):
                prefix = "/".join(levels[:depth])
                folded = prefix.casefold()
                spelling.setdefault(folded, prefix)
                members.setdefault(folded, set()).add(memory_id)
    nodes: dict[str, TreeNode] = {}
    top: list[TreeNode] = []
    for folded in sorted(members):  # a parent sorts before its children
        name, parent = spelling[folded].rpartition("/")[2], folded.rpartition("/")[0]
        path = f"{nodes[parent].path}/{name}" if parent else name  # the parent's spelling
        node = nodes[folded] = TreeNode(name, path, len(members[folded]))
        (nodes[parent].children if parent else top).append(node)
    _sort(top)
    return top


def _sort(nodes: list[TreeNode]) -> None:
    nodes.sort(key=lambda n: (-n.count, n.name.casefold()))
    for node in nodes:
        _sort(node.children)


def under(path: str, folded: str) -> bool:
    """Whether ``path`` is the node ``folded`` (casefolded) or one nested below it."""
    path = path.casefold()
    return path == folded or path.startswith(folded + "/")


class CountedTreePane(QWidget):
    """``path_chosen(path)`` when a node is chosen ("" when none is); ``rows_shown(n)``
    after each count (n nodes in all)."""

    path_chosen = Signal(str)
    rows_shown = Signal(int)
    tree_name = "countedTree"
    rule_name = "counted"  # the name of the list filter's rule it sets

    def __init__(
        self, session: VaultSession, bus: MemoryBus, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.chosen = ""  # folded path of the chosen node
        self.nodes: list[TreeNode] = []
        self._stale = True
        self._list_filter: MemoryFilterProxy | None = None
        self._latest = LatestOnly()
        self._timer = QTimer(self, singleShot=True, interval=REFRESH_DELAY_MS)
        self._timer.timeout.connect(self.refresh)
        self._build()
        bus.memory_updated.connect(self._memory_updated)
        session.memories_loaded.connect(self._memory_updated)
        self.retranslate()

    # -- what a subclass says --------------------------------------------------------------

    def count(self, memories: Sequence[Memory]) -> list[TreeNode]:
        """The tree over ``memories`` (runs on a worker: no Qt)."""
        raise NotImplementedError

    def empty_text(self) -> str:
        raise NotImplementedError

    def caption_text(self, spelled: str) -> str:
        """The caption while the node ``spelled`` is chosen ("" when none is)."""
        raise NotImplementedError

    def row_tip(self, node: TreeNode) -> str:
        raise NotImplementedError

    def rule_for(self, folded: str) -> Callable[[Memory], bool]:
        """Which memories the list shows while the node ``folded`` is chosen."""
        raise NotImplementedError

    def filter_list(self, list_filter: MemoryFilterProxy) -> None:
        """Filter the memory list by the chosen node from now on (a rule of its filter)."""
        self._list_filter = list_filter
        self.path_chosen.connect(self._apply_filter)  # bound: gone with the pane

    def _apply_filter(self, folded: str) -> None:
        list_filter = self._list_filter
        if list_filter is not None and shiboken6.isValid(list_filter):
            list_filter.set_rule(self.rule_name, self.rule_for(folded) if folded else None)

    # -- building --------------------------------------------------------------------------

    def _build(self) -> None:
        self.model = QStandardItemModel(self)
        self.tree = QTreeView()
        self.tree.setObjectName(self.tree_name)
        self.tree.setModel(self.model)
        self.tree.setHeaderHidden(True)
        self.tree.setUniformRowHeights(True)
        self.tree.setIndentation(14)
        self.tree.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideRight)  # a narrow dock cuts names
        # On press, not click: a double-click (which also expands) chooses once, not twice.
        self.tree.pressed.connect(self._pressed)
        self.tree.installEventFilter(self)  # Enter chooses, Esc shows all
        self.caption = FilterCaption()
        self.caption.setContentsMargins(10, 4, 6, 2)
        self.caption.cleared.connect(self.show_all)
        self.empty_label = QLabel()
        self.empty_label.setWordWrap(True)
        self.empty_label.setEnabled(False)
        self.empty_label.setContentsMargins(10, 6, 10, 6)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.caption)
        layout.addWidget(self.empty_label)
        layout.addWidget(self.tree, 1)  # shown even when empty: the keyboard can be in it
        self.setFocusProxy(self.tree)

    def sizeHint(self) -> QSize:
        """A few rows: below the memory list, the list keeps most of the column's height."""
        rows = self.fontMetrics().height() * (SHOWN_ROWS + 2)  # the caption, the frame
        return QSize(super().sizeHint().width(), rows)

    def retranslate(self) -> None:
        self.empty_label.setText(self.empty_text())
        self._show_caption()
        self._fill()  # the rows' tooltips

    # -- counting --------------------------------------------------------------------------

    def refresh(self) -> None:
        """Count again on a worker."""
        self._stale = False
        store, count = self.session.store, self.count
        # The store's own memories, read only: a copy of 10k held the GIL (store.view).
        self._latest.submit(lambda: count(store.view()), self._show, context=self)

    def _memory_updated(self, *_: object) -> None:
        if self.isVisible():
            self._timer.start()
        else:
            self._stale = True

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._stale:
            self.refresh()

    def hideEvent(self, event: QHideEvent) -> None:
        super().hideEvent(event)
        dock = self.parentWidget()
        if self.chosen and isinstance(dock, QDockWidget) and dock.isHidden():
            self.choose("")  # the pane was closed: its filter must not stay on unseen

    def _show(self, nodes: list[TreeNode]) -> None:
        changed, self.nodes = nodes != self.nodes, nodes
        known = {node.path.casefold() for top in nodes for node in top.walk()}
        if self.chosen and self.chosen not in known:  # no memory is under it any more
            self.choose("")
        if changed:  # most change sets leave the tree as it was: no rows rebuilt
            self._fill()
        self.rows_shown.emit(len(known))

    def _fill(self) -> None:
        """The rows, keeping which nodes are expanded and which one is current."""
        expanded = self._expanded_paths()
        current = self.tree.currentIndex().data(PATH_ROLE)
        self.model.clear()
        self.model.setColumnCount(2)
        self._add_rows(self.model.invisibleRootItem(), self.nodes)
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        for index in self._indexes():
            path = index.data(PATH_ROLE)
            if path in expanded:
                self.tree.setExpanded(index, True)
            if path == (current or self.chosen):
                self.tree.setCurrentIndex(index)
        self.empty_label.setVisible(not self.nodes)

    def _add_rows(self, parent: QStandardItem, nodes: list[TreeNode]) -> None:
        for node in nodes:
            name, count = QStandardItem(node.name), QStandardItem(f"{node.count:,}")
            count.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            tip = self.row_tip(node)
            for item in (name, count):
                item.setData(node.path.casefold(), PATH_ROLE)
                item.setToolTip(tip)
            parent.appendRow([name, count])
            self._add_rows(name, node.children)

    def _indexes(self) -> Iterator[QModelIndex]:
        """Every row's first cell, parents before their children."""
        pending = [QModelIndex()]
        while pending:
            parent = pending.pop()
            for row in range(self.model.rowCount(parent)):
                index = self.model.index(row, 0, parent)
                yield index
                pending.append(index)

    def _expanded_paths(self) -> set[str]:
        return {i.data(PATH_ROLE) for i in self._indexes() if self.tree.isExpanded(i)}

    # -- choosing --------------------------------------------------------------------------

    def _pressed(self, index: QModelIndex | QPersistentModelIndex) -> None:
        if QApplication.mouseButtons() == Qt.MouseButton.LeftButton:
            self._toggle(index)

    def _toggle(self, index: QModelIndex | QPersistentModelIndex) -> None:
        """Choose the node at ``index``; the chosen one again: show all."""
        path = str(index.data(PATH_ROLE) or "")
        self.choose("" if path == self.chosen else path)

    def show_all(self) -> None:
        self.choose("")

    def choose(self, path: str) -> None:
        """Show only the memories under ``path`` (folded), or all of them for ""."""
        self.chosen = path
        self._show_caption()
        self.path_chosen.emit(path)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is not self.tree or not isinstance(event, QKeyEvent):
            return False
        if event.type() != QEvent.Type.KeyPress:
            return False
        if (
            event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
            and self.tree.currentIndex().isValid()
        ):
            self._toggle(self.tree.currentIndex())
            return True
        if event.key() == Qt.Key.Key_Escape and self.chosen:
            self.choose("")
            return True
        return False

    def spelled(self, folded: str) -> str:
        """The chosen node as first written."""
        nodes = (node for top in self.nodes for node in top.walk())
        return next((node.path for node in nodes if node.path.casefold() == folded), folded)

    def _show_caption(self) -> None:
        text = self.caption_text(self.spelled(self.chosen) if self.chosen else "")
        self.caption.show_text(text, filtering=bool(self.chosen))
