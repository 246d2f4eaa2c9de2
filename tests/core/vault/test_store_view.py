"""MemoryStore.view: the store's own memories for readers of them all, and the collector kept
away from what a scan builds (gc_pause)."""

from __future__ import annotations

import gc
from pathlib import Path

from pixelmem.core.vault.gc_pause import collector_paused
from pixelmem.core.vault.store import MemoryStore


def test_a_view_holds_what_list_copies(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path)
    for i in range(5):
        store.create(f"note {i}", f"body {i}", topics=["t"])
    view = store.view()
    assert isinstance(view, tuple)
    assert {m.id: m for m in view} == {m.id: m for m in store.list()}
    again = store.view()
    assert all(a is b for a, b in zip(view, again, strict=True))  # the store's own, not copies


def test_a_view_stays_what_it_was_when_the_store_changes(tmp_path: Path) -> None:
    """The store replaces a memory on every change, never edits one in place: a view taken
    before a save, a delete or a rescan still shows the memories as they were."""
    store = MemoryStore(tmp_path)
    kept = store.create("kept", "the first body", topics=["a"])
    gone = store.create("gone", "to the trash")
    view = store.view()
    before = {m.id: (m.title, m.body, list(m.topics), m.updated) for m in view}

    edited = store.get(kept.id)
    edited.title, edited.body, edited.topics = "renamed", "a new body", ["b"]
    store.update(edited)
    store.delete(gone.id)
    (tmp_path / "outside.md").write_text("# Written by another program\n", encoding="utf-8")
    store.scan()

    assert {m.id: (m.title, m.body, list(m.topics), m.updated) for m in view} == before
    now = {m.id: m for m in store.view()}
    assert now[kept.id].title == "renamed" and gone.id not in now and len(now) == 2


def test_a_scan_leaves_its_table_frozen_for_the_collector(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path)
    for i in range(3):
        store.create(f"note {i}", "body")
    gc.unfreeze()  # what earlier tests froze: only the scan's freeze counts here
    result = store.scan()
    frozen = gc.get_freeze_count()
    tracked = {id(o) for o in gc.get_objects()}  # the generations a collection walks
    memories = store.view()
    assert frozen > 0 and memories and result.memories
    assert not any(id(m) in tracked or id(m.topics) in tracked for m in memories)
    assert not any(id(m.topics) in tracked for m in result.memories)  # its copies too


def test_the_collector_is_paused_and_restored() -> None:
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused(keep=True):
            made = [[i] for i in range(10)]
        assert not gc.isenabled()  # it was off before: left off
        assert not any(id(x) in {id(o) for o in gc.get_objects()} for x in made)
    finally:
        gc.enable()
