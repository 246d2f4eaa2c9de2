"""Checked replace: a save never overwrites a change another program made after our check.

The racing writer is simulated deterministically: it saves (by rename, like an editor) from a
seam after the store's read-and-hash check: ``_after_write`` (before the last re-check) or
``_before_swap`` (after it: only the verification after the exchange can see that save).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pixelmem.core.errors import ConflictError
from pixelmem.core.files import checked_replace as cr
from pixelmem.core.files import rename_ops
from pixelmem.core.vault.store import MemoryStore

needs_exchange = pytest.mark.skipif(not rename_ops.available(), reason="no renameat2")


def _editor_save(path: Path, text: str) -> None:
    """How an editor saves: write a sibling file, rename it over."""
    tmp = path.with_name(path.name + "~")
    tmp.write_text(text)
    os.replace(tmp, path)


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


@pytest.fixture(params=["exchange", "fallback"])
def mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "exchange" and not rename_ops.available():
        pytest.skip("no renameat2")
    if request.param == "fallback":
        monkeypatch.setattr(rename_ops, "exchange", _unsupported)
    return str(request.param)


def _unsupported(a: object, b: object) -> None:
    raise rename_ops.Unsupported(95, "not supported")


@needs_exchange
def test_exchange_swaps_and_noreplace_refuses(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.write_text("A")
    b.write_text("B")
    rename_ops.exchange(a, b)
    assert (a.read_text(), b.read_text()) == ("B", "A")
    with pytest.raises(FileExistsError):
        rename_ops.rename_noreplace(a, b)
    with pytest.raises(FileNotFoundError):
        rename_ops.exchange(a, tmp_path / "missing")


def test_replace_when_unchanged_keeps_mode_and_leaves_no_temp(tmp_path: Path, mode: str) -> None:
    path = tmp_path / "m.md"
    path.write_bytes(b"old")
    path.chmod(0o640)
    cr.checked_replace(path, b"new", cr.content_hash(b"old"))
    assert path.read_bytes() == b"new"
    assert path.stat().st_mode & 0o777 == 0o640
    assert _leftovers(tmp_path) == []


def test_outside_save_after_the_check_is_kept_and_reported(
    tmp_path: Path, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "m.md"
    path.write_bytes(b"old")
    monkeypatch.setattr(cr, "_after_write", lambda p: _editor_save(p, "theirs"))
    with pytest.raises(cr.ContentChanged):
        cr.checked_replace(path, b"ours", cr.content_hash(b"old"))
    assert path.read_text() == "theirs"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.md"]


def test_deleted_after_the_check_is_a_conflict(
    tmp_path: Path, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "m.md"
    path.write_bytes(b"old")
    monkeypatch.setattr(cr, "_after_write", lambda p: p.unlink())
    with pytest.raises(cr.ContentChanged):
        cr.checked_replace(path, b"ours", cr.content_hash(b"old"))
    assert list(tmp_path.iterdir()) == []


@needs_exchange
def test_a_second_outside_save_during_the_swap_back_is_kept_beside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "m.md"
    path.write_bytes(b"old")
    monkeypatch.setattr(cr, "_before_swap", lambda p: _editor_save(p, "first"))
    real_exchange = rename_ops.exchange
    calls: list[int] = []

    def exchange(a: Path, b: Path) -> None:
        calls.append(1)
        if len(calls) == 2:  # the swap back: another save lands just before it
            _editor_save(path, "second")
        real_exchange(a, b)

    monkeypatch.setattr(rename_ops, "exchange", exchange)
    with pytest.raises(cr.ContentChanged):
        cr.checked_replace(path, b"ours", cr.content_hash(b"old"))
    kept = {p.name: p.read_text() for p in tmp_path.iterdir()}
    assert kept.pop("m.md") == "first"
    assert list(kept.values()) == ["second"]
    assert next(iter(kept)).startswith("m (conflict ")


def test_write_new_never_replaces(
    tmp_path: Path, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "n.md"
    monkeypatch.setattr(cr, "_after_write", lambda p: p.write_text("theirs"))
    with pytest.raises(FileExistsError):
        cr.write_new(path, b"ours")
    assert path.read_text() == "theirs"
    assert _leftovers(tmp_path) == []


def test_store_reports_a_conflict_for_a_save_after_its_check(
    vault: Path, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = MemoryStore(vault)
    memory = store.create("Plan", "v1")
    assert memory.path is not None
    path = Path(memory.path)
    outside = path.read_text().replace("v1", "edited elsewhere")
    monkeypatch.setattr(cr, "_after_write", lambda p: _editor_save(p, outside))
    memory.body = "edited here"
    with pytest.raises(ConflictError):
        store.update(memory)
    assert path.read_text() == outside
    monkeypatch.setattr(cr, "_after_write", lambda p: None)
    copy = store.save_conflict_copy(memory)  # the existing "keep both" answer still works
    assert copy.body == "edited here\n" and "(conflict " in str(copy.path)
    assert path.read_text() == outside


def test_store_create_takes_the_next_name_if_one_appears(
    vault: Path, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = MemoryStore(vault)
    taken: list[Path] = []

    def squat(p: Path) -> None:
        if not taken:
            taken.append(p)
            p.write_text("someone else's file")

    monkeypatch.setattr(cr, "_after_write", squat)
    memory = store.create("Plan", "mine")
    assert taken[0].read_text() == "someone else's file"
    assert memory.path is not None and Path(memory.path) != taken[0]
    assert Path(memory.path).name.endswith(" (2).md")


@needs_exchange
def test_a_save_right_before_the_exchange_is_caught_after_it(
    vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = MemoryStore(vault)
    memory = store.create("Plan", "v1")
    assert memory.path is not None
    path = Path(memory.path)
    outside = path.read_text().replace("v1", "edited elsewhere")
    monkeypatch.setattr(cr, "_before_swap", lambda p: _editor_save(p, outside))
    memory.body = "edited here"
    with pytest.raises(ConflictError):
        store.update(memory)
    assert path.read_text() == outside
    assert sorted(p.name for p in vault.iterdir() if not p.name.startswith(".")) == [path.name]


def test_without_exchange_the_residual_window_is_before_the_rename(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Documents the fallback's limit: a save after its last re-check is overwritten."""
    monkeypatch.setattr(rename_ops, "exchange", _unsupported)
    path = tmp_path / "m.md"
    path.write_bytes(b"old")
    monkeypatch.setattr(cr, "_before_swap", lambda p: _editor_save(p, "theirs"))
    cr.checked_replace(path, b"ours", cr.content_hash(b"old"))
    assert path.read_bytes() == b"ours"
