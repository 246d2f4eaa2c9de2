"""Parts of a note that a link or an embed can name: ``Note#Heading`` (the heading's section)
and ``Note#^block-id`` (the block that ends with ``^block-id``), as Obsidian cuts them.

A section runs from its heading to the next heading of the same or a higher level. A block
is the paragraph (or list item, or quote line) whose last line ends with `` ^id``; an id on a
line of its own names the block just above it (a list, a table, a quote). Lines inside fenced
code never count.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from pixelmem.core.vault.links import link_key

_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
BLOCK_ID = re.compile(r"(?:^|[ \t])\^([A-Za-z0-9-]+)[ \t]*$")
_LIST_ITEM = re.compile(r"^[ \t]*(?:[-*+]|\d+[.)])[ \t]")


def _lines_outside_code(body: str) -> Iterator[tuple[int, str, bool]]:
    """(index, line, in_code) for each line of ``body``."""
    fence = ""
    for index, line in enumerate(body.split("\n")):
        opened = _FENCE.match(line)
        if fence:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = ""
            yield index, line, True
        elif opened:
            fence = opened.group(1)
            yield index, line, True
        else:
            yield index, line, False


def section_of(body: str, heading: str) -> str | None:
    """The section under the heading called ``heading`` (case and spacing aside), heading
    line included; None when the note has no such heading."""
    wanted = link_key(heading)
    lines = body.split("\n")
    start = level = None
    for index, line, in_code in _lines_outside_code(body):
        match = None if in_code else _HEADING.match(line)
        if match is None:
            continue
        if start is None:
            if link_key(match.group(2)) == wanted:
                start, level = index, len(match.group(1))
        elif level is not None and len(match.group(1)) <= level:
            return "\n".join(lines[start:index]).rstrip("\n")
    return "\n".join(lines[start:]).rstrip("\n") if start is not None else None


def block_of(body: str, block_id: str) -> str | None:
    """The block that ``^block_id`` marks, without the marker; None when there is none."""
    lines = body.split("\n")
    wanted = block_id.lstrip("^").casefold()
    for index, line, in_code in _lines_outside_code(body):
        match = None if in_code else BLOCK_ID.search(line)
        if match is None or match.group(1).casefold() != wanted:
            continue
        own_line = not line[: match.start()].strip()
        if own_line:  # names the block above it
            end = index
            while end > 0 and not lines[end - 1].strip():
                end -= 1
            return "\n".join(lines[_block_start(lines, end - 1) : end]) or None
        text = line[: match.start()].rstrip()
        if _LIST_ITEM.match(line):
            return text.strip()
        start = _block_start(lines, index)
        return "\n".join([*lines[start:index], text])
    return None


def _block_start(lines: list[str], last: int) -> int:
    start = last
    while start > 0 and lines[start - 1].strip():
        start -= 1
    return start
