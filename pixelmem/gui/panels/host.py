"""What a panel may use of the window it lives in: :class:`PanelHost`.

A panel's build function receives the main window typed as this protocol, never as
``MainWindow``: panels stay below the window (they cannot import it, so no import circle), and
this list is the whole of what they depend on. Everything else reaches a panel through the bus
(:class:`~pixelmem.gui.bus.MemoryBus`): change sets, the index catching up, settings saved,
messages for the status bar.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QWidget

    from pixelmem.core.index.engine import Engine
    from pixelmem.core.settings import Settings
    from pixelmem.gui.bus import MemoryBus
    from pixelmem.gui.memory_list.memory_list_model import MemoryFilterProxy
    from pixelmem.gui.panels.link_index import LinkIndex
    from pixelmem.gui.session import VaultSession


class PanelHost(Protocol):
    """The main window, as its panels see it."""

    engine: Engine
    session: VaultSession  # every engine call and write goes through it, off the GUI thread
    bus: MemoryBus
    settings: Settings  # the current ones (replaced when saved: follow bus.settings_changed)
    actions_by_name: dict[str, QAction]  # a panel asks for a window command by triggering it

    @property
    def memory_opened(self) -> SignalInstance:
        """``memory_opened(id)``: the editor shows that memory now ("": a new draft, or nothing)."""

    @property
    def link_index(self) -> LinkIndex:
        """The vault's wiki-link graph, rebuilt on a worker after every change set."""

    @property
    def list_filter(self) -> MemoryFilterProxy:
        """The memory list's filter: a panel that filters the list sets it."""

    def window(self) -> QWidget:
        """The parent for a panel's dialogs and pop-ups."""

    def open_memory(
        self, memory_id: str, span: tuple[int, int] | None = None, terms: Sequence[str] = ()
    ) -> None:
        """Show ``memory_id`` in the editor (``span`` selected, ``terms`` marked)."""
