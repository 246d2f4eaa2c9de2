"""Live language switch: every view that has a ``retranslate()`` method re-labels itself.

Qt's pattern is ``changeEvent(LanguageChange) → retranslateUi()`` in every widget class. Here
the main window catches the one ``LanguageChange`` Qt posts to it when a translator is
installed or removed and walks its widget tree once, so a view added later only needs a
``retranslate()`` method (which sets every text it shows from ``tr()``) to take part.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QWidget


def is_language_change(event: QEvent) -> bool:
    return event.type() == QEvent.Type.LanguageChange


def retranslate_tree(root: QWidget) -> int:
    """Call ``retranslate()`` on every descendant of ``root`` that has one, parents first
    (a view may rebuild children that then re-label themselves). Returns how many ran."""
    done = 0
    for widget in root.findChildren(QWidget):
        method = getattr(type(widget), "retranslate", None)
        if callable(method):
            widget.retranslate()  # type: ignore[attr-defined]
            done += 1
    return done
