"""A process killed with SIGKILL in the middle of saving leaves every file whole."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pixelmem.core.vault.store import MemoryStore
from pixelmem.core.vault.vault_scan import load_memory

LINES = 3000  # ~250 KB per file, so a kill often lands inside a write

WRITER = r"""
import sys
from pathlib import Path
from pixelmem.core.vault.store import MemoryStore

def body(k):
    return f"version {k} " + "x" * 70 + "\n"

store = MemoryStore(Path(sys.argv[1]), create=False)
memories = sorted(store.list(), key=lambda m: m.title)
k = int(sys.argv[2])
first = True
while True:
    k += 1
    for index, memory in enumerate(memories):
        memory.body = body(k) * LINES
        memories[index] = store.update(memory)
    if first:
        print("ready", flush=True)
        first = False
""".replace("LINES", str(LINES))


def _version_of(body: str) -> int:
    """The version a body holds; fails if it mixes versions or is cut short."""
    lines = body.splitlines(keepends=True)
    assert len(lines) == LINES
    assert len(set(lines)) == 1
    return int(lines[0].split()[1])


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_sigkill_during_saves_never_damages_a_file(vault: Path) -> None:
    store = MemoryStore(vault)
    for name in ("a", "b", "c"):
        store.create(name, f"version 0 {'x' * 70}\n" * LINES, topics=["crash"], extra={"k": name})
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[3]))
    rng = random.Random(7)
    deadline = time.monotonic() + 4.0
    rounds = 0
    last = 0
    while time.monotonic() < deadline or rounds < 3:
        child = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(vault), str(last)],
            stdout=subprocess.PIPE,
            env=env,
        )
        assert child.stdout is not None
        assert child.stdout.readline() == b"ready\n"
        time.sleep(rng.uniform(0.0, 0.15))
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdout.close()
        rounds += 1

        result = MemoryStore(vault, create=False).scan()
        assert result.skipped == []
        assert sorted(m.title for m in result.memories) == ["a", "b", "c"]
        versions = []
        for memory in result.memories:
            assert memory.path is not None
            again = load_memory(memory.path, vault)  # parseable on its own too
            assert again.extra == {"k": memory.title} and again.topics == ["crash"]
            versions.append(_version_of(memory.body))
        # Files are saved in turn, so at most two consecutive versions are on disk.
        assert max(versions) - min(versions) <= 1
        assert min(versions) >= last
        last = max(versions)
    assert last > 0


def test_stale_temp_files_are_cleaned_fresh_ones_and_user_files_kept(vault: Path) -> None:
    stale = vault / ".note.md.ab_cd123.tmp"
    fresh = vault / ".note.md.zz_cd123.tmp"
    users = vault / ".settings.tmp"
    for path in (stale, fresh, users):
        path.write_text("partial", encoding="utf-8")
    old = time.time() - 2 * 3600
    os.utime(stale, (old, old))
    os.utime(users, (old, old))
    MemoryStore(vault).scan()
    assert not stale.exists() and fresh.exists() and users.exists()


def test_a_killed_writes_temp_file_goes_at_the_next_scan_unless_held(vault: Path) -> None:
    dead = vault / ".note.md.de_ad123.tmp"  # left by a process killed mid-write
    held = vault / ".other.md.he_ld123.tmp"  # another process is still writing it
    young = vault / ".third.md.yo_ung12.tmp"  # could be between its write and its rename
    for path in (dead, held, young):
        path.write_text("partial", encoding="utf-8")
    from pixelmem.core.vault.stale_temps import RUN_STARTED

    before_this_run = min(time.time(), RUN_STARTED) - 60  # not one of this process's writes
    for path in (dead, held):
        os.utime(path, (before_this_run, before_this_run))
    with held.open("a"):  # held open, as a live writer holds its temp file
        MemoryStore(vault).scan()
    assert not dead.exists() and held.exists() and young.exists()
