"""Semantic map cost: full layout, incremental update and the GUI thread's longest stall.

    .venv/bin/python benchmarks/bench_map.py [--sizes 1000 10000]

Vectors are synthetic (clusters in 384-d, like MiniLM's), texts are short generated notes, so
the numbers are the map's own cost, not the embedder's. For each size it prints: full build
(layout + clusters + keywords), the layout alone, an update after 10 new memories, the peak
extra memory of a full build (tracemalloc: numpy allocations), the median repaint of the map
view while panning and zooming, and the UI stall: the longest (and 99th-percentile) gap between
1 ms timer ticks on the Qt thread while the map pane's refresh runs as in the app (build, JSON
cache and drawing preparation on a worker, then the canvas filled on the Qt thread), beside
the same heartbeat while a worker only sleeps as long ("ref": what the machine's load alone
costs; on the shared 2-core VM it varies from 10 to 130 ms).
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pixelmem.core.insight.map_layout import layout
from pixelmem.core.insight.memory_vectors import MemoryVectors, unit_rows
from pixelmem.core.insight.semantic_map import build_map

WORDS = [
    "index",
    "query",
    "cache",
    "vector",
    "garden",
    "tomato",
    "recipe",
    "budget",
    "invoice",
    "meeting",
    "train",
    "museum",
]


def synthetic(n: int, dim: int = 384, clusters: int = 30, seed: int = 0):
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((clusters, dim))
    labels = rng.integers(0, clusters, n)
    vectors = unit_rows(centres[labels] + 0.8 * rng.standard_normal((n, dim)))
    ids = tuple(f"m{i:06d}" for i in range(n))
    texts = {
        mid: f"{WORDS[c % len(WORDS)]} topic{c} " + " ".join(rng.choice(WORDS, 12))
        for mid, c in zip(ids, labels.tolist(), strict=True)
    }
    return MemoryVectors(ids, vectors), texts


def timed(fn):
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


def heartbeat(fn, deliver=None) -> tuple[float, float]:
    """Longest and 99th-percentile gap (ms) between 1 ms timer ticks on the Qt thread while
    ``fn`` runs on a worker and ``deliver(result)`` then runs on the Qt thread."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEventLoop, QThreadPool, QTimer
    from PySide6.QtWidgets import QApplication

    from pixelmem.gui.workers import run_in_pool

    _app = QApplication.instance() or QApplication([])
    gaps: list[float] = []
    last = [time.perf_counter()]

    def tick() -> None:
        now = time.perf_counter()
        gaps.append(now - last[0])
        last[0] = now

    timer = QTimer(interval=1)
    timer.timeout.connect(tick)
    timer.start()
    loop = QEventLoop()  # Qt's own event loop, as in the app (app.exec())

    def finish(value: object) -> None:
        if deliver is not None:
            deliver(value)
        QTimer.singleShot(20, loop.quit)  # the ticks after delivery, so its cost shows

    def failed(exc: BaseException) -> None:
        loop.quit()
        raise exc

    run_in_pool(fn, finish, failed)
    loop.exec()
    timer.stop()
    QThreadPool.globalInstance().waitForDone()
    ms = 1000 * np.array(gaps[1:] or [0.0])
    return float(ms.max()), float(np.percentile(ms, 99))


