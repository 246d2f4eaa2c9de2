"""An Obsidian-style vault (tests/data/obsidian_vault): read as the person means it, written
back byte for byte except the lines an edit must change.

The vault has tags as a list, a comma string and ``#`` words, aliases as a list and a string,
dates in several forms, a file without any date, TOML (Hugo) and JSON frontmatter, a CRLF
file without a final newline, wiki links with aliases and headings, an embed, an attachments
folder and a ``.obsidian/`` folder.
"""

from __future__ import annotations

import difflib
import os
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from pixelmem.core.vault.frontmatter_io import FrontmatterEditRefused
from pixelmem.core.vault.memory import Memory, searchable_title
from pixelmem.core.vault.store import MemoryStore


def _snapshot(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".pixelmem" not in p.parts
    }


def _by_title(store: MemoryStore) -> dict[str, Memory]:
    return {m.title: m for m in store.list()}


def _changed_lines(before: bytes, after: bytes) -> list[str]:
    """The lines of ``after`` that differ from ``before`` (endings included)."""
    old = before.decode().splitlines(keepends=True)
    new = after.decode().splitlines(keepends=True)
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    return [
        line
        for tag, _i1, _i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
        for line in new[j1:j2]
    ]


def _removed_lines(before: bytes, after: bytes) -> list[str]:
    return _changed_lines(after, before)


def test_every_file_reads_and_nothing_is_written(obsidian: Path) -> None:
    before = _snapshot(obsidian)
    store = MemoryStore(obsidian)
    memories = _by_title(store)
    assert store.skipped == []
    assert set(memories) == {
        "Reading list",
        "Coffee brewing",
        "2024-01-06",
        "Garden plan",
        "Hugo post",
        "JSON note",
        "Both keys",
    }
    MemoryStore(obsidian).scan()  # a second start, from the scan cache
    assert _snapshot(obsidian) == before


def test_tags_are_topics_in_every_form(obsidian: Path) -> None:
    memories = _by_title(MemoryStore(obsidian))
    assert memories["Reading list"].topics == ["reading", "books"]  # a YAML list
    assert memories["Coffee brewing"].topics == ["coffee", "kitchen"]  # a comma string
    assert memories["2024-01-06"].topics == ["journal", "daily"]  # "#tag" words
    assert memories["Hugo post"].topics == ["hugo", "web"]  # TOML
    assert memories["JSON note"].topics == ["json", "formats"]  # JSON
    assert memories["Both keys"].topics == ["planning", "work"]  # topics and tags, one list


def test_aliases_are_read_and_searchable_as_part_of_the_title(obsidian: Path) -> None:
    memories = _by_title(MemoryStore(obsidian))
    assert memories["Reading list"].aliases == ["Book list", "Books to read"]
    assert memories["Coffee brewing"].aliases == ["Espresso notes"]  # a string
    assert memories["JSON note"].aliases == ["JSON frontmatter"]
    assert "Book list" in searchable_title(memories["Reading list"])
    assert searchable_title(memories["Garden plan"]) == "Garden plan"


def test_dates_in_their_common_forms(obsidian: Path) -> None:
    memories = _by_title(MemoryStore(obsidian))
    assert memories["Reading list"].created == datetime(2024, 1, 5, tzinfo=UTC)  # date:
    assert memories["Coffee brewing"].created == datetime(2024, 1, 5, 10, 0, tzinfo=UTC)
    assert memories["Coffee brewing"].updated == datetime(2024, 3, 1, 7, 30, tzinfo=UTC)
    assert memories["Hugo post"].created == datetime(2024, 2, 1, 8, 0, tzinfo=UTC)  # TOML
    assert memories["JSON note"].created == datetime(2024, 4, 2, 9, 15, tzinfo=UTC)


