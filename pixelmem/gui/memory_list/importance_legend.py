"""What the coloured dot before a memory's title means: one legend for the list's rows,
the importance filter's entries (each with its dot) and their tooltips."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QIcon, QPainter, QPalette, QPixmap

from pixelmem.core.vault.memory import IMPORTANCE_LEVELS
from pixelmem.gui.widgets.colors import importance_color

DOT_PX = 10


def level_label(level: str) -> str:
    labels = {
        "low": QCoreApplication.translate("Importance", "Low"),
        "medium": QCoreApplication.translate("Importance", "Medium"),
        "high": QCoreApplication.translate("Importance", "High"),
    }
    return labels.get(level, level)


def dot_icon(palette: QPalette, level: str) -> QIcon:
    """The row's dot for ``level``, as an icon for a combo box entry."""
    pixmap = QPixmap(DOT_PX * 2, DOT_PX * 2)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(importance_color(palette, level))
    painter.drawEllipse(DOT_PX // 2, DOT_PX // 2, DOT_PX, DOT_PX)
    painter.end()
    return QIcon(pixmap)


def legend_html(palette: QPalette) -> str:
    """ "The dot before each title is its importance: ● High ● Medium ● Low" (coloured)."""
    intro = QCoreApplication.translate(
        "Importance", "The dot before each title shows the memory's importance:"
    )
    dots = "&nbsp;&nbsp;".join(
        f'<span style="color:{importance_color(palette, level).name()}">●</span>&nbsp;'
        f"{level_label(level)}"
        for level in reversed(IMPORTANCE_LEVELS)
    )
    return f"<p>{intro}<br>{dots}</p>"


def row_tooltip_line(level: str) -> str:
    return QCoreApplication.translate("Importance", "Importance: {level}").format(
        level=level_label(level)
    )
