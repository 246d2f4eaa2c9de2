"""The map canvas: a QGraphicsView with one item that paints every point.

No item per memory: 10k ``QGraphicsEllipseItem`` make the scene index and hover handling the
bottleneck. One :class:`PointsItem` draws each cluster's points with a single ``drawPoints``
call and a cosmetic pen (dots keep their pixel size at every zoom); more than a thousand points
are drawn into an image on a worker, the GUI thread only shows it. Hit-testing (hover title,
click to open, Shift-drag to select) is a numpy distance over the point array.

Mouse: drag pans, the wheel zooms around the cursor, Shift+drag selects a rectangle, a click
on a point opens its memory, hovering shows its title.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PySide6.QtCore import QPointF, QRect, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import (
    QFont,
    QImage,
    QMouseEvent,
    QPainter,
    QPolygonF,
    QResizeEvent,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QStyleOptionGraphicsItem,
    QToolTip,
    QWidget,
)

from pixelmem.gui.map.map_paint import (
    Frame,
    PointsLayer,
    draw_marks,
    draw_points,
    polygon_of,
    polygons_by_cluster,
    render_layer,
)
from pixelmem.gui.workers import LatestOnly

DOT = 6.0  # device pixels
HIT_PIXELS = 6.0
ZOOM_STEP = 1.15
SMOOTH_POINTS = 3000
PAINTED_POINTS = 1000  # more are drawn on a worker (PointsItem)


class PointsItem(QGraphicsItem):
    """Every point of the map, painted by cluster; marked points drawn again on top.

    Up to :data:`PAINTED_POINTS` points are painted in place. More are drawn into an image on
    a worker (10k dots took 11-24 ms to paint, 33k ~35 ms, at every repaint of the view), for
    the view's transform and size; the GUI thread only puts that image on the screen. After a
    zoom, a pan or new points it shows the last image moved and scaled to where it belongs
    while ``render`` has the next one drawn, then :meth:`show_picture` takes it."""

    def __init__(self, render: Callable[[PointsLayer, Frame], None] | None = None) -> None:
        super().__init__()
        self._polygons: dict[int, QPolygonF] = {}
        self._marked = QPolygonF()
        self._selected = QPolygonF()
        self._bounds = QRectF()
        self._count = 0
        self._render = render
        self._version = 0  # of the points and marks: a picture of an older one is stale
        self._picture: tuple[Frame, QImage] | None = None
        self._asked: Frame | None = None

    def set_points(
        self, xy: np.ndarray, groups: np.ndarray, polygons: dict[int, QPolygonF] | None = None
    ) -> None:
        """Points and their colour groups; ``polygons`` when a worker already made them."""
        self.prepareGeometryChange()
        self._polygons = polygons if polygons is not None else polygons_by_cluster(xy, groups)
        self._count = len(xy)
        if len(xy):
            lo, hi = xy.min(axis=0), xy.max(axis=0)
            self._bounds = QRectF(QPointF(*lo), QPointF(*hi)).adjusted(-20, -20, 20, 20)
        else:
            self._bounds = QRectF()
        self._marked, self._selected = QPolygonF(), QPolygonF()
        self._changed()

    def set_marks(self, marked: np.ndarray, selected: np.ndarray) -> None:
        """``marked``: search matches (others fade); ``selected``: the rubber-band selection."""
        self._marked = polygon_of(marked)
        self._selected = polygon_of(selected)
        self._changed()

    def _changed(self) -> None:
        self._version += 1
        self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def layer(self) -> PointsLayer:
        # Antialiased round dots cost 24 ms for 10k on the dev VM, plain round dots 11 ms: above
        # a few thousand points the plain ones keep pan and zoom within a frame.
        smooth = self._count <= SMOOTH_POINTS
        return PointsLayer(self._polygons, self._marked, self._selected, DOT, smooth)

    @property
    def drawn_on_worker(self) -> bool:
        return self._render is not None and self._count > PAINTED_POINTS

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionGraphicsItem,
        widget: QWidget | None = None,
    ) -> None:
        if not self.drawn_on_worker or widget is None:
            layer = self.layer()
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, layer.smooth)
            faded = not layer.marked.isEmpty()
            draw_points(painter, layer.polygons, DOT, faded=faded, round_=layer.smooth)
            draw_marks(painter, layer.marked, layer.selected, DOT)
            return
        frame = Frame(
            painter.worldTransform(),
            widget.width(),
            widget.height(),
            widget.devicePixelRatioF(),
            self._version,
        )
        if self._picture is not None:
            self._put(painter, *self._picture, frame)
            if self._picture[0] == frame:
                return
        if frame != self._asked and self._render is not None:
            self._asked = frame
            self._render(self.layer(), frame)

    @staticmethod
    def _put(painter: QPainter, drawn: Frame, image: QImage, frame: Frame) -> None:
        """``image``, drawn for ``drawn``, where its points are in ``frame``: device pixels
        then were at scene points now shown elsewhere (the same place: a plain copy)."""
        back, invertible = drawn.transform.inverted()
        if not invertible:
            return
        painter.save()
        painter.setWorldTransform(back * frame.transform)
        painter.drawImage(QPointF(0, 0), image)
        painter.restore()

    def show_picture(self, frame: Frame, image: QImage) -> None:
        """The worker's image for ``frame``: shown unless the points changed meanwhile."""
        if frame.version == self._version:
            self._picture = (frame, image)
            self.update()