def test_a_file_without_a_date_keeps_the_date_it_was_first_seen(obsidian: Path) -> None:
    path = obsidian / "Daily" / "2024-01-06.md"
    first_seen = 1_700_000_000
    os.utime(path, (first_seen, first_seen))
    store = MemoryStore(obsidian)
    memory = _by_title(store)["2024-01-06"]
    assert memory.created == datetime.fromtimestamp(first_seen, UTC)

    memory.topics = [*memory.topics, "coffee"]  # a save changes the mtime…
    saved = store.update(memory)
    assert saved.created == datetime.fromtimestamp(first_seen, UTC)  # …not this date
    os.utime(path, (first_seen + 86400 * 30, first_seen + 86400 * 30))  # nor another program
    for fresh in (MemoryStore(obsidian), store):
        fresh.scan()
        assert _by_title(fresh)["2024-01-06"].created == datetime.fromtimestamp(first_seen, UTC)


@pytest.mark.parametrize("odd", ["2024-13-45", "2024-02-30", "2023-00-10 10:00"])
def test_a_date_that_names_no_day_is_text_not_a_reason_to_skip_the_note(
    vault: Path, odd: str
) -> None:
    path = vault / "Weekly sync.md"
    before = f"---\ntags: [work]\ndate: {odd}\n---\nBlockers and next steps.\n".encode()
    path.write_bytes(before)
    store = MemoryStore(vault)
    assert not store.skipped
    memory = store.list()[0]
    assert memory.title == "Weekly sync" and memory.extra["date"] == odd
    assert memory.created is not None  # the first-seen date, not the typo
    memory.topics = ["work", "meeting"]
    store.update(memory)
    assert _changed_lines(before, path.read_bytes()) == ["tags: [work, meeting]\n"]


def test_a_note_without_tags_gets_tags_never_topics(obsidian: Path) -> None:
    path = obsidian / "Projects" / "Garden plan.md"
    memory = next(m for m in MemoryStore(obsidian).list() if m.path == path)
    assert not memory.topics and b"tags" not in path.read_bytes()
    memory.topics = ["garden", "spring"]
    MemoryStore(obsidian).update(memory)
    text = path.read_text()
    assert "tags:\n- garden\n- spring\n" in text and "topics" not in text


def test_a_topic_edit_rewrites_the_key_the_file_uses_in_its_form(obsidian: Path) -> None:
    store = MemoryStore(obsidian)
    expected = {
        "Reading list.md": ["  - novels\n"],
        "Coffee brewing.md": ["tags: coffee, kitchen, novels\n", "updated: {now}\n"],
        "Daily/2024-01-06.md": ['tags: "#journal #daily #novels"\n'],  # its quotes kept
        "Hugo post.md": ['tags = ["hugo", "web", "novels"]\n'],
        "JSON note.md": ['  "tags": ["json", "formats", "novels"],\n'],
    }
    for rel, lines in expected.items():
        path = obsidian / rel
        before = path.read_bytes()
        memory = next(m for m in store.list() if m.path == path)
        memory.topics = [*memory.topics, "novels"]
        saved = store.update(memory)
        now = saved.updated.strftime("%Y-%m-%dT%H:%M:%SZ") if saved.updated else ""
        after = path.read_bytes()
        assert _changed_lines(before, after) == [line.format(now=now) for line in lines], rel
        assert b"topics" not in after, rel  # never a second key
        assert store.get(saved.id).topics[-1] == "novels"


def test_topics_and_tags_together_each_keep_their_own(obsidian: Path) -> None:
    store = MemoryStore(obsidian)
    path = obsidian / "Both keys.md"
    before = path.read_bytes()
    memory = _by_title(store)["Both keys"]
    memory.topics = ["work", "ideas"]  # planning removed, ideas added
    store.update(memory)
    # planning leaves topics:, the new tag goes to tags: (what Obsidian reads), work stays
    assert _changed_lines(before, path.read_bytes()) == ["topics: []\n", "tags: [work, ideas]\n"]
    assert _by_title(MemoryStore(obsidian))["Both keys"].topics == ["work", "ideas"]


