"""The main window and what frames it.

main_window (the window: list | editor | docks, the launch order), panel_docks (the registered
panels' docks, built by stage), main_views (the editor and its companions, built after the
first paint), menus and commands (every menu entry and shortcut, one table, and what each
does), navigation (opening memories and links), chat_focus, layout_policy and saved_layout
(small windows, Tab order, the layout in ui.ini), view_state, recent_vaults and recent_menu,
status_bar, undo_delete, quick_switcher. parts is what its helpers see of the window (no import
of main_window, so no circle). May import every gui package; only app.py imports it.
"""
