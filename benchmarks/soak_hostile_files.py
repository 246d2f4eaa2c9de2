"""Soak: thousands of hostile files, each alone beside a good one; how many stop a scan?

    .venv/bin/python benchmarks/soak_hostile_files.py [--n 5000] [--seed 18]

Each case is a fresh vault holding ``ok.md`` and one generated hostile file (out-of-range
dates, symlink loops, non-UTF-8 names, deep nesting, billion laughs, huge frontmatter, FIFOs
and sockets, odd YAML tags, random bytes, fuzzed YAML; see tests/reliability/hostile_gen.py).
The vault is scanned twice (cold, then from the scan cache) and every memory is shown as
JSON. Printed: cases, scans stopped (target 0), cases where ok.md went missing (target 0),
scans slower than 1 s, timings, and the peak memory of a billion-laughs scan (target 100 MB).
Then one vault with every case at once is scanned.
"""

from __future__ import annotations

import argparse
import collections
import json
import logging
import random
import shutil
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "reliability"))

from hostile_gen import billion_laughs, make_hostile  # noqa: E402

from pixelmem.core.vault.memory_json import memory_json  # noqa: E402
from pixelmem.core.vault.store import MemoryStore  # noqa: E402

OK = "---\nid: ok-memory\ntitle: fine\n---\nbody\n"


def one_case(folder: Path, rng: random.Random, index: int) -> tuple[str | None, float]:
    """(why the scan stopped or lost ok.md, or None; the slower scan's seconds)."""
    (folder / "ok.md").write_text(OK)
    make_hostile(rng, folder, index)
    slowest = 0.0
    for _ in range(2):  # cold, then from the scan cache
        started = time.perf_counter()
        try:
            store = MemoryStore(folder)
            result = store.scan()
            for memory in result.memories:
                json.dumps(memory_json(store.get(memory.id), with_body=True)).encode("utf-8")
        except BaseException as exc:
            return f"{type(exc).__name__}: {exc}"[:200], time.perf_counter() - started
        slowest = max(slowest, time.perf_counter() - started)
        if not any(m.id == "ok-memory" for m in result.memories):
            return "ok.md missing", slowest
    return None, slowest


def _describe(folder: Path) -> str:
    for path in folder.iterdir():
        if path.name != "ok.md":
            try:
                head = path.read_bytes()[:80] if path.is_file() else b"(not a file)"
            except OSError as exc:
                head = str(exc).encode()
            return f"{path.name!r} {head!r}"
    return "?"


def laughs_peak() -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "lol.md").write_text(f"---\n{billion_laughs(9, 9)}---\nx\n")
        tracemalloc.start()
        started = time.perf_counter()
        MemoryStore(folder).scan()
        elapsed = time.perf_counter() - started
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return elapsed, peak / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=18)
    args = parser.parse_args()
    logging.disable(logging.WARNING)  # skipped files and repeated ids are expected here
    rng = random.Random(args.seed)
    stopped: collections.Counter[str] = collections.Counter()
    times: list[float] = []
    base = Path(tempfile.mkdtemp(prefix="pixelmem-soak-"))
    started = time.perf_counter()
    try:
        for index in range(args.n):
            folder = base / f"v{index}"
            folder.mkdir()
            why, seconds = one_case(folder, rng, index)
            times.append(seconds)
            if seconds > 1:
                print(f"case {index} took {seconds:.2f} s: {_describe(folder)}")
            if why:
                stopped[why] += 1
                print(f"case {index}: {why}")
            shutil.rmtree(folder, ignore_errors=True)
        total = time.perf_counter() - started
        together = base / "all"
        together.mkdir()
        (together / "ok.md").write_text(OK)
        rng = random.Random(args.seed)
        for index in range(min(args.n, 2000)):
            make_hostile(rng, together, index)
        t0 = time.perf_counter()
        result = MemoryStore(together).scan()
        all_at_once = time.perf_counter() - t0
    finally:
        shutil.rmtree(base, ignore_errors=True)
    laughs_s, laughs_mb = laughs_peak()
    print(f"hostile files: {args.n} (seed {args.seed})")
    print(f"scans stopped or ok.md lost: {sum(stopped.values())} (target 0)")
    print(f"scans slower than 1 s: {sum(t > 1 for t in times)}")
    print(
        f"scan per case (worst of cold, warm): median {statistics.median(times) * 1e3:.1f}"
        f" ms, p99 {sorted(times)[int(len(times) * 0.99)] * 1e3:.1f} ms,"
        f" max {max(times) * 1e3:.1f} ms; soak total {total:.1f} s"
    )
    print(
        f"one vault with {min(args.n, 2000)} hostile files: scan {all_at_once:.2f} s,"
        f" {len(result.memories)} memories, {len(result.skipped)} skipped, ok.md present:"
        f" {any(m.id == 'ok-memory' for m in result.memories)}"
    )
    print(f"billion laughs (9x9) first scan: {laughs_s * 1e3:.1f} ms, peak {laughs_mb:.2f} MB")


if __name__ == "__main__":
    main()
