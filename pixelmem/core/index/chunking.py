"""Split a memory's text into overlapping chunks that fit the embedding model's window.

Size is measured in *weight*: one per character, three per CJK character, because the BERT
tokenizer makes a token of every CJK character and the model sees only 256 tokens. A text that
fits is one chunk. Otherwise Markdown headings start sections, and a section too big for one
chunk is cut at the best separator in the window: paragraph, line, CJK sentence end, sentence
end, space, character. Consecutive chunks of a section share about ``overlap`` weight of text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from pixelmem.core.index.scripts import CJK_WIDE, CJK_WIDE_RANGES, CJK_WIDE_RUN
from pixelmem.core.index.text_tokens import without_block_ids

# Code points a BERT tokenizer turns into about one token each (scripts.CJK_WIDE_RANGES: CJK
# letters and punctuation, full-width forms). Each counts 3 towards a chunk's size.
_CJK_RANGES = CJK_WIDE_RANGES
_CJK_CLASS = CJK_WIDE
_CJK_RUN = CJK_WIDE_RUN
# Sorted [start, end) boundaries: a code point is CJK when searchsorted lands on an odd index.
_CJK_BOUNDS = np.array([b for lo, hi in _CJK_RANGES for b in (lo, hi + 1)], dtype=np.uint32)

# ATX heading (`#`…`######` then a blank or end of line) or a code fence, at a line start.
_BLOCK_MARK = re.compile(r"^ {0,3}(?:#{1,6}(?=[ \t\r]|$)|(`{3,}|~{3,}))", re.MULTILINE)

# Cut candidates, best first. A chunk ends after the separator (trailing blanks are trimmed).
_SEPARATORS = (
    re.compile(r"\n[ \t\r\f\v]*\n"),  # paragraph
    re.compile(r"\n"),  # line
    re.compile(r"[。！？]+[」』”’）]*"),  # CJK sentence end, punctuation kept with its sentence
    re.compile(r"[.!?]+[\"')\]]*\s"),  # sentence end
    re.compile(r"\s"),  # space
)
# Where an overlap may begin: after a sentence end, else at a word or CJK character.
_SENTENCE_START = re.compile(r"(?:[.!?]+[\"')\]]*\s+|[。！？]+[」』”’）]*\s*|\n\s*)(?=\S)")
_WORD_START = re.compile(f"(?<=\\s)\\S|[{_CJK_CLASS}]")
_NON_SPACE = re.compile(r"\S")


@dataclass(frozen=True)
class ChunkerSettings:
    """Chunk size and overlap, in weight units (characters; a CJK character counts 3)."""

    size: int = 800
    overlap: int = 100

    def __post_init__(self) -> None:
        if self.size < 16:
            raise ValueError(f"chunk size must be at least 16, not {self.size}")
        if not 0 <= self.overlap <= self.size // 2:
            raise ValueError(
                f"chunk overlap must be between 0 and half the size ({self.size // 2}), "
                f"not {self.overlap}"
            )

    def as_dict(self) -> dict[str, int]:
        return {"size": self.size, "overlap": self.overlap}


@dataclass(frozen=True, slots=True)
class Chunk:
    """A span of a memory's text; ``text == source[start:end]``."""

    memory_id: str
    index: int
    start: int
    end: int
    text: str


def text_weight(s: str) -> int:
    """Length of ``s`` where each CJK character counts 3 (about one BERT token each)."""
    if s.isascii():
        return len(s)
    return len(s) + 2 * sum(len(run) for run in _CJK_RUN.findall(s))


def chunk_text(
    memory_id: str,
    text: str,
    settings: ChunkerSettings = ChunkerSettings(),
    spans: list[tuple[int, int]] | None = None,
) -> list[Chunk]:
    """Chunks of ``text`` in order; blank text gives none. Deterministic. ``spans``: only
    these ``[start, end)`` parts of it are read, each chunked by itself (a drawing's words,
    :func:`~pixelmem.core.vault.drawings.text_spans`); offsets stay those of ``text``."""
    if spans is not None:
        chunks: list[Chunk] = []
        for a, b in spans:
            for c in _chunk_whole(memory_id, text[a:b], settings):
                chunks.append(Chunk(memory_id, len(chunks), a + c.start, a + c.end, c.text))
        return chunks
    return _chunk_whole(memory_id, text, settings)


def _chunk_whole(memory_id: str, text: str, settings: ChunkerSettings) -> list[Chunk]:
    start, end = _trimmed(text, 0, len(text))
    if start == end:
        return []
    if _fits_whole(text[start:end], settings.size):
        return [Chunk(memory_id, 0, start, end, text[start:end])]
    weights = _Weights(text)
    spans = [
        span for a, b in _sections(text) for span in _split_section(text, a, b, weights, settings)
    ]
    return [Chunk(memory_id, i, a, b, text[a:b]) for i, (a, b) in enumerate(spans)]


def _fits_whole(s: str, size: int) -> bool:
    return len(s) <= size // 3 or (len(s) <= size and text_weight(s) <= size)


