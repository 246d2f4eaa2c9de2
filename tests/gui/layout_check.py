"""What a person would call a broken layout, found over every widget they can see: clipped,
squeezed or outside the window (tests/gui/window/test_layout_sizes.py explains the rules)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, QRect
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QApplication,
    QDockWidget,
    QLabel,
    QTabBar,
    QWidget,
)


def _in_scroll_contents(widget: QWidget) -> bool:
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QAbstractScrollArea) and parent.viewport().isAncestorOf(widget):
            return True
        parent = parent.parentWidget()
    return False


def layout_problems(window) -> list[str]:
    """What is clipped, squeezed or outside the window, over all widgets a person can see."""
    problems = []
    bounds = window.rect()
    for widget in window.findChildren(QWidget):
        if widget.isWindow() or not window.covered_tabs.is_shown(widget):
            continue
        if widget.objectName().startswith("qt_") or _in_scroll_contents(widget):
            continue
        if widget.objectName().startswith("Scroll") and isinstance(widget.parent(), QTabBar):
            continue  # a tab bar's own arrows: Qt sizes them to its style (16 px in Fusion)
        name = f"{type(widget).__name__}({widget.objectName() or _label(widget)})"
        top_left = widget.mapTo(window, QPoint(0, 0))
        placed = QRect(top_left, widget.size())
        if widget.width() > 0 and not bounds.contains(placed):
            problems.append(
                f"{name} at {placed.getRect()} is outside the window {bounds.getRect()}"
            )
        parent = widget.parentWidget()
        frame = isinstance(parent, QAbstractScrollArea | QDockWidget)  # scrolls / title bar
        if parent is not None and not frame and not parent.rect().contains(widget.geometry()):
            problems.append(
                f"{name} {widget.geometry().getRect()} sticks out of its parent "
                f"{_path(widget)} {parent.rect().getRect()}"
            )
        if isinstance(widget, QLabel) and widget.wordWrap() and widget.text():
            needed = widget.heightForWidth(widget.width())
            if needed > widget.height() + 1:
                problems.append(f"{name} shows {widget.height()} of {needed} px of its lines")
        hint = widget.minimumSizeHint()
        if hint.isValid() and widget.width() + 1 < min(
            hint.width(), widget.minimumWidth() or hint.width()
        ):
            problems.append(f"{name} is {widget.width()} px wide, needs {hint.width()}")
    return problems


def _path(widget: QWidget) -> str:
    names = []
    while widget is not None:
        names.append(widget.objectName() or type(widget).__name__)
        widget = widget.parentWidget()
    return "/".join(reversed(names[:6]))


def _label(widget: QWidget) -> str:
    text = getattr(widget, "text", None)
    return text()[:20] if callable(text) and isinstance(text(), str) else ""


def settle(qtbot) -> None:
    """Let pending layout requests run (a language switch re-lays out every row)."""
    for _ in range(3):
        qtbot.wait(10)
        QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
