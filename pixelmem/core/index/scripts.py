"""Which characters are CJK, and which script a text is written in: the one definition.

Two sets, for two questions:

* :data:`CJK_LETTER_RANGES`: the letters of scripts written without spaces between words: Han
  ideographs (every extension and the compatibility block), Hiragana, Katakana, Hangul
  syllables and jamo, and the iteration/closing marks 々〆〇. Keyword tokens take
  characters and pairs of these (``text_tokens``); a text's script is counted in them; a
  cluster label made of them is a CJK label (``map_clusters``).
* :data:`CJK_WIDE_RANGES`: the letters plus the CJK punctuation and symbols, radicals,
  bopomofo and the full-width forms: the code points a tokenizer turns into about one token
  each. Chunk sizes (``chunking``) and prompt budgets (``assist.token_budget``) count them so.

:func:`main_script` tells a text's script (:data:`CJK_SCRIPT`, :data:`OTHER_SCRIPT` or 0 for
no letters); :func:`cjk_share` the share of its letters that are CJK.
"""

from __future__ import annotations

import re

HANGUL_SYLLABLES = (0xAC00, 0xD7AF)  # the letters Korean words are written in
CJK_LETTER_RANGES: tuple[tuple[int, int], ...] = (
    (0x1100, 0x11FF),  # Hangul jamo
    (0x3005, 0x3007),  # 々 〆 〇
    (0x3040, 0x30FF),  # Hiragana, Katakana
    (0x3130, 0x318F),  # Hangul compatibility jamo
    (0x31F0, 0x31FF),  # Katakana phonetic extensions
    (0x3400, 0x4DBF),  # Han extension A
    (0x4E00, 0x9FFF),  # Han unified ideographs
    HANGUL_SYLLABLES,
    (0xF900, 0xFAFF),  # Han compatibility ideographs
    (0x20000, 0x3134F),  # Han extensions B–G
)
CJK_WIDE_RANGES: tuple[tuple[int, int], ...] = (
    (0x1100, 0x11FF),  # Hangul jamo
    (0x2E80, 0x2FDF),  # radicals
    (0x3000, 0x303F),  # CJK symbols and punctuation
    (0x3040, 0x30FF),  # Hiragana, Katakana
    (0x3100, 0x31FF),  # bopomofo, Hangul compatibility jamo, kanbun, Katakana extensions
    (0x3400, 0x4DBF),  # Han extension A
    (0x4E00, 0x9FFF),  # Han unified ideographs
    (0xAC00, 0xD7AF),  # Hangul syllables
    (0xF900, 0xFAFF),  # Han compatibility ideographs
    (0xFF00, 0xFFEF),  # full-width and half-width forms
    (0x20000, 0x3134F),  # Han extensions B–G
)


def character_class(ranges: tuple[tuple[int, int], ...]) -> str:
    """The ranges as the inside of a regular-expression character class."""
    return "".join(f"\\U{lo:08x}-\\U{hi:08x}" for lo, hi in ranges)


CJK_LETTERS = character_class(CJK_LETTER_RANGES)
CJK_WIDE = character_class(CJK_WIDE_RANGES)
CJK_RUN = re.compile(f"[{CJK_LETTERS}]+")
CJK_WIDE_RUN = re.compile(f"[{CJK_WIDE}]+")
_WORDISH = re.compile(r"[^\W_]", re.UNICODE)
_LETTER = re.compile(r"[^\W\d_]")
_LETTERED = re.compile(r"[^\W\d_][^\s]*")  # a word holding a letter (not "###", "-", "42")

CJK_SCRIPT, OTHER_SCRIPT = 1, 2  # what main_script returns
SCRIPTS = (0, CJK_SCRIPT, OTHER_SCRIPT)  # every value of main_script, in index order


def has_cjk(text: str) -> bool:
    """Whether ``text`` holds a CJK letter."""
    return CJK_RUN.search(text) is not None


def cjk_share(text: str) -> float:
    """Share of the letters/digits in ``text`` that are CJK (0.0 for none, 1.0 for all)."""
    cjk = sum(len(run) for run in CJK_RUN.findall(text))
    total = len(_WORDISH.findall(text))
    return min(1.0, cjk / total) if total else 0.0


def main_script(text: str) -> int:
    """The script most of ``text`` is written in: :data:`CJK_SCRIPT` or :data:`OTHER_SCRIPT`
    (alphabets: Latin, Cyrillic…), 0 when it has no letters (digits and symbols belong to
    every script).

    Counted in words, a CJK character as one and a space-separated word holding a letter as
    one (a heading's ``###``, a list's ``-``, a number are no words), so a Chinese
    note naming English products, or a Chinese question about ``NASUWT``, is Chinese, and an
    English note quoting one Chinese word is not (all in C: a vault's worth stays quick)."""
    cjk = len(text) - len(CJK_RUN.sub("", text))
    if not cjk and not _LETTER.search(text):
        return 0
    if not cjk:
        return OTHER_SCRIPT
    return CJK_SCRIPT if cjk > len(_LETTERED.findall(text)) else OTHER_SCRIPT
