"""frontmatter_io and ids: splitting, minimal YAML edits, normalisation, id rules, slugs."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from pixelmem.core.errors import InvalidIdError
from pixelmem.core.vault import ids
from pixelmem.core.vault.frontmatter_io import (
    FrontmatterEditRefused,
    FrontmatterError,
    dump_entry,
    edit_yaml,
    load_yaml,
    normalise_datetime,
    normalise_text,
    normalise_topics,
    parse_document,
)


@pytest.mark.parametrize(
    "text",
    [
        "---\na: 1\n---\nbody\n",
        "---\n---\nbody",
        "---\r\na: 1\r\n---\r\nb\r\n",
        "---\na: 1\n---",
        "---\na: 1\n...\nbody",
        "no frontmatter\n",
        "---\nnot closed\n",
        "\ufeff---\na: 1\n---\nx",
        "--- \na: 1\n---  \nx",
    ],
)
def test_documents_join_back_to_the_original_text(text: str) -> None:
    assert parse_document(text).text() == text


def test_parse_document_parts() -> None:
    doc = parse_document("---\na: 1\n---\n\nbody\n")
    assert doc.has_frontmatter and doc.data == {"a": 1}
    assert doc.body == "\nbody\n" and doc.yaml_text == "a: 1\n"
    assert not parse_document("---\nnot closed\n").has_frontmatter
    assert parse_document("x\r\ny").newline == "\r\n"


@pytest.mark.parametrize(
    ("yaml_text", "reason"),
    [("a: [\n", "invalid YAML"), ("- a\n", "not a list of"), ("a: b: c\n", "invalid YAML")],
)
def test_bad_yaml_is_reported(yaml_text: str, reason: str) -> None:
    with pytest.raises(FrontmatterError, match=reason):
        load_yaml(yaml_text)


def test_edit_keeps_comments_quotes_and_order() -> None:
    text = (
        "# leading comment\n"
        "'quoted key': \"keep\"\n"
        "title: Old   # trailing comment\n"
        "nested:\n"
        "  a: 1\n"
        "  b: [1, 2]\n"
        "\n"
        "# about topics\n"
        "topics:\n"
        "- a\n"
        "block: |\n"
        "  multi\n"
        "  line\n"
    )
    original = load_yaml(text)
    edited = edit_yaml(text, original, {"title": "New", "topics": ["b", "c"], "added": 1})
    assert edited == (
        "# leading comment\n"
        "'quoted key': \"keep\"\n"
        "title: New\n"
        "nested:\n"
        "  a: 1\n"
        "  b: [1, 2]\n"
        "\n"
        "# about topics\n"
        "topics:\n"
        "- b\n"
        "- c\n"
        "block: |\n"
        "  multi\n"
        "  line\n"
        "added: 1\n"
    )


def test_edit_removes_a_key_and_keeps_the_filler_after_it() -> None:
    text = "a: 1\nsource: x\n\n# note\nb: 2\n"
    assert edit_yaml(text, load_yaml(text), {}, ["source"]) == "a: 1\n\n# note\nb: 2\n"
    assert edit_yaml(text, load_yaml(text), {}) == text


def test_edit_with_double_quoted_and_dash_keys() -> None:
    text = '"ti\\"tle": 1\n-x: 2\n'
    edited = edit_yaml(text, load_yaml(text), {'ti"tle': 3})
    assert load_yaml(edited) == {'ti"tle': 3, "-x": 2}
    assert edited.endswith("-x: 2\n")


@pytest.mark.parametrize(
    "text",
    [
        "? complex\n: value\ntitle: a\n",  # explicit key: not line-editable
        "title: a\ntitle: b\n",  # duplicated key
        "{title: a, x: 1}\n",  # flow mapping
    ],
)
def test_unusual_layouts_are_refused_never_redumped(text: str) -> None:
    original = load_yaml(text)
    with pytest.raises(FrontmatterEditRefused, match="cannot change title"):
        edit_yaml(text, original, {"title": "new"})


def test_dump_entry_quotes_what_yaml_would_retype() -> None:
    for value in ["123", "yes", "2024-01-01", "a: b", "#x", "数据库"]:
        assert load_yaml(dump_entry("k", value)) == {"k": value}
    stamp = datetime(2026, 11, 21, 10, 0, tzinfo=UTC)
    assert dump_entry("created", stamp) == "created: 2026-11-21T10:00:00Z\n"
    assert dump_entry("k", [], "\r\n") == "k: []\r\n"
    east = datetime(2026, 11, 21, 18, 0, tzinfo=timezone(timedelta(hours=8)))
    assert dump_entry("c", east) == "c: 2026-11-21T10:00:00Z\n"


def test_normalisers() -> None:
    assert normalise_datetime(date(2024, 1, 2)) == datetime(2024, 1, 2, tzinfo=UTC)
    assert normalise_datetime("2024-01-02T03:04:05Z") == datetime(2024, 1, 2, 3, 4, 5, tzinfo=UTC)
    assert normalise_datetime("2024-01-02T11:04:05+08:00") == datetime(
        2024, 1, 2, 3, 4, 5, tzinfo=UTC
    )
    assert normalise_datetime("later") is None
    assert normalise_datetime(5) is None
    assert normalise_text(None) is None
    assert normalise_text(False) == "false"
    assert normalise_text(3.5) == "3.5"
    assert normalise_text(date(2024, 1, 2)) == "2024-01-02"
    assert normalise_text(datetime(2024, 1, 2, 3, 4)) == "2024-01-02T03:04:00"
    assert normalise_text(datetime(2024, 1, 2, tzinfo=UTC)) == "2024-01-02T00:00:00Z"
    assert normalise_text(["a", 1, None]) == "a, 1"
    assert normalise_topics(None) == []
    assert normalise_topics([]) == []
    assert normalise_topics(["a", " a ", "", None, 2]) == ["a", "2"]
    assert normalise_topics("x, y") == ["x", "y"]


@pytest.mark.parametrize(
    "good", ["abc", "0f" * 16, "path-0123456789ab", "数据库-1", "a b", "note.v2", "x" * 128]
)
def test_valid_ids(good: str) -> None:
    assert ids.validate_id(good) == good


@pytest.mark.parametrize(
    "bad",
    [
        "../../etc/passwd",
        "/abs",
        "a\\b",
        "C:x",
        "a\x00",
        "a\nb",
        "a\u202eb",
        "..",
        ".hidden",
        "a..b",
        "",
        " x",
        "x" * 129,
        None,
        5,
    ],
)
def test_invalid_ids(bad: object) -> None:
    assert not ids.is_valid_id(bad)
    with pytest.raises(InvalidIdError):
        ids.validate_id(bad)


def test_new_and_path_ids() -> None:
    first, second = ids.new_id(), ids.new_id()
    assert first != second and len(first) == 32 and ids.is_valid_id(first)
    assert ids.path_id("a/b.md") == ids.path_id("a/b.md") != ids.path_id("a/c.md")
    assert ids.is_valid_id(ids.path_id("../weird name.md"))


def test_slugs() -> None:
    assert ids.slugify("Hello, World!") == "hello-world"
    assert ids.slugify("数据库 索引") == "数据库-索引"
    assert ids.slugify("a/b\\c:d*e?f") == "a-b-c-d-e-f"
    assert ids.slugify("...") == "note"
    assert ids.slugify("snake_case__x") == "snake-case-x"
    assert len(ids.slugify("word " * 50)) <= ids.SLUG_MAX_CHARS
    stamp = datetime(2026, 1, 2, tzinfo=UTC)
    assert ids.memory_filename(stamp, "Rust", "abcdef0123") == "memory_2026-01-02_rust_abcdef01.md"


# ---------------------------------------------------------------- the fast path agrees with PyYAML

TRICKY_VALUES = [
    "abc", "Hello world", "数据库 索引", "yes", "No", "ON", "off", "null", "Null", "~", "true",
    "y", "n", "1", "-1", "+1", "0", "007", "0x1f", "0o7", "1_000", "1:20", "1.5", ".5", ".inf",
    "Inf", "NaN", ".nan", "e5", "2024-01-05", "2024-1-5", "2024-13-45", "2026-11-21T10:00:00Z",
    "2026-11-21T10:00:00.5Z", "2026-11-21T10:00:00.1234567Z", "2026-11-21 10:00:00",
    "2026-11-21T10:00:00+08:00", "a: b", "a:b", "a #b", "a#b", "a:", "a ", " a", "'q'",
    "'it''s'", "'a'b'", '"d"', '"a\\nb"', '"it\'s"', "[a, b]", "[a,b]", "[yes]", "[a b, c]",
    "[]", "[ ]", "[a,]", "[a, [b]]", "['a']", "{a: 1}", "&anchor x", "*ref", "!tag x", "|",
    "> x", "%x", "@x", "`x", "a\tb", "a\x85b", "a\u2028b", "a\ufeffb", "a\x07b", "=", "<<",
    "-x", "- x", "a - b", "a, b", "é", "Ünïcödé", "a\\b", "http://x.y/z?q=1#frag",
    "note [[wiki link]]", "x: y: z", "", "0f0f0f0f", "3e5", "1e10", "1E10", "0x1f", "0b101",
    "0X1F", "0B1", "12ab", "1234", "9f86d081884c7d65", "1a_b", "1a.b", "1a-b", "0o17",
    "٢٠٢٤-٠١-٠٥", "٣",
]  # fmt: skip
TRICKY_KEYS = ["id", "title", "a-b", "_x", "yes", "On", "null", "1", "key with space", "a:b"]


def _random_frontmatter(rng) -> str:
    lines = []
    for _ in range(rng.randint(0, 6)):
        key = rng.choice(TRICKY_KEYS) if rng.random() < 0.2 else rng.choice(["k1", "k2", "k3"])
        shape = rng.random()
        if shape < 0.6:
            value = rng.choice(TRICKY_VALUES)
            lines.append(f"{key}: {value}" if value else f"{key}:")
        elif shape < 0.85:
            lines.append(f"{key}:")
            indent = rng.choice(["", "  "])
            for _ in range(rng.randint(0, 3)):
                bad_indent = " " if rng.random() < 0.05 else ""
                lines.append(f"{indent}{bad_indent}- {rng.choice(TRICKY_VALUES)}")
        elif shape < 0.9:
            lines.append("# a comment")
        elif shape < 0.95:
            lines.append("")
        else:
            lines.append(rng.choice(["  nested: 1", "\tk: v", "? x", "---x", "k:  two spaces"]))
    newline = "\r\n" if rng.random() < 0.2 else "\n"
    return newline.join(lines) + (newline if lines else "")


def _yaml_or_error(text: str):
    import yaml

    try:
        return ("ok", yaml.load(text, Loader=yaml.SafeLoader))
    except Exception as exc:
        return ("error", type(exc))


def test_simple_parser_agrees_with_pyyaml_or_declines() -> None:
    import random

    from pixelmem.core.vault.frontmatter_io import parse_simple_yaml

    rng = random.Random(1234)
    handled = 0
    for _ in range(20_000):
        text = _random_frontmatter(rng)
        simple = parse_simple_yaml(text)
        if simple is None:
            continue
        handled += 1
        status, reference = _yaml_or_error(text)
        assert status == "ok", text
        reference = reference or {}
        assert simple == reference, text
        assert [type(v) for v in simple.values()] == [type(v) for v in reference.values()], text
        assert list(simple) == list(reference), text
    assert handled > 3000  # the fast path is actually exercised


def test_simple_parser_handles_what_pixelmem_writes() -> None:
    from pixelmem.core.vault.frontmatter_io import parse_simple_yaml

    stamp = datetime(2026, 11, 21, 10, 0, tzinfo=UTC)
    data = {
        "id": "0f" * 16,
        "title": "数据库 索引: design #1",
        "created": stamp,
        "updated": stamp,
        "topics": ["rust", "yes", "数据库"],
        "importance": "high",
        "source": "https://example.com/a?b=1",
        "aliases": [],
    }
    from pixelmem.core.vault.frontmatter_io import dump_mapping

    text = dump_mapping(data)
    assert parse_simple_yaml(text) == data
    assert load_yaml(text) == data
