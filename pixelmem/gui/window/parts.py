"""What the window's own helpers (commands, navigation) use of it: :class:`WindowParts`.

The main window builds its helpers and they act on it; typed as this protocol they need not
import :mod:`~pixelmem.gui.window.main_window`, which imports them (no import circle).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from pixelmem.gui.panels.host import PanelHost

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance
    from PySide6.QtWidgets import QDockWidget

    from pixelmem.gui.memory_list.memory_list import MemoryListPanel
    from pixelmem.gui.window.chat_focus import ChatFocus
    from pixelmem.gui.window.main_views import MainViews
    from pixelmem.gui.window.panel_docks import PanelDocks
    from pixelmem.gui.window.quick_switcher import QuickSwitcher
    from pixelmem.gui.window.status_bar import StatusBar


class WindowParts(PanelHost, Protocol):
    """The main window, as its commands and its navigation see it."""

    status: StatusBar
    list_panel: MemoryListPanel
    list_dock: QDockWidget
    panels: PanelDocks
    chat_focus: ChatFocus

    @property
    def open_vault_requested(self) -> SignalInstance:
        """``open_vault_requested(folder)``: the app replaces the window with one on it."""

    @property
    def views(self) -> MainViews:
        """The editor and its companions (built now if the first paint has not built them)."""

    @property
    def quick_switcher(self) -> QuickSwitcher:
        """Ctrl+P's popup (made at its first use)."""

    def setWindowModified(self, modified: bool, /) -> None: ...

    def close(self) -> bool: ...
