"""Importing this module makes PySide create its Qt types now, on the importing thread.

PySide makes the Python type of a Qt class (and its enums, each a Python ``enum``) lazily, the
first time it is used. The first widget handed back to Python as a plain ``QWidget`` (a scroll
area's ``viewport()``: the editor's) makes it look through every ``QWidget`` subclass, so ~80
enums of classes the app may never use are made then: ~9 ms of Python on the GUI thread, in the
middle of building the editor. The window imports this module on a worker with the views'
modules (``window.main_window``), as importing any module that names a widget class does: there,
the ~25 ms share the GIL a little at a time and the window stays smooth (between two types the
worker steps aside for a late window: core/step_aside).

QtGui's and QtCore's types too (~45 ms more, ~370 enums): the first use of one of them makes
all of its class's enums (``QPalette`` five at once), and a paint that met one first stalled
the window 19-23 ms (the timeline strip's first paint while indexing; the search panel's build).
The ``Qt`` namespace's ~90 enums are made one by one as they are first read: they come first.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from pixelmem.core.step_aside import step_aside


def make_all() -> int:
    """Make every QtWidgets, QtGui and QtCore type; how many there are. What a first paint
    meets comes first: the ``Qt`` namespace's enums (a paint's ``fillRect`` or ``setPen`` that
    met them before this worker did made them on the GUI thread, 11-13 ms: bench_ui --why),
    then QtGui's types, then the widgets'."""
    made = 0
    for owner in (QtCore.Qt, QtGui, QtWidgets, QtCore):
        names = dir(owner)
        for name in names:
            getattr(owner, name)
            step_aside()  # a type is a few enums: a late window runs between two (core/step_aside)
        made += len(names)
    return made


make_all()
