"""The Map pane: shows every memory, opens one on click, highlights matches, tags a selection."""

from __future__ import annotations

import os

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt

from pixelmem.core.writes import ChangeSet

pytestmark = pytest.mark.gui


@pytest.fixture
def map_view(qtbot, window):
    with qtbot.waitSignal(window.map_view.map_shown, timeout=10_000) as shown:
        window.panels.reveal("map")
    assert shown.args == [5]
    return window.map_view


def _view_point(view, row: int) -> QPoint:
    x, y = view.canvas._xy[row]
    return view.canvas.mapFromScene(QPointF(x, y))


def test_map_shows_every_memory(map_view, window):
    assert map_view.canvas.point_count() == len(window.session.store.list()) == 5
    assert map_view.map is not None and sum(c.size for c in map_view.map.cluster_info) == 5
    assert (window.engine.vault / ".pixelmem" / "map.json").exists()
    assert "5 memories" in map_view.info.text()


def test_click_opens_the_memory(qtbot, map_view, window):
    row = 2
    qtbot.mouseClick(
        map_view.canvas.viewport(), Qt.MouseButton.LeftButton, pos=_view_point(map_view, row)
    )
    qtbot.waitUntil(lambda: window.editor.current_id == map_view.map.ids[row], timeout=3000)


def test_search_highlights_matching_points(qtbot, map_view):
    map_view.query.setText("espresso")
    qtbot.waitUntil(lambda: map_view.highlighted_count() >= 1, timeout=3000)
    map_view.query.clear()
    qtbot.waitUntil(lambda: map_view.highlighted_count() == 0, timeout=3000)


def test_rubber_band_selects_and_tags(qtbot, map_view, window):
    canvas = map_view.canvas
    rect = canvas.points.boundingRect()
    canvas._band = canvas.mapFromScene(rect).boundingRect()
    canvas._select(rect)
    assert len(map_view.selected_ids()) == 5 and map_view.tag_button.isEnabled()
    ids = map_view.selected_ids()
    with qtbot.waitSignals([window.bus.memory_updated] * 5, timeout=5000):
        map_view.add_topic(ids, "reviewed")
    assert all("reviewed" in window.session.store.get(i).topics for i in ids)


def test_map_updates_when_a_memory_is_added(qtbot, map_view, window):
    window.show()
    qtbot.waitUntil(map_view.isVisible, timeout=3000)
    before = map_view.map.xy.copy()
    ids = map_view.map.ids
    with qtbot.waitSignal(map_view.map_shown, timeout=10_000) as shown:
        memory = window.session.runtime.write(  # the one write path: it asks for an index run
            lambda writes: writes.create(
                "Espresso grind", "Grind finer when the espresso runs fast."
            )
        ).value
        window.bus.memory_updated.emit(ChangeSet(created=(memory.id,)), None)
    assert shown.args == [6]
    rows = [map_view.map.ids.index(m) for m in ids]
    assert np.array_equal(map_view.map.xy[rows], before)


def test_colour_by_topic(map_view):
    map_view.colour_by.setCurrentIndex(1)
    assert map_view.canvas.point_count() == 5


def test_polygons_are_exact_and_grouped_by_colour():
    from pixelmem.gui.map.map_paint import polygon_of, polygons_by_cluster

    xy = np.array([[0.5, -1.25], [3.0, 4.0], [1e6, -1e-6]])
    polygon = polygon_of(xy)
    assert [(p.x(), p.y()) for p in polygon] == [tuple(row) for row in xy.tolist()]
    assert len(polygon_of(np.zeros((0, 2)))) == 0
    groups = polygons_by_cluster(xy, np.array([1, 0, 1]))
    assert sorted(groups) == [0, 1] and [len(groups[0]), len(groups[1])] == [1, 2]
    assert groups[1][1] == QPointF(1e6, -1e-6)


