"""MemoryStore: round trips, foreign files, bad files, conflicts, trash, reload, safety."""

from __future__ import annotations

import errno
import os
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from permission_probe import needs_permissions

from pixelmem.core.errors import (
    ConflictError,
    InvalidIdError,
    InvalidMemoryError,
    MemoryNotFound,
    VaultError,
    VaultNotWritable,
)
from pixelmem.core.files import atomic
from pixelmem.core.vault import store as store_module
from pixelmem.core.vault.store import MemoryStore
from pixelmem.core.vault.vault_scan import SkippedFile, UnreadableFile, load_memory

pytestmark = pytest.mark.permissions  # also run without CAP_DAC_OVERRIDE (dev.sh)

OBSIDIAN = (
    "---\n"
    'aliases: [DB notes, "数据库"]\n'
    "# kept: a comment the user wrote\n"
    "title: '数据库 笔记'\n"
    "cssclasses:\n"
    "  - wide\n"
    "date: 2024-01-05\n"
    "rating: 4.5\n"
    "tags:\n"
    "- db\n"
    "- notes\n"
    "---\n"
    "# 数据库\n"
    "\n"
    "Links to [[Other Note]] and [[Another|alias]].\n"
)


def _by_name(store: MemoryStore, name: str):
    return next(m for m in store.list() if m.path is not None and m.path.name == name)


# ---------------------------------------------------------------- create / read


def test_create_round_trips_every_field(vault: Path) -> None:
    store = MemoryStore(vault)
    created = datetime(2026, 11, 21, 10, 0, tzinfo=UTC)
    memory = store.create(
        "Rust 借用检查器",
        "First line.\n\n- a list\n",
        topics=["rust", "编程", "rust"],
        importance="high",
        source="https://example.com/a",
        extra={"rating": 5, "nested": {"a": [1, 2]}, "seen": date(2024, 1, 2)},
        created=created,
    )
    assert memory.path is not None and memory.path.parent == vault
    assert memory.path.name == f"memory_2026-11-21_rust_{memory.id[:8]}.md"
    again = MemoryStore(vault).get(memory.id)
    assert again.title == "Rust 借用检查器"
    assert again.body == "First line.\n\n- a list\n"
    assert again.topics == ["rust", "编程"]
    assert again.importance == "high"
    assert again.source == "https://example.com/a"
    assert again.created == created
    assert again.updated is not None and again.updated.tzinfo is not None
    assert again.extra == {"rating": 5, "nested": {"a": [1, 2]}, "seen": date(2024, 1, 2)}
    assert again.has_id and len(again.id) == 32
    text = memory.path.read_text(encoding="utf-8")
    assert "created: 2026-11-21T10:00:00Z\n" in text
    assert text.index("id:") < text.index("title:") < text.index("rating:")


def test_create_validates_fields(vault: Path) -> None:
    store = MemoryStore(vault)
    with pytest.raises(InvalidMemoryError):
        store.create("   ")
    with pytest.raises(InvalidMemoryError):
        store.create("t", importance="urgent")
    with pytest.raises(InvalidMemoryError):
        store.create("t", topics="rust")  # type: ignore[arg-type]
    with pytest.raises(InvalidMemoryError):
        store.create("t", extra={"id": "x"})
    with pytest.raises(InvalidIdError):
        store.create("t", memory_id="../evil")
    kept = store.create("t", memory_id="my-own-id")
    assert kept.id == "my-own-id"
    with pytest.raises(InvalidIdError):
        store.create("t2", memory_id="my-own-id")
    assert list(vault.glob("*.md")) == [kept.path]


def test_slug_uses_cjk_title_and_is_filesystem_safe(vault: Path) -> None:
    store = MemoryStore(vault)
    memory = store.create("数据库: 索引/设计?  笔记")
    assert memory.path is not None
    assert memory.path.name.startswith("memory_") and "数据库-索引-设计-笔记" in memory.path.name


