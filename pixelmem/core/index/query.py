"""A search query, read once: its keyword terms, script, length, name form and names.

:func:`parse_query` does every pass over the query's text that search, relevance and
highlighting need, so a search reads the query once and hands the one :class:`ParsedQuery`
to all three:

* ``terms``: the keyword terms, strong and weak (:func:`~text_tokens.split_query`);
* ``script``: :func:`~scripts.main_script`; ``words``: :func:`~text_tokens.query_word_count`,
  and ``short`` when a few words that name something (a name, a code: :data:`SHORT_QUERY_WORDS`),
  not a short question: a question word ("who", "what", "how"…) with two content words, one of
  them not a name ("Who founded Tesla?", "What are cilia used for?"), is a question, read by
  all its words like any longer one and by its names ("Tesla"); "What did I write about
  Palma?" and "Who was Count of Melfi" ask for names only, and "what is kubernetes" for its
  one word: they stay short;
* ``key``: the form in which the query equals a memory's name (:func:`~text_tokens.name_key`);
* ``names``: the names a longer question contains ("What did **Aiko** promise?", "notes on
  **Brandon Marshall**", "error **E0502**"): words written with a capital that do not open
  the question, and words with a digit. A question that names something asks for it as the
  bare name would; search gives the memories that hold the whole name the evidence a bare
  name query would give them. Empty for a short query (it is all name already) and for
  Chinese, which writes names like any other word;
* ``proper_names``: the words a question writes as proper names ("storm that hit
  **Jacksonville**", "pushed the **Mamluks** out of **Palestine**"): a capital and small
  letters, not opening the sentence. A vault in which no note holds one does not hold what
  the question is about (decision.lacks_a_name): its best hit is a neighbour on the subject;
* ``coverage``: the query's words as the decision's coverage counts them
  (:class:`CoverageWord`): a word (or its stem), a Chinese word as jieba cuts it, made
  of the character pairs the keyword side indexes (a pair that straddles two Chinese words,
  位演 in 哪位演员, is no word of the question and is not counted), and a Korean word by its
  first two syllables (척도는 → 척도: its stem, which a note writes with other endings);
* the parts :meth:`ParsedQuery.highlight` compares with a hit's text.

Terms, length and names are read from the query's *content*: the query without the words that
only say it is a request to a notebook (:func:`content_of`: "Which notes mention …?", "What
did I write about …", "关于…的笔记", "有没有写…的内容"). Those words name no subject; counted,
they made "notes on Fredericksburg" a two-word query the Fredericksburg note only half holds,
and diluted a Chinese name's keyword evidence by 笔记 and 关于. The embedding still reads the
whole query.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pixelmem.core.index.relevance import SHORT_QUERY_WORDS
from pixelmem.core.index.scripts import (
    CJK_RUN,
    CJK_SCRIPT,
    HANGUL_SYLLABLES,
    character_class,
    main_script,
)
from pixelmem.core.index.text_tokens import (
    STEM_MARK,
    STOPWORDS,
    QueryTerms,
    chinese_words,
    longest_parts,
    name_key,
    normalise,
    query_word_count,
    split_query,
    stem_of,
    tokenize,
    word_stems,
)

# Words that make a query a request to a notebook rather than say what it is about: dropped
# from its keyword terms when something else is left (content_of). Whole words, any position.
REQUEST_WORDS = frozenset(
    """note notes noted memo memos wrote write written mention mentions mentioned mentioning
    anything something everything tell know knew remember remembered recall find show list
    saved kept jotted please""".split()  # noqa: SIM905
)
# Chinese request phrases, stripped only where a CJK run begins or ends (inside a run they may
# be part of a word: 笔记本), longest first, repeatedly: 关于X的笔记, 哪些笔记提到了X,
# 有没有写X的内容.
REQUEST_PREFIXES_ZH = (
    "哪些笔记提到了", "哪些笔记提到", "哪些笔记里", "哪些笔记", "有没有写过", "有没有写", "有没有",
    "帮我找一下", "帮我找", "找一下", "查一下", "我记过", "我写过", "记过", "写过", "我记的",
    "我的", "关于", "有关", "请问",
)  # fmt: skip
REQUEST_SUFFIXES_ZH = (
    "的笔记", "笔记", "的资料", "资料", "的内容", "内容", "的记录", "的什么", "相关的", "相关",
    "有哪些", "吗", "呢", "的",
)  # fmt: skip
# Words that make a few words a question rather than a name or a code (query.short).
QUESTION_WORDS = frozenset("who whom whose what when where which why how".split())  # noqa: SIM905
_ASCII_WORD = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)?")

# A capitalised word, or any word with a digit; a name may join several with a space or hyphen.
_NAME_WORD = re.compile(r"(?<![\w'’])(?:[A-Z][\w'’-]*|[\w-]*\d[\w-]*)")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;]\s+|\n)\W*$")


@dataclass(frozen=True)
class CoverageWord:
    """One word of a query as coverage counts it: held by a memory that holds every term of
    one of ``ways`` (a word, or its stem; a Chinese word's character pairs), weighed by the
    idf of the rarest of ``terms``."""

    terms: tuple[str, ...]
    ways: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class ParsedQuery:
    """One query, read once (see the module docstring)."""

    text: str
    terms: QueryTerms
    script: int
    words: int
    question: bool  # a question word, two words or more, one not a name (see the docstring)
    key: str
    names: QueryTerms
    coverage: tuple[CoverageWord, ...]
    proper_names: tuple[str, ...]  # tokens (lower case) of the words written as proper names
    _wanted: tuple[str, ...]  # its non-CJK tokens, for highlighting
    _runs: tuple[str, ...]  # its CJK runs, normalised

    @property
    def short(self) -> bool:
        return self.words <= SHORT_QUERY_WORDS and not self.question

    @property
    def statement(self) -> bool:
        """A claim or a pasted sentence: no question (:func:`asks`), written in an alphabet
        (Chinese statements are not read as such: measured, not fitted), and long —
        :data:`STATEMENT_WORDS` words or more. A shorter phrase without a question word
        ("long run distance before the race", four words) is a look-up, not a claim."""
        return self.script != CJK_SCRIPT and self._stated

    @property
    def cjk_statement(self) -> bool:
        """The same in a CJK script: a Chinese claim or pasted sentence — or a request that
        asks nothing (关于莫洛托夫计划的笔记), which is why it is not decided as a statement.
        Only the token check reads it (decision.token_check)."""
        return self.script == CJK_SCRIPT and self._stated

    @property
    def _stated(self) -> bool:
        return self.words >= STATEMENT_WORDS and not asks(self.text)

    def highlight(self, text: str) -> tuple[str, ...]:
        """The parts of the query that occur in ``text``, as strings a UI can highlight.

        Words are reported when they are tokens of ``text`` (and the text's own inflections
        of a stemmed query word: "books" → "book"). For CJK the longest query substrings
        found in ``text`` are reported (a single character only when the query run is one
        character): ``数据库索引`` against a text with ``数据库`` gives ``数据库``."""
        hay = normalise(text)
        words, present = word_stems(hay)  # one pass: each word with its stem
        found = [w for w in self._wanted if w in words]  # (a stem "~…" is never a word)
        stems = present.intersection(self._wanted)
        if stems:
            found += [w for w, stem in words.items() if stem in stems]
        for run in self._runs:
            found += longest_parts(run, hay)
        return tuple(t for t in dict.fromkeys(found) if t not in STOPWORDS)


def parse_query(text: str) -> ParsedQuery:
    """``text`` read once into a :class:`ParsedQuery`."""
    content = content_of(text)
    low = normalise(text)  # a hit shows every query word it holds, request words too
    words = query_word_count(content)
    question = words > 1 and _asks_beyond_names(content)
    return ParsedQuery(
        text=text,
        terms=split_query(content),
        script=main_script(text),
        words=words,
        question=question,
        key=name_key(text),
        names=_names(content) if words > SHORT_QUERY_WORDS or question else QueryTerms((), ()),
        coverage=_coverage_words(content),
        proper_names=_proper_names(content),
        _wanted=tuple(dict.fromkeys(tokenize(CJK_RUN.sub(" ", low)))),
        _runs=tuple(CJK_RUN.findall(low)),
    )


def content_of(text: str) -> str:
    """``text`` without its request words (:data:`REQUEST_WORDS`, and the Chinese request
    phrases where a CJK run begins or ends), or ``text`` itself when nothing searchable would
    be left ("notes" alone is a query for notes)."""
    kept = _ASCII_WORD.sub(lambda m: " " if m.group().lower() in REQUEST_WORDS else m.group(), text)
    kept = CJK_RUN.sub(lambda m: _strip_run(m.group()), kept)
    return kept if split_query(kept).strong else text


def _strip_run(run: str) -> str:
    """A CJK run without the request phrases it begins or ends with (keeping two characters
    at least: 关于笔记 stays)."""
    changed = True
    while changed and len(run) > 2:
        changed = False
        for prefix in REQUEST_PREFIXES_ZH:
            if run.startswith(prefix) and len(run) - len(prefix) >= 2:
                run, changed = run[len(prefix) :], True
                break
        for suffix in REQUEST_SUFFIXES_ZH:
            if run.endswith(suffix) and len(run) - len(suffix) >= 2:
                run, changed = run[: -len(suffix)], True
                break
    return run


def _names(text: str) -> QueryTerms:
    """The strong terms of the names in ``text`` (see the module docstring)."""
    strong = _name_terms(text)
    if set(strong) >= _plain_terms(text):
        return QueryTerms((), ())  # the whole question is names: nothing to single out
    return QueryTerms(strong, ())


def _name_terms(text: str) -> tuple[str, ...]:
    """The strong terms of the words of ``text`` written as names: with a capital that does
    not only open the sentence, or with a digit."""
    parts = []
    for match in _NAME_WORD.finditer(text):
        word = match.group()
        opens = _SENTENCE_START.search(text[: match.start()]) is not None
        if opens and not any(c.isdigit() for c in word) and not word[1:].isupper():
            continue  # "What", "Which": a capital that only opens the sentence
        if word.casefold() in STOPWORDS or word.isdigit():
            continue
        parts.append(word)
    # A name is held as written: its stem is another word ("Marshall" is not "marshal", the
    # "Doctor" of "Doctor Who" not "doctors").
    return tuple(t for t in split_query(" ".join(parts)).strong if not t.startswith(STEM_MARK))


def _proper_names(text: str) -> tuple[str, ...]:
    """The words of ``text`` written as proper names (ParsedQuery.proper_names), as tokens:
    a capital then small letters (a possessive's ``'s`` dropped), not opening the sentence,
    no stopword. Stricter than :func:`_name_terms`: an acronym (NYC), a code (E0502) or a
    hyphenated word (Asian-Americans) is often written otherwise in the note that holds it."""
    found = []
    for match in _PROPER_NAME.finditer(text):
        if _SENTENCE_START.search(text[: match.start()]) is not None:
            continue  # "What", "Which": a capital that only opens the sentence
        word = normalise(_POSSESSIVE.sub("", match.group()))
        if word not in STOPWORDS and word not in _CALENDAR_WORDS:
            found.append(word)
    return tuple(dict.fromkeys(found))


_LATIN = "A-Za-z0-9_\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f"  # with Latin-1 and Extended-A/B
_PROPER_NAME = re.compile(
    rf"(?<![{_LATIN}'’-])[A-Z\u00c0-\u00d6\u00d8-\u00de][a-z\u00df-\u00f6\u00f8-\u00ff\u0100-\u024f]{{2,}}"
    rf"(?:['’]s?)?(?![{_LATIN}-])"
)
_POSSESSIVE = re.compile(r"['’]s?$")
# Written with a capital, but a date, not a thing a note must name: a note of that day says
# "2024-05-03" (time_query reads the question's dates).
_CALENDAR_WORDS = frozenset(
    """january february march april may june july august september october november december
    monday tuesday wednesday thursday friday saturday sunday""".split()  # noqa: SIM905
)


def _plain_terms(text: str) -> set[str]:
    """The strong terms of ``text`` as written (not their stems)."""
    return {t for t in split_query(text).strong if not t.startswith(STEM_MARK)}


# Words from which a query without a question is a statement (ParsedQuery.statement): the
# development sets' look-up phrases have 2-5 (floor and personal sets: 23 of 24), their claims
# 4-30 (Climate-FEVER: 90 % have 6 or more).
STATEMENT_WORDS = 6

# Chinese question words and particles: a sentence holding one asks (什么, 哪, 谁, 几, 吗 …) —
# not 几 as "almost" or "some tens" (几乎, 几十年), nor 哪 as "even if" (哪怕).
_CJK_ASKING = re.compile(
    r"什么|哪(?!怕)|谁|几(?![乎十百千万])|多少|多久|吗|怎么|怎样|如何|为什么|为何|是否|何时|何地|呢"
)


# Question words that, inside a sentence without a question mark, join a clause to it rather
# than ask: a relative ("…somebody who…", "…, which could cause…") or a conjunction ("…warmer
# than today when…"). "what" and "how" inside still ask, in place ("…evolved into how many
# layers", "…used for what weapon": the development question sets' only long questions
# without a mark).
CLAUSE_WORDS = frozenset("which who whom whose when where why".split())  # noqa: SIM905


def asks(text: str) -> bool:
    """Whether ``text`` is a question rather than a statement (a claim, a pasted sentence): a
    question mark, a Chinese question word, an English question word that opens it, or "what"
    / "how" inside a sentence not closed by a full stop. A relative or conjunction inside
    (:data:`CLAUSE_WORDS`) asks nothing: read as asking, 196 of the 1,779 development claims
    and 122 of the 600 pasted sentences were decided as questions, by their ungained logit
    (claims_split: 17 of the 28 right-first claims hidden were). No development question
    changes side (every question set's flags as before)."""
    if "?" in text or "？" in text or _CJK_ASKING.search(text):
        return True
    words = [w.lower() for w in _ASCII_WORD.findall(text)]
    if words and words[0] in QUESTION_WORDS:
        return True
    if _STATED.search(text):  # closed by a full stop: "what" and "how" in it ask nothing either
        return False
    return any(w in QUESTION_WORDS and w not in CLAUSE_WORDS for w in words[1:])


# A sentence closed by a full stop (before a closing quote or bracket): pasted, not typed as a
# question ("…exactly what climate scientists have predicted…", "…determines how much…").
_STATED = re.compile(r"\.[\"'”’)\]]*\s*$")


def _asks_beyond_names(content: str) -> bool:
    """Whether ``content`` is a question (a question word: :data:`QUESTION_WORDS`) about
    something beyond the names it holds: "Who founded Tesla?" asks who *founded*; "What did I
    write about Palma?" (request words gone: "What … Palma?") asks for Palma alone."""
    words = _ASCII_WORD.findall(content)
    if not any(w.lower() in QUESTION_WORDS for w in words):
        return False
    return bool(_plain_terms(content) - set(_name_terms(content)))


def _coverage_words(content: str) -> tuple[CoverageWord, ...]:
    """The strong words of ``content`` as :class:`CoverageWord` (see the module docstring)."""
    strong = split_query(content).strong
    present = set(strong)
    out = []
    for term in dict.fromkeys(strong):
        if term.startswith(STEM_MARK) or CJK_RUN.fullmatch(term):
            continue
        stem = stem_of(term)
        out.append(CoverageWord((term,), ((term,), (stem,)) if stem in present else ((term,),)))
    cut = chinese_words() if any(CJK_RUN.fullmatch(t) for t in strong) else None
    if cut is None:  # no segmenter: each character pair is a word
        alone = [t for t in dict.fromkeys(strong) if CJK_RUN.fullmatch(t)]
        return (*out, *(CoverageWord((p,), ((p,),)) for p in alone))
    seen = set()
    for run in CJK_RUN.findall(normalise(content)):
        for word in _hangul_stem(run) if _HANGUL_WORD.fullmatch(run) else cut(run):
            pairs = tuple(p for p in dict.fromkeys(word[i : i + 2] for i in range(len(word) - 1))
                          if p in present)  # fmt: skip
            if pairs and word not in seen:
                seen.add(word)
                out.append(CoverageWord(pairs, (pairs,)))
    return tuple(out)


# A Korean word (eojeol): Hangul syllables between spaces, its stem first and its particles
# and endings after (척도는, 척도입니다: the word 척도). jieba cuts Hangul into single syllables,
# which are no words; so a Korean question had no coverage at all, and the decision, which
# weighs coverage most for a question in a CJK script, hid 10 of 85 right answers in a 700-note
# Korean vault (KorQuAD; Chinese: 2 of 93).
_HANGUL_WORD = re.compile(f"[{character_class((HANGUL_SYLLABLES,))}]+")
# The stems of Korean question words (무엇, 언제, 어디, 누구, 어떻게, 어느, 얼마): a note that
# answers holds the answer, not the word that asks for it (Chinese: 什么 is weak evidence).
_KOREAN_ASKING = frozenset(("무엇", "언제", "어디", "누구", "어떻", "어느", "얼마"))


def _hangul_stem(word: str) -> tuple[str, ...]:
    """A Korean word's first two syllables, as coverage counts it (none for a syllable alone,
    a particle or a short word, nor for a question word): its stem's start, which a note
    writes with other endings."""
    stem = word[:2]
    return (stem,) if len(stem) == 2 and stem not in _KOREAN_ASKING else ()


def highlight_terms(query: str, text: str) -> tuple[str, ...]:
    """The parts of ``query`` that occur in ``text``, as strings a UI can highlight (a search
    parses its query once and asks :meth:`ParsedQuery.highlight`)."""
    return parse_query(query).highlight(text)
