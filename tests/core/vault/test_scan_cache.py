"""The scan cache: a start on an unchanged vault reuses the last scan's parse of every file,
and gives exactly what a full parse would."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from datetime import date, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import zstandard

from pixelmem.core.errors import ConflictError, MemoryNotFound
from pixelmem.core.vault import scan_cache, vault_scan
from pixelmem.core.vault.memory import Memory, preview_line
from pixelmem.core.vault.scan_cache import CACHE_FILENAME, ScanCache, ScanSession
from pixelmem.core.vault.store import MemoryStore
from pixelmem.core.vault.vault_scan import ScanResult

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from benchmarks._vaultgen import generate_vault

DUPLICATE_ID = "0123456789abcdef0123456789abcdef"
EXTRA_TYPES = """---
id: 5f3c1f0e9a6b4c2d8e7f6a5b4c3d2e1f
title: 各种类型 with every YAML type
created: 2024-03-01 09:30:00+05:30
updated: 2024-03-02
topics: [数据库, types]
importance: high
source: 42
a set: !!set {a, b}
omap: !!omap [{x: 1}, {y: 2}]
blob: !!binary aGVsbG8=
big: 123456789012345678901234567890
negative: -123456789012345678901234567890
day: 2024-01-02
moment: 2024-01-02T10:00:00Z
offset: 2024-01-02 10:00:00.123456-03:00
naive: 2024-01-02 10:00:00
nested: {1: one, 2024-01-01: new year, deep: [1, 2.5, true, null, {k: [a, b]}]}
flag: yes
nothing:
float: -0.0
huge: 1e400
---
Body with CJK 中文 text.
"""


class DateSubclass(date):
    pass


class Opaque:
    """A value msgpack cannot carry (YAML never makes one; this stands for the unforeseen)."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Opaque)

    __hash__ = object.__hash__


@pytest.fixture
def no_racy_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """Trust entries as soon as the scan that wrote them began (files here are seconds old).

    Tests using this make every edit visible in the file's size or an explicit mtime, since
    an edit within the filesystem clock's tick is exactly what the window guards against.
    """
    monkeypatch.setattr(scan_cache, "RACY_WINDOW_NS", 0)
    monkeypatch.setattr(scan_cache, "FINE_RACY_WINDOW_NS", 0)


