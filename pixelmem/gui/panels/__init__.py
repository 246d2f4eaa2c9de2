"""The dock panels beside the editor: search, related, backlinks, the review inbox.

Each is a widget that listens to the bus and runs its work on workers; link_index is the wiki-link
graph the backlinks panel and the window share. May import memory_list (row fonts),
widgets, i18n and the foundation (bus, workers, session); never window.
"""