def test_yaml_typed_values_are_normalised(vault: Path) -> None:
    (vault / "typed.md").write_text(
        "---\nid: 12345\ntitle: 2024\ntopics: [1, true, 2024-01-01]\n"
        "created: 2024-01-05\nupdated: 2024-01-05 10:00:00\nimportance: HIGH\n---\nbody\n",
        encoding="utf-8",
    )
    memory = MemoryStore(vault).list()[0]
    assert memory.id == "12345" and memory.has_id
    assert memory.title == "2024"
    assert memory.topics == ["1", "true", "2024-01-01"]
    assert memory.created == datetime(2024, 1, 5, tzinfo=UTC)
    assert memory.updated == datetime(2024, 1, 5, 10, tzinfo=UTC)
    assert memory.importance == "high"


def test_topics_as_a_comma_string_and_bad_dates(vault: Path) -> None:
    (vault / "t.md").write_text(
        "---\ntitle: x\ntopics: a, b ,, a\ncreated: someday\n---\n", encoding="utf-8"
    )
    memory = MemoryStore(vault).list()[0]
    assert memory.topics == ["a", "b"]
    assert memory.created is not None  # falls back to the file's mtime


# ---------------------------------------------------------------- foreign files


def test_foreign_obsidian_file_is_listed_and_saved_minimally(vault: Path) -> None:
    path = vault / "notes" / "db.md"
    path.parent.mkdir()
    path.write_bytes(OBSIDIAN.encode("utf-8"))
    store = MemoryStore(vault)
    memory = store.list()[0]
    assert not memory.has_id
    assert memory.id.startswith("path-")
    assert memory.title == "数据库 笔记"
    assert memory.topics == ["db", "notes"]  # tags are topics
    assert memory.aliases == ["DB notes", "数据库"]
    assert memory.created == datetime(2024, 1, 5, tzinfo=UTC)  # from `date:`
    assert list(memory.extra) == ["cssclasses", "date", "rating"]
    assert store.get(memory.id).path == path
    assert path.read_bytes() == OBSIDIAN.encode("utf-8")  # reading never writes

    memory.title = "数据库索引"
    memory.topics = ["db"]
    saved = store.update(memory)

    # The topic edit rewrites the `tags:` entry the file uses; no `topics:` key is added.
    # The title keeps the quotes it had.
    expected = OBSIDIAN.replace("title: '数据库 笔记'", "title: '数据库索引'").replace(
        "- db\n- notes\n---\n", "- db\n---\n"
    )
    assert path.read_text(encoding="utf-8") == expected
    assert saved.id == memory.id and not saved.has_id
    assert saved.title == "数据库索引" and saved.topics == ["db"]


def test_file_without_frontmatter_gets_title_from_heading_then_stem(vault: Path) -> None:
    (vault / "a.md").write_text("intro\n# The Heading #\ntext\n", encoding="utf-8")
    (vault / "b.markdown").write_text("no heading here\n", encoding="utf-8")
    store = MemoryStore(vault)
    assert _by_name(store, "a.md").title == "The Heading"
    assert _by_name(store, "b.markdown").title == "b"


def test_saving_a_plain_file_adds_only_the_changed_key(vault: Path) -> None:
    path = vault / "plain.md"
    original = b"# Hello\r\n\r\nworld\r\n"
    path.write_bytes(original)
    store = MemoryStore(vault)
    memory = store.list()[0]
    memory.importance = "high"
    store.update(memory)
    assert path.read_bytes() == b"---\r\nimportance: high\r\n---\r\n" + original


