"""The one signal bus every view listens to (STYLE §2): writes announce, views redraw themselves.

Whoever changes a memory (editor, import, file watcher, chat pane, MCP inbox) emits
``memory_updated(action, memory_id)`` after the write is on disk and the index is current; the
list, search results, related panel and chat pane each decide what to refresh. Nobody calls
another view's refresh.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

CREATED = "created"
UPDATED = "updated"
DELETED = "deleted"
ACTIONS = (CREATED, UPDATED, DELETED)


class MemoryBus(QObject):
    """Application-wide signals; one instance, created by the main window, passed to views."""

    # action is "created" | "updated" | "deleted"; emitted on the GUI thread.
    memory_updated = Signal(str, str)
    # The search index snapshot was rebuilt (open, reindex, settings change).
    index_changed = Signal()
    # Indexing progress (done, total); total 0 means "busy, size unknown".
    index_progress = Signal(int, int)
    # Any view may ask for a memory to be shown in the editor (e.g. a chat citation).
    open_memory_requested = Signal(str)
    # A sentence for the person; the status bar shows it (STYLE §4: one way to show errors).
    error_reported = Signal(str)
    # A transient, non-error note ("Saved", "Moved to trash").
    message_reported = Signal(str)
    # Settings were saved; the argument is the new core ``Settings`` object.
    settings_changed = Signal(object)
