"""PySide's widget types made ahead of their first use, a few at a time, on the GUI thread.

PySide makes the Python type of a Qt class (with its enums) lazily, the first time Python
meets it. The first widget handed back as a plain ``QWidget`` (a scroll area's
``viewport()``: the editor's, a list's) makes it look through every ``QWidget`` subclass:
9-15 ms of the GUI thread in one go, in the middle of building the editor while a new vault
indexes (bench_ui --why: ``wiki_link_clicks.__init__ > enum._is_descriptor``).

Rounds 5-9 made every type on a worker; shiboken's lazy type creation is not safe against
the GUI thread's own use, and 4 of 120 loaded launches crashed (SIGSEGV). So the types are made
on the GUI thread, from a zero-interval timer that takes at most :data:`STEP_BUDGET_S` of an
event-loop turn and gives the rest back: ~40 ms of work spread over a few dozen turns right
after the first paint, while the views' modules import on a worker, instead of one 9-15 ms
stall inside a build. A type someone uses first is made then, as before: nothing waits for
this.

Since round 12 the ``pixelmem`` package sets ``PYSIDE6_OPTION_LAZY=0``: every type is made at
its module's import and the steps find them made (a few getattr calls each). The warm-up stays
for a process started with lazy types switched back on.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from types import ModuleType

from PySide6 import QtGui, QtWidgets
from PySide6.QtCore import QObject, QTimer, Signal

# A step makes types until this much of the turn is gone (one type is 0.01-7 ms).
STEP_BUDGET_S = 0.002
# QtWidgets first: the viewport() look-up walks its classes; then QtGui's (a paint's first
# QPalette or QTextFormat makes all of that class's enums at once).
OWNERS: tuple[ModuleType, ...] = (QtWidgets, QtGui)


class TypeWarmup(QObject):
    """Makes the types of ``owners`` in steps; ``finished`` once all are made."""

    finished = Signal()

    def __init__(
        self,
        parent: QObject | None = None,
        owners: Iterable[ModuleType] = OWNERS,
        budget_s: float = STEP_BUDGET_S,
    ) -> None:
        super().__init__(parent)
        self._names = _type_names(tuple(owners))
        self._budget_s = budget_s
        self.made = 0
        self.steps = 0
        self._timer = QTimer(self)
        self._timer.setInterval(0)  # every turn of the event loop, after what is pending
        self._timer.timeout.connect(self._step)

    def start(self) -> None:
        self._timer.start()

    @property
    def running(self) -> bool:
        return self._timer.isActive()

    def _step(self) -> None:
        deadline = time.perf_counter() + self._budget_s
        self.steps += 1
        for owner, name in self._names:
            getattr(owner, name)
            self.made += 1
            if time.perf_counter() >= deadline:
                return
        self._timer.stop()
        self.finished.emit()


def _type_names(owners: tuple[ModuleType, ...]) -> Iterator[tuple[ModuleType, str]]:
    """Each owner's public names, read when the step reaches it (``dir`` is cheap; the
    attribute is what makes a type)."""
    for owner in owners:
        for name in dir(owner):
            if name.startswith("Q"):
                yield owner, name
