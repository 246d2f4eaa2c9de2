"""Titles as Obsidian shows them, and as a Markdown reader titles a plain folder
(pixelmem/core/vault/titles.py): the same title reaches every view through ``Memory.title``."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pixelmem.core.vault.quick_switch import rank_memories
from pixelmem.core.vault.store import MemoryStore
from pixelmem.core.vault.titles import (
    HEADINGS,
    OBSIDIAN,
    first_heading,
    name_problem,
    note_title,
    title_source,
    vault_title_rule,
)


def _titles(store: MemoryStore) -> dict[str, str]:
    return {m.path.relative_to(store.root).as_posix(): m.title for m in store.list() if m.path}


def test_an_obsidian_vault_names_every_note_by_its_file(obsidian_syntax: Path) -> None:
    titles = _titles(MemoryStore(obsidian_syntax))
    assert titles["Home.md"] == "Home"  # its "# Welcome…" is a heading, not the name
    assert titles["Sync/Headless Sync.md"] == "Headless Sync"  # not "Login" from the shell
    assert titles["Templates.md"] == "Templates"  # not "{{title}}"
    assert titles["Formatting/Basic formatting syntax.md"] == "Basic formatting syntax"
    assert titles["中文/无头同步.md"] == "无头同步"  # not "登录"
    assert titles["中文/基本格式语法.md"] == "基本格式语法"  # not "标题 1"
    assert all(Path(rel).stem == title for rel, title in titles.items())


def test_a_plain_folder_takes_the_first_heading_outside_code(
    obsidian_syntax: Path, tmp_path: Path
) -> None:
    plain = tmp_path / "plain"
    shutil.copytree(obsidian_syntax, plain, ignore=shutil.ignore_patterns(".obsidian"))
    titles = _titles(MemoryStore(plain))
    assert titles["Home.md"] == "Welcome to the sample vault"
    assert titles["Sync/Headless Sync.md"] == "Headless Sync"  # the only "#" is in code
    assert titles["Templates.md"] == "Templates"
    assert titles["中文/基本格式语法.md"] == "基本格式语法"


def test_a_frontmatter_title_wins_in_every_folder(vault: Path) -> None:
    (vault / "note.md").write_text("---\ntitle: From the key\n---\n# A heading\n")
    assert _titles(MemoryStore(vault)) == {"note.md": "From the key"}
    (vault / ".obsidian").mkdir()
    assert _titles(MemoryStore(vault)) == {"note.md": "From the key"}


def test_becoming_an_obsidian_vault_renames_notes_on_the_next_scan(vault: Path) -> None:
    (vault / "file name.md").write_text("# Heading title\n\ntext\n")
    store = MemoryStore(vault)
    assert _titles(store) == {"file name.md": "Heading title"}
    (vault / ".obsidian").mkdir()  # Obsidian opened the folder as a vault
    assert [m.title for m in store.scan().memories] == ["file name"]
    again = MemoryStore(vault)  # from the scan cache, made by the new rule
    assert again.cached_listing()[0].title == "file name"
    assert _titles(again) == {"file name.md": "file name"}


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("# Title\n", "Title"),
        ("intro\n# The Heading #\ntext\n", "The Heading"),
        ("```\n# not this\n```\n# This\n", "This"),
        ("~~~~sh\n# not\n~~~\n# still code\n~~~~\n# Yes\n", "Yes"),
        ("<!--\n# hidden\n-->\n# Shown\n", "Shown"),
        ("%%\n# hidden\n%%\n# Shown\n", "Shown"),
        ("    # indented code\n", None),
        ("## Second level only\n", None),
        ("#hashtag not a heading\n", None),
        ("```\n# unclosed fence runs to the end\n", None),
        ("``` a`b\n# inline code, not a fence\n", "inline code, not a fence"),
    ],
)
def test_first_heading(body: str, expected: str | None) -> None:
    found = first_heading(body)
    assert (found[0] if found else None) == expected
    if found:
        start, end = found[1]
        assert body[start:end].strip() == expected


def test_where_the_title_comes_from() -> None:
    assert title_source({"title": "x"}, "# y", OBSIDIAN) == "frontmatter"
    assert title_source({}, "# y", OBSIDIAN) == "file name"
    assert title_source({}, "# y", HEADINGS) == "heading"
    assert title_source({}, "no heading", HEADINGS) == "file name"
    assert note_title({}, "text", Path("a/Some note.md"), OBSIDIAN) == "Some note"


def test_the_vault_rule_and_names_a_file_can_take(vault: Path) -> None:
    assert vault_title_rule(vault) == HEADINGS
    (vault / ".obsidian").mkdir()
    assert vault_title_rule(vault) == OBSIDIAN
    assert name_problem("Fine name, (2)") is None
    assert name_problem("a/b") is not None and name_problem("why?") is not None
    assert name_problem(".hidden") is not None


def test_the_switcher_matches_file_names_and_folders(obsidian: Path) -> None:
    (obsidian / "notes").mkdir()
    (obsidian / "notes" / "machine-name-1.md").write_text("---\ntitle: Shown title\n---\nx\n")
    store = MemoryStore(obsidian)
    memories = store.list()
    by_file = rank_memories(memories, "machine name", root=store.root)
    assert [m.title for m in by_file][:1] == ["Shown title"]
    assert by_file[0].path == "notes/machine-name-1"
    by_folder = rank_memories(memories, "notes/mach", root=store.root)
    assert by_folder[0].title == "Shown title"
    by_title = rank_memories(memories, "shown", root=store.root)
    assert by_title[0].path is None and by_title[0].alias is None


@pytest.mark.parametrize(
    ("body", "line"),
    [
        ("> [!note] Title here\n> body", "Title here"),
        (
            "[[Introduction to Obsidian Sync|Obsidian Sync]] offers a client",
            "Obsidian Sync offers a client",
        ),
        ("- [[Home]] and ![[diagram.png|100]] ^abc-1", "Home and diagram.png"),
        ("> [!tip]\n> the body", "the body"),
    ],
)
def test_a_list_row_shows_a_line_as_a_reader_sees_it(body: str, line: str) -> None:
    from pixelmem.core.vault.memory import preview_line

    assert preview_line(body) == line and preview_line(line) == line


# -- a new title goes where the title comes from --------------------------------------------


def _memory(store: MemoryStore, title: str):
    return next(m for m in store.list() if m.title == title)


def test_renaming_a_note_named_by_its_file_renames_the_file(obsidian_syntax: Path) -> None:
    store = MemoryStore(obsidian_syntax)
    note = _memory(store, "Templates")
    before = (obsidian_syntax / "Templates.md").read_bytes()
    note.title = "Template variables and dates"
    saved = store.update(note)
    path = obsidian_syntax / "Template variables and dates.md"
    assert saved.path == path and not (obsidian_syntax / "Templates.md").exists()
    assert path.read_bytes() == before  # no title: key Obsidian would ignore, nothing else
    assert saved.title == "Template variables and dates"
    assert [m.title for m in MemoryStore(obsidian_syntax).list()].count("Templates") == 0


def test_a_rename_refuses_a_taken_or_impossible_name(obsidian_syntax: Path) -> None:
    import pytest as _pytest

    from pixelmem.core.errors import InvalidMemoryError

    store = MemoryStore(obsidian_syntax)
    note = _memory(store, "Templates")
    note.title = "Home"
    with _pytest.raises(InvalidMemoryError, match="already in this folder"):
        store.update(note)
    note.title = "What? A/B"
    with _pytest.raises(InvalidMemoryError, match="cannot be the note's file name"):
        store.update(note)
    assert (obsidian_syntax / "Templates.md").exists()


def test_a_heading_title_is_edited_on_its_line_elsewhere_a_key_is_added(vault: Path) -> None:
    (vault / "plain.md").write_text("Intro.\n\n# Old heading\n\ntext\n")
    (vault / "bare.md").write_text("no heading\n")
    store = MemoryStore(vault)
    note = _memory(store, "Old heading")
    note.title = "New heading"
    store.update(note)
    assert (vault / "plain.md").read_text() == "Intro.\n\n# New heading\n\ntext\n"
    bare = _memory(store, "bare")
    bare.title = "A name"
    store.update(bare)
    assert (vault / "bare.md").read_text().startswith("---\ntitle: A name\n---\n")


def test_a_new_note_in_an_obsidian_vault_is_named_by_its_title(obsidian_syntax: Path) -> None:
    store = MemoryStore(obsidian_syntax)
    made = store.create("Weekly review", "Done this week.", topics=["review"])
    assert made.path == obsidian_syntax / "Weekly review.md"
    text = made.path.read_text()
    assert "title:" not in text and "tags:\n- review\n" in text
    again = store.create("Weekly review", "Another one.")
    assert again.path == obsidian_syntax / "Weekly review (2).md"
    assert "title: Weekly review\n" in again.path.read_text()  # the name no longer says it
    odd = store.create("What? A/B", "x")
    assert odd.path is not None and odd.path.name.startswith("memory_")


def test_a_name_taken_during_the_rename_is_never_overwritten(
    obsidian_syntax: Path, monkeypatch
) -> None:
    import pytest as _pytest

    from pixelmem.core.errors import InvalidMemoryError

    store = MemoryStore(obsidian_syntax)
    note = _memory(store, "Templates")
    taken = obsidian_syntax / "Late.md"
    real = MemoryStore._renamed_path

    def racing(self, path, doc, current, title, rule):  # another program takes the name now
        target = real(self, path, doc, current, title, rule)
        taken.write_text("someone else's note\n")
        return target

    monkeypatch.setattr(MemoryStore, "_renamed_path", racing)
    note.title = "Late"
    note.topics = [*note.topics, "added"]
    with _pytest.raises(InvalidMemoryError, match="already there"):
        store.update(note)
    assert taken.read_text() == "someone else's note\n"
    kept = store.get(note.id)  # saved under its old name, and the store knows it
    assert kept.path == obsidian_syntax / "Templates.md" and "added" in kept.topics
    kept.body += "\nmore\n"
    store.update(kept)  # no conflict: the table has the file as written
