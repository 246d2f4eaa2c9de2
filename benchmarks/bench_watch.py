"""How long the vault watch's set-up keeps the GIL from every other thread of the app.

    .venv/bin/python benchmarks/bench_watch.py
    .venv/bin/python benchmarks/bench_watch.py --sizes 10000x7 40000x7 --rounds 5

watchfiles sets a watch up in one call into Rust that keeps the GIL. Over a vault's tree
(``recursive``: what the app did before round 17) that call walks every file; the app now
watches each memory folder by itself where folders are few against the files, and the tree
where they are many (``VaultWatcher``, ``ENTRIES_PER_FOLDER_WATCH``). For trees of N empty
notes in D folders, this times both in the same run, alternating: the longest a Python thread
ticking every 0.5 ms waited during the set-up (what the window's thread would wait).
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from watchfiles._rust_notify import RustNotify  # noqa: E402 - the backend watchfiles.watch uses

from pixelmem.core.runtime.watcher import VaultWatcher  # noqa: E402


class Ticker:
    """A thread that asks for the GIL every 0.5 ms; the longest it waited."""

    def __init__(self) -> None:
        self._stop = threading.Event()
        self.longest = 0.0
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Ticker:
        self._thread.start()
        time.sleep(0.02)
        self.longest = 0.0
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        last = time.perf_counter()
        while not self._stop.is_set():
            time.sleep(0.0005)
            now = time.perf_counter()
            self.longest = max(self.longest, now - last - 0.0005)
            last = now


def make_tree(root: Path, notes: int, folders: int) -> None:
    for i in range(notes):
        folder = root / f"folder{i % folders}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"note{i}.md").touch()


def recursive_set_up(root: Path) -> None:
    RustNotify([str(root)], False, False, 300, True, False).close()


def app_set_up(root: Path) -> None:
    watcher = VaultWatcher(root, lambda *_: None)
    watcher.start()  # returns once the watch is set up
    watcher.stop()


def measure(set_up: Callable[[Path], None], root: Path) -> tuple[float, float]:
    with Ticker() as ticker:
        start = time.perf_counter()
        set_up(root)
        wall = time.perf_counter() - start
    return wall * 1000, ticker.longest * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sizes = ["200x20", "2000x7", "10000x7", "40000x7", "10000x500", "10000x2000"]
    parser.add_argument("--sizes", nargs="+", default=sizes, help="NOTESxFOLDERS trees to watch")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, cpus {os.cpu_count()}, load {os.getloadavg()}")
    print("the app's set-up waits for the watch's first report (~0.5 s): its wall time is not "
          "the hold; the longest wait of the ticking thread is")  # fmt: skip
    for size in args.sizes:
        notes, folders = (int(x) for x in size.split("x"))
        with tempfile.TemporaryDirectory(prefix="pixelmem-watch-") as tmp:
            root = Path(tmp)
            make_tree(root, notes, folders)
            waits: dict[str, list[float]] = {"recursive (before)": [], "the app": []}
            for _ in range(args.rounds):
                waits["recursive (before)"].append(measure(recursive_set_up, root)[1])
                waits["the app"].append(measure(app_set_up, root)[1])
            medians = {name: statistics.median(w) for name, w in waits.items()}
            print(f"\n{notes:,} notes in {folders} folders, {args.rounds} rounds, longest wait "
                  "of a ticking thread, min / median / max:")  # fmt: skip
            for name, found in waits.items():
                print(
                    f"  {name:<20} {min(found):6.1f} / {medians[name]:6.1f} / {max(found):6.1f} ms"
                )
            ratio = medians["the app"] / max(medians["recursive (before)"], 1e-9)
            print(f"  the app / recursive, median: {ratio:.2f}")


if __name__ == "__main__":
    main()
