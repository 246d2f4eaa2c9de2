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
import unicodedata
from collections.abc import Iterable

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
    if not phrase:
        return frozenset()
    return frozenset(m.id for m in memories if phrase in fold(m.title) or phrase in fold(m.body))
