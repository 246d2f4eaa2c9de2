"""The Tags pane: every tag with how many memories carry it, nested tags (``a/b``) as a tree;
choosing one shows only its memories in the list.

Tags are the memories' topics (the core reads ``tags:`` and ``topics:`` as one). As in
Obsidian, a nested tag counts toward its parents (a memory tagged ``garden/tomato`` is one of
``garden``'s), choosing ``garden`` shows both, and tags differing only in case are one tag
(shown as first written). The tree is counted on a worker (:func:`tag_tree`, ~0.1 s for 10k
memories); the counting, the rows and the choosing are :mod:`counted_tree`'s, shared with the
Folders pane.

This module is one panel in full: the counting, the widget, and :func:`build_panel` with its
one entry in :data:`pixelmem.gui.panels.registry.PANELS` (the recipe of
``docs/ARCHITECTURE.md (The GUI)``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from pixelmem.core.vault.memory import Memory
from pixelmem.gui.panels.counted_tree import (
    PATH_ROLE,
    CountedTreePane,
    TreeNode,
    nested_tree,
    under,
)

if TYPE_CHECKING:
    from pixelmem.gui.panels.host import PanelHost

__all__ = ["PATH_ROLE", "TagNode", "TagPane", "build_panel", "has_tag", "tag_path", "tag_tree"]

TagNode = TreeNode


# -- counting (no Qt: runs on a worker) ------------------------------------------------------


def tag_path(topic: str) -> str:
    """A topic as a tag path: no ``#``, no empty or padded levels (``#a//b/`` → ``a/b``)."""
    levels = (level.strip() for level in topic.strip().lstrip("#").split("/"))
    return "/".join(level for level in levels if level)


def has_tag(memory: Memory, folded: str) -> bool:
    """Whether ``memory`` carries the tag ``folded`` (casefolded) or one nested below it."""
    return any(under(tag_path(topic), folded) for topic in memory.topics)


def tag_tree(memories: Iterable[Memory]) -> list[TreeNode]:
    """The top-level tags, each with its nested ones; most used first, then by name."""
    return nested_tree((m.id, [tag_path(t) for t in m.topics]) for m in memories)


# -- the pane ---------------------------------------------------------------------------------


class TagPane(CountedTreePane):
    """The tags; ``path_chosen(path)`` when one is chosen ("" when none is)."""

    tree_name = "tagTree"
    rule_name = "tag"

    def count(self, memories: Sequence[Memory]) -> list[TreeNode]:
        return tag_tree(memories)

    def empty_text(self) -> str:
        return self.tr(
            "No tags yet. A memory's tags (its topics) show here, nested ones (a/b) as a tree."
        )

    def caption_text(self, spelled: str) -> str:
        if spelled:
            return self.tr("Showing #{tag}").format(tag=spelled)
        return self.tr("Choose a tag to see its memories")

    def row_tip(self, node: TreeNode) -> str:
        return self.tr("%Ln memories tagged #{tag}", "", node.count).format(tag=node.path)

    def rule_for(self, folded: str) -> Callable[[Memory], bool]:
        return lambda memory: has_tag(memory, folded)


def build_panel(host: PanelHost) -> TagPane:
    pane = TagPane(host.session, host.bus)
    pane.filter_list(host.list_filter)
    return pane