class _Weights:
    """Prefix sums of character weights, so any span's weight is one subtraction."""

    def __init__(self, text: str) -> None:
        self._prefix: np.ndarray | None = None
        if text.isascii() or _CJK_RUN.search(text) is None:
            return
        codes = np.frombuffer(text.encode("utf-32-le"), dtype="<u4")
        cjk = np.searchsorted(_CJK_BOUNDS, codes, side="right") % 2 == 1
        self._prefix = np.concatenate(([0], np.cumsum(1 + 2 * cjk.astype(np.int64))))

    def span(self, a: int, b: int) -> int:
        if self._prefix is None:
            return b - a
        return int(self._prefix[b] - self._prefix[a])

    def advance(self, start: int, budget: int, limit: int) -> int:
        """The furthest end in [start, limit] whose span from ``start`` weighs ≤ ``budget``."""
        if self._prefix is None:
            return min(start + budget, limit)
        target = self._prefix[start] + budget
        return min(int(np.searchsorted(self._prefix, target, side="right")) - 1, limit)

    def back(self, end: int, budget: int) -> int:
        """The earliest start whose span up to ``end`` weighs ≤ ``budget``."""
        if self._prefix is None:
            return max(end - budget, 0)
        target = self._prefix[end] - budget
        return int(np.searchsorted(self._prefix, target, side="left"))


def _trimmed(text: str, a: int, b: int) -> tuple[int, int]:
    """The span [a, b) without leading and trailing whitespace (empty span → (b, b))."""
    m = _NON_SPACE.search(text, a, b)
    if m is None:
        return b, b
    seg = text[m.start() : b]
    return m.start(), b - (len(seg) - len(seg.rstrip()))


def _sections(text: str) -> list[tuple[int, int]]:
    """Spans that each start at a heading (the first may be a preamble), whitespace-trimmed.

    A section of a single line (a heading with nothing under it, or a one-line preamble such
    as a title) joins the next one, so it is never a chunk on its own.
    """
    starts = _heading_starts(text)
    bounds = list(zip(starts, [*starts[1:], len(text)], strict=True))
    sections: list[tuple[int, int]] = []
    pending: int | None = None
    for a, b in bounds:
        a0 = a if pending is None else pending
        newline = text.find("\n", a, b)
        heading_only = newline == -1 or not text[newline:b].strip()
        if heading_only and b < len(text):
            pending = a0
            continue
        pending = None
        s, e = _trimmed(text, a0, b)
        if s < e:
            sections.append((s, e))
    return sections


def _heading_starts(text: str) -> list[int]:
    starts = [0]
    fence: str | None = None
    for m in _BLOCK_MARK.finditer(text):
        marker = m.group(1)
        if marker:
            if fence is None:
                fence = marker
            elif marker[0] == fence[0] and len(marker) >= len(fence):
                fence = None
        elif fence is None and m.start() > 0:
            starts.append(m.start())
    return starts


def _split_section(
    text: str, a: int, b: int, weights: _Weights, settings: ChunkerSettings
) -> Iterator[tuple[int, int]]:
    """Chunk spans of the trimmed section [a, b)."""
    start, prev_cut = a, a
    while start < b:
        if weights.span(start, b) <= settings.size:
            yield _trimmed(text, start, b)
            return
        cut = _best_cut(text, weights, start, prev_cut, b, settings)
        chunk = _trimmed(text, start, cut)
        yield chunk
        start = _next_start(text, weights, chunk, cut, b, settings)
        prev_cut = cut


def _best_cut(
    text: str, weights: _Weights, start: int, floor: int, b: int, settings: ChunkerSettings
) -> int:
    """Where the chunk starting at ``start`` ends: after the best separator in its window.

    The last separator of the best kind wins if the chunk is then at least half full, or if
    what follows it fits in a chunk of its own (a paragraph is not split to fill a chunk).
    Cuts fall after ``floor`` (the previous cut), so each chunk brings new text.
    """
    limit = weights.advance(start, settings.size, b)
    half = weights.advance(start, settings.size // 2, b)
    unit_budget = settings.size - settings.overlap
    for separator in _SEPARATORS:
        last = None
        for last in separator.finditer(text, floor, limit):  # noqa: B007 — we want the last one
            pass
        if last is None:
            continue
        cut = last.end()
        if cut >= half:
            return cut
        unit_end = weights.advance(cut, unit_budget, b)
        if unit_end == b or separator.search(text, cut, unit_end):
            return cut
    return max(limit, floor + 1)


def _next_start(
    text: str, weights: _Weights, prev: tuple[int, int], cut: int, b: int, settings: ChunkerSettings
) -> int:
    """Where the next chunk begins: inside the previous one by ≤ ``overlap``, on a boundary."""
    prev_start, prev_end = prev
    resume = _trimmed(text, cut, b)[0]
    if settings.overlap == 0:
        return resume
    low = max(weights.back(prev_end, settings.overlap), prev_start + 1)
    for pattern in (_SENTENCE_START, _WORD_START):
        m = pattern.search(text, low, prev_end)
        if m is None:
            continue
        at = m.end() if pattern is _SENTENCE_START else m.start()
        # A long blank gap after the cut would make the overlap crowd out new text.
        if at < prev_end and weights.span(at, resume) <= settings.size // 2:
            return at
    return resume


def embedding_text(title: str, text: str) -> str:
    """What is embedded for a chunk: the memory title gives every chunk its context; block
    ids are left out (:func:`~pixelmem.core.index.text_tokens.without_block_ids`)."""
    text = without_block_ids(text)
    return f"{title}\n{text}" if title else text
