"""An image a worker draws into for the GUI thread to show (the map's points, result rows).

QPainter on a QImage needs no GUI thread, so drawing moves off the window's thread and only
the pixels cross back. Premultiplied ARGB is what a QPainter draws fastest and what the
screen blits without a conversion.
"""

from __future__ import annotations

from math import ceil

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage


def transparent_image(width: float, height: float, ratio: float) -> QImage:
    """A transparent image of ``width`` × ``height`` device-independent pixels at the screen's
    device pixel ``ratio`` (at least one pixel each way)."""
    image = QImage(
        max(1, ceil(width * ratio)),
        max(1, ceil(height * ratio)),
        QImage.Format.Format_ARGB32_Premultiplied,
    )
    image.setDevicePixelRatio(ratio)
    image.fill(Qt.GlobalColor.transparent)
    return image
