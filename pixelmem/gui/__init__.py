"""The desktop app (PySide6): the only package that imports Qt; it drives ``pixelmem.core``.

At the top: the start (``app``: ``run_app``; ``app_icon``; ``system_check``) and the foundation
every package uses: ``bus`` (one ``memory_updated(ChangeSet, initiator)`` for every view),
``workers`` (background work in one line, a serial write lane, latest-only requests),
``session`` (one open vault: the Qt adapter over ``core.runtime``, which keeps it current;
every engine call off the GUI thread), ``welcome``. Below them, packages that say what they
hold, each ``__init__`` stating what it may import (import-linter's gui-packages contract
checks it, and that no import circle exists): ``window`` (the main window, its menus, launch
order and layout), ``panels`` (the dock panels and their registry: a new panel is one file and
one entry), ``memory_list``, ``editor``, ``chat``, ``map``, ``dialogs``, ``widgets``, ``i18n``.
The map, the bus and the panel recipe are in ``docs/ARCHITECTURE.md (The GUI)``. At the very
bottom, ``pyside_imports``, installed by this package before anything else: PySide's import
hook checks each newly imported module for "PySide6" in its file's bytes, not in its source
read line by line in Python.
"""

from pixelmem.gui.pyside_imports import install as _read_sources_as_bytes

# First, so every module the app imports after Qt is spared PySide's per-import source read.
_read_sources_as_bytes()
