"""Bounds on what a Markdown view renders at once, so one body never freezes the window.

Qt lays out Markdown on the UI thread; the audit (issue 18) measured a 3,000x20 table at
21 s, a 2 MB line at over a minute. :func:`bounded_markdown` cuts a body to what renders in a
few tens of milliseconds; the view then offers "show all". Every step works on text already
cut to :data:`MAX_CHARS`, so bounding a 50 MB body costs no more than a small one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

MAX_CHARS = 50_000
MAX_LINE_CHARS = 10_000
MAX_TABLE_CELLS = 100  # Qt spends ~0.2 ms a cell laying out Markdown (setMarkdown)
HTML_TABLE_CELLS = 1_000  # ~0.05 ms a cell as HTML (the preview: 1,000 cells in ~50 ms)
MAX_IMAGES = 50
MAX_DATA_URL_CHARS = 32 * 1024  # below MAX_CHARS: one cut short is caught too
_DELIMITER_ROW = re.compile(r"^ {0,3}\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$")
_LONG_DATA_URL = re.compile(rf"data:[^\s)\"'<>]{{{MAX_DATA_URL_CHARS},}}", re.IGNORECASE)
_IMAGE = re.compile(r"!\[|<img\b", re.IGNORECASE)


@dataclass
class Bounded:
    """The text to render and what was left out of it (empty when nothing was)."""

    text: str
    cuts: list[str] = field(default_factory=list)

    @property
    def cut(self) -> bool:
        return bool(self.cuts)


def bounded_markdown(text: str, table_cells: int = MAX_TABLE_CELLS) -> Bounded:
    """``text`` cut to what a view renders quickly; ``cuts`` says what was left out.
    ``table_cells``: the cells all tables may have together."""
    cuts: list[str] = []
    if len(text) > MAX_CHARS:
        end = text.rfind("\n", 0, MAX_CHARS)
        text = text[: end if end > MAX_CHARS // 2 else MAX_CHARS]
        cuts.append("the end of the text")
    text, count = _LONG_DATA_URL.subn("data:,", text)
    if count:
        cuts.append("large embedded images")
    lines = text.split("\n")
    if any(len(line) > MAX_LINE_CHARS for line in lines):
        lines = [
            line[:MAX_LINE_CHARS] + " …" if len(line) > MAX_LINE_CHARS else line for line in lines
        ]
        cuts.append("the end of long lines")
    text = "\n".join(_bounded_tables(lines, cuts, table_cells))
    text = _bounded_images(text, cuts)
    return Bounded(text, cuts)


def _bounded_tables(lines: list[str], cuts: list[str], budget: int) -> list[str]:
    out: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        if index + 1 < len(lines) and "|" in line and _DELIMITER_ROW.match(lines[index + 1]):
            end = index + 2
            while end < len(lines) and "|" in lines[end] and lines[end].strip():
                end += 1
            columns = max(line.count("|") - 1, 1)
            keep = max(budget // columns, 1)
            rows = lines[index + 2 : end]
            out.extend(lines[index : index + 2] + rows[:keep])
            budget = max(budget - columns * min(keep, len(rows)), 0)
            if len(rows) > keep:
                out.append("")
                out.append(f"*… {len(rows) - keep:,} more table rows*")
                if "table rows" not in cuts:
                    cuts.append("table rows")
            index = end
            continue
        out.append(line)
        index += 1
    return out


def _bounded_images(text: str, cuts: list[str]) -> str:
    """The text up to the image after the first :data:`MAX_IMAGES` (each costs a layout)."""
    for count, match in enumerate(_IMAGE.finditer(text)):
        if count == MAX_IMAGES:
            cuts.append(f"everything after the first {MAX_IMAGES} images")
            return text[: match.start()]
    return text
