"""Property: hostile MCP tool arguments get a PixelmemError (a tool error the client sees),
never another exception; the service keeps answering (issue 18)."""

from __future__ import annotations

import contextlib
import random
from pathlib import Path

from pixelmem.core.errors import PixelmemError
from pixelmem.core.runtime.tools import PixelmemService
from pixelmem.core.vault.store import MemoryStore

CASES = 300
# The SDK checks argument types against the tool schema; the values are the service's job.
HOSTILE_TEXT = [
    "",
    " ",
    "../../etc/passwd",
    "/etc/passwd",
    "C:\\x",
    "\x00",
    "a" * 10_000,
    "\ud800",
    "id\n",
    "..",
    "%2e%2e%2f",
    "x" * 129,
    "数据库",
    "path-000000000000",
]
HOSTILE_INT = [0, -1, 10**30, 21, 501, 1, 5, 20]


def test_hostile_arguments_are_tool_errors(vault: Path) -> None:
    MemoryStore(vault).create("Espresso", "coffee ratio")
    service = PixelmemService(vault)
    rng = random.Random(12)
    calls = [
        lambda a, b: service.get_memory(a),
        lambda a, b: service.list_memories(topic=a, limit=b),
        lambda a, b: service.semantic_search(a, limit=b, mode="keyword"),
        lambda a, b: service.semantic_search("coffee", limit=5, mode=a),
    ]
    for _ in range(CASES):
        call = rng.choice(calls)
        with contextlib.suppress(PixelmemError):  # a tool error; anything else fails
            call(rng.choice(HOSTILE_TEXT), rng.choice(HOSTILE_INT))
    assert service.list_memories()["memories"][0]["title"] == "Espresso"
