"""Drawing the semantic map: cluster colours, all points in a few calls, labels, a PNG.

Points are grouped by colour into one ``QPolygonF`` each and drawn with ``drawPoints`` and a
round cosmetic pen: one call per cluster instead of one item or ellipse per memory, which is
what keeps 10k points smooth to pan and zoom. The same code renders the map view and the
``pixelmem map --png`` image.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QByteArray, QDataStream, QIODevice, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QImage,
    QPainter,
    QPainterPath,
    QPen,
    QPolygonF,
    QTransform,
)

from pixelmem.core.insight.semantic_map import SemanticMap
from pixelmem.gui.widgets.colors import HUES
from pixelmem.gui.widgets.offscreen_image import transparent_image

SCALE = 30.0  # scene units per layout unit


def cluster_colour(number: int) -> QColor:
    return QColor(HUES[number % len(HUES)])


def scene_points(semantic_map: SemanticMap) -> np.ndarray:
    """Positions in scene coordinates (y grows downwards in Qt, so it is flipped)."""
    xy = semantic_map.xy.astype(np.float64) * SCALE
    xy[:, 1] *= -1.0
    return xy


def polygon_of(xy: np.ndarray) -> QPolygonF:
    """The rows of ``xy`` as a polygon, read from QDataStream's own format (a count, then
    big-endian doubles): one C++ call instead of a Python loop making 10k QPointF (32 → 2 ms)."""
    count = np.array([len(xy)], ">u4").tobytes()
    data = QByteArray(count + np.ascontiguousarray(xy, ">f8").tobytes())
    # This constructor reads ``data`` in place, so ``data`` must outlive the reading.
    stream = QDataStream(data, QIODevice.OpenModeFlag.ReadOnly)
    polygon = QPolygonF()
    stream >> polygon
    return polygon


def polygons_by_cluster(xy: np.ndarray, clusters: np.ndarray) -> dict[int, QPolygonF]:
    return {int(c): polygon_of(xy[clusters == c]) for c in _distinct(clusters).tolist()}


def _distinct(values: np.ndarray) -> np.ndarray:
    """The distinct values, sorted: ``np.unique`` without its first call importing
    ``numpy.ma`` (numpy 2), ~10 ms on the window's thread when the map first draws."""
    ordered = np.sort(np.asarray(values).ravel())
    if not len(ordered):
        return ordered
    return ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))]


def draw_points(
    painter: QPainter,
    polygons: dict[int, QPolygonF],
    size: float,
    *,
    faded: bool = False,
    round_: bool = True,
) -> None:
    """Each cluster's points as dots ``size`` device pixels wide: round, or square (a tenth of
    the cost without antialiasing: 10k round dots took 22-33 ms to paint, squares 3-9 ms)."""
    cap = Qt.PenCapStyle.RoundCap if round_ else Qt.PenCapStyle.SquareCap
    size = size if round_ else size - 1  # a square looks bigger than a circle as wide
    for number, polygon in polygons.items():
        colour = cluster_colour(number)
        if faded:
            colour.setAlpha(60)
        pen = QPen(colour, size, Qt.PenStyle.SolidLine, cap)
        pen.setCosmetic(True)
        painter.setPen(pen)
        painter.drawPoints(polygon)


