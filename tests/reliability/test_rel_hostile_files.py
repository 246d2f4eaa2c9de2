"""Property: no single hostile file stops a scan or a tool; each is a memory or a skip with a
reason, and the scan cache gives the same answer on the next start (issue 18, items 4-6)."""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from hostile_gen import make_hostile

from pixelmem.core.runtime.tools import PixelmemService
from pixelmem.core.vault.memory_json import memory_json
from pixelmem.core.vault.store import MemoryStore

CASES = 300


def _hostile_vault(vault: Path, seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    (vault / "ok.md").write_text("---\nid: ok-memory\ntitle: fine\n---\nkeyword body\n")
    names: list[str] = []
    for index in range(count):
        names += make_hostile(rng, vault, index)
    return names


def _answer(store: MemoryStore) -> tuple[dict[str, str], dict[str, str]]:
    result = store.scan()
    memories = {str(m.path): m.id for m in result.memories}
    skipped = {str(s.path): s.reason for s in result.skipped}
    return memories, skipped


@pytest.mark.parametrize("seed", [18, 1018])
def test_no_hostile_file_stops_a_scan(vault: Path, seed: int) -> None:
    _hostile_vault(vault, seed, CASES)
    started = time.perf_counter()
    memories, skipped = _answer(MemoryStore(vault))
    assert time.perf_counter() - started < 20
    assert str(vault / "ok.md") in memories
    assert all(reason.strip() for reason in skipped.values())
    store = MemoryStore(vault)
    for memory in store.list():  # every memory can be shown, as text and as JSON
        shown = store.get(memory.id)
        json.dumps(memory_json(shown, with_body=True), ensure_ascii=False).encode("utf-8")
        shown.title.encode("utf-8")
    # The next start answers the same from the scan cache.
    assert _answer(MemoryStore(vault)) == (memories, skipped)


def test_every_mcp_tool_answers_over_a_hostile_vault(vault: Path) -> None:
    _hostile_vault(vault, 7, 120)
    service = PixelmemService(vault)
    listed = service.list_memories(limit=500)
    ids = [item["id"] for item in listed["memories"]]
    assert "ok-memory" in ids
    for memory_id in ids:
        assert service.get_memory(memory_id)["id"] == memory_id
    found = service.semantic_search("keyword", mode="keyword")
    assert any(item["id"] == "ok-memory" for item in found["results"])
