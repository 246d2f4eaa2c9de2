"""The main window on the screen it opens on: never larger than the screen's free area, never
partly off it (issue 28).

- The first window (no saved layout) takes :data:`FIRST_SIZE` where the screen's available
  area (less the task bar and the window's frame) has room for it, and that area where not:
  an 800×600 screen gets a window that fits it, not 1280×800 with Search off-screen.
- A restored geometry saved on a bigger screen (or on a monitor that is gone) is clamped: the
  window goes onto the screen it overlaps most (the primary screen if none), shrunk to that
  screen's available area and moved inside it.
- Once shown, the real frame (title bar, borders) is known: the window is fitted again.

The screens are asked through :func:`available_areas` (a test gives its own).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint, QRect, QSize, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMainWindow

FIRST_SIZE = QSize(1280, 800)
FRAME_GUESS = QSize(2, 34)  # a title bar and borders, until the window manager says


def available_areas() -> list[QRect]:
    """Each screen's available area (without task bars, docks, menu bars), primary first."""
    primary = QGuiApplication.primaryScreen()
    screens = QGuiApplication.screens()
    ordered = [primary, *(s for s in screens if s is not primary)] if primary else screens
    return [screen.availableGeometry() for screen in ordered]


def frame_extra(window: QMainWindow) -> QSize:
    """What the frame adds to the window's size (a guess until it is shown)."""
    frame, inner = window.frameGeometry(), window.geometry()
    if window.isVisible() and frame.size() != inner.size():
        return QSize(frame.width() - inner.width(), frame.height() - inner.height())
    return FRAME_GUESS


def screen_for(rect: QRect, areas: list[QRect]) -> QRect:
    """The area ``rect`` overlaps most; the first (primary) if it overlaps none."""
    best, overlap = areas[0], 0
    for area in areas:
        shared = area.intersected(rect)
        size = shared.width() * shared.height() if shared.isValid() else 0
        if size > overlap:
            best, overlap = area, size
    return best


def fitted(rect: QRect, area: QRect, extra: QSize) -> QRect:
    """``rect`` (the window without its frame) shrunk and moved so that with its frame it
    lies inside ``area``."""
    width = min(rect.width(), area.width() - extra.width())
    height = min(rect.height(), area.height() - extra.height())
    left = min(max(rect.left(), area.left()), area.right() + 1 - width - extra.width())
    top = min(max(rect.top(), area.top() + extra.height()), area.bottom() + 1 - height)
    return QRect(QPoint(left, top), QSize(width, height))


def first_geometry(area: QRect, extra: QSize = FRAME_GUESS) -> QRect:
    """:data:`FIRST_SIZE`, or the area where it is smaller, centred in ``area``."""
    width = min(FIRST_SIZE.width(), area.width() - extra.width())
    height = min(FIRST_SIZE.height(), area.height() - extra.height())
    left = area.left() + (area.width() - width - extra.width()) // 2
    top = area.top() + extra.height() + (area.height() - height - extra.height()) // 2
    return QRect(left, top, width, height)


def fit_on_screen(window: QMainWindow, areas: list[QRect] | None = None) -> QRect:
    """Shrink and move ``window`` onto the screen it overlaps most; the geometry it got."""
    areas = areas or available_areas()
    if not areas:
        return window.geometry()
    extra = frame_extra(window)
    geometry = fitted(window.geometry(), screen_for(window.frameGeometry(), areas), extra)
    if geometry != window.geometry():
        window.setGeometry(geometry)
    return geometry


class ScreenFit(QObject):
    """Fits the window again when it is first shown (its real frame known then)."""

    def __init__(self, window: QMainWindow, areas: list[QRect] | None = None) -> None:
        super().__init__(window)
        self._window = window
        self._areas = areas
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._window and event.type() == QEvent.Type.Show:
            self._window.removeEventFilter(self)
            QTimer.singleShot(0, self, self.fit)  # once the window manager framed it
        return False

    def fit(self) -> None:
        fit_on_screen(self._window, self._areas or available_areas())
