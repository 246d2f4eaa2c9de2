"""Importing this module makes PySide create its widget types now, on the importing thread.

PySide makes the Python type of a Qt class (and its enums, each a Python ``enum``) lazily, the
first time it is used. The first widget handed back to Python as a plain ``QWidget`` (a scroll
area's ``viewport()``: the editor's) makes it look through every ``QWidget`` subclass, so ~80
enums of classes the app may never use are made then: ~9 ms of Python on the GUI thread, in the
middle of building the editor. The window imports this module on a worker with the views'
modules (``window.main_window``), as importing any module that names a widget class does: there,
the ~25 ms share the GIL a little at a time and the window stays smooth.
"""

from __future__ import annotations

from PySide6 import QtWidgets


def make_all() -> int:
    """Make every QtWidgets type; how many there are."""
    names = dir(QtWidgets)
    for name in names:
        getattr(QtWidgets, name)
    return len(names)


make_all()
