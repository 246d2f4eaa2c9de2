"""The window's wiki-link graph: built on a worker, and a failed build is not silent."""

from __future__ import annotations

import logging
from pathlib import Path

from pixelmem.core.vault.store import MemoryStore
from pixelmem.gui.bus import MemoryBus
from pixelmem.gui.panels.link_index import LinkIndex


def test_the_graph_follows_the_store(qtbot, vault: Path) -> None:
    store = MemoryStore(vault)
    store.create("Coffee", "Beans and [[Grinder]].")
    grinder = store.create("Grinder", "Burrs.")
    links = LinkIndex(lambda: store, MemoryBus())
    with qtbot.waitSignal(links.changed, timeout=5000):
        links.rebuild()
    assert links.resolve("Grinder") == grinder.id


class _BrokenStore(MemoryStore):
    """A store whose reads fail (the link graph reads with ``view``)."""

    def list(self):  # type: ignore[override]
        raise OSError(5, "Input/output error")

    def view(self):  # type: ignore[override]
        raise OSError(5, "Input/output error")


def test_a_failed_rebuild_is_logged_and_keeps_the_last_graph(qtbot, vault: Path, caplog) -> None:
    store = MemoryStore(vault)
    grinder = store.create("Grinder", "Burrs.")
    current: list[MemoryStore] = [store]
    links = LinkIndex(lambda: current[0], MemoryBus())
    with qtbot.waitSignal(links.changed, timeout=5000):
        links.rebuild()
    current[0] = _BrokenStore(vault)
    with caplog.at_level(logging.WARNING, logger="pixelmem.gui.panels.link_index"):
        links.rebuild()
        qtbot.waitUntil(lambda: "Input/output error" in caplog.text, timeout=5000)
    assert "wiki-link graph" in caplog.text
    assert links.resolve("Grinder") == grinder.id
