"""Keyword tokens for BM25: CJK character unigrams + bigrams, lower-cased words for the rest.

Rules (the same for documents and queries):

* Text is lower-cased and NFKC-normalised (full-width ``ＧＰＴ４`` → ``gpt4``, ``ﬁ`` → ``fi``).
* A run of Han, Kana or Hangul characters becomes its characters and its overlapping character
  pairs: ``数据库`` → ``数 据 库 数据 据库``. That is what BM25 needs for Chinese and Japanese
  without a dictionary (nDCG@10 0.96 on XQuAD-zh).
* Any other run of letters, digits and combining marks, in any script, is a word. Words joined
  by ``- . _ / @`` and words ending in ``++`` or ``#`` are kept whole *and* as their parts:
  ``gpt-4o`` → ``gpt-4o gpt 4o``, ``C++`` → ``c++ c``, ``user_id`` → ``user_id user id``. An
  exact query for the compound ranks it first; a query for a part still finds it.
* Plain Latin words also give their English Snowball stem, marked with a leading ``~`` so it
  never equals a word: ``books`` → ``books ~book``. A query's stem finds every inflection
  (``books`` finds ``book``) while its exact word still ranks the exact form first; codes and
  compounds (``hx-99812``, ``gpt-4o``) are matched exactly, never stemmed.
* camelCase is *not* split: in notes it is mostly product names (JavaScript, PowerPoint,
  OpenAI), where ``script``/``power``/``open`` matches would be noise.
* Punctuation, symbols and emoji are dropped. Accents are kept (``café`` ≠ ``cafe``). Scripts
  written without spaces other than CJK (Thai, Lao, Khmer) are not segmented.

Token order is not meaningful (BM25 is a bag of words). Everything is regex scanning in C; pure
ASCII text takes a faster path. ``benchmarks/bench_search.py`` prints the throughput.
:func:`~pixelmem.core.index.query.highlight_terms` and :func:`make_snippet` turn a query and
a hit's text into what a result list shows.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from itertools import filterfalse

import Stemmer

from pixelmem.core.index.scripts import CJK_LETTERS, CJK_RUN

_CJK = CJK_LETTERS  # scripts.py: the letters of scripts written without spaces
# What separates words: whitespace, ASCII and Unicode punctuation, symbols, emoji. A
# deny-list keeps the word class one negated character set (fast) that still accepts letters
# and combining marks of every script, which Python's ``\w`` does not (Devanagari vowel signs).
_SEP = (
    r"\s\x00-\x2f\x3a-\x40\x5b-\x60\x7b-\xb4\xb6-\xbf\xd7\xf7\u2000-\u206f\u20a0-\u20cf"
    "\u2190-\u2bff\u2e00-\u2e7f\u3000-\u3004\u3008-\u303f\ufe10-\ufe6f\ufeff"
    "\uff00-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65\U0001f000-\U0001faff"
)
_LETTER = rf"[^{_SEP}{_CJK}]"
_SUFFIX = r"(?:(?:\+\+|#)(?![a-z0-9]))?"

_ASCII_TOKEN = re.compile(rf"[a-z0-9]+(?:[-._/@][a-z0-9]+)*{_SUFFIX}")
_TOKEN = re.compile(rf"{_LETTER}+(?:[-._/@]{_LETTER}+)*{_SUFFIX}")
_WORD = re.compile(rf"{_LETTER}+")
_CJK_RUN = CJK_RUN
SNIPPET_CHARS = 200
_JOINER = re.compile(r"[-._/@+#]")

# Words that carry no meaning for keyword search in English. The keyword index drops them (see
# :func:`query_terms`), so that a question in plain English does not match every chunk.
STOPWORDS = frozenset(
    """a about an and are as at be been but by can could did do does for from had has have he
    her his how i if in into is it its me my no not of on or our she so such than that the their
    them then there these they this those to was we were what when where which while who why will
    with would you your""".split()  # noqa: SIM905
)


# Chinese function characters that, as single characters, say nothing about a text's subject
# (的 in 数据库迁移的风险 must not find 绿茶的冲泡方法). They still count inside bigrams.
CJK_STOP_CHARS = frozenset("的了是在和与及或之其也都就而着过吗呢吧啊么这那个为以于把被从对")

STEM_MARK = "~"
_STEMMER = Stemmer.Stemmer("english")
_STEM_CACHE: dict[str, str] = {}
_STEM_CACHE_MAX = 500_000

_NAME_PART = re.compile(r"[^\W_]+")


def query_word_count(query: str) -> int:
    """How many words a query has: each word that is not a stopword (a compound such as
    ``ERR_SSL_PROTOCOL`` or ``gpt-4o`` is one), and a CJK run as one word per two characters
    (the length of a typical Chinese word)."""
    low = normalise(query)
    runs = _CJK_RUN.findall(low)
    words = [w for w in _TOKEN.findall(_CJK_RUN.sub(" ", low)) if w not in STOPWORDS]
    return len(words) + sum((len(run) + 1) // 2 for run in runs)


def name_key(text: str) -> str:
    """The form in which a query equals a name: case, width, accents, punctuation and spaces
    ignored (``Café-Levain`` = ``cafe levain`` = ``ＣＡＦＥ ＬＥＶＡＩＮ``; ``VX-3309-K`` =
    ``vx3309k``; ``卡万·肖特`` = ``卡万肖特``): a name is typed the way it is remembered."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return "".join(_NAME_PART.findall(unicodedata.normalize("NFKC", bare)))


