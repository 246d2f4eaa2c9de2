"""A search query, read once: its keyword terms, script, length, name form and names.

:func:`parse_query` does every pass over the query's text that search, relevance and
highlighting need, so a search reads the query once and hands the one :class:`ParsedQuery`
to all three:

* ``terms``: the keyword terms, strong and weak (:func:`~text_tokens.split_query`);
* ``script``: :func:`~scripts.main_script`; ``words``: :func:`~text_tokens.query_word_count`,
  and ``short`` when a few words (a name, a code: :data:`SHORT_QUERY_WORDS`);
* ``key``: the form in which the query equals a memory's name (:func:`~text_tokens.name_key`);
* ``names``: the names a longer question contains ("What did **Aiko** promise?", "notes on
  **Brandon Marshall**", "error **E0502**"): words written with a capital that do not open
  the question, and words with a digit. A question that names something asks for it as the
  bare name would; search gives the memories that hold the whole name the evidence a bare
  name query would give them. Empty for a short query (it is all name already) and for
  Chinese, which writes names like any other word;
* the parts :meth:`ParsedQuery.highlight` compares with a hit's text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pixelmem.core.index.relevance import SHORT_QUERY_WORDS
from pixelmem.core.index.scripts import CJK_RUN, main_script
from pixelmem.core.index.text_tokens import (
    STEM_MARK,
    STOPWORDS,
    QueryTerms,
    longest_parts,
    name_key,
    normalise,
    query_word_count,
    split_query,
    stem_of,
    tokenize,
)

# A capitalised word, or any word with a digit; a name may join several with a space or hyphen.
_NAME_WORD = re.compile(r"(?<![\w'’])(?:[A-Z][\w'’-]*|[\w-]*\d[\w-]*)")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;]\s+|\n)\W*$")


@dataclass(frozen=True)
class ParsedQuery:
    """One query, read once (see the module docstring)."""

    text: str
    terms: QueryTerms
    script: int
    words: int
    key: str
    names: QueryTerms
    _wanted: tuple[str, ...]  # its non-CJK tokens, for highlighting
    _runs: tuple[str, ...]  # its CJK runs, normalised

    @property
    def short(self) -> bool:
        return self.words <= SHORT_QUERY_WORDS

    def highlight(self, text: str) -> tuple[str, ...]:
        """The parts of the query that occur in ``text``, as strings a UI can highlight.

        Words are reported when they are tokens of ``text`` (and the text's own inflections
        of a stemmed query word: "books" → "book"). For CJK the longest query substrings
        found in ``text`` are reported (a single character only when the query run is one
        character): ``数据库索引`` against a text with ``数据库`` gives ``数据库``."""
        hay = normalise(text)
        words = set(tokenize(hay))
        found = [w for w in self._wanted if w in words and not w.startswith(STEM_MARK)]
        stems = {w for w in self._wanted if w.startswith(STEM_MARK) and w in words}
        if stems:
            found += [w for w in words if stem_of(w) in stems]
        for run in self._runs:
            found += longest_parts(run, hay)
        return tuple(t for t in dict.fromkeys(found) if t not in STOPWORDS)


def parse_query(text: str) -> ParsedQuery:
    """``text`` read once into a :class:`ParsedQuery`."""
    low = normalise(text)
    words = query_word_count(text)
    return ParsedQuery(
        text=text,
        terms=split_query(text),
        script=main_script(text),
        words=words,
        key=name_key(text),
        names=_names(text) if words > SHORT_QUERY_WORDS else QueryTerms((), ()),
        _wanted=tuple(dict.fromkeys(tokenize(CJK_RUN.sub(" ", low)))),
        _runs=tuple(CJK_RUN.findall(low)),
    )


def _names(text: str) -> QueryTerms:
    """The strong terms of the names in ``text`` (see the module docstring)."""
    parts = []
    for match in _NAME_WORD.finditer(text):
        word = match.group()
        opens = _SENTENCE_START.search(text[: match.start()]) is not None
        if opens and not any(c.isdigit() for c in word) and not word[1:].isupper():
            continue  # "What", "Which": a capital that only opens the sentence
        if word.casefold() in STOPWORDS or word.isdigit():
            continue
        parts.append(word)
    strong = split_query(" ".join(parts)).strong
    if set(strong) >= set(split_query(text).strong):
        return QueryTerms((), ())  # the whole question is names: nothing to single out
    return QueryTerms(strong, ())


def highlight_terms(query: str, text: str) -> tuple[str, ...]:
    """The parts of ``query`` that occur in ``text``, as strings a UI can highlight (a search
    parses its query once and asks :meth:`ParsedQuery.highlight`)."""
    return parse_query(query).highlight(text)
