"""Scan time of a 10k-memory vault: cold (every file parsed), warm (from the scan cache), and
next to the time to merely read every file's bytes.

    .venv/bin/python benchmarks/bench_store.py [--n 10000] [--repeat 3]

Targets: scan of 10k memories ≤ 1.5 s on 2 cores; a start on a warm 10k vault shows
the list within 1 s. The vault is generated once and cached under /tmp. The OS page cache is
warm for every figure (same conditions). Each scan but the in-process rescan is done by a new
MemoryStore, as a fresh process would.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._vaultgen import generate_vault
from pixelmem.core.vault import frontmatter_io, scan_cache
from pixelmem.core.vault import store as store_module
from pixelmem.core.vault.memory import Memory
from pixelmem.core.vault.store import MemoryStore


def cached_vault(n: int, seed: int = 0) -> Path:
    root = Path(tempfile.gettempdir()) / f"pixelmem-bench-vault-{n}-{seed}"
    done = root / ".pixelmem" / "generated"
    if not done.exists():
        print(f"generating {n} memories in {root} …", flush=True)
        generate_vault(root, n, seed)
        done.parent.mkdir(parents=True, exist_ok=True)
        done.write_text("ok")
        time.sleep(scan_cache.RACY_WINDOW_NS / 1e9)  # else the newest files are not cached yet
    return root


def count_parses() -> list[str]:
    """Paths the store reads and parses from now on (the scan cache's misses)."""
    parsed: list[str] = []
    original = store_module.load_memory

    def counting(path: Path, vault_root: Path) -> Memory:
        parsed.append(str(path))
        return original(path, vault_root)

    setattr(store_module, "load_memory", counting)  # noqa: B010
    return parsed


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


@contextlib.contextmanager
def no_scan_cache() -> Iterator[None]:
    """Scans that neither read nor write the scan cache: every file is parsed."""
    cls = scan_cache.ScanCache
    load, save = cls.__dict__["load"], cls.__dict__["save"]
    setattr(cls, "load", classmethod(lambda cls, path: cls()))  # noqa: B010
    setattr(cls, "save", lambda self, path: False)  # noqa: B010
    try:
        yield
    finally:
        setattr(cls, "load", load)  # noqa: B010
        setattr(cls, "save", save)  # noqa: B010


def fresh_scan(root: Path) -> None:
    MemoryStore(root, create=False).scan()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    root = cached_vault(args.n)
    cache_path = root / ".pixelmem" / scan_cache.CACHE_FILENAME
    read_all_bytes(root)  # warm the page cache
    with no_scan_cache():
        fresh_scan(root)  # warm-up: imports, regex and allocator caches
        scans = timed(lambda: fresh_scan(root), args.repeat)
        original = frontmatter_io.parse_simple_yaml
        setattr(frontmatter_io, "parse_simple_yaml", lambda text: None)  # noqa: B010 (all via PyYAML)
        try:
            pyyaml_s = statistics.median(timed(lambda: fresh_scan(root), args.repeat))
        finally:
            frontmatter_io.parse_simple_yaml = original
    reads = timed(lambda: read_all_bytes(root), args.repeat)

    def first_scan() -> None:
        cache_path.unlink(missing_ok=True)
        fresh_scan(root)

    firsts = timed(first_scan, args.repeat)  # parse everything and write the cache
    parsed = count_parses()
    warms = timed(lambda: fresh_scan(root), args.repeat)
    warm_parsed = len(parsed)
    store = MemoryStore(root, create=False)
    result = store.scan()
    rescans = timed(store.scan, args.repeat)
    touched = next(m.path for m in result.memories if m.path is not None)
    mtime = touched.stat().st_mtime_ns
    steps = iter(range(1, args.repeat + 1))

    def touch_and_scan() -> None:  # one file re-parsed, the cache rewritten
        moment = mtime - next(steps) * 1_000_000_000
        os.utime(touched, ns=(moment, moment))
        fresh_scan(root)

    touch_s = statistics.median(timed(touch_and_scan, args.repeat))
    os.utime(touched, ns=(mtime, mtime))
    fresh_scan(root)

    scan_s, read_s = statistics.median(scans), statistics.median(reads)
    first_s, warm_s = statistics.median(firsts), statistics.median(warms)
    print(f"vault: {root}")
    counts = f"memories: {len(result.memories)}  skipped: {len(result.skipped)}"
    print(f"{counts}  cpus: {os.cpu_count()}")
    print(f"cold scan  median of {args.repeat}: {scan_s:.3f} s  (no scan cache; target ≤ 1.5 s)")
    print(f"read bytes median of {args.repeat}: {read_s:.3f} s")
    print(f"ratio cold scan / read bytes: {scan_s / read_s:.1f}x")
    print(f"cold scan with PyYAML (CSafeLoader) only: {pyyaml_s:.3f} s  ({pyyaml_s / scan_s:.1f}x)")
    print(f"per memory (cold): {scan_s / max(1, len(result.memories)) * 1e6:.0f} µs")
    size_mb = cache_path.stat().st_size / 1e6
    print(f"first scan, writing the scan cache ({size_mb:.1f} MB): {first_s:.3f} s")
    print(f"warm scan  median of {args.repeat}: {warm_s:.3f} s  (new store, cache read from disk)")
    print(f"files parsed in the {args.repeat} warm scans: {warm_parsed}")
    print(f"ratio cold / warm: {scan_s / warm_s:.1f}x")
    print(f"rescan in the same process (cache in memory): {statistics.median(rescans):.3f} s")
    print(f"one file touched (1 parse + cache rewritten): {touch_s:.3f} s")


if __name__ == "__main__":
    main()
