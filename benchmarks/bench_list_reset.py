"""The memory list's reset on the GUI thread beside workers running Python. Prints only.

    .venv/bin/python benchmarks/bench_list_reset.py [--rows 2000 10000] [--workers 0 1 2]
                                                     [--rounds 5]

A vault's scan hands the list all its memories at once (``MemoryListModel.set_memories``:
one model reset, the rows already ordered on a worker as the session does). The filter proxy
then decides for every row whether it is shown. Measured: the GUI thread's wall and CPU time
from the reset until the view has shown it, with ``--workers`` threads beside it running
Python as the app's scan, link index and indexer do (the app's GIL switch interval), for

* ``this``: the view on :class:`~pixelmem.gui.memory_list.memory_list_model.ShownRows`, which
  puts :class:`~pixelmem.gui.memory_list.memory_list_model.MemoryFilterProxy` (a Python
  ``filterAcceptsRow``) in the list only while a filter is set;
* ``reference``: the view on the filter proxy at all times (what the list was until round
  15): Qt asks Python about every row at every reset, filtered or not, each call taking the
  GIL.

Both unfiltered (the list at launch) and filtered by a topic. Alternating, median of
``--rounds``; ratio this / reference.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from PySide6.QtWidgets import QApplication, QListView  # noqa: E402

from pixelmem.core.vault.memory import Memory  # noqa: E402
from pixelmem.gui.app import GIL_SWITCH_SECONDS  # noqa: E402
from pixelmem.gui.memory_list.memory_delegate import MemoryDelegate  # noqa: E402
from pixelmem.gui.memory_list.memory_list_model import (  # noqa: E402
    MemoryFilterProxy,
    MemoryListModel,
    ShownRows,
)


class BusyWorkers:
    """``count`` threads running plain Python until stopped."""

    def __init__(self, count: int) -> None:
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._spin, daemon=True) for _ in range(count)]

    def _spin(self) -> None:
        total = 0
        while not self._stop.is_set():
            for i in range(200):
                total += i

    def __enter__(self) -> BusyWorkers:
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join()


def memories(count: int) -> list[Memory]:
    return [
        Memory(id=f"m{i}", title=f"Note {i}", body="", topics=[f"topic {i % 50}"])
        for i in range(count)
    ]


def one_reset(app: QApplication, design: str, rows: list[Memory], topic: str) -> tuple:
    """(wall ms, GUI-thread CPU ms, rows shown) of one reset of a fresh list."""
    model = MemoryListModel(lambda memory_id: rows[0])
    row_filter = MemoryFilterProxy()
    if design == "this":
        shown: Any = ShownRows(model, row_filter)
    else:
        row_filter.setSourceModel(model)
        shown = row_filter
    if topic:
        row_filter.set_filters(topic=topic)
    view = QListView()
    view.setUniformItemSizes(True)
    view.setModel(shown)
    view.setItemDelegate(MemoryDelegate(view))
    view.resize(320, 640)
    view.show()
    app.processEvents()
    ordered = model.in_order(rows)  # on a worker in the app
    wall, cpu = time.perf_counter(), time.thread_time()
    model.set_memories(ordered)
    app.processEvents()
    count = shown.rowCount()  # as the list's count label asks
    result = (time.perf_counter() - wall) * 1000, (time.thread_time() - cpu) * 1000
    view.deleteLater()
    app.processEvents()
    return (*result, count)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[2000, 10000])
    parser.add_argument("--workers", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    sys.setswitchinterval(GIL_SWITCH_SECONDS)
    app = QApplication.instance() or QApplication([])
    print(f"python {sys.version.split()[0]}, cpus {os.cpu_count()}, load {os.getloadavg()}")
    print("rows  workers  filter    this: wall / CPU ms     reference: wall / CPU ms   wall ratio")
    for count in args.rows:
        rows = memories(count)
        for workers in args.workers:
            for topic in ("", "topic 7"):
                seen: dict[str, list[tuple]] = {"this": [], "reference": []}
                with BusyWorkers(workers):
                    for _ in range(args.rounds):
                        seen["this"].append(one_reset(app, "this", rows, topic))
                        seen["reference"].append(one_reset(app, "reference", rows, topic))
                assert {r[2] for r in seen["this"]} == {r[2] for r in seen["reference"]}
                this = [statistics.median(r[i] for r in seen["this"]) for i in (0, 1)]
                ref = [statistics.median(r[i] for r in seen["reference"]) for i in (0, 1)]
                print(
                    f"{count:5d}  {workers:7d}  {'topic' if topic else 'none':8s}"
                    f"  {this[0]:8.1f} / {this[1]:6.1f}        {ref[0]:8.1f} / {ref[1]:6.1f}"
                    f"          {this[0] / ref[0]:.2f}"
                )


if __name__ == "__main__":
    main()
