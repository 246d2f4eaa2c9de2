"""Draw result rows on two threads while the GUI thread connects and disconnects signals of a
QObject that Python subclasses; print "ok" when both finish (test_row_drawing_no_deadlock)."""

from __future__ import annotations

import os
import sys
import threading
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QApplication, QListView

from pixelmem.core.index.search import SearchHit
from pixelmem.gui.panels import search_results


class Emitter(QObject):
    fired = Signal()

    def disconnectNotify(self, signal: object) -> None:
        """A Python override: Qt asks Python (for the GIL) inside its signal lock."""


def main(seconds: float) -> None:
    app = QApplication([])
    view = QListView()
    view.resize(400, 300)
    look = search_results.ResultDelegate(view).look(width=360)
    snippet = "grind finer for a sour espresso " * 5
    hit = SearchHit("m", "Espresso notes", 0.8, snippet, 0, 0, 10, 0.5, 0.5, ("espresso",))
    row = search_results.ResultRow(hit, ("espresso",), snippet)
    stop = threading.Event()
    drawn = [0, 0]

    def draw(slot: int) -> None:
        while not stop.is_set():
            search_results.row_picture(row, look, slot == 1)
            drawn[slot] += 1

    workers = [threading.Thread(target=draw, args=(i,)) for i in range(2)]
    for worker in workers:
        worker.start()
    emitters = [Emitter() for _ in range(300)]  # Qt's signal locks are a pool keyed by address
    pairs = 0
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        for emitter in emitters:
            emitter.fired.connect(app.quit)
            emitter.fired.disconnect(app.quit)
            pairs += 1
    stop.set()
    for worker in workers:
        worker.join()
    print(f"ok {pairs} {sum(drawn)}")


if __name__ == "__main__":
    main(float(sys.argv[1]))
