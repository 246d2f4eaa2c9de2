"""The dock panels and their registry: search, related, backlinks, the review inbox, tags.

registry declares every dock panel of the window (name, module, factory, area, stage, first
place, go-to shortcut); host is what a panel sees of the window (PanelHost); builtin builds the
panels that came before the registry (search, related, backlinks, chat, inbox, map); a new
panel is one module here with its build_panel (tag_pane) and one registry entry. link_index is
the wiki-link graph the backlinks panel and the window share; proposal_view shows what an inbox
draft would change. May import chat and map (the registry names them, builtin builds them),
memory_list, widgets, i18n and the foundation; never window.
"""
