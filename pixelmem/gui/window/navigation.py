"""Which memory the window shows: opening one (also a row clicked before the scan has read the
store), following a ``[[wiki link]]``, keeping the list's selection and the panels on the open
memory (``memory_opened``), and the offer to update links after a rename."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QObject

from pixelmem.core.errors import PixelmemError

if TYPE_CHECKING:
    from pixelmem.gui.window.main_views import MainViews
    from pixelmem.gui.window.parts import WindowParts

Opening = tuple[str, tuple[int, int] | None, Sequence[str]]


class Navigator(QObject):
    def __init__(self, window: WindowParts) -> None:
        super().__init__(window.window())
        self._window = window
        self._when_loaded: Opening | None = None

    def follow(self, views: MainViews) -> None:
        """Connect the editor and what opens memories beside it (built after the first paint)."""
        window, editor = self._window, views.editor
        editor.memory_opened.connect(self._opened)
        editor.dirty_changed.connect(window.setWindowModified)
        editor.form.link_requested.connect(self.open_link)
        editor.title_changed.connect(self._offer_link_updates)
        views.duplicate_banner.open_memory_requested.connect(self.open_memory)

    def open_memory(
        self, memory_id: str, span: tuple[int, int] | None = None, terms: Sequence[str] = ()
    ) -> None:
        window = self._window
        if not window.session.loaded:  # a row of the scan cache's picture, clicked mid-scan:
            self._when_loaded = (memory_id, span, terms)  # the store is not read yet
            return
        self._when_loaded = None
        editor = window.views.editor
        editor.open_memory(memory_id, span, terms)
        if editor.current_id != memory_id:  # the person kept editing the other one
            window.list_panel.select(editor.current_id)

    def open_when_loaded(self) -> bool:
        """Open what was asked for before the scan was done; whether there was something."""
        if self._when_loaded is None:
            return False
        self.open_memory(*self._when_loaded)
        return True

    def open_link(self, destination: str) -> None:
        """Follow a ``[[wiki link]]``: open the memory it names (at its heading, for
        ``Note#Heading``), or say none does."""
        window = self._window
        target, _, heading = destination.partition("#")
        memory_id = window.link_index.resolve(target)
        if not memory_id:
            missing = QCoreApplication.translate("MainWindow", "No memory is called “{target}” yet")
            window.bus.message_reported.emit(missing.format(target=target))
            return
        form = window.views.editor.form
        if heading and form.preview_button.isChecked():  # read on, in the preview, there
            from pixelmem.core.vault.markdown_html import anchor_name

            self.open_memory(memory_id)
            form.preview.scroll_to(anchor_name(heading))
            return
        span = None
        if heading:
            from pixelmem.core.vault.links import heading_span

            with contextlib.suppress(PixelmemError):
                span = heading_span(window.session.store.get(memory_id).body, heading)
        self.open_memory(memory_id, span)

    def _opened(self, memory_id: str) -> None:
        self._window.list_panel.select(memory_id or None)
        self._window.memory_opened.emit(memory_id)

    def _offer_link_updates(self, memory_id: str, old_title: str, new_title: str) -> None:
        from pixelmem.gui.editor.link_updates import offer_link_updates

        window = self._window
        offer_link_updates(window.window(), window.session, memory_id, old_title, new_title)
