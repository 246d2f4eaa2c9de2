"""The Folders pane: the vault's folders as a tree with how many memories each holds (its
sub-folders' included); choosing one shows only its memories in the list, as Obsidian's file
explorer narrows to a folder.

Notes at the top of the vault are in no folder: they show when no folder is chosen. Folders
compare by their path below the vault, regardless of case (a vault synced between systems).
The counting, the rows and the choosing are :mod:`counted_tree`'s, shared with the Tags pane.

This module is one panel in full: the counting, the widget, and :func:`build_panel` with its
one entry in :data:`pixelmem.gui.panels.registry.PANELS` (the recipe of
``docs/ARCHITECTURE.md (The GUI)``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from pixelmem.core.vault.memory import Memory
from pixelmem.gui.panels.counted_tree import CountedTreePane, TreeNode, nested_tree, under

if TYPE_CHECKING:
    from pixelmem.gui.panels.host import PanelHost


# -- counting (no Qt: runs on a worker) ------------------------------------------------------


def folder_of(memory: Memory, root: Path) -> str:
    """The memory's folder below ``root`` (posix), "" at the top or when it has no path."""
    if memory.path is None:
        return ""
    try:
        folder = memory.path.parent.relative_to(root).as_posix()
    except ValueError:
        return ""
    return "" if folder == "." else folder


def folder_tree(memories: Iterable[Memory], root: Path) -> list[TreeNode]:
    """The folders holding memories, each with its sub-folders; fullest first, then by name."""
    return nested_tree((m.id, [folder] if (folder := folder_of(m, root)) else []) for m in memories)


def in_folder(memory: Memory, root: Path, folded: str) -> bool:
    """Whether ``memory`` is in the folder ``folded`` (casefolded) or one of its sub-folders."""
    folder = folder_of(memory, root)
    return bool(folder) and under(folder, folded)


# -- the pane ---------------------------------------------------------------------------------


class FolderTree(CountedTreePane):
    """The folders; ``path_chosen(path)`` when one is chosen ("" when none is)."""

    tree_name = "folderTree"
    rule_name = "folder"

    def count(self, memories: Sequence[Memory]) -> list[TreeNode]:
        return folder_tree(memories, self.session.store.root)

    def empty_text(self) -> str:
        return self.tr("No folders: every memory is at the top of the vault.")

    def caption_text(self, spelled: str) -> str:
        if spelled:
            return self.tr("Showing the folder {folder}").format(folder=spelled)
        return self.tr("Choose a folder to see its memories")

    def row_tip(self, node: TreeNode) -> str:
        return self.tr("%Ln memories in {folder}", "", node.count).format(folder=node.path)

    def rule_for(self, folded: str) -> Callable[[Memory], bool]:
        root = self.session.store.root
        return lambda memory: in_folder(memory, root, folded)


def build_panel(host: PanelHost) -> FolderTree:
    pane = FolderTree(host.session, host.bus)
    pane.filter_list(host.list_filter)
    return pane
