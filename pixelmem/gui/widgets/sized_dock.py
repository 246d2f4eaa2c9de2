"""A dock widget that says when its width changed.

The window keeps its docks' shares of the width (``window.layout_policy.DockShares``) and must
learn when a person drags a dock's separator. An event filter on the main window or on its docks
would call Python for every event they get (each frame's ``UpdateRequest`` and ``Paint``), and
each such call waits for Python's lock while a worker holds it: the filter on the main window
was where the GUI thread waited in 90 of 369 stalls while a 10k vault indexed (bench_ui --why).
An override of ``resizeEvent`` alone is called from Qt for resize events only.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QDockWidget


class SizedDock(QDockWidget):
    """A :class:`QDockWidget` with a ``widened`` signal: its width changed (narrower too)."""

    widened = Signal()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.oldSize().width() != event.size().width():
            self.widened.emit()