class MapCanvas(QGraphicsView):
    point_clicked = Signal(int)  # row in the points array
    selection_changed = Signal(object)  # np.ndarray of selected rows

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setScene(QGraphicsScene(self))
        self._pictures = LatestOnly()
        self.points = PointsItem(self._draw_picture)
        self.scene().addItem(self.points)
        self.titles: list[str] = []
        self._xy = np.zeros((0, 2))
        self._labels: list[QGraphicsSimpleTextItem] = []
        self._anchors: list[QPointF] = []  # where each label belongs (scene), largest first
        self._band = QRect()
        self._press = QPointF()
        self.selected = np.zeros(0, np.int64)
        self._fitted = True  # follows the widget's size until the person zooms or pans
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.FullViewportUpdate)
        self.setMouseTracking(True)
        # Panning is by dragging; a scene far larger than any map makes it unbounded.
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scene().setSceneRect(QRectF(-1e6, -1e6, 2e6, 2e6))
        self.rubberBandChanged.connect(self._band_changed)

    # -- content ---------------------------------------------------------------------------

    def set_points(
        self,
        xy: np.ndarray,
        groups: np.ndarray,
        titles: list[str],
        labels: list[tuple[float, float, str]],
        *,
        keep_view: bool = False,
        polygons: dict[int, QPolygonF] | None = None,
    ) -> None:
        """Show points (scene coordinates), their titles and cluster labels.

        ``polygons``: the points grouped by colour (:func:`polygons_by_cluster`), when a worker
        has made them already."""
        self._xy, self.titles = xy, titles
        self.selected = np.zeros(0, np.int64)
        self.points.set_points(xy, groups, polygons)
        for item in self._labels:
            self.scene().removeItem(item)
        self._labels = [self._label(x, y, text) for x, y, text in labels]
        self._anchors = [QPointF(x, y) for x, y, _text in labels]
        self.spread_labels()
        if not keep_view or self._fitted:
            QTimer.singleShot(0, self, self.fit)  # once the layout has given the view its size

    def fit(self) -> None:
        """Show the whole map (again)."""
        self._fitted = True
        bounds = self.points.boundingRect()
        # Room for the cluster labels, which keep their size in pixels at every zoom.
        margin = 0.12 * max(bounds.width(), bounds.height())
        self.fitInView(
            bounds.adjusted(-margin, -margin / 3, margin, margin / 3),
            Qt.AspectRatioMode.KeepAspectRatio,
        )
        self.spread_labels()

    def spread_labels(self) -> None:
        """Labels keep their size in pixels at every zoom, so two near clusters' labels would
        overlap when zoomed out: each (largest cluster first) goes on its own line, the nearest
        one above or below its place that covers no label placed before it."""
        placed: list[QRectF] = []
        for item, anchor in zip(self._labels, self._anchors, strict=True):
            size = item.boundingRect().size()
            centre = self.mapFromScene(anchor)
            spot = QRectF(centre.x() - size.width() / 2, centre.y(), size.width(), size.height())
            for shift in (0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5):
                moved = spot.translated(0, shift * size.height())
                if not any(moved.intersects(other) for other in placed):
                    spot = moved
                    break
            placed.append(spot)
            item.setPos(self.mapToScene(spot.topLeft().toPoint()))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self._fitted and len(self._xy):
            self.fit()
        else:
            self.spread_labels()

    def _label(self, x: float, y: float, text: str) -> QGraphicsSimpleTextItem:
        item = QGraphicsSimpleTextItem(text)
        font = QFont(item.font())
        font.setBold(True)
        item.setFont(font)
        item.setBrush(self.palette().text())
        item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        item.setPos(x, y)  # centred by spread_labels
        item.setZValue(1)
        self.scene().addItem(item)
        return item

    def _draw_picture(self, layer: PointsLayer, frame: Frame) -> None:
        """Draw the points for ``frame`` on a worker; the item shows the image when it comes."""
        self._pictures.submit(
            lambda: render_layer(layer, frame),
            lambda image: self.points.show_picture(frame, image),
            context=self,
        )

    def set_marks(self, marked: np.ndarray) -> None:
        self.points.set_marks(self._xy[marked], self._xy[self.selected])

    def point_count(self) -> int:
        return len(self._xy)

    # -- mouse -----------------------------------------------------------------------------

    def row_at(self, pos: QPointF) -> int | None:
        """The point under a viewport position (within a few pixels), if any."""
        if not len(self._xy):
            return None
        scene = self.mapToScene(pos.toPoint())
        tolerance = HIT_PIXELS / max(self.transform().m11(), 1e-9)
        d2 = ((self._xy - (scene.x(), scene.y())) ** 2).sum(axis=1)
        row = int(d2.argmin())
        return row if d2[row] <= tolerance**2 else None

    def wheelEvent(self, event: QWheelEvent) -> None:
        steps = event.angleDelta().y() / 120
        self._fitted = False
        self.scale(ZOOM_STEP**steps, ZOOM_STEP**steps)
        self.spread_labels()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self._press = event.position()
        if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            self.setDragMode(QGraphicsView.DragMode.RubberBandDrag)
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        super().mouseMoveEvent(event)
        if event.buttons() != Qt.MouseButton.NoButton:
            return
        row = self.row_at(event.position())
        if row is None:
            QToolTip.hideText()
        else:
            QToolTip.showText(event.globalPosition().toPoint(), self.titles[row], self)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        band, self._band = self._band, QRect()
        super().mouseReleaseEvent(event)
        rubber = self.dragMode() == QGraphicsView.DragMode.RubberBandDrag
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        if rubber and not band.isNull():
            self._select(QRectF(self.mapToScene(band).boundingRect()))
            return
        moved = (event.position() - self._press).manhattanLength()
        if moved >= 4:
            self._fitted = False
        if event.button() == Qt.MouseButton.LeftButton and moved < 4:
            row = self.row_at(event.position())
            if row is not None:
                self.point_clicked.emit(row)

    def _band_changed(self, rect: QRect, *_: object) -> None:
        if not rect.isNull():
            self._band = rect

    def _select(self, rect: QRectF) -> None:
        x, y = self._xy[:, 0], self._xy[:, 1]
        inside = (x >= rect.left()) & (x <= rect.right()) & (y >= rect.top()) & (y <= rect.bottom())
        self.selected = np.flatnonzero(inside)
        self.selection_changed.emit(self.selected)
