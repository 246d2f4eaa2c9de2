"""Colours derived from the current palette, so light and dark themes both work."""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette

# Mid-saturation hues readable on white and on near-black backgrounds alike.
IMPORTANCE_HUES = {"high": QColor(229, 83, 75), "medium": QColor(210, 153, 34)}
# Twelve hues that stay apart on light and dark backgrounds (Tableau 10 + two): the map's
# clusters and the timeline's topics.
HUES = [
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
    "#b07aa1", "#ff9da7", "#9c755f", "#8cd17d", "#499894", "#d37295",
]  # fmt: skip


def blend(a: QColor, b: QColor, t: float) -> QColor:
    """``a`` moved ``t`` (0..1) of the way towards ``b``."""
    return QColor(
        round(a.red() + (b.red() - a.red()) * t),
        round(a.green() + (b.green() - a.green()) * t),
        round(a.blue() + (b.blue() - a.blue()) * t),
    )


def muted_text(palette: QPalette, selected: bool = False) -> QColor:
    """Secondary text (dates, topics): between text and background."""
    if selected:
        role_text, role_base = QPalette.ColorRole.HighlightedText, QPalette.ColorRole.Highlight
    else:
        role_text, role_base = QPalette.ColorRole.Text, QPalette.ColorRole.Base
    return blend(palette.color(role_base), palette.color(role_text), 0.62)


def chip_background(palette: QPalette, selected: bool = False) -> QColor:
    if selected:
        return blend(
            palette.color(QPalette.ColorRole.Highlight),
            palette.color(QPalette.ColorRole.HighlightedText),
            0.22,
        )
    return blend(
        palette.color(QPalette.ColorRole.Base), palette.color(QPalette.ColorRole.Text), 0.09
    )


def match_background(palette: QPalette) -> QColor:
    """Behind highlighted search terms: a light tint of the selection colour."""
    return blend(
        palette.color(QPalette.ColorRole.Base), palette.color(QPalette.ColorRole.Highlight), 0.3
    )


def importance_color(palette: QPalette, importance: str) -> QColor:
    hue = IMPORTANCE_HUES.get(importance)
    return hue if hue is not None else muted_text(palette)
