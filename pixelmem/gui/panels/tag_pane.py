"""The Tags pane: every tag with how many memories carry it, nested tags (``a/b``) as a tree;
choosing one shows only its memories in the list.

Tags are the memories' topics (the core reads ``tags:`` and ``topics:`` as one). As in
Obsidian, a nested tag counts toward its parents (a memory tagged ``garden/tomato`` is one of
``garden``'s), choosing ``garden`` shows both, and tags differing only in case are one tag
(shown as first written). The tree is counted on a worker (:func:`tag_tree`, ~0.1 s for 10k
memories) after the vault is scanned and again a moment after each change set, while the pane
is visible; hidden, it only notes that it is behind. Enter or a click chooses a tag; choosing
it again, Esc or "Show all" shows every memory again, and so does closing the pane.

This module is one panel in full: the counting, the widget, and :func:`build_panel` with its
one entry in :data:`pixelmem.gui.panels.registry.PANELS` (the recipe of
``docs/ARCHITECTURE.md (The GUI)``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

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
    from pixelmem.gui.panels.host import PanelHost

REFRESH_DELAY_MS = 300  # after a change set: a burst of saves is counted once
PATH_ROLE = Qt.ItemDataRole.UserRole + 1  # the tag's full path, folded ("garden/tomato")
RULE = "tag"  # the list filter's rule this pane sets
SHOWN_ROWS = 6  # the height it asks for, in rows


# -- counting (no Qt: runs on a worker) ------------------------------------------------------


def tag_path(topic: str) -> str:
    """A topic as a tag path: no ``#``, no empty or padded levels (``#a//b/`` → ``a/b``)."""
    levels = (level.strip() for level in topic.strip().lstrip("#").split("/"))
    return "/".join(level for level in levels if level)


def has_tag(memory: Memory, folded: str) -> bool:
    """Whether ``memory`` carries the tag ``folded`` (casefolded) or one nested below it."""
    for topic in memory.topics:
        path = tag_path(topic).casefold()
        if path == folded or path.startswith(folded + "/"):
            return True
    return False


@dataclass
class TagNode:
    """One tag: ``name`` its last level as first written, ``path`` the whole one, ``count``
    the memories carrying it or a tag nested below it."""

    name: str
    path: str
    count: int = 0
    children: list[TagNode] = field(default_factory=list)

    def walk(self) -> Iterator[TagNode]:
        yield self
        for child in self.children:
            yield from child.walk()


def tag_tree(memories: Iterable[Memory]) -> list[TagNode]:
    """The top-level tags, each with its nested ones; most used first, then by name."""
    members: dict[str, set[str]] = {}  # folded path → ids of the memories under it
    spelling: dict[str, str] = {}  # folded path → as first written
    for memory in memories:
        for topic in memory.topics:
            path = tag_path(topic)
            levels = path.split("/")
            for depth in range(1, len(levels) + 1 if path else 1):
                prefix = "/".join(levels[:depth])
                folded = prefix.casefold()
                spelling.setdefault(folded, prefix)
                members.setdefault(folded, set()).add(memory.id)
    nodes: dict[str, TagNode] = {}
    top: list[TagNode] = []
    for folded in sorted(members):  # a parent sorts before its children
        name, parent = spelling[folded].rpartition("/")[2], folded.rpartition("/")[0]
        path = f"{nodes[parent].path}/{name}" if parent else name  # the parent's spelling
        node = nodes[folded] = TagNode(name, path, len(members[folded]))
        (nodes[parent].children if parent else top).append(node)
    _sort(top)
    return top


def _sort(nodes: list[TagNode]) -> None:
    nodes.sort(key=lambda n: (-n.count, n.name.casefold()))
    for node in nodes:
        _sort(node.children)


# -- the pane ---------------------------------------------------------------------------------


class TagPane(QWidget):
    """``tag_chosen(path)`` when a tag is chosen ("" when none is); ``tags_shown(n)`` after
    each count (n tags in all, nested ones included)."""

    tag_chosen = Signal(str)
    tags_shown = Signal(int)

    def __init__(
        self, session: VaultSession, bus: MemoryBus, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.chosen = ""  # folded path of the chosen tag
        self._tags: list[TagNode] = []
        self._stale = True
        self._latest = LatestOnly()
        self._timer = QTimer(self, singleShot=True, interval=REFRESH_DELAY_MS)
        self._timer.timeout.connect(self.refresh)
        self._build()
        bus.memory_updated.connect(self._memory_updated)
        session.memories_loaded.connect(self._memory_updated)
        self.retranslate()

    def _build(self) -> None:
        self.model = QStandardItemModel(self)
        self.tree = QTreeView()
        self.tree.setObjectName("tagTree")
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
        self.caption.cleared.connect(lambda: self.choose(""))
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
        self.empty_label.setText(
            self.tr(
                "No tags yet. A memory's tags (its topics) show here, nested ones (a/b) as a tree."
            )
        )
        self._show_caption()
        self._fill()  # the rows' tooltips

    # -- counting --------------------------------------------------------------------------

    def refresh(self) -> None:
        """Count again on a worker."""
        self._stale = False
        store = self.session.store
        self._latest.submit(lambda: tag_tree(store.view()), self._show)

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

    def _show(self, tags: list[TagNode]) -> None:
        changed, self._tags = tags != self._tags, tags
        known = {node.path.casefold() for top in tags for node in top.walk()}
        if self.chosen and self.chosen not in known:  # no memory carries it any more
            self.choose("")
        if changed:  # most change sets leave the tags as they were: no rows rebuilt
            self._fill()
        self.tags_shown.emit(len(known))

    def _fill(self) -> None:
        """The rows, keeping which tags are expanded and which one is current."""
        expanded = self._expanded_paths()
        current = self.tree.currentIndex().data(PATH_ROLE)
        self.model.clear()
        self.model.setColumnCount(2)
        self._add_rows(self.model.invisibleRootItem(), self._tags)
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
        self.empty_label.setVisible(not self._tags)

    def _add_rows(self, parent: QStandardItem, nodes: list[TagNode]) -> None:
        for node in nodes:
            name, count = QStandardItem(node.name), QStandardItem(f"{node.count:,}")
            count.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            tip = self.tr("%Ln memories tagged #{tag}", "", node.count).format(tag=node.path)
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
        """Choose the tag at ``index``; the chosen one again: show all."""
        path = str(index.data(PATH_ROLE) or "")
        self.choose("" if path == self.chosen else path)

    def choose(self, path: str) -> None:
        """Show only the memories tagged ``path`` (folded), or all of them for ""."""
        self.chosen = path
        self._show_caption()
        self.tag_chosen.emit(path)

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

    def _spelled(self, folded: str) -> str:
        """The chosen tag as first written."""
        nodes = (node for top in self._tags for node in top.walk())
        return next((node.path for node in nodes if node.path.casefold() == folded), folded)

    def _show_caption(self) -> None:
        if self.chosen:
            text = self.tr("Showing #{tag}").format(tag=self._spelled(self.chosen))
        else:
            text = self.tr("Choose a tag to see its memories")
        self.caption.show_text(text, filtering=bool(self.chosen))


def show_tag(list_filter: MemoryFilterProxy, path: str) -> None:
    """Filter the memory list to the memories tagged ``path`` (all of them for "")."""
    rule = (lambda memory: has_tag(memory, path)) if path else None
    list_filter.set_rule(RULE, rule)


def build_panel(host: PanelHost) -> TagPane:
    pane = TagPane(host.session, host.bus)
    list_filter = host.list_filter
    pane.tag_chosen.connect(lambda path: show_tag(list_filter, path))
    return pane
