"""The review inbox: drafts on disk, accepted into the vault or rejected into the trash."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from fakes import CheckedWatcher

from pixelmem.core.archive.inbox import DraftNotFound, Inbox
from pixelmem.core.errors import InvalidIdError, InvalidMemoryError
from pixelmem.core.vault.frontmatter_io import parse_document
from pixelmem.core.vault.store import MemoryStore


def test_a_draft_is_a_memory_file_in_the_inbox(vault: Path) -> None:
    inbox = Inbox(vault)
    draft = inbox.add("Rust lifetimes", "Borrowing rules.\n", ["rust"], "high", "mcp:claude-code")

    assert draft.path is not None and draft.path.parent == vault / ".pixelmem" / "inbox"
    data = parse_document(draft.path.read_text(encoding="utf-8")).data
    assert data["id"] == draft.id and data["title"] == "Rust lifetimes"
    assert data["tags"] == ["rust"] and data["importance"] == "high"  # tags: as Obsidian reads
    assert data["source"] == "mcp:claude-code"
    assert [d.id for d in inbox.list()] == [draft.id] and inbox.count() == 1
    assert inbox.get(draft.id).body == "Borrowing rules.\n"
    assert MemoryStore(vault).list() == []  # not a memory until accepted


def test_accept_creates_the_memory_with_the_same_id_and_trashes_the_draft(vault: Path) -> None:
    inbox = Inbox(vault)
    store = MemoryStore(vault)
    draft = inbox.add("Title", "Body\n", ["t"], "low", "mcp")

    memory = inbox.accept(draft.id, store)

    assert memory.id == draft.id and memory.title == "Title" and memory.body == "Body\n"
    assert memory.topics == ["t"] and memory.importance == "low" and memory.source == "mcp"
    assert MemoryStore(vault).get(draft.id).body == "Body\n"
    assert inbox.list() == []
    trashed = list((vault / ".pixelmem" / "trash").iterdir())
    assert [p.name for p in trashed] == [draft.path.name]  # type: ignore[union-attr]
    with pytest.raises(DraftNotFound):
        inbox.accept(draft.id, store)


def test_reject_moves_the_draft_to_the_trash(vault: Path) -> None:
    inbox = Inbox(vault)
    draft = inbox.add("Nope", "x", [], "medium", "mcp")
    target = inbox.reject(draft.id)
    assert target.parent == vault / ".pixelmem" / "trash" and target.read_text().endswith("x\n")
    assert inbox.list() == [] and MemoryStore(vault).list() == []


def test_update_rewrites_the_draft(vault: Path) -> None:
    inbox = Inbox(vault)
    draft = inbox.add("Old", "old body", ["a"], "medium", "mcp")
    draft.title, draft.body, draft.topics = "New", "new body", ["b", "c"]
    saved = inbox.update(draft)
    # Saved files end with a line break.
    assert (saved.title, saved.body, saved.topics) == ("New", "new body\n", ["b", "c"])
    assert saved.created == draft.created and saved.id == draft.id
    inbox.reject(draft.id)
    with pytest.raises(DraftNotFound):
        inbox.update(draft)


@pytest.mark.parametrize(
    ("title", "content", "topics", "importance", "error"),
    [
        ("", "x", [], "medium", InvalidMemoryError),
        ("t", "x\0y", [], "medium", InvalidMemoryError),
        ("t\0", "x", [], "medium", InvalidMemoryError),
        ("t", "x", ["a\x07"], "medium", InvalidMemoryError),
        ("t", "x", [], "urgent", InvalidMemoryError),
    ],
)
def test_bad_drafts_are_refused(
    vault: Path, title: str, content: str, topics: list[str], importance: str, error: type
) -> None:
    with pytest.raises(error):
        Inbox(vault).add(title, content, topics, importance, "mcp")
    assert Inbox(vault).list() == []


@pytest.mark.parametrize("bad", ["../../etc/passwd", "/etc/passwd", "a\0b", "", "..", "x/y"])
def test_ids_are_validated(vault: Path, bad: str) -> None:
    inbox = Inbox(vault)
    inbox.add("t", "x", [], "medium", "mcp")
    with pytest.raises(InvalidIdError):
        inbox.get(bad)
    with pytest.raises(InvalidIdError):
        inbox.reject(bad)
    assert inbox.count() == 1


def test_unreadable_drafts_are_skipped_and_left_alone(vault: Path) -> None:
    inbox = Inbox(vault)
    good = inbox.add("ok", "x", [], "medium", "mcp")
    broken = inbox.folder / "broken.md"
    broken.write_bytes(b"---\ntitle: [unclosed\n---\nx")
    assert [d.id for d in inbox.list()] == [good.id]
    assert broken.read_bytes() == b"---\ntitle: [unclosed\n---\nx"


def test_accept_after_an_interrupted_accept_does_not_duplicate(vault: Path) -> None:
    inbox = Inbox(vault)
    store = MemoryStore(vault)
    draft = inbox.add("Once", "only once", [], "medium", "mcp")
    store.create("Once", "only once", memory_id=draft.id)  # the memory got written, then a crash

    memory = inbox.accept(draft.id, store)

    assert memory.id == draft.id
    assert len(MemoryStore(vault).list()) == 1 and inbox.list() == []


def test_concurrent_accepts_create_one_memory(vault: Path) -> None:
    inbox = Inbox(vault)
    draft = inbox.add("Race", "body", [], "medium", "mcp")
    results: list[object] = []

    def accept() -> None:
        try:
            results.append(Inbox(vault).accept(draft.id, MemoryStore(vault)))
        except DraftNotFound as exc:
            results.append(exc)

    threads = [threading.Thread(target=accept) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(not isinstance(r, DraftNotFound) for r in results) == 1
    assert len(MemoryStore(vault).list()) == 1


def test_the_watcher_sees_an_accepted_draft_but_not_the_inbox(vault: Path) -> None:
    watcher = CheckedWatcher(vault)
    watcher.poll()
    inbox = Inbox(vault)
    draft = inbox.add("Seen", "x", [], "medium", "mcp")
    assert watcher.poll() == []  # drafts live in .pixelmem: not memories
    memory = inbox.accept(draft.id, MemoryStore(vault))
    assert watcher.poll() == [memory.path]
