"""How current a runtime keeps its vault for the calls it answers: one policy per adapter.

Every adapter follows the vault with the watcher and indexes on the lane; they differ only in
what a call may wait for. The app shows progress and never waits. ``pixelmem serve`` answers
many clients at once: a search never waits, a write waits (a while) until its memory is
searchable. ``pixelmem mcp`` serves one AI client that often has just written a file with
another tool: each call first compares the files' signatures (the events may not have arrived
yet), and a search waits until the index holds every change known at the call (its keyword
side at least: never for a long re-embedding, whose searches answer by keyword meanwhile).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Freshness:
    check_each_call: bool = False  # compare the files' signatures before each call
    search_waits: float = 0.0  # seconds a search waits for the index to hold known changes
    write_waits: float = 0.0  # seconds a write waits until what it wrote is searchable
    index_at_start: bool = True  # the first index run starts with the runtime
    rescan_threshold: int = 200  # more changed files than this in one batch: one rescan


APP = Freshness(index_at_start=False)  # the app indexes once the list has painted
SERVICE = Freshness(write_waits=10.0)
STDIO = Freshness(check_each_call=True, search_waits=60.0, write_waits=10.0)
