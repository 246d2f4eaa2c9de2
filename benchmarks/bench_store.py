"""Scan time of a 10k-memory vault, next to the time to merely read every file's bytes.

    .venv/bin/python benchmarks/bench_store.py [--n 10000] [--repeat 3]

Target (SPEC §8 via issue 2): scan of 10k memories ≤ 1.5 s on 2 cores. The vault is generated
once and cached under /tmp. The OS page cache is warm for both figures (same conditions).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._vaultgen import generate_vault
from pixelmem.core import frontmatter_io
from pixelmem.core.store import MemoryStore


def cached_vault(n: int, seed: int = 0) -> Path:
    root = Path(tempfile.gettempdir()) / f"pixelmem-bench-vault-{n}-{seed}"
    done = root / ".pixelmem" / "generated"
    if not done.exists():
        print(f"generating {n} memories in {root} …", flush=True)
        generate_vault(root, n, seed)
        done.parent.mkdir(parents=True, exist_ok=True)
        done.write_text("ok")
    return root


def read_all_bytes(root: Path) -> int:
    total = 0
    for folder, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        for name in filenames:
            if name.endswith(".md"):
                with open(os.path.join(folder, name), "rb") as handle:
                    total += len(handle.read())
    return total


def timed(fn, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    root = cached_vault(args.n)
    read_all_bytes(root)  # warm the page cache
    store = MemoryStore(root, create=False)
    scans = timed(store.scan, args.repeat)
    reads = timed(lambda: read_all_bytes(root), args.repeat)
    result = store.scan()
    scan_s, read_s = statistics.median(scans), statistics.median(reads)
    original = frontmatter_io.parse_simple_yaml
    frontmatter_io.parse_simple_yaml = lambda text: None  # every file through PyYAML
    try:
        pyyaml_s = statistics.median(timed(store.scan, args.repeat))
    finally:
        frontmatter_io.parse_simple_yaml = original
    print(f"vault: {root}")
    counts = f"memories: {len(result.memories)}  skipped: {len(result.skipped)}"
    print(f"{counts}  cpus: {os.cpu_count()}")
    print(f"scan       median of {args.repeat}: {scan_s:.3f} s  (target ≤ 1.5 s)")
    print(f"read bytes median of {args.repeat}: {read_s:.3f} s")
    print(f"ratio scan / read bytes: {scan_s / read_s:.1f}x")
    print(f"scan with PyYAML (CSafeLoader) only: {pyyaml_s:.3f} s  ({pyyaml_s / scan_s:.1f}x)")
    print(f"per memory: {scan_s / max(1, len(result.memories)) * 1e6:.0f} µs")


if __name__ == "__main__":
    main()