@pytest.fixture
def long_racy_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """Files written during the test stay racy whatever the machine's speed."""
    monkeypatch.setattr(scan_cache, "RACY_WINDOW_NS", 60_000_000_000)
    monkeypatch.setattr(scan_cache, "FINE_RACY_WINDOW_NS", 60_000_000_000)


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Names of the files the store reads and parses (the misses of the cache)."""
    seen: list[str] = []
    original = vault_scan.load_with_document

    def counting(path: Path, vault_root: Path, rule: Any = None) -> tuple[Memory, Any]:
        seen.append(Path(path).name)
        return original(path, vault_root, rule)

    monkeypatch.setattr(vault_scan, "load_with_document", counting)
    return seen


@pytest.fixture
def rich_vault(vault: Path) -> Path:
    """A generated vault (CJK, foreign files, sub-folders) plus files that are hard to read."""
    generate_vault(vault, 120, seed=7)
    (vault / "类型.md").write_text(EXTRA_TYPES, encoding="utf-8")
    (vault / "plain note.md").write_text("no frontmatter, no heading\n", encoding="utf-8")
    (vault / "crlf.md").write_bytes(b"---\r\ntitle: CRLF\r\ntags: [a]\r\n---\r\nbody\r\n")
    (vault / "bom.md").write_bytes("\ufeff---\ntitle: BOM\n---\n# 标题\n".encode())
    (vault / "dup-a.md").write_text(f"---\nid: {DUPLICATE_ID}\ntitle: A\n---\na\n")
    (vault / "dup-b.md").write_text(f"---\nid: {DUPLICATE_ID}\ntitle: B\n---\nb\n")
    bad = vault / "bad"
    bad.mkdir()
    (bad / "empty.md").write_text("  \n")
    (bad / "binary.md").write_bytes(b"---\ntitle: x\n---\n\x00\x01")
    (bad / "latin1.md").write_bytes("caf\xe9\n".encode("latin-1"))
    (bad / "yaml.md").write_text("---\ntitle: [unclosed\n---\nbody\n")
    (bad / "not-a-map.md").write_text("---\n- a list\n---\nbody\n")
    (vault / "link.md").symlink_to(vault / "crlf.md")
    return vault


def scan(vault: Path) -> ScanResult:
    """A scan by a new store, as a fresh process would do it."""
    return MemoryStore(vault, create=False).scan()


def cache_file(vault: Path) -> Path:
    return vault / ".pixelmem" / CACHE_FILENAME


def file_state(path: Path) -> tuple[int, int]:
    info = path.stat()
    return info.st_mtime_ns, info.st_ino


def typed(value: Any) -> Any:
    """``value`` with every leaf paired with its type (so True != 1 and 1.0 != 1)."""
    if isinstance(value, dict):
        return ("dict", [(typed(k), typed(v)) for k, v in value.items()])
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [typed(v) for v in value])
    if isinstance(value, (set, frozenset)):
        return (type(value).__name__, sorted(map(repr, value)))
    if isinstance(value, datetime):
        return ("datetime", value.isoformat(), repr(value.tzinfo))
    return (type(value).__name__, repr(value))


def snapshot(result: ScanResult) -> tuple[list[Any], list[Any]]:
    memories = [typed(vars(memory)) for memory in result.memories]
    return memories, [(s.path, s.reason) for s in result.skipped]


def assert_same(warm: ScanResult, cold: ScanResult) -> None:
    assert warm.memories == cold.memories  # dataclass equality: every field
    assert snapshot(warm) == snapshot(cold)  # and every value's type, in the same order


def file_signature(path: Path) -> Iterator[int]:
    info = path.stat()
    yield from (info.st_mtime_ns, info.st_size, info.st_ino, info.st_ctime_ns)


def edit_keeping_size(path: Path, old: str, new: str) -> None:
    assert len(old.encode()) == len(new.encode())
    path.write_text(path.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")


# ---------------------------------------------------------------- same results as a full parse


def test_warm_scan_equals_cold_scan(
    rich_vault: Path, no_racy_window: None, parses: list[str]
) -> None:
    cold = scan(rich_vault)
    assert cache_file(rich_vault).is_file()
    assert {s.path.name for s in cold.skipped} == {
        "empty.md",
        "binary.md",
        "latin1.md",
        "yaml.md",
        "not-a-map.md",
    }
    parses.clear()

    warm = scan(rich_vault)

    assert parses == []  # nothing read or parsed again, skipped files included
    assert_same(warm, cold)
    typed_memory = next(m for m in warm.memories if m.path and m.path.name == "类型.md")
    assert typed_memory.extra["a set"] == {"a", "b"}
    assert typed_memory.extra["omap"] == [("x", 1), ("y", 2)]
    assert typed_memory.extra["big"] == 123456789012345678901234567890
    assert typed_memory.extra["day"] == date(2024, 1, 2)
    assert typed_memory.extra["nested"][1] == "one"


def test_list_get_and_duplicate_ids_behave_as_without_a_cache(
    rich_vault: Path, no_racy_window: None
) -> None:
    cold_store = MemoryStore(rich_vault)
    cold_store.scan()
    warm_store = MemoryStore(rich_vault)
    warm_store.scan()

    assert warm_store.list() == cold_store.list()
    assert warm_store.skipped == cold_store.skipped
    first = warm_store.get(DUPLICATE_ID)
    assert first.title == "A" and first.has_id
    second = next(m for m in warm_store.list() if m.title == "B")
    assert not second.has_id and second.id != DUPLICATE_ID

    (rich_vault / "dup-a.md").unlink()  # the other file now owns the id again
    again = scan(rich_vault)
    owner = next(m for m in again.memories if m.title == "B")
    assert owner.id == DUPLICATE_ID and owner.has_id


def test_dirty_check_works_on_cached_memories(vault: Path, no_racy_window: None) -> None:
    memory = MemoryStore(vault).create("Cached", "body\n")
    store = MemoryStore(vault)
    store.scan()
    cached = store.get(memory.id)
    assert cached.disk_hash == memory.disk_hash
    assert cached.disk_mtime_ns == memory.disk_mtime_ns

    cached.body = "edited\n"
    saved = store.update(cached)  # the file is as cached: no conflict
    assert saved.body == "edited\n"

    later = MemoryStore(vault)
    later.scan()
    stale = later.get(memory.id)
    assert stale.body == "edited\n"
    assert stale.path is not None
    stale.path.write_text(stale.path.read_text() + "changed elsewhere\n")
    stale.body = "mine\n"
    with pytest.raises(ConflictError):
        later.update(stale)


# ---------------------------------------------------------------- changes are noticed


def test_unchanged_vault_does_not_rewrite_the_cache(rich_vault: Path, no_racy_window: None) -> None:
    scan(rich_vault)
    before = file_state(cache_file(rich_vault))
    scan(rich_vault)
    scan(rich_vault)
    assert file_state(cache_file(rich_vault)) == before


def test_edit_with_same_size_and_new_mtime_is_reparsed(
    vault: Path, no_racy_window: None, parses: list[str]
) -> None:
    note = vault / "note.md"
    note.write_text("---\ntitle: Before\n---\nbody\n")
    scan(vault)
    mtime = note.stat().st_mtime_ns
    edit_keeping_size(note, "Before", "Later!")
    os.utime(note, ns=(mtime + 5_000_000_000, mtime + 5_000_000_000))
    parses.clear()

    result = scan(vault)

    assert parses == ["note.md"]
    assert [m.title for m in result.memories] == ["Later!"]
    assert result.memories[0].disk_mtime_ns == mtime + 5_000_000_000


def test_replacement_with_same_mtime_but_other_size_is_reparsed(
    vault: Path, no_racy_window: None
) -> None:
    note = vault / "note.md"
    note.write_text("---\ntitle: Short\n---\nbody\n")
    scan(vault)
    info = note.stat()
    note.write_text("---\ntitle: A much longer title\n---\nbody\n")
    os.utime(note, ns=(info.st_atime_ns, info.st_mtime_ns))

    result = scan(vault)

    assert [m.title for m in result.memories] == ["A much longer title"]
    assert result.memories[0].disk_mtime_ns == info.st_mtime_ns


def test_same_size_edit_with_mtime_set_back_is_caught_by_ctime(
    vault: Path, no_racy_window: None
) -> None:
    note = vault / "note.md"
    note.write_text("---\ntitle: Before\n---\nbody\n")
    scan(vault)
    info = note.stat()
    time.sleep(0.05)  # past the filesystem clock's tick, so the ctime differs
    edit_keeping_size(note, "Before", "Sneaky")
    os.utime(note, ns=(info.st_atime_ns, info.st_mtime_ns))  # sets ctime to now
    assert (note.stat().st_size, note.stat().st_mtime_ns) == (info.st_size, info.st_mtime_ns)

    assert [m.title for m in scan(vault).memories] == ["Sneaky"]


def test_edit_within_the_same_clock_tick_is_caught_by_the_racy_window(
    vault: Path, long_racy_window: None, parses: list[str]
) -> None:
    """A file as new as the scan that cached it is parsed again next time, so an edit keeping
    size, mtime, inode and even ctime (same clock tick) is never missed."""
    note = vault / "note.md"
    note.write_text("---\ntitle: Before\n---\nbody\n")
    scan(vault)
    info = note.stat()
    edit_keeping_size(note, "Before", "Sneaky")
    os.utime(note, ns=(info.st_atime_ns, info.st_mtime_ns))
    parses.clear()

    assert [m.title for m in scan(vault).memories] == ["Sneaky"]
    assert parses == ["note.md"]


def test_racy_entries_are_reparsed_until_old_enough_then_cached(
    vault: Path, long_racy_window: None, parses: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for i in range(3):
        (vault / f"n{i}.md").write_text(f"# Note {i}\n")
    scan(vault)
    written = file_state(cache_file(vault))
    parses.clear()

    scan(vault)  # all three are seconds old: not trusted yet, and still racy afterwards

    assert sorted(parses) == ["n0.md", "n1.md", "n2.md"]
    assert file_state(cache_file(vault)) == written  # nothing gained by a rewrite
    later = time.time_ns() + 61_000_000_000
    monkeypatch.setattr(scan_cache, "time", SimpleNamespace(time_ns=lambda: later))
    parses.clear()
    scan(vault)  # a scan seconds later: re-parsed once more, now trustworthy, so saved
    assert sorted(parses) == ["n0.md", "n1.md", "n2.md"]
    assert file_state(cache_file(vault)) != written
    parses.clear()
    scan(vault)
    assert parses == []


def test_a_cache_entry_as_new_as_its_scan_is_not_trusted(
    vault: Path, long_racy_window: None
) -> None:
    """A forged entry matching the file's stat but holding another parse is ignored while
    the file is within the racy window of the stamp (what a same-tick edit looks like)."""
    note = vault / "note.md"
    note.write_text("---\ntitle: Real\n---\nbody\n")
    sig = [*file_signature(note)]
    fields: list[Any] = ["x" * 32, "Stale", "", [], "medium", None, None, None, {}, False, "0" * 64]
    fields.append([])  # aliases
    lie: list[Any] = [*sig, *fields]
    ScanCache({"note.md": lie}, time.time_ns()).save(cache_file(vault))
    assert [m.title for m in scan(vault).memories] == ["Real"]

    old_enough = scan_cache.settled_at(sig) + 1
    ScanCache({"note.md": lie}, old_enough).save(cache_file(vault))
    assert [m.title for m in scan(vault).memories] == ["Stale"]  # trusted: stat unchanged


def test_the_racy_window_follows_the_timestamp_granularity() -> None:
    second = 1_700_000_000 * 1_000_000_000
    fine = second + 123_456_789
    coarse_wait, fine_wait = scan_cache.RACY_WINDOW_NS, scan_cache.FINE_RACY_WINDOW_NS
    assert fine_wait < coarse_wait
    assert scan_cache.settled_at([fine, 1, 1, fine]) == fine + fine_wait
    assert scan_cache.settled_at([second, 1, 1, fine]) == fine + coarse_wait  # FAT, HFS+, zip
    assert scan_cache.settled_at([fine, 1, 1, second]) == fine + coarse_wait
    assert scan_cache.settled_at([second, 1, 1, second + 5]) == second + 5 + coarse_wait


def test_touched_but_identical_file_is_reparsed_once(
    rich_vault: Path, no_racy_window: None, parses: list[str]
) -> None:
    cold = scan(rich_vault)
    written = file_state(cache_file(rich_vault))
    note = rich_vault / "plain note.md"
    mtime = note.stat().st_mtime_ns - 2_000_000_000  # touched to another time in the past
    os.utime(note, ns=(mtime, mtime))
    parses.clear()

    touched = scan(rich_vault)

    assert parses == ["plain note.md"]
    assert file_state(cache_file(rich_vault)) != written  # the new stat is remembered
    changed = next(m for m in touched.memories if m.path == note)
    assert changed.disk_mtime_ns == mtime
    before = next(m for m in cold.memories if m.path == note)
    assert (changed.title, changed.body, changed.disk_hash) == (
        before.title,
        before.body,
        before.disk_hash,
    )
    parses.clear()
    assert scan(rich_vault).memories == touched.memories
    assert parses == []


def test_deleted_and_added_files(rich_vault: Path, no_racy_window: None) -> None:
    store = MemoryStore(rich_vault)
    first = store.scan()
    gone = first.memories[0]
    assert gone.path is not None
    gone.path.unlink()
    (rich_vault / "bad" / "empty.md").unlink()
    (rich_vault / "new.md").write_text("# New one\n")

    store = MemoryStore(rich_vault)
    result = store.scan()

    assert gone.id not in {m.id for m in result.memories}
    with pytest.raises(MemoryNotFound):
        store.get(gone.id)
    assert "new.md" in {m.path.name for m in result.memories if m.path}
    assert "empty.md" not in {s.path.name for s in result.skipped}
    cached = ScanCache.load(cache_file(rich_vault)).entries
    assert os.path.relpath(gone.path, rich_vault) not in cached
    assert os.path.join("bad", "empty.md") not in cached
    assert "new.md" in cached


def test_a_file_that_becomes_unreadable_or_readable(vault: Path, no_racy_window: None) -> None:
    note = vault / "note.md"
    note.write_text("---\ntitle: Fine\n---\nbody\n")
    scan(vault)
    note.write_bytes(b"---\ntitle: Broken\n---\n\x00")
    result = scan(vault)
    assert result.memories == [] and [s.path for s in result.skipped] == [note]
    assert scan(vault).skipped == result.skipped  # the reason comes from the cache
    note.write_text("---\ntitle: Fixed again\n---\nbody\n")
    assert [m.title for m in scan(vault).memories] == ["Fixed again"]


def test_a_file_that_could_not_be_opened_is_not_cached(
    vault: Path, no_racy_window: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    note = vault / "locked.md"
    note.write_text("# Locked for now\n")
    real_open = vault_scan.open_regular

    def failing_open(path: Any) -> Any:
        if Path(path) == note:
            raise PermissionError(13, "Permission denied")
        return real_open(path)

    monkeypatch.setattr(vault_scan, "open_regular", failing_open)
    result = scan(vault)
    assert [s.path for s in result.skipped] == [note]
    assert "Permission denied" in result.skipped[0].reason
    monkeypatch.undo()
    monkeypatch.setattr(scan_cache, "RACY_WINDOW_NS", 0)

    assert [m.title for m in scan(vault).memories] == ["Locked for now"]


# ---------------------------------------------------------------- a bad cache file is ignored


def _corrupt_truncated(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _corrupt_flipped(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))


def _corrupt_garbage(path: Path) -> None:
    path.write_bytes(b"not a cache at all")


def _corrupt_empty(path: Path) -> None:
    path.write_bytes(b"")


def _corrupt_not_msgpack(path: Path) -> None:
    path.write_bytes(zstandard.ZstdCompressor().compress(b"\xc1\xc1\xc1 no msgpack"))


def _corrupt_other_format(path: Path) -> None:
    cache = ScanCache.load(path)
    assert cache.entries
    packed = scan_cache._pack({"header": {"format": 999, "stamp_ns": 0, "count": 0}, "entries": {}})
    path.write_bytes(zstandard.ZstdCompressor().compress(packed))


def _corrupt_other_code(path: Path) -> None:
    cache = ScanCache.load(path)
    header = {
        "format": scan_cache.FORMAT_VERSION,
        "code": "0.0.0 other",
        "stamp_ns": cache.stamp_ns,
        "count": len(cache.entries),
    }
    payload = scan_cache._pack({"header": header, "entries": cache.entries})
    path.write_bytes(zstandard.ZstdCompressor().compress(payload))


def _corrupt_bad_entries(path: Path) -> None:
    """A well-formed file whose entries hold values this code never writes."""
    cache = ScanCache.load(path)
    entries: dict[str, Any] = {}
    for index, (rel, entry) in enumerate(cache.entries.items()):
        if index % 3 == 0:
            entries[rel] = 17
        elif index % 3 == 1:
            entries[rel] = [*entry[:4], "id", "title", "body", 5]  # wrong length
        else:
            entries[rel] = [*entry[:7], 5, *entry[8:]]  # topics not a list
    ScanCache(entries, cache.stamp_ns).save(path)


def _corrupt_directory(path: Path) -> None:
    path.unlink()
    path.mkdir()


CORRUPTIONS = [
    _corrupt_truncated,
    _corrupt_flipped,
    _corrupt_garbage,
    _corrupt_empty,
    _corrupt_not_msgpack,
    _corrupt_other_format,
    _corrupt_other_code,
    _corrupt_bad_entries,
    _corrupt_directory,
]


@pytest.mark.parametrize("corrupt", CORRUPTIONS)
def test_an_unusable_cache_file_is_ignored_and_rebuilt(
    rich_vault: Path, no_racy_window: None, corrupt: Callable[[Path], None]
) -> None:
    cold = scan(rich_vault)
    corrupt(cache_file(rich_vault))

    assert_same(scan(rich_vault), cold)
    if cache_file(rich_vault).is_file():
        rebuilt = ScanCache.load(cache_file(rich_vault))
        assert len(rebuilt.entries) == len(cold.memories) + len(cold.skipped)


@pytest.mark.parametrize("corrupt", CORRUPTIONS)
def test_an_unusable_cache_file_gives_no_picture_or_a_sound_one(
    rich_vault: Path, no_racy_window: None, corrupt: Callable[[Path], None]
) -> None:
    """The listing is read without the frame's checksum: a damaged file gives no picture, or
    (the damage is past the listing) a picture of sound memories that the scan does not
    confirm unless the vault really is as shown."""
    cold = scan(rich_vault)
    corrupt(cache_file(rich_vault))
    store = MemoryStore(rich_vault, create=False)

    listing = store.cached_listing()
    scanned = store.scan()

    assert all(type(m.id) is str and type(m.title) is str for m in listing)
    assert_same(scanned, cold)
    if scanned.unchanged:
        assert [listed(m) for m in listing] == [listed(m) for m in scanned.memories]


@pytest.mark.parametrize(
    "damage",
    [
        lambda row: row[:5],  # too short
        lambda row: [*row[:2], 17, *row[3:]],  # a title that is not text
        lambda row: [*row[:3], "a,b", *row[4:]],  # topics not a list
        lambda row: [*row[:5], "2024-01-01", *row[6:]],  # a date that is not a date
        lambda row: [*row[:8], 1, row[9]],  # has_id not a flag
        lambda row: "not a row",
    ],
)
def test_a_listing_row_this_code_did_not_write_gives_no_picture(
    rich_vault: Path, no_racy_window: None, damage: Callable[[Any], Any]
) -> None:
    """A well-formed file (valid header, valid msgpack) whose listing holds rows of other
    shapes: no picture at all rather than odd rows in the list; the scan then shows it."""
    cold = scan(rich_vault)
    cache = ScanCache.load(cache_file(rich_vault))
    header = {"format": scan_cache.FORMAT_VERSION, "stamp_ns": cache.stamp_ns}
    rows = cache.listing()
    rows[len(rows) // 2] = damage(rows[len(rows) // 2])
    packed = scan_cache._pack({"header": header, "listing": rows})
    cache_file(rich_vault).write_bytes(zstandard.ZstdCompressor().compress(packed))
    store = MemoryStore(rich_vault, create=False)

    assert store.cached_listing() == []
    assert_same(store.scan(), cold)


def test_a_cache_that_cannot_be_written_changes_nothing(
    rich_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(path: Path, data: bytes) -> None:
        raise PermissionError(13, "read-only")

    monkeypatch.setattr(scan_cache, "atomic_write_bytes", refuse)
    first = scan(rich_vault)
    assert not cache_file(rich_vault).exists()
    assert_same(scan(rich_vault), first)


# ---------------------------------------------------------------- entries that cannot be stored


def test_a_memory_that_cannot_be_stored_exactly_is_parsed_every_time(
    vault: Path, no_racy_window: None, parses: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (vault / "odd.md").write_text("# Odd\n")
    (vault / "plain.md").write_text("# Plain\n")
    counting = vault_scan.load_with_document

    def with_odd_value(path: Path, vault_root: Path, rule: Any = None) -> tuple[Memory, Any]:
        memory, doc = counting(path, vault_root, rule)
        if Path(path).name == "odd.md":
            memory.extra["raw"] = Opaque()
        return memory, doc

    monkeypatch.setattr(vault_scan, "load_with_document", with_odd_value)
    first = scan(vault)
    written = file_state(cache_file(vault))
    parses.clear()

    again = scan(vault)

    assert parses == ["odd.md"]
    assert again.memories == first.memories
    assert file_state(cache_file(vault)) == written  # not rewritten over and over
    entries = ScanCache.load(cache_file(vault)).entries
    assert entries["odd.md"] == [*file_signature(vault / "odd.md")]  # "parse it every time"
    assert len(entries["plain.md"]) > 4


@pytest.mark.parametrize(
    "value",
    [
        datetime(2024, 1, 1, fold=1),
        DateSubclass(2024, 1, 1),
        {"nested": object()},
        [1, frozenset({1})],
    ],
    ids=["fold", "date-subclass", "object", "frozenset"],
)
def test_values_that_would_not_round_trip_are_refused(value: Any, tmp_path: Path) -> None:
    path = tmp_path / CACHE_FILENAME
    session = ScanSession(ScanCache())
    memory = Memory(id="a" * 32, title="t", extra={"v": value})
    session.record("x.md", [1, 2, 3, 4], memory)
    session.record("y.md", [5, 6, 7, 8], "a reason")
    assert session.changed
    session.finish(path)

    saved = ScanCache.load(path)
    assert saved.entries == {"x.md": [1, 2, 3, 4], "y.md": [5, 6, 7, 8, "a reason"]}
    again = ScanSession(saved)
    assert again.cached("x.md", [1, 2, 3, 4], tmp_path / "x.md") is None
    again.record("x.md", [1, 2, 3, 4], memory)
    assert again.cached("y.md", [5, 6, 7, 8], tmp_path / "y.md") == "a reason"
    assert not again.changed


def test_round_trip_keeps_types() -> None:
    values = {
        "set": {"a", 1},
        "tuple": ("a", (1, 2)),
        "bigint": -(2**70),
        "u64": 2**64 - 1,
        "date": date(1999, 12, 31),
        "naive": datetime(2024, 1, 2, 3, 4, 5, 6),
        "bytes": b"\x00\xff",
        "float": 1.0,
        "bool": True,
        "none": None,
        "keys": {1: "int", 2.5: "float", None: "none", date(2024, 1, 1): "date"},
    }
    back = scan_cache._unpack(scan_cache._pack(values))
    assert typed(back) == typed(values)


# ---------------------------------------------------------------- within one process


def test_a_rescan_uses_the_cache_in_memory(
    rich_vault: Path, no_racy_window: None, monkeypatch: pytest.MonkeyPatch, parses: list[str]
) -> None:
    store = MemoryStore(rich_vault)
    cold = store.scan()
    loads: list[Path] = []
    original = ScanCache.load

    def counting_load(path: Path) -> ScanCache:
        loads.append(path)
        return original(path)

    monkeypatch.setattr(ScanCache, "load", counting_load)
    parses.clear()

    assert_same(store.scan(), cold)

    assert loads == [] and parses == []
    (rich_vault / "extra.md").write_text("# Added\n")
    assert len(store.scan().memories) == len(cold.memories) + 1


# ---------------------------------------------------------------- the listing from the cache


def test_cached_listing_is_what_the_scan_then_finds(
    rich_vault: Path, no_racy_window: None, parses: list[str]
) -> None:
    cold = scan(rich_vault)
    assert not cold.unchanged  # a first scan reads every file
    parses.clear()
    store = MemoryStore(rich_vault, create=False)

    listing = store.cached_listing()
    assert parses == []  # not one file read for the picture
    warm = store.scan()

    assert warm.unchanged
    assert [listed(m) for m in listing] == [listed(m) for m in warm.memories]
    assert [m.id for m in listing].count(DUPLICATE_ID) == 1  # duplicates resolved the same way
    assert all(m.path is None for m in listing)  # for a list, not an editor:
    for shown, scanned in zip(listing, warm.memories, strict=True):  # the line a list shows
        assert shown.body == ("" if scanned.topics else preview_line(scanned.body))
    assert any(m.body for m in listing) and any(not m.body for m in listing)


LISTED_FIELDS = ("id", "title", "topics", "aliases", "importance", "created", "updated", "has_id")


def listed(memory: Memory) -> dict[str, Any]:
    """What a list shows of a memory (what the cached listing carries)."""
    return typed({name: getattr(memory, name) for name in LISTED_FIELDS})


def test_the_listing_is_read_without_the_bodies(
    rich_vault: Path, no_racy_window: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The listing is the file's first map: reading it decompresses a fraction of the file."""
    scan(rich_vault)
    (rich_vault / "long.md").write_text("# Long\n\n" + "lorem ipsum " * 200_000, encoding="utf-8")
    scan(rich_vault)
    decompressed: list[int] = []
    real_reader = zstandard.ZstdDecompressor.stream_reader

    def counting_reader(self: Any, source: Any, *args: Any, **kwargs: Any) -> Any:
        reader = real_reader(self, source, *args, **kwargs)

        class Counted:
            def read(self, size: int = -1) -> bytes:
                data = reader.read(size)
                decompressed.append(len(data))
                return data

        return Counted()

    monkeypatch.setattr(zstandard.ZstdDecompressor, "stream_reader", counting_reader)
    listing = MemoryStore(rich_vault, create=False).cached_listing()

    assert "Long" in [m.title for m in listing]
    assert 0 < sum(decompressed) < 1_000_000  # the body alone is 2.4 MB