def test_title_edits_in_toml_and_json_change_one_line(obsidian: Path) -> None:
    store = MemoryStore(obsidian)
    for rel, new_line in (
        ("Hugo post.md", 'title = "Hugo post, revised"\n'),
        ("JSON note.md", '  "title": "Hugo post, revised",\n'),
    ):
        path = obsidian / rel
        before = path.read_bytes()
        memory = next(m for m in store.list() if m.path == path)
        memory.title = "Hugo post, revised"
        store.update(memory)
        after = path.read_bytes()
        assert _changed_lines(before, after) == [new_line], rel
        assert len(_removed_lines(before, after)) == 1
        assert after.endswith(before[before.rindex(b"\n", 0, len(before) - 1) :])  # body kept


def test_an_alias_edit_keeps_the_form(obsidian: Path) -> None:
    store = MemoryStore(obsidian)
    path = obsidian / "Coffee brewing.md"
    memory = _by_title(store)["Coffee brewing"]
    memory.aliases = ["Espresso log"]
    store.update(memory)
    assert b"aliases: Espresso log\n" in path.read_bytes()
    path = obsidian / "Reading list.md"
    memory = _by_title(store)["Reading list"]
    memory.aliases = ["Book list"]
    before = path.read_bytes()
    store.update(memory)
    assert _changed_lines(before, path.read_bytes()) == ["aliases: [Book list]\n"]


@pytest.mark.parametrize(
    ("line", "topics", "expected"),
    [
        ("tags: [misc, t0]\r\n", ["misc", "新", "#x"], "tags: [misc, 新, '#x']\r\n"),
        ("tags: []\n", ["a"], "tags: [a]\n"),
        ('tags: "#a #b"\n', ["a", "c"], 'tags: "#a #c"\n'),
        ("tags: 'a, b'\n", ["a", "c"], "tags: 'a, c'\n"),
        ("topics: [a]\n", ["a", "b: c"], "topics: [a, 'b: c']\n"),
    ],
)
def test_a_list_or_string_keeps_its_flow_form_and_quotes(
    vault: Path, line: str, topics: list[str], expected: str
) -> None:
    newline = "\r\n" if line.endswith("\r\n") else "\n"
    path = vault / "note.md"
    before = f"---{newline}{line}aliases: [x]{newline}---{newline}Body{newline}".encode()
    path.write_bytes(before)
    store = MemoryStore(vault)
    memory = store.list()[0]
    memory.topics = topics
    saved = store.update(memory)
    after = path.read_bytes()
    assert _changed_lines(before, after) == [expected]
    assert MemoryStore(vault).list()[0].topics == saved.topics


def test_a_body_edit_ends_the_file_with_a_newline_in_its_own_endings(obsidian: Path) -> None:
    store = MemoryStore(obsidian)
    path = obsidian / "Projects" / "Garden plan.md"
    memory = _by_title(store)["Garden plan"]
    memory.body = memory.body.replace("\r\n", "\n") + "\nWater in the evening."
    store.update(memory)
    text = path.read_bytes()
    assert text.endswith(b"coffee grounds]].\r\nWater in the evening.\r\n")
    assert b"\n" not in text.replace(b"\r\n", b"")  # still CRLF throughout


def test_a_new_memory_ends_with_a_newline(vault: Path) -> None:
    store = MemoryStore(vault)
    memory = store.create("No newline given", "last line", aliases=["Other name"])
    assert memory.path is not None
    text = memory.path.read_text()
    assert text.endswith("---\nlast line\n") and "aliases:\n- Other name\n" in text
    assert memory.aliases == ["Other name"]


def test_a_toml_value_toml_cannot_hold_is_refused_without_writing(obsidian: Path) -> None:
    store = MemoryStore(obsidian)
    path = obsidian / "Hugo post.md"
    before = path.read_bytes()
    memory = _by_title(store)["Hugo post"]
    memory.extra = {**memory.extra, "draft": None}  # TOML has no null
    with pytest.raises(FrontmatterEditRefused, match="this file's TOML frontmatter"):
        store.update(memory)
    assert path.read_bytes() == before