def test_crlf_body_is_kept_byte_identical_and_edits_follow_it(vault: Path) -> None:
    path = vault / "crlf.md"
    body = "line one\r\nline two\r\n\r\n"
    path.write_bytes(("---\r\ntitle: A\r\nkeep: 1\r\n---\r\n" + body).encode())
    store = MemoryStore(vault)
    memory = store.list()[0]
    memory.title = "B"
    store.update(memory)
    assert path.read_bytes() == ("---\r\ntitle: B\r\nkeep: 1\r\n---\r\n" + body).encode()
    memory = store.list()[0]
    memory.body = "new\nbody\n"  # an editor hands back \n
    store.update(memory)
    assert path.read_bytes().endswith(b"---\r\nnew\r\nbody\r\n")


def test_bom_is_preserved_and_a_save_ends_the_file_with_a_newline(vault: Path) -> None:
    path = vault / "bom.md"
    path.write_bytes("\ufeff---\ntitle: A\n---\nno newline at end".encode())
    store = MemoryStore(vault)
    memory = store.list()[0]
    assert memory.title == "A" and memory.body == "no newline at end"
    memory.topics = ["x"]
    store.update(memory)
    expected = "\ufeff---\ntitle: A\ntags:\n- x\n---\nno newline at end\n"
    assert path.read_bytes() == expected.encode()


def test_unchanged_save_does_not_touch_the_file(vault: Path) -> None:
    path = vault / "same.md"
    path.write_text(OBSIDIAN, encoding="utf-8")
    os.utime(path, ns=(1_000_000_000, 1_000_000_000))
    store = MemoryStore(vault)
    memory = store.list()[0]
    store.update(memory)
    assert path.stat().st_mtime_ns == 1_000_000_000


def test_pixelmem_file_save_bumps_updated_and_keeps_unknown_keys(vault: Path) -> None:
    store = MemoryStore(vault)
    memory = store.create("T", "body\n", extra={"zz": "keep", "aa": [1]})
    memory.updated = datetime(2000, 1, 1, tzinfo=UTC)
    path = memory.path
    assert path is not None
    memory.body = "new body\n"
    memory.extra["zz"] = "changed"
    memory.extra["new"] = True
    saved = store.update(memory)
    assert saved.updated is not None and saved.updated.year >= 2026
    assert saved.extra == {"zz": "changed", "aa": [1], "new": True}
    assert saved.body == "new body\n"
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines.index("zz: changed") < lines.index("aa:") < lines.index("new: true")


def test_extra_keys_dropped_by_the_caller_are_still_kept(vault: Path) -> None:
    path = vault / "n.md"
    path.write_text("---\ntitle: A\nmine: 1\n---\nx\n", encoding="utf-8")
    store = MemoryStore(vault)
    memory = store.list()[0]
    memory.extra = {}
    memory.source = "here"
    store.update(memory)
    assert path.read_text(encoding="utf-8") == "---\ntitle: A\nmine: 1\nsource: here\n---\nx\n"
    memory = store.list()[0]
    memory.source = None
    store.update(memory)
    assert path.read_text(encoding="utf-8") == "---\ntitle: A\nmine: 1\n---\nx\n"


def test_duplicate_ids_get_a_path_id(vault: Path) -> None:
    text = "---\nid: same\ntitle: A\n---\n"
    (vault / "a.md").write_text(text, encoding="utf-8")
    (vault / "b.md").write_text(text, encoding="utf-8")
    store = MemoryStore(vault)
    assert store.get("same").path == vault / "a.md"
    other = _by_name(store, "b.md")
    assert other.id.startswith("path-") and not other.has_id
    other.title = "B"
    saved = store.update(other)
    assert (vault / "b.md").read_text(encoding="utf-8") == "---\nid: same\ntitle: B\n---\n"
    assert saved.id == other.id and store.get("same").path == vault / "a.md"
    assert len(store.list()) == 2


# ---------------------------------------------------------------- bad files


