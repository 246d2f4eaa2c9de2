"""Build functions of the panels that came before the registry: search, related, backlinks,
chat, inbox and map (their entries in :data:`~pixelmem.gui.panels.registry.PANELS` point here).

Their widgets take their collaborators in their constructors, so each function here makes the
widget and connects it to the window (:class:`~pixelmem.gui.panels.host.PanelHost`); what
opening a search hit or linking a mention means lives here too, not in the window. A new panel
keeps its build function in its own module instead (``panels/tag_pane.py``). Each function
imports its panel's module when called: the window imported it on a worker already.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication

from pixelmem.core.errors import PixelmemError
from pixelmem.core.settings import Settings

if TYPE_CHECKING:
    from pixelmem.core.index.search import SearchHit
    from pixelmem.core.vault.links import Mention
    from pixelmem.gui.chat.pane import ChatPane
    from pixelmem.gui.map.map_view import MapView
    from pixelmem.gui.panels.backlinks_panel import BacklinksPanel
    from pixelmem.gui.panels.host import PanelHost
    from pixelmem.gui.panels.inbox_view import InboxView
    from pixelmem.gui.panels.related_panel import RelatedPanel
    from pixelmem.gui.panels.search_panel import SearchPanel


def search(host: PanelHost) -> SearchPanel:
    from pixelmem.gui.panels.search_panel import SearchPanel

    session = host.session
    panel = SearchPanel(host.engine, host.bus, index_ready=lambda: session.index_ready)
    panel.set_mode(host.settings.search.mode)

    def follow_mode(settings: Settings) -> None:
        panel.set_mode(settings.search.mode)

    host.bus.settings_changed.connect(follow_mode)
    panel.hit_activated.connect(lambda hit: open_search_hit(host, panel.model.query, hit))
    return panel


def open_search_hit(host: PanelHost, query: str, hit: SearchHit) -> None:
    """Open a search hit with its passage selected and the words of ``query`` (the search it
    came from) marked in it."""
    from pixelmem.gui.panels.highlight import hit_terms

    try:
        passage = host.session.store.get(hit.memory_id).body[hit.start : hit.end]
    except PixelmemError:
        passage = ""
    terms = [*hit.matched_terms, *hit_terms(query, passage)]
    host.open_memory(hit.memory_id, (hit.start, hit.end), tuple(dict.fromkeys(terms)))


def related(host: PanelHost) -> RelatedPanel:
    """Memories near the open one; a click opens one at its closest passage."""
    from pixelmem.gui.panels.related_panel import RelatedPanel

    panel = RelatedPanel(host.engine, host.bus)
    host.memory_opened.connect(panel.set_memory)
    panel.hit_activated.connect(lambda hit: host.open_memory(hit.memory_id, (hit.start, hit.end)))
    return panel


def backlinks(host: PanelHost) -> BacklinksPanel:
    from pixelmem.gui.panels.backlinks_panel import BacklinksPanel

    panel = BacklinksPanel(host.link_index)
    host.memory_opened.connect(panel.set_memory)
    panel.mention_activated.connect(host.open_memory)
    panel.link_mention_requested.connect(lambda m: link_mention(host, panel.memory_id, m))
    return panel


def link_mention(host: PanelHost, target_id: str, mention: Mention) -> None:
    """Turn an unlinked mention of ``target_id`` into a ``[[link]]`` to it."""
    from pixelmem.core.vault.links import plan_link_mention
    from pixelmem.gui.session import describe_error

    store = host.session.store
    try:
        source, target = store.get(mention.source_id), store.get(target_id)
    except PixelmemError as exc:
        host.bus.error_reported.emit(describe_error(exc))
        return
    update = plan_link_mention(source, mention, target)
    if update is None:
        unchanged = QCoreApplication.translate(
            "MainWindow", "That text has changed; nothing was linked"
        )
        host.bus.message_reported.emit(unchanged)
    else:
        host.session.apply_link_updates([update])


def chat(host: PanelHost) -> ChatPane:
    """The chat pane is a dock itself (the window uses it as the panel's dock)."""
    from pixelmem.gui.chat.pane import ChatPane

    pane = ChatPane(host.engine, host.bus, host.settings, host.window(), session=host.session)
    pane.open_memory_requested.connect(host.open_memory)
    pane.settings_requested.connect(host.actions_by_name["settings"].trigger)
    return pane


def inbox(host: PanelHost) -> InboxView:
    from pixelmem.gui.panels.inbox_view import InboxView

    return InboxView(host.session, host.bus, host.window())


def map_pane(host: PanelHost) -> MapView:
    from pixelmem.gui.map.map_view import MapView

    view = MapView(host.session, host.window())
    view.open_memory_requested.connect(host.open_memory)
    return view
