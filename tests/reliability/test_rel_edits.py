"""Property: an edit of the title and one body line changes no byte outside those two lines,
whatever the line endings, comments, quoting and odd keys; or it is refused and the file is
left alone (issue 18, item 2)."""

from __future__ import annotations

import random
from pathlib import Path

from pixelmem.core.vault.frontmatter_io import FrontmatterEditRefused
from pixelmem.core.vault.store import MemoryStore

CASES = 800  # case 691 once caught blank lines trading their endings
ODD_LINES = [
    "rating: 4.5",
    "# a comment",
    "aliases: [one, 'two', \"three\"]",
    "~: null key",
    "null: x",
    "x: !!omap [{a: 1}, {b: 2}]",
    "s: !!set {a, b}",
    "n: .nan",
    "when: 2024-01-05",
    "quoted: 'it''s'",
    "tags:",
    "  - a",
    "  - b",
    "dup: 1",
    "dup: 2",
    "empty:",
    "long: " + "word " * 30,
    "unicode: 数据库 笔记",
    "block: |",
    "  kept as is",
]
TITLES = ["Old", "'Old'", '"Old"', "Old  # c"]
BODY_WORDS = ["alpha", "beta", "数据", "`code`", "- item", "# heading", "> quote", ""]


def _ending(rng: random.Random, style: str) -> str:
    return {"lf": "\n", "crlf": "\r\n"}.get(style) or rng.choice(["\n", "\r\n"])


def _file(rng: random.Random) -> tuple[str, int]:
    """A foreign file's text (no id, so no key but the title changes) and its title line."""
    fm_style = rng.choice(["lf", "crlf", "mixed"])
    body_style = rng.choice(["lf", "crlf", "mixed"])
    lines = [f"{line}" for line in rng.sample(ODD_LINES, rng.randint(0, 8))]
    lines = [line for line in lines if not line.startswith("  ")]  # no orphan items
    title_at = rng.randint(0, len(lines))
    lines.insert(title_at, "title: " + rng.choice(TITLES))
    fm = "".join(line + _ending(rng, fm_style) for line in lines)
    body_lines = [
        " ".join(rng.choice(BODY_WORDS) for _ in range(rng.randint(0, 5)))
        for _ in range(rng.randint(1, 12))
    ]
    body = "".join(line + _ending(rng, body_style) for line in body_lines)
    if rng.random() < 0.2:
        body = body.rstrip("\r\n")  # no final line break
    open_nl = _ending(rng, fm_style)
    bom = "\ufeff" if rng.random() < 0.1 else ""
    text = f"{bom}---{open_nl}{fm}---{_ending(rng, fm_style)}{body}"
    return text, title_at + 1  # line number of the title (after the opening ---)


def _expected(raw: bytes, title_line: int, target: int, case: int) -> bytes:
    """``raw`` with the title line and body line ``target`` replaced, each keeping its ending."""
    lines = raw.decode("utf-8").splitlines(keepends=True)
    old_value = lines[title_line].split(":", 1)[1].strip()
    quote = old_value[0] if old_value[:1] in ("'", '"') else ""  # a quoted title stays quoted
    lines[title_line] = f"title: {quote}New title {case}{quote}" + _end(lines[title_line])
    body_start = next(i for i in range(1, len(lines)) if lines[i].rstrip("\r\n") == "---") + 1
    at = body_start + target
    if at < len(lines):
        lines[at] = f"edited {case}" + _end(lines[at])
    else:  # the empty line after a final line break
        lines.append(f"edited {case}")
    if not lines[-1].endswith("\n"):  # every save ends the file with a line break
        endings = [_end(line) for line in lines[body_start:] if _end(line)]
        lines[-1] += endings[-1] if endings else _end(lines[0])
    return "".join(lines).encode("utf-8")


def _end(line: str) -> str:
    return line[len(line.rstrip("\r\n")) :]


def test_title_and_line_edits_touch_nothing_else(vault: Path) -> None:
    rng = random.Random(2)
    refused = edited = 0
    path = vault / "note.md"
    for case in range(CASES):
        text, title_line = _file(rng)
        raw = text.encode("utf-8")
        path.write_bytes(raw)
        store = MemoryStore(vault)
        try:
            memory = store.list()[0]
        except IndexError:  # the generated YAML is invalid (e.g. a duplicate in a bad place)
            continue
        body_lines = memory.body.replace("\r\n", "\n").split("\n")
        target = rng.randrange(len(body_lines))
        body_lines[target] = f"edited {case}"
        memory.title = f"New title {case}"
        memory.body = "\n".join(body_lines)
        try:
            store.update(memory)
        except FrontmatterEditRefused:
            assert path.read_bytes() == raw
            refused += 1
            continue
        edited += 1
        assert path.read_bytes() == _expected(raw, title_line, target, case), (case, text)
        again = MemoryStore(vault).list()[0]
        assert again.title == f"New title {case}"
    assert edited > CASES // 2 and refused < CASES // 4