BAD_FILES = {
    "yaml.md": (b"---\ntitle: [unclosed\n---\nbody\n", "invalid YAML frontmatter"),
    "list.md": (b"---\n- a\n- b\n---\nbody\n", "not a list of `key: value`"),
    "latin1.md": ("---\ntitle: caf\u00e9\n---\n".encode("latin-1"), "not UTF-8 text"),
    "binary.md": (b"\x89PNG\r\n\x1a\n\x00\x00\x00IHDR", "binary file"),
    "empty.md": (b"", "empty file"),
    "blank.md": (b" \n\n", "empty file"),
}


def test_bad_files_are_skipped_reported_and_never_modified(vault: Path) -> None:
    for name, (data, _) in BAD_FILES.items():
        (vault / name).write_bytes(data)
    (vault / "huge.md").write_bytes(b"a" * (store_module.MAX_FILE_BYTES + 1))
    (vault / "good.md").write_text("ok\n", encoding="utf-8")
    store = MemoryStore(vault)
    result = store.scan()
    assert [m.title for m in result.memories] == ["good"]
    reasons = {s.path.name: s.reason for s in result.skipped}
    for name, (_, reason) in BAD_FILES.items():
        assert reason in reasons[name], name
        assert (vault / name).read_bytes() == BAD_FILES[name][0]
    assert reasons["huge.md"] == "larger than 10 MB"
    assert store.skipped == result.skipped
    with pytest.raises(UnreadableFile) as info:
        load_memory(vault / "binary.md", vault)
    assert info.value.skipped() == SkippedFile(vault / "binary.md", info.value.reason)


def test_dot_folders_and_other_suffixes_are_not_scanned(vault: Path) -> None:
    (vault / ".obsidian").mkdir()
    (vault / ".obsidian" / "x.md").write_text("hidden\n", encoding="utf-8")
    (vault / ".pixelmem" / "trash").mkdir(parents=True)
    (vault / ".pixelmem" / "trash" / "t.md").write_text("gone\n", encoding="utf-8")
    (vault / "notes.txt").write_text("not markdown\n", encoding="utf-8")
    (vault / "sub" / "deeper").mkdir(parents=True)
    (vault / "sub" / "deeper" / "n.MD").write_text("deep\n", encoding="utf-8")
    names = [m.path.name for m in MemoryStore(vault).list() if m.path]
    assert names == ["n.MD"]


