"""Restore as fast as backup: a vault of small notes backed up, then restored into an empty
folder, both timed in one run, with where the restore's time goes.

    .venv/bin/python benchmarks/bench_restore.py [--notes 50000] [--old main] [--rounds 3]
        [--profile]

Prints the backup and restore seconds and their ratio (target: restore ≤ 2× backup), and the
restore's time split into its steps, measured by wrapping them (each code's own steps: the
code before read the archive twice, wrote each file to a temp file, fsynced and linked it; this
one reads it once into a staging folder, flushes once and links). Each restore runs in a
process of its own; ``--old REF`` restores the same archive with REF's code too (a temporary
copy by ``git archive``) for a before/after in one run. ``--rounds N`` repeats the backup
and the restores N times (the disk flushed before each step, the codes' order alternating:
the first after a fresh write pays more) and prints the medians. ``--profile`` adds
cProfile's top functions.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SOURCE = Path(os.environ.get("PIXELMEM_BENCH_SOURCE", ROOT))  # the code a child restores with
sys.path[:0] = [str(SOURCE), str(ROOT / "benchmarks")]

from _old_code import old_checkout  # noqa: E402

from pixelmem.core.archive import restore as restore_module  # noqa: E402
from pixelmem.core.archive.backup import create_backup  # noqa: E402
from pixelmem.core.archive.restore import restore_backup  # noqa: E402

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
    """The steps of either code (the other code's names are simply absent)."""
    placing = getattr(restore_module, "_Placing", None)
    steps = [
        # the code before: two passes, a temp file, fsync and link per file
        (restore_module, "verify_backup", "verify (read + checksum every member)"),
        (restore_module, "_plan", "plan (does each target exist)"),
        (restore_module, "_place", "place, per file (all of the below and the write)"),
        (restore_module, "_inside", "  folder checks (realpath ×2)"),
        (restore_module, "make_dirs", "  make_dirs"),
        (restore_module.os, "fsync", "  fsync"),
        (restore_module, "_link_no_clobber", "  link into place"),
        (restore_module, "new_file_mode", "  the new file's mode"),
        (getattr(restore_module, "tempfile", None), "mkstemp", "  mkstemp"),
        # this code: one pass into a staging folder, one flush, a rename per new top folder
        # (a link per file elsewhere)
        (restore_module, "_stage", "read, check and stage (one pass)"),
        (restore_module, "_stage_one", "  write one staged file"),
        (placing, "_folder", "make and check each folder (once)"),
        (placing, "_stamp", "modes and times"),
        (restore_module, "flush_to_disk", "one flush (syncfs)"),
        (placing, "_move_in", "move a whole new folder into place"),
        (placing, "_link", "link each file into place"),
        (restore_module, "_fsync_folder", "fsync each folder (once)"),
        (getattr(restore_module, "Staging", None), "__exit__", "remove the staging folder"),
    ]
    return [timed(owner, name, label) for owner, name, label in steps if owner is not None]


def restore_once(archive: Path, dest: Path, profile: bool) -> dict[str, Any]:
    """Restore ``archive`` into ``dest`` with this process's code; seconds and steps."""
    undo = instrument()
    profiler = cProfile.Profile() if profile else None
    start = time.perf_counter()
    if profiler is not None:
        profiler.enable()
    restored = restore_backup(archive, dest)
    if profiler is not None:
        profiler.disable()
    took = time.perf_counter() - start
    for step in undo:
        step()
    if profiler is not None:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
    steps = {label: [seconds, COUNT[label]] for label, seconds in SPENT.items()}
    return {"seconds": took, "files": len(restored.restored), "steps": steps}


def restore_in_child(source: Path, archive: Path, dest: Path, profile: bool) -> dict[str, Any]:
    out = dest.parent / f"{dest.name}.json"
    env = dict(os.environ, PIXELMEM_BENCH_SOURCE=str(source))
    words = [sys.executable, __file__, "--restore-only", str(archive), str(dest), str(out)]
    subprocess.run(words + (["--profile"] if profile else []), env=env, check=True)
    return dict(json.loads(out.read_text()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=50_000)
    parser.add_argument("--old", help="git ref to restore with too (its files from git archive)")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--rounds", type=int, default=1, help="backup + restores, N times")
    parser.add_argument("--restore-only", nargs=3, metavar=("ARCHIVE", "DEST", "OUT"))
    args = parser.parse_args()
    if args.restore_only:
        archive, dest, out = map(Path, args.restore_only)
        Path(out).write_text(json.dumps(restore_once(archive, dest, args.profile)))
        return
    print(f"cpus {os.cpu_count()}, load {os.getloadavg()}")
    with tempfile.TemporaryDirectory(prefix="pixelmem-bench-restore-") as folder:
        tmp = Path(folder)
        vault = tmp / "vault"
        start = time.perf_counter()
        make_vault(vault, args.notes)
        print(f"{args.notes:,} notes written in {time.perf_counter() - start:.1f} s")
        sources = {"this code": ROOT}
        if args.old:
            sources[f"old {args.old}"] = old_checkout(args.old, tmp)
        took: dict[str, list[float]] = defaultdict(list)
        for round_number in range(args.rounds):
            one_round(tmp, vault, sources, round_number, args.profile, took)
        if args.rounds > 1:
            print(f"\nmedians of {args.rounds} rounds:")
            for name, seconds in took.items():
                print(f"  {name:<20} {statistics.median(seconds):6.1f} s")
            for name, seconds in took.items():
                if name != "backup":
                    ratios = [t / b for t, b in zip(seconds, took["backup"], strict=True)]
                    print(f"  restore / backup, {name}: {statistics.median(ratios):.2f}× "
                          f"(rounds: {', '.join(f'{r:.2f}' for r in ratios)})")  # fmt: skip


def one_round(
    tmp: Path,
    vault: Path,
    sources: dict[str, Path],
    round_number: int,
    profile: bool,
    took: dict[str, list[float]],
) -> None:
    """A backup, then a restore of it by each code; the disk flushed before each (one step
    must not pay for the write-back of the step before), the codes' order alternating."""
    print(f"\nround {round_number + 1}, load {os.getloadavg()}")
    archive = tmp / f"backup-{round_number}.tar.gz"
    os.sync()
    start = time.perf_counter()
    report = create_backup(vault, archive)
    backup = time.perf_counter() - start
    took["backup"].append(backup)
    print(f"backup: {backup:.1f} s ({len(report.files):,} files, "
          f"{archive.stat().st_size / 1e6:.1f} MB)")  # fmt: skip
    named = list(sources.items())
    if round_number % 2:
        named.reverse()
    for number, (name, source) in enumerate(named):
        os.sync()
        dest = tmp / f"restored-{round_number}-{number}"
        result = restore_in_child(source, archive, dest, profile)
        took[name].append(result["seconds"])
        print(f"restore, {name}: {result['seconds']:.1f} s ({result['files']:,} files); "
              f"restore / backup {result['seconds'] / backup:.1f}× (target ≤ 2×); "
              f"load {os.getloadavg()}")  # fmt: skip
        for label, (seconds, calls) in result["steps"].items():
            print(f"  {label:<50} {seconds:7.2f} s  ({calls:,} calls)")
    # The restored folders stay until the end: in a run that removed each one (50,000 files)
    # before the next restore, every restore after a removal created its files 13-23× slower
    # than the one before any (this disk is mounted with discard and shared).


if __name__ == "__main__":
    main()