def draw_marks(painter: QPainter, marked: QPolygonF, selected: QPolygonF, size: float) -> None:
    """Search matches (red, larger) and the rubber-band selection (dark) over the points."""
    for polygon, colour, grow in ((marked, QColor("#d62728"), 4), (selected, QColor("#111111"), 3)):
        if polygon.isEmpty():
            continue
        pen = QPen(colour, size + grow, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
        pen.setCosmetic(True)
        painter.setPen(pen)
        painter.drawPoints(polygon)


@dataclass(frozen=True)
class PointsLayer:
    """Everything a picture of the points depends on, fixed when it is asked for: a worker
    draws from it while the GUI thread goes on (Qt's polygons are values, shared read-only)."""

    polygons: dict[int, QPolygonF]
    marked: QPolygonF
    selected: QPolygonF
    dot: float
    smooth: bool  # antialiased round dots (few points), else plain ones


@dataclass(frozen=True)
class Frame:
    """Where a picture of the points goes: scene-to-device transform, size and pixel ratio of
    the view, and the version of the points it shows."""

    transform: QTransform
    width: int
    height: int
    ratio: float
    version: int


def render_layer(layer: PointsLayer, frame: Frame) -> QImage:
    """The points as ``frame`` shows them, in a transparent image (any thread: QPainter on a
    QImage needs no GUI thread; no text, so no font cache of the worker's is kept)."""
    image = transparent_image(frame.width, frame.height, frame.ratio)
    with QPainter(image) as painter:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, layer.smooth)
        painter.setWorldTransform(frame.transform)
        faded = not layer.marked.isEmpty()
        draw_points(painter, layer.polygons, layer.dot, faded=faded, round_=layer.smooth)
        draw_marks(painter, layer.marked, layer.selected, layer.dot)
    return image


def draw_label(painter: QPainter, at: QPointF, text: str, font: QFont, colour: QColor) -> None:
    """Text centred on ``at`` with a halo in the background colour, readable over points."""
    path = QPainterPath()
    width = painter.fontMetrics().horizontalAdvance(text) if painter.font() == font else 0
    path.addText(at.x() - width / 2, at.y(), font, text)
    halo = QPen(QColor(255, 255, 255, 220), 4)
    halo.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    painter.strokePath(path, halo)
    painter.fillPath(path, colour)


def _free_spot(painter: QPainter, at: QPointF, text: str, placed: list[QRectF]) -> QPointF:
    """``at``, or a line above or below it, where the label covers none drawn before."""
    metrics = painter.fontMetrics()
    width, height = metrics.horizontalAdvance(text), metrics.height()
    for shift in (0, 1, -1, 2, -2, 3, -3, 4, -4):
        y = at.y() + shift * height
        rect = QRectF(at.x() - width / 2, y - height, width, height)
        if not any(rect.intersects(other) for other in placed):
            placed.append(rect)
            return QPointF(at.x(), y)
    return at


def render_image(
    semantic_map: SemanticMap, width: int = 1600, height: int = 1000, title: str = ""
) -> QImage:
    """The whole map fitted into an image (a ``QGuiApplication`` must exist)."""
    image = QImage(width, height, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(QColor("#ffffff"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    xy = scene_points(semantic_map)
    margin, top = 40.0, 70.0 if title else 40.0
    if len(xy):
        lo, hi = xy.min(axis=0), xy.max(axis=0)
        span = np.maximum(hi - lo, 1e-6)
        scale = min((width - 2 * margin) / span[0], (height - top - margin) / span[1])
        offset = (
            np.array([margin, top])
            + (np.array([width - 2 * margin, height - top - margin]) - span * scale) / 2
        )
        view = (xy - lo) * scale + offset
        dot = 7.0 if len(xy) < 2000 else 4.0
        draw_points(painter, polygons_by_cluster(view, semantic_map.clusters), dot)
        font = QFont()
        font.setPixelSize(18)
        font.setBold(True)
        painter.setFont(font)
        placed: list[QRectF] = []
        for cluster in semantic_map.cluster_info:
            if not cluster.keywords:
                continue
            cx = (cluster.x * SCALE - lo[0]) * scale + offset[0]
            cy = (-cluster.y * SCALE - lo[1]) * scale + offset[1]
            at = _free_spot(painter, QPointF(cx, cy), cluster.label, placed)
            draw_label(painter, at, cluster.label, font, QColor("#222222"))
    if title:
        font = QFont()
        font.setPixelSize(22)
        painter.setFont(font)
        painter.setPen(QColor("#333333"))
        painter.drawText(QRectF(margin, 16, width - 2 * margin, 40), title)
    painter.end()
    return image
