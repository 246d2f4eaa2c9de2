"""The chat pane (a dock) and its parts.

pane routes; body, widgets and chips render; state and history keep the turns and saved
conversations; dialogs save a reply as a memory. May import pixelmem.core and the rest of
pixelmem.gui.
"""
