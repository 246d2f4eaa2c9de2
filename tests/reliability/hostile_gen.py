"""Generators of hostile vault files, shared by the reliability tests and the soak benchmark.

Each generator writes one file (or a few, for symlink loops) into a folder and returns the
names it made. Everything is derived from a ``random.Random`` so a seed reproduces a case.
"""

from __future__ import annotations

import os
import random
import socket
import string
from collections.abc import Callable
from pathlib import Path

Maker = Callable[[random.Random, Path, str], list[str]]


def billion_laughs(levels: int = 9, width: int = 9) -> str:
    """The classic: ``width`` ** ``levels`` strings from a few hundred bytes of YAML."""
    lines = [f"l0: &l0 [{', '.join(['lol'] * width)}]"]
    for level in range(1, levels):
        items = ", ".join([f"*l{level - 1}"] * width)
        lines.append(f"l{level}: &l{level} [{items}]")
    return "\n".join(lines) + "\n"


def _fm(yaml_text: str, body: str = "body\n") -> str:
    return f"---\n{yaml_text}---\n{body}"


def _write(folder: Path, name: str, text: str | bytes) -> list[str]:
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    (folder / name).write_bytes(data)
    return [name]


def bad_date(rng: random.Random, folder: Path, stem: str) -> list[str]:
    year = rng.choice(["0001", "9999", "0000", "1970", "2024"])
    month, day = rng.choice([("01", "01"), ("12", "31"), ("13", "45"), ("02", "30")])
    offset = rng.choice(["", "Z", "-12:00", "+14:00", "+23:59", "-23:59"])
    stamp = f"{year}-{month}-{day}" + rng.choice(["", f"T23:59:59{offset}", f" 00:00:00{offset}"])
    key = rng.choice(["created", "updated", "due", "nested"])
    value = rng.choice([stamp, f"'{stamp}'", f"[{stamp}]", f"{{when: {stamp}}}"])
    return _write(folder, f"{stem}.md", _fm(f"title: t\n{key}: {value}\n"))


def symlink_case(rng: random.Random, folder: Path, stem: str) -> list[str]:
    kind = rng.randrange(4)
    a, b = folder / f"{stem}.md", folder / f"{stem}-b.md"
    if kind == 0:  # a loop of two
        os.symlink(b.name, a)
        os.symlink(a.name, b)
        return [a.name, b.name]
    if kind == 1:  # a link to itself
        os.symlink(a.name, a)
        return [a.name]
    if kind == 2:  # dangling
        os.symlink(f"missing-{stem}.md", a)
        return [a.name]
    os.symlink("/etc/hostname", a)  # outside the vault
    return [a.name]


def bad_name(rng: random.Random, folder: Path, stem: str) -> list[str]:
    raw = bytes(rng.choice([0xFF, 0xFE, 0xC3, 0x80, 0xED]) for _ in range(rng.randint(1, 4)))
    name = os.fsencode(stem) + raw + b".md"
    text = rng.choice([b"no frontmatter\n", b"---\ntitle: x\n---\nbody\n", b"# heading\n"])
    with open(os.path.join(os.fsencode(folder), name), "wb") as handle:
        handle.write(text)
    return [os.fsdecode(name)]


def deep(rng: random.Random, folder: Path, stem: str) -> list[str]:
    depth = rng.choice([60, 64, 65, 100, 1000, 5000, 50_000, 200_000])
    style = rng.randrange(3)
    if style == 0:
        value = "[" * depth + "]" * depth
    elif style == 1:
        value = "{a: " * depth + "1" + "}" * depth
    else:
        lines = [" " * i + "- " for i in range(min(depth, 3000))]
        value = "\n" + "\n".join(lines) + "x"
    return _write(folder, f"{stem}.md", _fm(f"title: deep\nx: {value}\n"))