def one_letter_off(word: str) -> list[str]:
    """The spellings one edit from ``word`` (a letter dropped, swapped with the next, changed
    or added, over a-z): where a misspelt name's right spelling is among them."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    cuts = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    dropped = [a + b[1:] for a, b in cuts if b]
    swapped = [a + b[1] + b[0] + b[2:] for a, b in cuts if len(b) > 1]
    changed = [a + c + b[1:] for a, b in cuts if b for c in letters if c != b[0]]
    added = [a + c + b for a, b in cuts for c in letters]
    return [s for s in dict.fromkeys(dropped + swapped + changed + added) if s != word]


def normalise(text: str) -> str:
    """Lower case + NFKC: the form tokens are taken from."""
    low = text.lower()
    if low.isascii() or unicodedata.is_normalized("NFKC", low):
        return low
    return unicodedata.normalize("NFKC", low).lower()


def tokenize(text: str) -> list[str]:
    """Return the keyword tokens of ``text`` (see the module docstring for the rules)."""
    tokens, runs = _words_and_runs(text)
    stems = _stems(tokens)  # of whole words only: a compound's parts stay exact
    tokens += _compound_parts(tokens)
    tokens += stems
    for run in runs:
        tokens += run
        tokens += [run[i : i + 2] for i in range(len(run) - 1)]
    return tokens


def word_stems(text: str) -> tuple[dict[str, str], set[str]]:
    """The words of ``text`` as :func:`tokenize` reads them (whole tokens, then compound
    parts; no CJK), each with its marked stem ("" when it has none), and the stems
    :func:`tokenize` gives ``text`` (of whole tokens only): what highlighting compares a
    query with, in one pass, without the CJK pairs and stem tokens it does not need."""
    tokens, _ = _words_and_runs(text)
    column = _stem_column(tokens)
    table = dict(zip(tokens, column, strict=True))
    for part in _compound_parts(tokens):
        if part not in table:
            table[part] = stem_of(part)
    present = set(column)
    present.discard("")
    return table, present


def _words_and_runs(text: str) -> tuple[list[str], list[str]]:
    """The whole non-CJK tokens of ``text`` and its CJK runs, lower-cased and NFKC."""
    low = text.lower()
    if low.isascii():
        tokens = _ASCII_TOKEN.findall(low)
        runs: list[str] = []
    else:
        # NFKC is slow on CJK text and the runs do not need it; normalise only what matched.
        tokens = _TOKEN.findall(low)
        runs = _CJK_RUN.findall(low)
        words = " ".join(tokens)
        if not unicodedata.is_normalized("NFKC", words):
            words = unicodedata.normalize("NFKC", words).lower()
            tokens = _TOKEN.findall(words)
            runs += _CJK_RUN.findall(words)  # half-width katakana become CJK
        cjk = "\n".join(runs)
        if not unicodedata.is_normalized("NFKC", cjk):
            runs = unicodedata.normalize("NFKC", cjk).split("\n")
    return tokens, runs


def _compound_parts(tokens: list[str]) -> list[str]:
    """The parts of the compounds among ``tokens`` (``gpt-4o`` → ``gpt 4o``)."""
    compounds = " ".join(t for t in filterfalse(str.isalnum, tokens) if _JOINER.search(t))
    return _WORD.findall(compounds) if compounds else []


def _stems(tokens: list[str]) -> list[str]:
    """``~stem`` for each plain Latin word of three letters or more that is not a stopword."""
    return list(filter(None, _stem_column(tokens)))


def _stem_column(tokens: list[str]) -> list[str]:
    """The marked stem of each of ``tokens``, "" where it has none."""
    # A vault repeats its vocabulary: after the first few notes every word is in the cache,
    # and the lookups run in C (map/filter), not in a Python loop over millions of tokens.
    cache = _STEM_CACHE
    found = list(map(cache.get, tokens))
    if None in found:
        if len(cache) > _STEM_CACHE_MAX:
            cache.clear()
        found = [cache.setdefault(word, _stem(word)) for word in tokens]
    return found  # type: ignore[return-value]  # no None left


def stem_of(word: str) -> str:
    """The marked stem of ``word`` ("" when it has none), from the cache when it is there."""
    stem = _STEM_CACHE.get(word)
    return stem if stem is not None else _stem(word)


def _stem(word: str) -> str:
    """The marked stem of ``word``, or "" when it is not a stemmable word."""
    if len(word) < 3 or not (word.isascii() and word.isalpha()) or word in STOPWORDS:
        return ""
    return STEM_MARK + _STEMMER.stemWord(word)


@dataclass(frozen=True)
class QueryTerms:
    """A query's keyword terms, split by how much a single match says.

    ``strong``: words, stems, compounds and CJK bigrams. ``weak``: single CJK characters and
    bigrams with a function character (the 的风 of 数据库迁移的风险). A
    chunk is a keyword hit only if it matches a strong term; weak terms add to its score. A
    query with no strong term (one CJK character) matches by its characters, except those in
    :data:`CJK_STOP_CHARS`.
    """

    strong: tuple[str, ...]
    weak: tuple[str, ...]

    def __bool__(self) -> bool:
        return bool(self.strong or self.weak)

    @property
    def all(self) -> tuple[str, ...]:
        return self.strong + self.weak


def query_terms(query: str) -> list[str]:
    """The distinct non-stopword tokens of ``query``, in first-seen order."""
    return [t for t in dict.fromkeys(tokenize(query)) if t not in STOPWORDS]


def split_query(query: str) -> QueryTerms:
    """:func:`query_terms` of ``query`` sorted into strong and weak evidence."""
    strong: list[str] = []
    weak: list[str] = []
    for term in query_terms(query):
        cjk = _CJK_RUN.fullmatch(term) is not None
        if not cjk or (len(term) > 1 and not CJK_STOP_CHARS.intersection(term)):
            strong.append(term)
        elif term not in CJK_STOP_CHARS:
            weak.append(term)  # a character, or a pair with a function character (移的)
    return QueryTerms(tuple(strong), tuple(weak))


def longest_parts(run: str, hay: str) -> list[str]:
    """Greedy left-to-right longest substrings of ``run`` that occur in ``hay``.

    Each match grows one character at a time, so a long query costs about one substring test
    per character (shrinking from the whole run would be quadratic).
    """
    if len(run) == 1:
        return [run] if run in hay else []
    parts: list[str] = []
    i = 0
    while i < len(run) - 1:
        j = i + 1
        while j < len(run) and run[i : j + 1] in hay:
            j += 1
        if j - i >= 2:
            parts.append(run[i:j])
            i = j
        else:
            i += 1
    return parts


def make_snippet(text: str, terms: Iterable[str], width: int = SNIPPET_CHARS) -> str:
    """About ``width`` characters of ``text`` around the densest cluster of ``terms``.

    Whitespace is collapsed; ``…`` marks a cut. Without a term found, the text's beginning.
    """
    hits = _term_positions(text, terms)
    start = 0
    if hits and len(text) > width:
        start = max(0, min(_densest(hits, width // 2) - width // 4, len(text) - width))
        if start:
            space = text.find(" ", start, start + 20)
            start = space + 1 if space != -1 else start
    end = min(len(text), start + width)
    if end < len(text):
        space = text.rfind(" ", end - 20, end)
        end = space if space > start else end
    body = " ".join(without_block_ids(text[start:end]).split())
    return f"{'…' if start else ''}{body}{'…' if end < len(text) else ''}"


# An Obsidian block id ending a line (`` ^a1b2c3``): an anchor for links, not words. A drawing's
# text elements each end with one (core.vault.drawings); a model read "Corpus ^KUHl9Jx6" as
# seven word pieces, one of them the word.
_BLOCK_ID = re.compile(r"(?:^|[ \t])\^[A-Za-z0-9-]+[ \t]*$", re.MULTILINE)


def without_block_ids(text: str) -> str:
    """``text`` less the block ids ending its lines (what is embedded and shown of it)."""
    return _BLOCK_ID.sub("", text) if "^" in text else text


def _densest(hits: list[tuple[int, str]], span: int) -> int:
    """Start of the earliest ``span``-long window, beginning at a hit, with most distinct terms."""
    hits = sorted(hits)
    counts: dict[str, int] = {}
    best_at, best, end = hits[0][0], 0, 0
    for pos, term in hits:
        while end < len(hits) and hits[end][0] < pos + span:
            counts[hits[end][1]] = counts.get(hits[end][1], 0) + 1
            end += 1
        if len(counts) > best:
            best_at, best = pos, len(counts)
        counts[term] -= 1
        if not counts[term]:
            del counts[term]
    return best_at


def _term_positions(text: str, terms: Iterable[str]) -> list[tuple[int, str]]:
    low = text.lower()
    hay = low if len(low) == len(text) else text  # offsets must stay those of ``text``
    positions: list[tuple[int, str]] = []
    for term in terms:
        pattern = re.escape(term) if not term.isascii() else rf"(?<!\w){re.escape(term)}(?!\w)"
        positions += [(m.start(), term) for m in re.finditer(pattern, hay)]
    return positions


@cache
def chinese_words() -> Callable[[str], list[str]] | None:
    """jieba's word cut, or None where ``rjieba`` is not installed (callers fall back to
    character pairs). Built on the first call if the app has not built it in steps yet
    (:mod:`~pixelmem.core.index.word_cut`: ~0.1-0.2 s with the GIL held at once)."""
    from pixelmem.core.index.word_cut import word_cut

    return word_cut()
