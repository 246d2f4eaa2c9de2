"""Small widgets and helpers that know nothing of the window or of each other's users.

flow_layout, elided_label, colors (from the palette), dates (relative), focus_ring,
markdown_preview and its resource_policy (what a rendered view may load), type_warmup (PySide's
lazily made types, made in small steps on the GUI thread). Import nothing from
the other gui packages; each can be tested on its own (superqt's habit).
"""