def test_grouping_the_points_imports_nothing_on_the_windows_thread():
    """np.unique's first call imports numpy.ma (~10 ms): the map's first draw must not."""
    import subprocess
    import sys

    code = (
        "import sys, numpy as np\n"
        "from pixelmem.gui.map.map_paint import polygons_by_cluster\n"
        "groups = polygons_by_cluster(np.zeros((5, 2)), np.array([3, -1, 3, 0, -1]))\n"
        "assert sorted(groups) == [-1, 0, 3], groups\n"
        "assert [len(groups[c]) for c in (-1, 0, 3)] == [2, 1, 2]\n"
        "print('numpy.ma' in sys.modules)\n"
    )
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert out.stdout.strip() == "False"


def test_cluster_labels_never_overlap_at_any_zoom(qtbot):
    from PySide6.QtCore import QRect

    from pixelmem.gui.map.map_canvas import MapCanvas

    canvas = MapCanvas()
    qtbot.addWidget(canvas)
    canvas.resize(400, 300)
    canvas.show()
    xy = np.array([[0.0, 0.0], [0.1, 0.0], [10.0, 10.0]])
    labels = [(0.0, 0.0, "sync · security · devices"), (0.1, 0.0, "发布 · publish · 网站")]
    labels.append((0.05, 0.01, "editor · syntax · core"))  # three clusters close together
    canvas.set_points(xy, np.array([0, 1, 2]), ["a", "b", "c"], labels)
    canvas.fit()

    def rects() -> list[QRect]:
        return [
            QRect(canvas.mapFromScene(item.pos()), item.boundingRect().size().toSize())
            for item in canvas._labels
        ]

    for zoom in (1.0, 0.2, 5.0):
        canvas.scale(zoom, zoom)
        canvas.spread_labels()
        shown = rects()
        assert not any(a.intersects(b) for i, a in enumerate(shown) for b in shown[i + 1 :])


def _big_canvas(qtbot, points: int = 5000):
    from pixelmem.gui.map.map_canvas import MapCanvas

    canvas = MapCanvas()
    qtbot.addWidget(canvas)
    canvas.resize(400, 300)
    canvas.show()
    rng = np.random.default_rng(5)
    xy = rng.uniform(-300, 300, (points, 2))
    xy[0] = (0.0, 0.0)  # a point alone in the middle
    xy[1:] += np.sign(xy[1:]) * 40
    canvas.set_points(xy, np.zeros(points, np.int32), [str(i) for i in range(points)], [])
    canvas.fit()
    return canvas


def _colour_at_point(canvas, row: int):
    spot = canvas.mapFromScene(QPointF(*canvas._xy[row]))
    return canvas.viewport().grab().toImage().pixelColor(spot)


def test_a_big_map_is_drawn_on_a_worker_and_shown(qtbot, monkeypatch):
    import threading

    from pixelmem.gui.map import map_canvas, map_paint
    from pixelmem.gui.map.map_paint import cluster_colour

    gui = threading.get_ident()
    drawn_on: list[bool] = []
    real = map_paint.draw_points
    for module in (map_paint, map_canvas):  # the worker's and the GUI thread's
        monkeypatch.setattr(
            module,
            "draw_points",
            lambda *a, **k: (drawn_on.append(threading.get_ident() == gui), real(*a, **k))[1],
        )
    canvas = _big_canvas(qtbot)
    assert canvas.points.drawn_on_worker
    qtbot.waitUntil(lambda: _colour_at_point(canvas, 0) == cluster_colour(0), timeout=5000)
    assert drawn_on and not any(drawn_on)  # every dot drawn off the GUI thread


def test_a_big_map_follows_zoom_and_marks(qtbot):
    from PySide6.QtGui import QColor

    from pixelmem.gui.map.map_paint import cluster_colour

    canvas = _big_canvas(qtbot)
    qtbot.waitUntil(lambda: _colour_at_point(canvas, 0) == cluster_colour(0), timeout=5000)
    canvas.scale(3, 3)  # the centre point stays in the view, elsewhere on the screen
    qtbot.waitUntil(lambda: _colour_at_point(canvas, 0) == cluster_colour(0), timeout=5000)
    canvas.set_marks(np.array([0], np.int64))
    qtbot.waitUntil(lambda: _colour_at_point(canvas, 0) == QColor("#d62728"), timeout=5000)