def refresh_stall(old: MemoryVectors, text_of, seconds: float) -> str:
    """The map pane's refresh of a 10k map as the app runs it: the build, the JSON cache and
    the titles on a worker, then the canvas filled on the Qt thread. The reference is the
    same heartbeat while a worker only sleeps as long (what this machine's load costs)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from pixelmem.gui.map.map_canvas import MapCanvas
    from pixelmem.gui.map.map_paint import scene_points

    try:
        from pixelmem.gui.map.map_view import prepare_drawing
    except ImportError:  # an older checkout, measured for comparison
        prepare_drawing = None
    app = QApplication.instance() or QApplication([])
    canvas = MapCanvas()
    canvas.resize(1000, 800)
    canvas.show()
    # As in the app by the time a map is refreshed: text has been drawn (fonts loaded), and the
    # vault's long-lived objects are frozen out of the garbage collector (gui/session.py).
    canvas.set_points(np.zeros((1, 2)), np.zeros(1, np.int32), ["x"], [(0.0, 0.0, "label")])
    canvas.viewport().repaint()
    app.processEvents()
    gc.freeze()

    def work():
        m = build_map(old, text_of, "b")
        m.to_json()
        titles = [text_of(mid)[:40] for mid in m.ids]
        if prepare_drawing is None:  # before: the GUI thread grouped the points
            return m, scene_points(m), titles, {}
        prepared = prepare_drawing(m, titles, [""] * len(m))
        return m, prepared.xy, titles, {"polygons": prepared.by_cluster}

    def deliver(result) -> None:
        m, xy, titles, prepared = result
        labels = [(c.x * 30, -c.y * 30, c.label) for c in m.cluster_info]
        canvas.set_points(xy, m.clusters, titles, labels, **prepared)
        canvas.viewport().repaint()

    worst, p99 = heartbeat(work, deliver)
    ref_worst, ref_p99 = heartbeat(lambda: time.sleep(seconds))
    canvas.close()
    return f"{worst:9.1f} {p99:6.1f} {ref_worst:9.1f} {ref_p99:6.1f}"


def repaint_ms(semantic_map) -> float:
    """Median time to repaint a 1000×800 map view while panning and zooming (GUI thread):
    every repaint (where a worker draws the points: the last picture moved, then the new one
    copied)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from pixelmem.gui.map.map_canvas import MapCanvas
    from pixelmem.gui.map.map_paint import scene_points

    app = QApplication.instance() or QApplication([])
    canvas = MapCanvas()
    canvas.resize(1000, 800)
    canvas.show()
    titles = list(semantic_map.ids)
    canvas.set_points(scene_points(semantic_map), semantic_map.clusters, titles, [])
    app.processEvents()
    times = []
    for i in range(30):
        if i % 2:
            canvas.scale(1.05, 1.05)
        else:
            canvas.translate(5, 5)
        times.append(_timed_repaint(canvas))
        # Code that draws the points on a worker painted the last picture, moved; the next
        # repaint, once the worker's picture for this view has come, only copies it.
        if getattr(canvas.points, "drawn_on_worker", False):
            deadline = time.perf_counter() + 5
            while not _current(canvas.points) and time.perf_counter() < deadline:
                app.processEvents()
                time.sleep(0.001)
            times.append(_timed_repaint(canvas))
    canvas.close()
    return float(np.median(times))


def _timed_repaint(canvas) -> float:
    start = time.perf_counter()
    canvas.viewport().repaint()
    return 1000 * (time.perf_counter() - start)


def _current(points) -> bool:
    """The worker's picture is the one for the view as it is (a repaint asked for it)."""
    return points._picture is not None and points._picture[0] == points._asked


def measure(n: int, ui: bool) -> str:
    vectors, texts = synthetic(n + 10)
    old = vectors.subset(vectors.ids[:n])
    text_of = texts.__getitem__
    tracemalloc.start()
    first, build = timed(lambda: build_map(old, text_of, "bench"))
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    _, layout_s = timed(lambda: layout(old.vectors))
    _, update = timed(lambda: build_map(vectors, text_of, "bench", previous=first))
    stall = refresh_stall(old, text_of, build) if ui else "  (skipped)"
    paint = repaint_ms(first) if ui else float("nan")
    return f"{n:>9,} {build:8.2f} {layout_s:9.2f} {update:7.2f} {peak:8.0f} {paint:10.1f} {stall}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    ap.add_argument("--no-ui", action="store_true", help="skip the UI stall measurement")
    ap.add_argument("--repeat", type=int, default=1, help="measure each size this often")
    args = ap.parse_args()
    print("memories  build s  layout s   +10 s  peak MB  repaint ms", end="")
    print("  stall ms    p99  ref stall    p99")
    for n in args.sizes:
        for _ in range(args.repeat):
            print(measure(n, not args.no_ui))


if __name__ == "__main__":
    main()
