"""Backlinks of the open memory, beside Related: linked mentions, then unlinked mentions.

Linked mentions are ``[[links]]`` in other memories that resolve to this one; unlinked
mentions are places that say its title or an alias without linking (the context menu's
"Link it" turns one into a link). Both are computed on a worker from the link index's
snapshot; a click opens the other memory at the mention.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtWidgets import (
    QLabel,
    QMenu,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from pixelmem.core.vault.links import LinkGraph, Mention
from pixelmem.gui.panels.link_index import LinkIndex
from pixelmem.gui.workers import LatestOnly

_MENTION_ROLE = Qt.ItemDataRole.UserRole + 1

Found = tuple[list[Mention], list[Mention], dict[str, str]]  # linked, unlinked, titles


class BacklinksPanel(QWidget):
    # (memory id, (start, end) of the mention in its body)
    mention_activated = Signal(str, object)
    # An unlinked mention the person wants turned into a [[link]] (context menu → Link)
    link_mention_requested = Signal(object)  # Mention

    def __init__(self, links: LinkIndex, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.links = links
        self.memory_id = ""
        self._latest = LatestOnly()
        self._found: Found = ([], [], {})
        self.tree = QTreeWidget()
        self.tree.setObjectName("backlinksTree")
        self.tree.setHeaderHidden(True)
        self.tree.setIndentation(14)
        self.tree.setUniformRowHeights(True)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideRight)  # the full line in the tooltip
        self.empty_label = QLabel()
        self.empty_label.setWordWrap(True)
        self.empty_label.setEnabled(False)
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignHCenter)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.empty_label)
        self.linked_item = QTreeWidgetItem(self.tree)
        self.unlinked_item = QTreeWidgetItem(self.tree)
        for item in (self.linked_item, self.unlinked_item):
            item.setFlags(Qt.ItemFlag.ItemIsEnabled)
            font = item.font(0)
            font.setBold(True)
            item.setFont(0, font)
        self.tree.itemActivated.connect(self._activated)
        self.tree.itemClicked.connect(self._activated)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._context_menu)
        links.changed.connect(self.refresh)
        self.retranslate()

    def set_memory(self, memory_id: str) -> None:
        self.memory_id = memory_id
        self.refresh()

    def refresh(self) -> None:
        memory_id, graph = self.memory_id, self.links.graph
        if not memory_id or graph is None:
            self._latest.invalidate()
            self._show(([], [], {}))
            return
        self._latest.submit(lambda: _find(graph, memory_id), self._show, context=self)

    def _show(self, found: Found) -> None:
        """One row per other memory (its title, bold), its mentions' lines under it."""
        self._found = found
        linked, unlinked, titles = found
        for parent, mentions in ((self.linked_item, linked), (self.unlinked_item, unlinked)):
            parent.takeChildren()
            sources: dict[str, QTreeWidgetItem] = {}
            for mention in mentions:
                source = sources.get(mention.source_id)
                if source is None:
                    source = sources[mention.source_id] = QTreeWidgetItem(parent)
                    title = titles.get(mention.source_id, "")
                    source.setText(0, title)
                    source.setToolTip(0, title)
                    source.setData(0, _MENTION_ROLE, mention)  # the title opens the first one
                    font = source.font(0)
                    font.setBold(True)
                    source.setFont(0, font)
                line = QTreeWidgetItem(source)
                line.setText(0, mention.context)
                line.setToolTip(0, mention.context)
                line.setData(0, _MENTION_ROLE, mention)
                line.setForeground(0, self.palette().placeholderText())
                source.setExpanded(True)
            parent.setExpanded(True)
        self.retranslate()

    def retranslate(self) -> None:
        linked, unlinked, _ = self._found
        self.linked_item.setText(0, self.tr("Linked mentions (%n)", "", len(linked)))
        self.unlinked_item.setText(0, self.tr("Unlinked mentions (%n)", "", len(unlinked)))
        if not self.memory_id:
            self.empty_label.setText(self.tr("Open a memory to see what links to it."))
        elif not linked and not unlinked:
            self.empty_label.setText(
                self.tr("No other memory links to this one or mentions its title.")
            )
        self.empty_label.setVisible(not linked and not unlinked)

    def _activated(self, item: QTreeWidgetItem) -> None:
        mention = item.data(0, _MENTION_ROLE)
        if isinstance(mention, Mention):
            self.mention_activated.emit(mention.source_id, (mention.start, mention.end))

    def unlinked_mention_at(self, item: QTreeWidgetItem | None) -> Mention | None:
        """The unlinked mention ``item`` shows (a line, not a title row), if it is one."""
        parent = item.parent() if item is not None else None
        if item is None or parent is None or parent.parent() is not self.unlinked_item:
            return None
        mention = item.data(0, _MENTION_ROLE)
        return mention if isinstance(mention, Mention) else None

    def _context_menu(self, point: QPoint) -> None:
        mention = self.unlinked_mention_at(self.tree.itemAt(point))
        if mention is None:
            return
        menu = QMenu(self)
        action = menu.addAction(self.tr("Link it"))
        action.setToolTip(self.tr("Turn these words into a [[link]] to this memory"))
        action.triggered.connect(lambda: self.link_mention_requested.emit(mention))
        menu.popup(self.tree.viewport().mapToGlobal(point))


def _find(graph: LinkGraph, memory_id: str) -> Found:
    linked = graph.backlinks(memory_id)
    unlinked = graph.unlinked_mentions(memory_id)
    titles = {m.source_id: graph.memories[m.source_id].title for m in (*linked, *unlinked)}
    return linked, unlinked, titles