def laughs(rng: random.Random, folder: Path, stem: str) -> list[str]:
    text = billion_laughs(rng.randint(3, 12), rng.randint(2, 12))
    return _write(folder, f"{stem}.md", _fm(text + rng.choice(["", "title: t\n"])))


def huge(rng: random.Random, folder: Path, stem: str) -> list[str]:
    size = rng.choice([300_000, 2_000_000])
    text = "title: big\nitems:\n" + "- x\n" * (size // 4)
    return _write(folder, f"{stem}.md", _fm(text))


def special(rng: random.Random, folder: Path, stem: str) -> list[str]:
    path = folder / f"{stem}.md"
    if rng.randrange(2):
        os.mkfifo(path)
    else:
        sock = socket.socket(socket.AF_UNIX)
        try:
            sock.bind(str(path))
        except OSError:  # path too long for a socket: a FIFO then
            os.mkfifo(path)
        finally:
            sock.close()
    return [path.name]


def odd_yaml(rng: random.Random, folder: Path, stem: str) -> list[str]:
    text = rng.choice(
        [
            "? [a, b]\n: 1\n",
            "? {a: 1}\n: 2\n",
            "~: null key\ntitle: t\n",
            "null: x\n",
            "title: a\ntitle: b\n",
            "x: !!omap [{a: 1}, {b: 2}]\n",
            "x: !!set {a, b}\n",
            "x: !!binary aGVsbG8=\n",
            "x: !!python/object:os.system ls\n",
            "x: 1e400\ny: .nan\nz: -.inf\n",
            "x: 123456789012345678901234567890\n",
            "x: 0x7fffffffffffffffffff\n",
            "title: [a, b]\n",
            "title: {a: 1}\n",
            "topics: {a: 1}\n",
            "id: ../../etc/passwd\n",
            "id: 123\n",
            "id: [1]\n",
            "importance: [high]\n",
            "created: [2024-01-01]\n",
            "- just\n- a list\n",
            "'unterminated\n",
            "\t tab: 1\n",
            "x: *undefined\n",
            "x: &a 1\ny: *a\n",
            "x: !custom tag\n",
        ]
    )
    return _write(folder, f"{stem}.md", _fm(text))


def bad_bytes(rng: random.Random, folder: Path, stem: str) -> list[str]:
    data = rng.choice(
        [
            b"",
            b"   \n\n",
            b"\xef\xbb\xbf",
            b"---\ntitle: \x00\n---\n",
            b"---\ntitle: \xff\xfe\n---\n",
            b"---\n---\n",
            b"---\n",
            b"---\r\ntitle: crlf\r\n---\r\nbody\r\n",
            bytes(rng.randrange(256) for _ in range(rng.randint(1, 300))),
        ]
    )
    return _write(folder, f"{stem}.md", data)


_ALPHABET = string.ascii_letters + string.digits + " :-[]{},&*!|>'\"%@`#?\n\t\\." + "é数\u2028"


def fuzz(rng: random.Random, folder: Path, stem: str) -> list[str]:
    text = "".join(rng.choice(_ALPHABET) for _ in range(rng.randint(1, 200)))
    return _write(folder, f"{stem}.md", _fm(text, rng.choice(["", "body\n", "\r\nx"])))


def folder_named_md(rng: random.Random, folder: Path, stem: str) -> list[str]:
    (folder / f"{stem}.md").mkdir()
    return []


MAKERS: list[Maker] = [
    bad_date,
    symlink_case,
    bad_name,
    deep,
    laughs,
    huge,
    special,
    odd_yaml,
    bad_bytes,
    fuzz,
    folder_named_md,
]


def make_hostile(rng: random.Random, folder: Path, index: int) -> list[str]:
    """One hostile file (or a linked pair) in ``folder``; the names written."""
    maker = MAKERS[index % len(MAKERS)] if index < len(MAKERS) else rng.choice(MAKERS)
    return maker(rng, folder, f"h{index:05d}")
