"""The middle of the window, built right after its first paint: the editor (with the duplicate
banner and topic suggestions above it) and the wiki-link graph. (The quick switcher, a hidden
popup, is made at its first Ctrl+P: main_window.)

A launch shows the window with the memory list filled from the scan cache first; these
modules pull in numpy, the search stack, Markdown rendering and the link graph (~0.3 s of a
10k-vault launch before the list could show). The window builds them with the panels of
the ``AFTER_PAINT`` stage (search, related, backlinks: :mod:`pixelmem.gui.panels.registry`),
right after the list's first paint or at their first use.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import NamedTuple

from PySide6.QtWidgets import QWidget

from pixelmem.gui.editor.duplicate_banner import DuplicateBanner, above_editor
from pixelmem.gui.editor.editor import MemoryEditor
from pixelmem.gui.editor.topic_suggestions import TopicSuggestions
from pixelmem.gui.memory_list.memory_list_model import MemoryListModel
from pixelmem.gui.panels.host import PanelHost
from pixelmem.gui.panels.link_index import LinkIndex
from pixelmem.gui.window.view_state import restore_editor_state


class MainViews(NamedTuple):
    editor: MemoryEditor
    duplicate_banner: DuplicateBanner
    topic_suggestions: TopicSuggestions
    link_index: LinkIndex


def build_views(
    window: QWidget, host: PanelHost, list_model: MemoryListModel
) -> Generator[None, None, MainViews]:
    """Build the views (``window`` is their parent) and connect them to the session, in two
    parts: the editor, then (after the ``yield``: a turn of the event loop of its own when
    built on time) its companions — one step of both took 10-14 ms of the GUI thread's CPU
    (bench_panels), 15-22 ms while a vault indexed (bench_ui --why)."""
    session, bus, engine = host.session, host.bus, host.engine
    # The editor hears of a change before the list: a deleted memory closes before its row
    # goes (else the list's current row moves to a neighbour, which would open it).
    editor = MemoryEditor(session, bus)
    list_model.follow(bus)
    yield
    views = MainViews(
        editor=editor,
        duplicate_banner=DuplicateBanner(engine, bus, window),
        topic_suggestions=TopicSuggestions(engine, bus, editor.form.topics_edit, window),
        link_index=LinkIndex(lambda: session.store, bus, window),
    )
    editor.memory_opened.connect(views.topic_suggestions.set_memory)
    restore_editor_state(editor.form)  # the preview as the person left it
    return views


def editor_area(views: MainViews) -> QWidget:
    """The window's central widget: the banner and suggestions (hidden until needed) above
    the editor."""
    return above_editor(views.editor, views.duplicate_banner, views.topic_suggestions)