def test_symlink_to_a_file_outside_the_vault_is_ignored(vault: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("secret\n", encoding="utf-8")
    (vault / "link.md").symlink_to(outside)
    (vault / "real.md").write_text("real\n", encoding="utf-8")
    (vault / "inner.md").symlink_to(vault / "real.md")
    store = MemoryStore(vault)
    names = sorted(m.path.name for m in store.list() if m.path)
    assert names == ["inner.md", "real.md"]
    assert store.reload_path(vault / "link.md") is None
    inner = _by_name(store, "inner.md")
    inner.title = "via link"
    store.update(inner)
    assert (vault / "inner.md").is_symlink()  # the link is kept; its target is updated
    assert (vault / "real.md").read_text(encoding="utf-8") == "---\ntitle: via link\n---\nreal\n"


def test_changing_the_id_of_a_memory_replaces_its_entry(vault: Path) -> None:
    store = MemoryStore(vault)
    memory = store.create("x")
    old_id = memory.id
    memory.id = "renamed-id"
    saved = store.update(memory)
    assert saved.id == "renamed-id" and old_id not in store
    assert [m.id for m in store.list()] == ["renamed-id"]


# ---------------------------------------------------------------- conflicts


def test_conflict_is_detected_then_keep_both_or_force(vault: Path) -> None:
    store = MemoryStore(vault)
    memory = store.create("Shared", "mine\n")
    path = memory.path
    assert path is not None
    theirs = path.read_text(encoding="utf-8").replace("mine\n", "theirs\n")
    path.write_text(theirs, encoding="utf-8")
    memory.body = "my edit\n"
    with pytest.raises(ConflictError) as info:
        store.update(memory)
    assert info.value.path == path and info.value.memory_id == memory.id
    assert path.read_text(encoding="utf-8") == theirs

    copy = store.save_conflict_copy(memory)
    assert copy.id != memory.id
    assert copy.path is not None and copy.path.parent == path.parent
    assert copy.path.name.startswith(f"{path.stem} (conflict ")
    assert copy.body == "my edit\n" and copy.title.startswith("Shared (conflict copy 20")
    assert path.read_text(encoding="utf-8") == theirs
    second = store.save_conflict_copy(memory)
    assert second.path != copy.path  # same second: a unique name, nothing overwritten

    forced = store.update(memory, force=True)
    assert forced.body == "my edit\n"
    assert path.read_text(encoding="utf-8").endswith("---\nmy edit\n")


def test_update_of_a_file_deleted_on_disk(vault: Path) -> None:
    store = MemoryStore(vault)
    memory = store.create("Gone")
    assert memory.path is not None
    memory.path.unlink()
    with pytest.raises(ConflictError):
        store.update(memory)
    restored = store.update(memory, force=True)
    assert restored.id == memory.id and memory.path.exists()


def test_update_refuses_to_overwrite_a_file_that_became_unreadable(vault: Path) -> None:
    store = MemoryStore(vault)
    memory = store.create("Soon binary")
    assert memory.path is not None
    memory.path.write_bytes(b"\x00\x01")
    with pytest.raises(ConflictError):
        store.update(memory)
    with pytest.raises(VaultError):
        store.update(memory, force=True)
    assert memory.path.read_bytes() == b"\x00\x01"


def test_memory_without_fingerprint_uses_the_table(vault: Path) -> None:
    store = MemoryStore(vault)
    memory = store.create("A")
    memory.disk_hash = None
    memory.title = "B"
    assert store.update(memory).title == "B"


def test_update_unknown_memory(vault: Path) -> None:
    store = MemoryStore(vault)
    from pixelmem.core.vault.memory import Memory

    with pytest.raises(MemoryNotFound):
        store.update(Memory(id="nope", title="x"))
    with pytest.raises(VaultError):
        store.update(Memory(id="nope", title="x", path=Path("/etc/passwd.md")))


# ---------------------------------------------------------------- ids and paths


@pytest.mark.parametrize(
    "bad",
    ["../../etc/passwd", "/etc/passwd", "C:\\Windows", "a\\b", "a\x00b", "..", ".", "", "x" * 500],
)
def test_path_traversal_ids_are_refused(vault: Path, bad: str) -> None:
    store = MemoryStore(vault)
    with pytest.raises(InvalidIdError):
        store.get(bad)
    with pytest.raises(InvalidIdError):
        store.path_for(bad)
    with pytest.raises(InvalidIdError):
        store.delete(bad)


def test_id_in_frontmatter_that_is_unsafe_is_ignored(vault: Path) -> None:
    (vault / "evil.md").write_text("---\nid: ../../etc/passwd\n---\nx\n", encoding="utf-8")
    memory = MemoryStore(vault).list()[0]
    assert memory.id.startswith("path-") and not memory.has_id


# ---------------------------------------------------------------- delete / restore


def test_delete_moves_to_trash_and_restore_brings_it_back(vault: Path) -> None:
    store = MemoryStore(vault)
    memory = store.create("Bye", "text\n")
    original = memory.path
    assert original is not None
    data = original.read_bytes()
    trashed = store.delete(memory.id)
    assert trashed.parent == vault / ".pixelmem" / "trash"
    assert trashed.read_bytes() == data and not original.exists()
    with pytest.raises(MemoryNotFound):
        store.get(memory.id)
    assert memory.id not in store
    restored = store.restore_from_trash(trashed, original)
    assert restored.id == memory.id and original.read_bytes() == data
    assert store.get(memory.id).path == original


def test_trash_names_are_unique_and_restore_never_overwrites(vault: Path) -> None:
    store = MemoryStore(vault)
    (vault / "a").mkdir()
    (vault / "a" / "same.md").write_text("one\n", encoding="utf-8")
    (vault / "same.md").write_text("two\n", encoding="utf-8")
    first = store.delete(_by_name(store, "same.md").id)
    second = store.delete(store.list()[0].id)
    assert first != second and first.exists() and second.exists()
    (vault / "same.md").write_text("new\n", encoding="utf-8")
    restored = store.restore_from_trash(first, vault / "same.md")
    assert restored.path == vault / "same (2).md"
    assert (vault / "same.md").read_text(encoding="utf-8") == "new\n"


def test_restore_refuses_paths_outside(vault: Path, tmp_path: Path) -> None:
    store = MemoryStore(vault)
    memory = store.create("x")
    trashed = store.delete(memory.id)
    with pytest.raises(VaultError):
        store.restore_from_trash(trashed, tmp_path / "elsewhere.md")
    with pytest.raises(VaultError):
        store.restore_from_trash(tmp_path / "not-trash.md", vault / "x.md")
    with pytest.raises(VaultError):
        store.restore_from_trash(trashed.parent / "missing.md", vault / "x.md")


def test_delete_of_a_file_already_gone(vault: Path) -> None:
    store = MemoryStore(vault)
    memory = store.create("x")
    assert memory.path is not None
    memory.path.unlink()
    with pytest.raises(MemoryNotFound):
        store.delete(memory.id)
    assert memory.id not in store


# ---------------------------------------------------------------- reload_path


def test_reload_path_reports_created_updated_deleted(vault: Path, tmp_path: Path) -> None:
    store = MemoryStore(vault)
    store.scan()
    path = vault / "w.md"
    path.write_text("---\nid: w1\ntitle: W\n---\n", encoding="utf-8")
    assert store.reload_path(path) == ("created", "w1")
    assert store.reload_path(path) is None  # unchanged
    path.write_text("---\nid: w1\ntitle: W2\n---\n", encoding="utf-8")
    assert store.reload_path(Path("w.md")) == ("updated", "w1")
    assert store.get("w1").title == "W2"
    path.write_bytes(b"\x00")
    assert store.reload_path(path) == ("deleted", "w1")
    assert [s.path for s in store.skipped] == [path]
    path.unlink()
    assert store.reload_path(path) is None
    assert store.skipped == []
    assert store.reload_path(tmp_path / "outside.md") is None
    assert store.reload_path(vault / ".pixelmem" / "x.md") is None
    assert store.reload_path(vault / "n.txt") is None


def test_reload_after_own_save_is_a_no_op(vault: Path) -> None:
    store = MemoryStore(vault)
    memory = store.create("mine")
    memory.body = "edited\n"
    saved = store.update(memory)
    assert saved.path is not None
    assert store.reload_path(saved.path) is None


def test_reload_path_with_changed_id(vault: Path) -> None:
    store = MemoryStore(vault)
    path = vault / "x.md"
    path.write_text("---\nid: one\n---\nx\n", encoding="utf-8")
    store.scan()
    path.write_text("---\nid: two\n---\nx\n", encoding="utf-8")
    assert store.reload_path(path) == ("updated", "two")
    assert "one" not in store and "two" in store


# ---------------------------------------------------------------- the vault folder


def test_vault_is_created_on_first_run_or_refused(tmp_path: Path, monkeypatch) -> None:
    target = tmp_path / "new" / "vault"
    assert MemoryStore(target).root == target and target.is_dir()
    with pytest.raises(VaultError, match="does not exist"):
        MemoryStore(tmp_path / "missing", create=False)
    (tmp_path / "file").write_text("x", encoding="utf-8")
    with pytest.raises(VaultError, match="not a folder"):
        MemoryStore(tmp_path / "file")
    monkeypatch.setenv("PIXELMEM_VAULT", str(tmp_path / "from-env"))
    assert MemoryStore().root == tmp_path / "from-env"


def test_vault_deleted_while_running(vault: Path) -> None:
    store = MemoryStore(vault)
    store.scan()
    vault.rmdir()
    with pytest.raises(VaultError, match="no longer exists"):
        store.scan()
    with pytest.raises(VaultError, match="no longer exists"):
        store.create("x")


def test_uncreatable_vault(tmp_path: Path, monkeypatch) -> None:
    def refuse(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(Path, "mkdir", refuse)
    with pytest.raises(VaultNotWritable, match="Permission denied"):
        MemoryStore(tmp_path / "nope")


@needs_permissions
def test_read_only_vault_gives_a_clear_error(vault: Path) -> None:
    store = MemoryStore(vault)
    memory = store.create("x")
    vault.chmod(0o555)
    try:
        with pytest.raises(VaultNotWritable, match="cannot be written"):
            store.create("y")
        memory.title = "z"
        with pytest.raises(VaultNotWritable):
            store.update(memory)
    finally:
        vault.chmod(0o755)


@pytest.mark.parametrize(
    ("code", "message"),
    [
        (errno.ENOSPC, "disk is full"),
        (errno.EACCES, "nothing was changed"),
        (errno.EIO, "Input/output error"),
    ],
)
def test_write_failure_leaves_the_original_intact(vault: Path, monkeypatch, code, message):
    store = MemoryStore(vault)
    memory = store.create("Keep me", "original\n")
    assert memory.path is not None
    before = memory.path.read_bytes()

    def failing_fsync(fd: int) -> None:
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(atomic.os, "fsync", failing_fsync)
    memory.body = "new\n"
    with pytest.raises(VaultNotWritable, match=message):
        store.update(memory)
    assert memory.path.read_bytes() == before
    assert sorted(p.name for p in vault.iterdir()) == [".pixelmem", memory.path.name]
    monkeypatch.undo()
    assert store.update(memory).body == "new\n"  # the table was not corrupted


def test_store_is_usable_from_threads(vault: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    store = MemoryStore(vault)
    with ThreadPoolExecutor(4) as pool:
        made = list(pool.map(lambda i: store.create(f"t{i}", topics=["x"]).id, range(40)))
        list(pool.map(lambda _: store.scan(), range(4)))
    assert sorted(made) == sorted(m.id for m in store.list())
    assert len(list(vault.glob("*.md"))) == 40


def test_listed_memories_are_copies(vault: Path) -> None:
    store = MemoryStore(vault)
    memory = store.create("Original", topics=["a"])
    listed = store.list()[0]
    listed.title = "edited but not saved"
    listed.topics.append("b")
    again = store.get(memory.id)
    assert again.title == "Original" and again.topics == ["a"]
    assert again == memory


def test_a_memory_too_large_to_read_back_is_refused(vault: Path, monkeypatch) -> None:
    monkeypatch.setattr(store_module, "MAX_FILE_BYTES", 200)
    store = MemoryStore(vault)
    with pytest.raises(InvalidMemoryError, match="larger than"):
        store.create("big", "x" * 300)
    assert list(vault.glob("*.md")) == []


def test_text_with_nul_is_refused_and_nothing_is_written(vault: Path) -> None:
    from pixelmem.core.errors import InvalidMemoryError

    store = MemoryStore(vault)
    with pytest.raises(InvalidMemoryError, match="NUL"):
        store.create("Binary", "abc\x00def")
    with pytest.raises(InvalidMemoryError, match="NUL"):
        store.create("Bad\x00title", "text")
    assert list(vault.glob("*.md")) == []
    memory = store.create("Fine", "text")
    memory.body = "now \x00 binary"
    with pytest.raises(InvalidMemoryError, match="NUL"):
        store.update(memory)
    assert "binary" not in store.path_for(memory.id).read_text(encoding="utf-8")
