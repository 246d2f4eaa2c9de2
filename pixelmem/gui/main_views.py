"""The main window's views built after its first paint: the editor (with the duplicate banner and
topic suggestions above it), search, related, backlinks and the quick switcher.

A launch shows the window with the memory list filled from the scan cache first; these views'
modules pull in numpy, the search stack, Markdown rendering and the link graph (~0.3 s of a
10k-vault launch before the list could show). Their docks are in the window from the start,
so the saved layout is restored at once and nothing moves when they arrive. The window builds
them right after the list's first paint, or at their first use (its ``editor``,
``search_panel``, … attributes build them when read).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from pixelmem.gui.backlinks_panel import BacklinksPanel
from pixelmem.gui.duplicate_banner import DuplicateBanner, above_editor
from pixelmem.gui.editor import MemoryEditor
from pixelmem.gui.link_index import LinkIndex
from pixelmem.gui.quick_switcher import QuickSwitcher
from pixelmem.gui.related_panel import RelatedPanel
from pixelmem.gui.search_panel import SearchPanel
from pixelmem.gui.topic_suggestions import TopicSuggestions
from pixelmem.gui.view_state import restore_editor_state

if TYPE_CHECKING:
    from pixelmem.gui.main_window import MainWindow


class MainViews(NamedTuple):
    editor: MemoryEditor
    duplicate_banner: DuplicateBanner
    topic_suggestions: TopicSuggestions
    search_panel: SearchPanel
    related_panel: RelatedPanel
    link_index: LinkIndex
    backlinks_panel: BacklinksPanel
    quick_switcher: QuickSwitcher


def build_views(window: MainWindow) -> MainViews:
    """Build the views, put them in the window's central widget and docks, connect them."""
    session, bus = window.session, window.bus
    # The editor hears of a change before the list: a deleted memory closes before its row
    # goes (else the list's current row moves to a neighbour, which would open it).
    editor = MemoryEditor(session, bus)
    window.list_model.follow(bus)
    search_panel = SearchPanel(window.engine, bus, index_ready=lambda: session.index_ready)
    search_panel.set_mode(window.settings.search.mode)
    link_index = LinkIndex(lambda: session.store, bus, window)
    views = MainViews(
        editor=editor,
        duplicate_banner=DuplicateBanner(window.engine, bus, window),
        topic_suggestions=TopicSuggestions(window.engine, bus, editor.form.topics_edit, window),
        search_panel=search_panel,
        related_panel=RelatedPanel(window.engine, bus),
        link_index=link_index,
        backlinks_panel=BacklinksPanel(link_index),
        quick_switcher=QuickSwitcher(session.store.list, window),
    )
    _place(window, views)
    _connect(window, views)
    restore_editor_state(window, editor.form)  # the preview as the person left it
    return views


def _place(window: MainWindow, views: MainViews) -> None:
    central = above_editor(views.editor, views.duplicate_banner, views.topic_suggestions)
    window.setCentralWidget(central)  # deletes the placeholder
    central.setHidden(window.chat_focused)  # the chat has the whole window for now
    window.search_dock.setWidget(views.search_panel)
    window.related_dock.setWidget(views.related_panel)
    window.backlinks_dock.setWidget(views.backlinks_panel)


def _connect(window: MainWindow, views: MainViews) -> None:
    editor = views.editor
    views.duplicate_banner.open_memory_requested.connect(window.open_memory)
    editor.memory_opened.connect(views.topic_suggestions.set_memory)
    editor.memory_opened.connect(window._memory_opened)
    editor.dirty_changed.connect(window.setWindowModified)
    editor.form.link_requested.connect(window.open_link)
    editor.title_changed.connect(window._offer_link_updates)
    views.search_panel.hit_activated.connect(window.open_search_hit)
    views.related_panel.hit_activated.connect(window.open_hit)
    views.backlinks_panel.mention_activated.connect(window.open_memory)
    views.backlinks_panel.link_mention_requested.connect(window.link_mention)
    views.quick_switcher.memory_chosen.connect(window.open_memory)
