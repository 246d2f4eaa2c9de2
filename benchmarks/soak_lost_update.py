"""Two writers, one file: pixelmem saving edits while another program saves by rename.

    .venv/bin/python benchmarks/soak_lost_update.py [--outside-saves 36000] [--naive-saves 3000]
        [--pause-ms 1.0]

The outside writer is a plain editor in its own process: read the file, append a token
``o<N>``, write a sibling temp file and rename it over — no lock, no check. pixelmem reads the
memory, appends ``p<N>`` to its body and saves with ``MemoryStore.update`` (conflict check
included), as fast as it can. Every outside save keeps all tokens it read, so an outside token
missing from the final file was dropped by a pixelmem save that overwrote it: a lost update.

The same run is repeated with the naive save (check, then ``os.replace``: what pixelmem did
before the checked replace) for comparison. Target (issue 18): 0 lost updates.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import random
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pixelmem.core.errors import ConflictError
from pixelmem.core.files.atomic import atomic_write_bytes
from pixelmem.core.vault import store as store_module
from pixelmem.core.vault.store import MemoryStore
from pixelmem.core.vault.vault_scan import load_memory

_OUTSIDE = re.compile(r"\bo(\d+)\b")
_PIXELMEM = re.compile(r"\bp(\d+)\b")


def outside_writer(path: str, saves: int, pause: float, started: Any, done: Any) -> None:
    """An editor saving by rename ``saves`` times, up to ``pause`` seconds apart."""
    started.set()
    tmp = path + ".editor~"
    rng = random.Random(0)
    for n in range(saves):
        time.sleep(rng.uniform(0, pause))
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(text.rstrip("\n") + f" o{n}\n")
        os.replace(tmp, path)
    done.set()


def pixelmem_saves(store: MemoryStore, path: Path, done: Any) -> tuple[int, set[int]]:
    """Read-edit-save until the outside writer is done: (saves, tokens of refused saves)."""
    saves = n = 0
    refused: set[int] = set()
    while not done.is_set():
        n += 1
        try:
            memory = load_memory(path, store.root)
        except Exception:  # caught between an editor's truncate and write: read again
            continue
        memory.body = memory.body.rstrip("\n") + f" p{n}\n"
        try:
            store.update(memory)
            saves += 1
        except ConflictError:
            refused.add(n)
    return saves, refused


def run(label: str, outside: int, pause: float) -> dict[str, int]:
    with tempfile.TemporaryDirectory(prefix="pixelmem-soak-") as folder:
        store = MemoryStore(Path(folder))
        memory = store.create("Shared note", "start\n")
        assert memory.path is not None
        path = Path(memory.path)
        started, done = mp.Event(), mp.Event()
        writer = mp.Process(target=outside_writer, args=(str(path), outside, pause, started, done))
        writer.start()
        started.wait()
        t0 = time.perf_counter()
        saves, refused = pixelmem_saves(store, path, done)
        writer.join()
        seconds = time.perf_counter() - t0
        final = path.read_text(encoding="utf-8")
        beside = "".join(p.read_text() for p in path.parent.glob("* (conflict *"))
    present = {int(m) for m in _OUTSIDE.findall(final)}
    kept_beside = {int(m) for m in _OUTSIDE.findall(beside)} - present
    lost = outside - len(present & set(range(outside))) - len(kept_beside)
    # A refused save's token in the final file: the outside writer read our version in the
    # microseconds before the swap back and saved on top of it.
    built_on_refused = len(refused & {int(m) for m in _PIXELMEM.findall(final)})
    conflicts = len(refused)
    result = {"outside": outside, "pixelmem": saves, "conflicts": conflicts, "lost": lost}
    print(
        f"{label:8} outside saves {outside:>7,}  pixelmem saves {saves:>7,}  "
        f"conflicts detected {conflicts:>6,}  lost updates {lost:>6,}  "
        f"kept as conflict files {len(kept_beside)}  outside saves built on a refused "
        f"version {built_on_refused}  ({seconds:.1f} s)",
        flush=True,
    )
    return result


def naive_replace(path: Path, data: bytes, expected_hash: str | None) -> None:
    """The old save: the store has checked the hash; write a temp file and rename it over."""
    atomic_write_bytes(path, data)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--outside-saves", type=int, default=36000)
    parser.add_argument("--naive-saves", type=int, default=3000)
    parser.add_argument("--pause-ms", type=float, default=1.0, help="outside writer, at most")
    args = parser.parse_args()
    mp.set_start_method("fork")
    checked = run("checked", args.outside_saves, args.pause_ms / 1000)
    original = store_module.checked_replace
    store_module.checked_replace = naive_replace  # type: ignore[assignment]
    try:
        naive = run("naive", args.naive_saves, args.pause_ms / 1000)
    finally:
        store_module.checked_replace = original
    print(
        f"lost: checked {checked['lost']} of {checked['outside']:,}; "
        f"naive {naive['lost']} of {naive['outside']:,}"
    )
    sys.exit(1 if checked["lost"] else 0)


if __name__ == "__main__":
    main()
