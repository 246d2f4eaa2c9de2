"""One hostile file is a skip with a reason, never a stopped scan (issue 18, items 4 and 5)."""

from __future__ import annotations

import json
import os
import time
import tracemalloc
from pathlib import Path

import pytest

from pixelmem.core.vault import ids, scan_cache
from pixelmem.core.vault.memory_json import memory_json
from pixelmem.core.vault.store import MemoryStore
from pixelmem.core.vault.yaml_guard import MAX_NESTING, depth_bound

OK = "---\nid: ok-memory\ntitle: fine\n---\nbody\n"


def _scan(vault: Path) -> tuple[dict[str, str], dict[str, str]]:
    (vault / "ok.md").write_text(OK)
    result = MemoryStore(vault).scan()
    skipped = {s.path.name: s.reason for s in result.skipped}
    return {m.path.name: m.id for m in result.memories if m.path}, skipped


@pytest.mark.parametrize(
    "value",
    [
        "9999-12-31T23:59:59-12:00",
        "0001-01-01T00:00:00+12:00",
        "9999-12-31",
        "[9999-12-31T23:59:59Z]",
        "{when: 0001-01-01}",
    ],
)
def test_an_out_of_range_date_is_a_skip_with_a_reason(vault: Path, value: str) -> None:
    (vault / "a.md").write_text(f"---\ntitle: t\ncreated: {value}\n---\nx\n")
    memories, skipped = _scan(vault)
    assert "ok.md" in memories
    assert "out of range" in skipped["a.md"]


def test_an_out_of_range_date_as_text_falls_back_to_the_file_time(vault: Path) -> None:
    (vault / "a.md").write_text("---\ntitle: t\ncreated: '9999-12-31T23:59:59-12:00'\n---\nx\n")
    memories, _ = _scan(vault)
    memory = MemoryStore(vault).get(memories["a.md"])
    assert memory.created is not None and memory.created.year > 2000


def test_a_file_time_out_of_range_is_not_an_error(vault: Path) -> None:
    (vault / "a.md").write_text("---\ntitle: t\n---\nx\n")
    try:
        os.utime(vault / "a.md", ns=(0, 300_000_000_000 * 10**9))  # year ~11,500
    except (OSError, OverflowError):
        pytest.skip("the file system cannot store that time")
    memories, skipped = _scan(vault)
    assert "a.md" in memories, skipped


def test_a_symlink_loop_is_a_skip_with_a_reason(vault: Path) -> None:
    os.symlink("b.md", vault / "a.md")
    os.symlink("a.md", vault / "b.md")
    os.symlink("self.md", vault / "self.md")
    memories, skipped = _scan(vault)
    assert "ok.md" in memories
    assert set(skipped) == {"a.md", "b.md", "self.md"}
    assert all("symbolic links" in reason for reason in skipped.values())


def test_a_file_name_that_is_not_utf8_is_a_memory(vault: Path) -> None:
    raw = os.path.join(os.fsencode(vault), b"caf\xe9 \xff.md")
    with open(raw, "wb") as handle:
        handle.write(b"no frontmatter here\n")
    memories, skipped = _scan(vault)
    assert not skipped
    name = os.fsdecode(b"caf\xe9 \xff.md")
    memory = MemoryStore(vault).get(memories[name])
    assert memory.id == ids.path_id(name)
    assert memory.title == "caf\ufffd \ufffd"
    json.dumps(memory_json(memory, with_body=True), ensure_ascii=False).encode("utf-8")
    assert MemoryStore(vault).scan().memories  # and again, through the scan cache


@pytest.mark.parametrize("depth", [MAX_NESTING + 1, 1000, 200_000])
@pytest.mark.parametrize("style", ["flow", "map", "block"])
def test_deep_nesting_is_a_quick_skip(vault: Path, depth: int, style: str) -> None:
    if style == "flow":
        value = "[" * depth + "]" * depth
    elif style == "map":
        value = "{a: " * depth + "1" + "}" * depth
    else:
        value = "\n" + "\n".join(" " * i + "- " for i in range(min(depth, 5000))) + "x"
    (vault / "deep.md").write_text(f"---\ntitle: t\nx: {value}\n---\nx\n")
    started = time.perf_counter()
    memories, skipped = _scan(vault)
    assert time.perf_counter() - started < 1
    assert "ok.md" in memories
    reason = skipped["deep.md"]
    assert "nest" in reason or "larger than" in reason  # ours, or newer PyYAML's own depth limit


def test_nesting_at_the_limit_can_be_shown_and_edited(vault: Path) -> None:
    depth = MAX_NESTING - 1  # the mapping itself is one level
    value = "[" * depth + "]" * depth
    (vault / "deep.md").write_text(f"---\nid: deep\ntitle: t\nx: {value}\ny: 1\n---\nx\n")
    store = MemoryStore(vault)
    memory = store.get("deep")
    json.dumps(memory_json(memory, with_body=True))
    memory.title = "edited"
    started = time.perf_counter()
    store.update(memory)
    assert time.perf_counter() - started < 1
    assert f"x: {value}\n" in (vault / "deep.md").read_text()


def test_the_depth_bound_never_underestimates() -> None:
    assert depth_bound("a: [[1]]") >= 3
    assert depth_bound("a:\n- - - x\n") >= 4
    assert depth_bound("a:\n  b:\n    c: 1\n") >= 3


def billion_laughs(levels: int = 9, width: int = 9) -> str:
    lines = [f"l0: &l0 [{', '.join(['lol'] * width)}]"]
    for level in range(1, levels):
        lines.append(f"l{level}: &l{level} [{', '.join([f'*l{level - 1}'] * width)}]")
    return "\n".join(lines) + "\n"


def test_billion_laughs_is_skipped_within_a_second_and_100_mb(vault: Path) -> None:
    (vault / "lol.md").write_text(f"---\n{billion_laughs()}---\nx\n")
    tracemalloc.start()
    started = time.perf_counter()
    _, skipped = _scan(vault)
    elapsed = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert elapsed < 1 and peak < 100 * 1024 * 1024
    assert "aliases expand" in skipped["lol.md"]
    started = time.perf_counter()
    assert _scan(vault)[1] == skipped  # the next start, from the scan cache
    assert time.perf_counter() - started < 1
    cache_file = vault / ".pixelmem" / scan_cache.CACHE_FILENAME
    assert cache_file.stat().st_size < 10_000


def test_a_file_with_aliases_is_read_but_never_cached_expanded(vault: Path) -> None:
    (vault / "a.md").write_text("---\nid: a1\ntitle: t\nx: &a [1, 2]\ny: *a\n---\nx\n")
    memories, skipped = _scan(vault)
    assert memories["a.md"] == "a1" and not skipped
    assert MemoryStore(vault).get("a1").extra == {"x": [1, 2], "y": [1, 2]}
    cache = scan_cache.ScanCache.load(vault / ".pixelmem" / scan_cache.CACHE_FILENAME)
    assert len(cache.entries["a.md"]) == 4  # the signature alone: parsed on every start


def test_frontmatter_over_the_size_cap_is_skipped(vault: Path) -> None:
    items = "- x\n" * 100_000
    (vault / "big.md").write_text(f"---\ntitle: t\nitems:\n{items}---\nx\n")
    _, skipped = _scan(vault)
    assert "frontmatter larger than" in skipped["big.md"]


def test_reloading_a_symlink_loop_is_not_an_error(vault: Path) -> None:
    store = MemoryStore(vault)
    store.scan()
    os.symlink("loop.md", vault / "loop.md")
    assert store.reload_path(vault / "loop.md") is None
