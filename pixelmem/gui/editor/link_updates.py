"""After a memory's title changes: offer to update the links in other memories that named it.

The plan (:func:`pixelmem.core.vault.links.plan_rename`) is made on a worker from the vault
as it was before the save (the renamed memory with its old title). Only links that would stop
resolving are rewritten; links by file name or alias keep working and are left alone. If the
person agrees, every rewritten memory is saved through the session's write lane as one change
set (``MemoryWrites.apply_link_updates``); a memory edited meanwhile is skipped and named.
"""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtWidgets import QMessageBox, QWidget

from pixelmem.core.vault.links import LinkUpdate, plan_rename
from pixelmem.gui.session import VaultSession
from pixelmem.gui.workers import run_in_pool


def offer_link_updates(
    parent: QWidget, session: VaultSession, memory_id: str, old_title: str, new_title: str
) -> None:
    store = session.store

    def plan() -> list[LinkUpdate]:
        memories = [
            dataclasses.replace(m, title=old_title) if m.id == memory_id else m
            for m in store.list()
        ]
        return plan_rename(memories, store.root, memory_id, new_title)

    def offer(updates: list[LinkUpdate]) -> None:
        if updates and ask_update_links(parent, old_title, new_title, updates):
            session.apply_link_updates(updates)

    run_in_pool(plan, offer, context=parent)


class LinkCounts(QObject):
    """Counts of links in Qt plural forms (lupdate reads plural ``tr`` only in a class)."""

    def broken(self, n: int) -> str:
        return self.tr(
            "%n links to “{old}” in other memories would no longer lead anywhere.", "", n
        )


def ask_update_links(
    parent: QWidget | None, old_title: str, new_title: str, updates: list[LinkUpdate]
) -> bool:
    links = sum(u.count for u in updates)
    names = ", ".join(f"“{u.title}”" for u in updates[:5]) + (" …" if len(updates) > 5 else "")
    text = LinkCounts().broken(links).format(old=old_title)
    question = QCoreApplication.translate("link_updates", "Update them to “{new}”?").format(
        new=new_title
    )
    answer = QMessageBox.question(
        parent,
        QCoreApplication.translate("link_updates", "Update links"),
        f"{text}\n\n{names}\n\n{question}",
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        QMessageBox.StandardButton.Yes,
    )
    return answer == QMessageBox.StandardButton.Yes
