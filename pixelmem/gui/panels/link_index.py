"""The vault's wiki-link graph for the window: rebuilt on a worker after every change set.

Views ask :meth:`LinkIndex.resolve` (a dictionary lookup, fine on the UI thread) and run
heavier questions (backlinks, unlinked mentions) on workers against :attr:`LinkIndex.graph`,
an immutable snapshot. ``changed`` tells when a new snapshot is in place.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal

from pixelmem.core.vault.links import LinkGraph
from pixelmem.core.vault.store import MemoryStore
from pixelmem.gui.bus import ChangeSet, MemoryBus
from pixelmem.gui.workers import LatestOnly

log = logging.getLogger(__name__)

REBUILD_DELAY_MS = 300


class LinkIndex(QObject):
    changed = Signal()

    def __init__(
        self, store: Callable[[], MemoryStore], bus: MemoryBus, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._store = store
        self._latest = LatestOnly()
        self.graph: LinkGraph | None = None
        # A burst of change sets (typing-speed saves, a sync tool landing files) builds once:
        # a 10k-memory graph takes ~1 s of a worker.
        self._later = QTimer(self)
        self._later.setSingleShot(True)
        self._later.setInterval(REBUILD_DELAY_MS)
        self._later.timeout.connect(self.rebuild)
        bus.memory_updated.connect(self._memory_updated)

    def rebuild(self) -> None:
        store = self._store()
        self._latest.submit(
            lambda: LinkGraph(store.view(), store.root),
            self._built,
            self._failed,
            context=self,
        )

    def resolve(self, target: str) -> str | None:
        """The id of the memory a link target names, in the latest snapshot."""
        return self.graph.resolver.resolve(target) if self.graph is not None else None

    def _built(self, graph: LinkGraph) -> None:
        self.graph = graph
        self.changed.emit()

    def _failed(self, exc: BaseException) -> None:
        # Not the status bar: the panels keep the last graph and the next change set retries.
        log.warning("could not rebuild the wiki-link graph: %s", exc, exc_info=exc)

    def _memory_updated(self, _changes: ChangeSet, _initiator: object) -> None:
        self._later.start()