def test_a_listing_from_another_scan_is_not_confirmed(
    rich_vault: Path, no_racy_window: None
) -> None:
    """Another process rewrote the cache between the listing and the scan: the scan cannot
    vouch for the picture, even when the vault matches the cache it then read."""
    scan(rich_vault)
    store = MemoryStore(rich_vault, create=False)
    store.cached_listing()
    (rich_vault / "new.md").write_text("# New\n\nbody\n", encoding="utf-8")
    scan(rich_vault)  # another process: a new cache, with the new note
    assert MemoryStore(rich_vault, create=False).scan().unchanged  # that cache is exact…

    assert not store.scan().unchanged  # …but not the picture this store showed


def test_cached_listing_without_a_cache_is_empty(vault: Path) -> None:
    (vault / "note.md").write_text("# Note\n\nbody\n", encoding="utf-8")
    assert MemoryStore(vault, create=False).cached_listing() == []


@pytest.mark.parametrize("change", ["edit", "add", "remove"])
def test_a_scan_after_a_change_says_the_listing_was_not_exact(
    rich_vault: Path, no_racy_window: None, change: str
) -> None:
    scan(rich_vault)
    store = MemoryStore(rich_vault, create=False)
    listing = store.cached_listing()
    note = rich_vault / "crlf.md"
    if change == "edit":
        note.write_bytes(note.read_bytes().replace(b"CRLF", b"CRLF edited"))
    elif change == "add":
        (rich_vault / "new.md").write_text("# New\n\nbody\n", encoding="utf-8")
    else:
        (rich_vault / "plain note.md").unlink()

    result = store.scan()

    assert not result.unchanged
    assert [m.title for m in result.memories] != [m.title for m in listing]


