"""Temp files that killed writes left in ``.pixelmem/`` go at the next start, unless a live
process still holds them (issue 18, item 11)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pixelmem.core.vault.stale_temps import open_files
from pixelmem.core.vault.store import MemoryStore

HOUR_AGO = time.time() - 2 * 3600


def _temp(folder: Path, name: str, *, mtime: float = HOUR_AGO) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(b"partial")
    os.utime(path, (mtime, mtime))
    return path


def test_leftover_temps_are_removed_at_start(vault: Path) -> None:
    appdata = vault / ".pixelmem"
    gone = [
        _temp(appdata, ".embeddings.msgpack.zst.abcd_123.tmp"),
        _temp(appdata, ".scan-cache-1a2b3c4d.msgpack.zst.zz99zz99.tmp"),
        _temp(appdata / "inbox", ".draft.md.q1w2e3r4.tmp"),
    ]
    kept = [
        _temp(appdata, ".embeddings.msgpack.zst.recent12.tmp", mtime=time.time()),
        _temp(appdata / "trash", ".note.md.abcdefgh.tmp"),  # the trash holds user files
        _temp(appdata, "embeddings.msgpack.zst"),
        _temp(appdata, ".not-ours.tmp"),
    ]
    MemoryStore(vault)
    assert not any(path.exists() for path in gone)
    assert all(path.exists() for path in kept)


@pytest.mark.skipif(open_files() is None, reason="open files cannot be listed here")
def test_a_temp_held_by_a_live_process_is_kept(vault: Path) -> None:
    temp = _temp(vault / ".pixelmem", ".embeddings.msgpack.zst.held1234.tmp")
    holder = subprocess.Popen(
        [sys.executable, "-c", f"f = open({str(temp)!r}, 'rb'); print('ok', flush=True); input()"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == b"ok"
        MemoryStore(vault)
        assert temp.exists()
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    MemoryStore(vault)
    assert not temp.exists()


def test_temps_of_writes_killed_mid_way_are_cleaned(vault: Path) -> None:
    appdata = vault / ".pixelmem"
    appdata.mkdir()
    script = (
        "import os, signal, sys, tempfile\n"
        "fd, name = tempfile.mkstemp(prefix='.embeddings.msgpack.zst.', suffix='.tmp',"
        f" dir={str(appdata)!r})\n"
        "os.write(fd, b'x' * 100000)\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    for _ in range(5):
        subprocess.run([sys.executable, "-c", script], check=False)
    temps = list(appdata.glob(".*.tmp"))
    assert len(temps) == 5
    for path in temps:
        os.utime(path, (HOUR_AGO, HOUR_AGO))
    MemoryStore(vault)
    assert list(appdata.glob(".*.tmp")) == []
