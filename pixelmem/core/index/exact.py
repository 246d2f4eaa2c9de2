"""The ``exact`` search mode: only memories that hold the query as typed — its words in that
order, as one phrase — like a quoted search in Obsidian or a grep over the vault.

The comparison folds what a person does not see as a difference: letter case (``casefold``),
full-width and compatibility forms (NFKC: ``ＡＰＩ`` is ``API``), and runs of white space or a
line break (a phrase wrapped across two lines of a note is still the phrase). Quotes around the
whole query ("…", “…”, 「…」) are taken as the phrase's marks, not part of it. The title counts
as much as the body.

The search reads the store's memories (any backend: the phrase is found in the files' text,
then the keyword side ranks the memories that hold it); every holder clears the relevance floor
— it holds what was asked for word for word.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Iterable

from pixelmem.core.vault import drawings
from pixelmem.core.vault.memory import Memory

_SPACE = re.compile(r"\s+")
_QUOTES = {'"': '"', "'": "'", "“": "”", "‘": "’", "「": "」", "『": "』", "«": "»"}


def phrase_of(query: str) -> str:
    """``query`` as the phrase to find: folded, its spaces collapsed, outer quotes removed."""
    text = query.strip()
    if len(text) >= 2 and _QUOTES.get(text[0]) == text[-1]:
        text = text[1:-1]
    return fold(text)


def fold(text: str) -> str:
    """Text as the comparison sees it: NFKC, case-folded, one space for any run of spaces."""
    return _SPACE.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()


def phrase_holders(memories: Iterable[Memory], phrase: str) -> frozenset[str]:
    """The ids of ``memories`` whose title or body holds ``phrase`` (already :func:`fold`-ed)."""
    return FoldedTexts().holders(memories, phrase)


class FoldedTexts:
    """Each memory's folded title and body, kept between searches: folding costs ~50 µs a
    note (10k notes: ~0.5 s), a look-up of an unchanged one a string comparison. An entry is
    reused while the memory's title and body are equal to those it was folded from."""

    def __init__(self) -> None:
        self._folded: dict[str, tuple[str, str, str]] = {}
        self._lock = threading.Lock()  # searches on several threads (serve) share one

    def holders(self, memories: Iterable[Memory], phrase: str) -> frozenset[str]:
        if not phrase:
            return frozenset()
        with self._lock:
            return self._holders(memories, phrase)

    def _holders(self, memories: Iterable[Memory], phrase: str) -> frozenset[str]:
        found, seen = [], set()
        for memory in memories:
            seen.add(memory.id)
            if phrase in self._text_of(memory):
                found.append(memory.id)
        for gone in self._folded.keys() - seen:
            self._folded.pop(gone, None)
        return frozenset(found)

    def _text_of(self, memory: Memory) -> str:
        entry = self._folded.get(memory.id)
        if entry is None or entry[0] != memory.title or entry[1] != memory.body:
            # A line between title and body: a phrase never runs from one into the other.
            text = drawings.readable_text(memory.extra, memory.body)  # not a drawing's data
            entry = (memory.title, memory.body, f"{fold(memory.title)}\n{fold(text)}")
            self._folded[memory.id] = entry
        return entry[2]
