"""Soak: `pixelmem serve` killed with SIGKILL in the middle of bursts of writes; is anything lost?

    .venv/bin/python benchmarks/soak_service_kill.py [--kills 12] [--writers 4] [--seed 26]

A vault with ``mcp_writes: direct`` is served; each round, ``--writers`` threads create and edit
memories over REST as fast as they can (POST, then PATCH with the ETag) while the vault is also
edited from outside, until the server is SIGKILLed at a random moment. Then a new server starts
on the same vault and every write the service *acknowledged* (201/200 received) is checked:

* its file exists, parses, and holds at least the acknowledged text (a later write of the same
  memory that was cut off may hold more, never less);
* no memory file is left half-written, and no temp file of a write lies in the vault;
* the outside edits all survive (no write replaced a file changed by another program).

Printed: rounds, acknowledged writes, lost or damaged ones (target 0 for both), temp files
left, and the time each restart took to answer. Not a unit test: a soak, run by hand.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "service"))

from serve_helpers import Server, write_settings  # noqa: E402

from pixelmem.core.vault.store import MemoryStore  # noqa: E402

_VERSION = re.compile(r"(?P<name>w\d+) version (?P<n>\d+) x+")


def writer(
    http: httpx.Client,
    name: str,
    stop: threading.Event,
    acked: dict[str, str],
    rng: random.Random,
    count: list[int],
) -> None:
    """Create a memory, then keep editing it; remember the last text the server acknowledged."""
    memory_id, etag, n = "", "", 0
    while not stop.is_set():
        n += 1
        body = f"{name} version {n} " + "x" * rng.randrange(10, 400)
        try:
            if not memory_id:
                answer = http.post("/v1/memories", json={"title": f"{name} note", "body": body})
                if answer.status_code == 201:
                    memory_id, etag = answer.json()["id"], answer.headers["etag"]
                    acked[memory_id] = body
                    count.append(1)
                continue
            answer = http.patch(
                f"/v1/memories/{memory_id}", json={"body": body}, headers={"If-Match": etag}
            )
            if answer.status_code == 200:
                etag = answer.headers["etag"]
                acked[memory_id] = body
                count.append(1)
            elif answer.status_code == 409:  # someone else wrote it: read the new ETag
                etag = http.get(f"/v1/memories/{memory_id}").headers.get("etag", etag)
        except httpx.HTTPError:
            return  # the server is gone


def outside_editor(vault: Path, stop: threading.Event, edits: list[tuple[Path, str]]) -> None:
    """An editor appending a line to notes of its own, saving by rename."""
    n = 0
    folder = vault / "outside"
    folder.mkdir(exist_ok=True)
    while not stop.is_set():
        n += 1
        path = folder / f"editor-{n % 5}.md"
        text = f"---\ntitle: Outside {n % 5}\n---\nline {n}\n"
        tmp = path.with_suffix(".md~")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
        edits.append((path, text))
        time.sleep(0.01)


def check(vault: Path, acked: dict[str, str], edits: list[tuple[Path, str]]) -> dict[str, int]:
    store = MemoryStore(vault)
    found = {m.id: m for m in store.scan().memories}
    lost = damaged = 0
    for memory_id, body in acked.items():
        memory = found.get(memory_id)
        if memory is None:
            lost += 1
            continue
        on_disk = _VERSION.fullmatch(memory.body.strip())
        wanted = _VERSION.fullmatch(body.strip())
        assert wanted is not None
        if on_disk is None or on_disk["name"] != wanted["name"]:
            damaged += 1  # not a whole version of this writer's text
        elif int(on_disk["n"]) < int(wanted["n"]):
            lost += 1  # an acknowledged edit was rolled back
    last_outside: dict[Path, str] = {}
    for path, text in edits:
        last_outside[path] = text
    outside_lost = sum(1 for path, text in last_outside.items() if path.read_text("utf-8") != text)
    temps = sum(1 for p in vault.rglob("*.tmp") if ".pixelmem" not in p.parts)
    return {
        "lost": lost,
        "damaged": damaged,
        "outside_lost": outside_lost,
        "temps": temps,
        "skipped": len(store.skipped),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=12)
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--seed", type=int, default=26)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    totals: dict[str, Any] = {"rounds": 0, "acknowledged_writes": 0, "restart_s": []}
    count: list[int] = []
    with tempfile.TemporaryDirectory(prefix="pixelmem-kill-soak-") as folder:
        root = Path(folder)
        vault, config = root / "vault", root / "config"
        MemoryStore(vault).create("Seed", "the first memory")
        write_settings(config, embedding__provider="local", mcp_writes="direct")
        acked: dict[str, str] = {}
        edits: list[tuple[Path, str]] = []
        for _ in range(args.kills):
            started = time.perf_counter()
            server = Server(vault, config, root / "server.log")
            totals["restart_s"].append(round(time.perf_counter() - started, 2))
            stop = threading.Event()
            threads = [
                threading.Thread(
                    target=writer,
                    args=(
                        server.client(),
                        f"w{i}",
                        stop,
                        acked,
                        random.Random(rng.random()),
                        count,
                    ),
                )
                for i in range(args.writers)
            ]
            threads.append(threading.Thread(target=outside_editor, args=(vault, stop, edits)))
            for thread in threads:
                thread.start()
            time.sleep(rng.uniform(1.0, 4.0))
            server.process.send_signal(signal.SIGKILL)
            server.process.wait(10)
            stop.set()
            for thread in threads:
                thread.join(30)
            server.stop()
            totals["rounds"] += 1
        totals["acknowledged_writes"] = len(count)
        totals["memories"] = len(acked)
        totals.update(check(vault, acked, edits))
    print(json.dumps(totals, indent=1))
    bad = totals["lost"] or totals["damaged"] or totals["outside_lost"] or totals["temps"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