def test_json_removal_and_addition_keep_commas_right(obsidian: Path) -> None:
    store = MemoryStore(obsidian)
    path = obsidian / "JSON note.md"
    memory = _by_title(store)["JSON note"]
    memory.source = "web"  # a key added at the end: the last entry gains a comma
    store.update(memory)
    text = path.read_text()
    assert '  "extra": {"nested": [1, 2]},\n  "source": "web"\n}\n' in text
    memory = store.get(memory.id)
    memory.source = None  # and removed again
    store.update(memory)
    assert '  "extra": {"nested": [1, 2]}\n}\n' in path.read_text()


def test_a_note_that_merely_starts_with_a_brace_is_all_body(vault: Path) -> None:
    text = "{\nnot json, just a note\n}\nmore\n"
    (vault / "brace.md").write_text(text, encoding="utf-8")
    store = MemoryStore(vault)
    [memory] = store.list()
    assert memory.body == text and store.skipped == []


def test_broken_toml_frontmatter_is_skipped_and_named(vault: Path) -> None:
    (vault / "bad.md").write_text('+++\ntitle = "unclosed\n+++\nbody\n', encoding="utf-8")
    store = MemoryStore(vault)
    assert store.list() == []
    assert "invalid TOML frontmatter" in store.skipped[0].reason


def test_a_topic_with_a_space_turns_a_tags_string_into_a_list(obsidian: Path) -> None:
    store = MemoryStore(obsidian)
    memory = _by_title(store)["2024-01-06"]
    memory.topics = ["journal", "machine learning"]
    store.update(memory)
    assert _by_title(MemoryStore(obsidian))["2024-01-06"].topics == ["journal", "machine learning"]


def test_new_toml_keys_go_above_the_tables(obsidian: Path) -> None:
    store = MemoryStore(obsidian)
    path = obsidian / "Hugo post.md"
    before = path.read_bytes()
    memory = _by_title(store)["Hugo post"]
    memory.source = "web"
    store.update(memory)
    after = path.read_bytes()
    assert _changed_lines(before, after) == ['source = "web"\n']
    assert b'draft = false\nsource = "web"\n\n[params]\nauthor = "Ann"\n+++\n' in after
    assert store.get(memory.id).extra["params"] == {"author": "Ann"}


def test_an_alias_finds_its_memory_by_keyword_and_survives_an_edit(obsidian: Path) -> None:
    from fakes import HashEmbedder

    from pixelmem.core.index.engine import Engine
    from pixelmem.core.settings import Settings

    settings = Settings()
    settings.search.min_relevance = 0.0
    engine = Engine(obsidian, settings, embedder=HashEmbedder())
    engine.reindex()
    hits = engine.search("Book list", mode="keyword", k=3)
    assert hits and hits[0].title == "Reading list"  # the alias, not a word of the body
    other = _by_title(engine.store)["Garden plan"]
    other.body += "\nMore compost.\n"
    engine.writes.update(other)
    engine.reindex()  # the rebuilt keyword side still knows the alias
    assert engine.search("Book list", mode="keyword", k=3)[0].title == "Reading list"


def test_the_scan_cache_gives_back_exactly_what_a_parse_gives(
    obsidian: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pixelmem.core.vault import vault_scan

    old = 1_600_000_000_123_456_789  # not a whole second: the fine racy window applies
    for path in obsidian.rglob("*.md"):
        os.utime(path, ns=(old, old))
    time.sleep(0.3)  # past the racy window of the ctime utime just set (see scan_cache)
    parsed = MemoryStore(obsidian).list()  # parses every file and writes the cache
    parses: list[Path] = []
    original = vault_scan.load_with_document

    def counting(path: Path, root: Path, rule=None):  # type: ignore[no-untyped-def]
        parses.append(path)
        return original(path, root, rule)

    monkeypatch.setattr(vault_scan, "load_with_document", counting)
    cached = MemoryStore(obsidian).list()
    assert parses == []  # every file came from the cache…
    key = lambda m: m.id  # noqa: E731
    assert sorted(cached, key=key) == sorted(parsed, key=key)  # …exactly as parsed
    assert {m.title: m.aliases for m in cached}["Reading list"] == ["Book list", "Books to read"]
