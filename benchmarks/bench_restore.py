"""Restore as fast as backup: a vault of small notes backed up, then restored into an empty
folder, both timed in one run, with where the restore's time goes.

    .venv/bin/python benchmarks/bench_restore.py [--notes 50000] [--profile]

Prints the backup and restore seconds and their ratio (target: restore ≤ 2× backup), and the
restore's time split into its steps, measured by wrapping them: verifying the archive (read
once, every checksum), planning, and per restored file the write, the fsync, the folder checks
(``realpath`` twice per file), the folder creation, and the linking into place. ``--profile``
adds cProfile's top functions.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pixelmem.core.archive import restore as restore_module
from pixelmem.core.archive.backup import create_backup
from pixelmem.core.archive.restore import restore_backup

SPENT: dict[str, float] = defaultdict(float)
COUNT: dict[str, int] = defaultdict(int)


def make_vault(root: Path, notes: int) -> None:
    """``notes`` small Markdown memories in 100 folders, ~300 bytes each."""
    for i in range(notes):
        folder = root / f"topic-{i % 100:03d}"
        if i < 100:
            folder.mkdir(parents=True)
        text = f"---\ntitle: Note {i}\ntopics: [bench]\n---\n\nNote {i} says hello. " * 3
        (folder / f"note-{i:06d}.md").write_text(text, encoding="utf-8")


def timed(owner: Any, name: str, label: str) -> Callable[[], None]:
    """Wrap ``owner.name`` to add its time to SPENT[label]; returns the undo (a name this
    version of restore does not have is left out)."""
    real = getattr(owner, name, None)
    if real is None:
        return lambda: None

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return real(*args, **kwargs)
        finally:
            SPENT[label] += time.perf_counter() - start
            COUNT[label] += 1

    setattr(owner, name, wrapper)
    return lambda: setattr(owner, name, real)


def instrument() -> list[Callable[[], None]]:
    return [
        timed(restore_module, "verify_backup", "verify (read + checksum every member)"),
        timed(restore_module, "_plan", "plan (does each target exist)"),
        timed(restore_module, "_place", "place, per file (all of the below and the write)"),
        timed(restore_module, "_inside", "  folder checks (realpath ×2)"),
        timed(restore_module, "make_dirs", "  make_dirs"),
        timed(restore_module.os, "fsync", "  fsync"),
        timed(restore_module, "_link_no_clobber", "  link into place"),
        timed(restore_module, "new_file_mode", "  the new file's mode"),
        timed(restore_module.tempfile, "mkstemp", "  mkstemp"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=50_000)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    print(f"cpus {os.cpu_count()}, load {os.getloadavg()}")
    with tempfile.TemporaryDirectory(prefix="pixelmem-bench-restore-") as folder:
        tmp = Path(folder)
        vault = tmp / "vault"
        start = time.perf_counter()
        make_vault(vault, args.notes)
        print(f"{args.notes:,} notes written in {time.perf_counter() - start:.1f} s")
        archive = tmp / "backup.tar.gz"
        start = time.perf_counter()
        report = create_backup(vault, archive)
        backup = time.perf_counter() - start
        print(f"backup: {backup:.1f} s ({len(report.files):,} files, "
              f"{archive.stat().st_size / 1e6:.1f} MB)")  # fmt: skip
        undo = instrument()
        profiler = cProfile.Profile() if args.profile else None
        start = time.perf_counter()
        if profiler is not None:
            profiler.enable()
        restored = restore_backup(archive, tmp / "restored")
        if profiler is not None:
            profiler.disable()
        took = time.perf_counter() - start
        for step in undo:
            step()
        print(f"restore: {took:.1f} s ({len(restored.restored):,} files); restore / backup "
              f"{took / backup:.1f}× (target ≤ 2×); load {os.getloadavg()}")  # fmt: skip
        for label, seconds in SPENT.items():
            print(f"  {label:<50} {seconds:7.2f} s  ({COUNT[label]:,} calls)")
        if profiler is not None:
            pstats.Stats(profiler).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
