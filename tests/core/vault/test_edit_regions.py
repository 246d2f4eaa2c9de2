"""Edits change only what was edited: each region keeps its own line endings, and the
frontmatter is never re-dumped (issue 18, item 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pixelmem.core.vault.frontmatter_io import FrontmatterEditRefused
from pixelmem.core.vault.store import MemoryStore


def _edit_title(vault: Path, raw: bytes, title: str = "New title", body: str | None = None):
    path = vault / "note.md"
    path.write_bytes(raw)
    store = MemoryStore(vault)
    memory = store.list()[0]
    memory.title = title
    # An editor hands the body back with "\n" only.
    memory.body = body if body is not None else memory.body.replace("\r\n", "\n")
    store.update(memory)
    return path.read_bytes()


def test_title_edit_with_crlf_frontmatter_and_lf_body_changes_only_the_title(
    vault: Path,
) -> None:
    raw = b"---\r\ntitle: Old\r\nrating: 4\r\n---\r\nline one\nline two\n\nend\n"
    assert _edit_title(vault, raw) == raw.replace(b"title: Old", b"title: New title")


def test_title_edit_with_lf_frontmatter_and_crlf_body(vault: Path) -> None:
    raw = b"---\ntitle: Old\n---\r\nline one\r\nline two\r\n"
    assert _edit_title(vault, raw) == raw.replace(b"title: Old", b"title: New title")


def test_a_body_edit_keeps_the_bodys_own_endings(vault: Path) -> None:
    raw = b"---\ntitle: Old\n---\r\none\r\ntwo\r\n"
    after = _edit_title(vault, raw, title="Old", body="one\nTWO\nthree\n")
    assert after == b"---\ntitle: Old\n---\r\none\r\nTWO\r\nthree\r\n"


def test_mixed_endings_outside_the_edited_line_are_kept(vault: Path) -> None:
    raw = b"---\ntitle: Old\n---\na\r\nb\nc\r\nd\r\n"
    after = _edit_title(vault, raw, title="Old", body="a\nb\nC!\nd\n")
    assert after == b"---\ntitle: Old\n---\na\r\nb\nC!\r\nd\r\n"


@pytest.mark.parametrize(
    "extra",
    [
        b"~: null key\n",
        b"null: also null\n",
        b"x: !!omap [{a: 1}, {b: 2}]\n",
        b"tags: [a]\ntags: [b]\n",  # a duplicate key that is not edited
        b"x: .nan\n",
        b"# a comment\nx: 'quoted'  # trailing\n",
    ],
)
def test_keys_not_edited_stay_byte_for_byte(vault: Path, extra: bytes) -> None:
    raw = b"---\ntitle: Old\n" + extra + b"---\nbody\n"
    assert _edit_title(vault, raw) == raw.replace(b"title: Old", b"title: New title")


@pytest.mark.parametrize(
    "frontmatter",
    [
        b"title: a\ntitle: b\n",  # the edited key twice
        b"? title\n: a\n",  # an explicit key
        b"{title: a, x: 1}\n",  # a flow mapping
    ],
)
def test_an_edit_that_would_need_a_redump_is_refused(vault: Path, frontmatter: bytes) -> None:
    raw = b"---\n" + frontmatter + b"---\nbody\n"
    with pytest.raises(FrontmatterEditRefused, match="nothing was saved"):
        _edit_title(vault, raw)
    assert (vault / "note.md").read_bytes() == raw
