"""The chat pane (a dock) and its parts.

pane routes; body, widgets and chips render; state and history keep the turns and saved
conversations (pane_parts: what history sees of the pane); dialogs save a reply as a memory.
May import pixelmem.core, widgets and the foundation (bus, workers, session); never window or
panels.
"""
