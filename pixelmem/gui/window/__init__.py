"""The main window and what frames it.

main_window (the window: list | editor | docks, launch order), main_views (the editor and its
companions, built after the first paint), menus (every menu entry and shortcut, one table),
layout_policy (small windows, Tab order past covered dock tabs), view_state and recent_vaults
(UI-only state in ui.ini), status_bar, undo_delete (Ctrl+Z for a deletion), quick_switcher
(Ctrl+P). May import every gui package below it; only app.py imports it.
"""