def test_the_file_holds_what_one_packb_of_each_map_gives(
    rich_vault: Path, no_racy_window: None
) -> None:
    """The maps are packed a row and an entry at a time (the window's thread gets the GIL in
    between): the file's bytes are still those of one ``packb`` per map, the format every
    earlier version wrote and read."""
    scan(rich_vault)
    # One copy read twice: a save finishing meanwhile would make two reads disagree.
    copy = rich_vault.parent / "scan-cache-copy"
    copy.write_bytes(cache_file(rich_vault).read_bytes())
    raw = zstandard.ZstdDecompressor().decompress(copy.read_bytes())
    cache = ScanCache.load(copy)
    header = {
        "format": scan_cache.FORMAT_VERSION,
        "code": scan_cache.code_fingerprint(),
        "titles": cache.rule,
        "stamp_ns": cache.stamp_ns,
        "count": len(cache.entries),
    }
    whole = scan_cache._pack({"header": header, "listing": cache.listing()})
    whole += scan_cache._pack({"entries": cache.entries, "first_seen": cache.first_seen})
    assert len(cache.entries) > 100 and cache.first_seen
    assert raw == whole


def test_a_set_packs_the_same_whichever_way_it_was_built() -> None:
    """A YAML set's order depends on how the set was built (1 and 9 share a hash slot): the
    cache's bytes must not, or a cache read back and written again differs."""
    assert list(set([9, 1])) != list(set([1, 9]))  # CPython iterates them apart
    assert scan_cache._pack(set([9, 1])) == scan_cache._pack(set([1, 9]))
    assert scan_cache._pack({"a", "b", 3}) == scan_cache._pack({3, "b", "a"})


def test_a_scan_steps_aside_between_its_files(vault: Path, monkeypatch) -> None:
    """A window building its panels, or a search someone types, goes first (core/step_aside):
    the scan offers every STEP_FILES files."""
    for number in range(2 * vault_scan.STEP_FILES + 1):
        (vault / f"note {number}.md").write_text(f"# Note {number}\n\nbody {number}\n")
    steps: list[int] = []
    monkeypatch.setattr(vault_scan, "step_aside", lambda: steps.append(1))
    assert len(MemoryStore(vault).scan().memories) == 2 * vault_scan.STEP_FILES + 1
    assert len(steps) == 3
