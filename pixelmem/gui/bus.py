"""The one signal bus every view listens to (docs/ARCHITECTURE.md, "The bus").

Whoever changes memories (editor, import, file watcher, chat pane, review inbox) writes through
the session, which emits ``memory_updated(changes, initiator)`` once the files are on disk:
``changes`` is one immutable :class:`~pixelmem.core.writes.ChangeSet` (created, updated and
deleted ids; an import of 1,000 files is one emission) and ``initiator`` is whoever asked for
the write (a view passes itself), so a view skips its own echo. The search index is *not*
current yet at that moment: it catches up on its own lane, and ``index_changed`` tells when
it has. Views subscribe themselves; nobody calls another view's refresh.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from pixelmem.core.writes import CREATED, DELETED, UPDATED, ChangeSet

ACTIONS = (CREATED, UPDATED, DELETED)


class MemoryBus(QObject):
    """Application-wide signals; one instance, created by the main window, passed to views."""

    # (ChangeSet, initiator or None); emitted on the GUI thread after the files are on disk.
    memory_updated = Signal(object, object)
    # The search index caught up: a new snapshot was published (after writes, open, settings).
    index_changed = Signal()
    # Indexing progress (done, total); total 0 means "busy, size unknown".
    index_progress = Signal(int, int)
    # Any view may ask for a memory to be shown in the editor (e.g. a chat citation).
    open_memory_requested = Signal(str)
    # A sentence for the person; the status bar shows it (one way to show errors).
    error_reported = Signal(str)
    # A transient, non-error note ("Saved", "Moved to trash").
    message_reported = Signal(str)
    # Settings were saved; the argument is the new core ``Settings`` object.
    settings_changed = Signal(object)


__all__ = ["ACTIONS", "CREATED", "DELETED", "UPDATED", "ChangeSet", "MemoryBus"]
