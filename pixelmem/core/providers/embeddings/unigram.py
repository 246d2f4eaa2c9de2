"""multilingual-e5's token ids, in Python: no ``tokenizers`` Unigram model to build.

``tokenizers`` needs 0.5–1.2 s to load e5's tokenizer (it builds a trie of every piece), in
one call that holds the GIL: ``pixelmem search`` paid it for every query, and the app's window
froze that long when a vault's first index began. Here the sorted pieces load from a compact
file in ~15 ms; a Viterbi pass over them takes about a millisecond for a query and 1–4 ms for
a chunk of a note (beside ~12 ms of the model's own run), in Python that lets the GIL go.

It gives exactly the ids ``tokenizers`` gives for e5's tokenizer (tests/providers compare
them on thousands of texts): runs of two or more spaces become one, spaces become ``▁`` and
one ``▁`` is put first (the Metaspace pre-tokenizer, "always", not split); then the Unigram
model's optimized Viterbi — for each character position, every piece starting there, the
best total score wins (ties: the first found, the shorter piece), a character no piece starts
with costs the least score minus 10 and is unknown; consecutive unknowns fuse into one unknown
token; ``<s>`` and ``</s>`` around, at most :data:`MAX_TOKENS` in all.
"""

from __future__ import annotations

import heapq
import re
from bisect import bisect_left
from collections.abc import Sequence

import numpy as np

UNK_PENALTY = 10.0
SORT_RUN = 16_384  # pieces sorted in one call: a few milliseconds with the GIL held
WORDS_KEPT = 65_536  # words whose ids are remembered (a few MB) ...
WORD_KEPT_CHARS = 24  # ... if no longer than this: a run of Chinese between two spaces is a
# "word" here, seldom seen twice, and 65,536 of them would keep hundreds of MB
_SPACES = re.compile(" {2,}")
_META = "▁"


class UnigramIds:
    """``ids(text)`` for a Unigram vocabulary of ``pieces`` with ``scores``.

    The pieces are looked up by binary search in their sorted order (``bisect``, in C), not
    through a dict of 250,000 pieces: building one took longer (~90 ms) than a query's
    every look-up together.
    """

    def __init__(
        self,
        pieces: Sequence[str],
        scores: np.ndarray | Sequence[float],
        *,
        unk_id: int,
        bos_id: int,
        eos_id: int,
        max_tokens: int,
    ) -> None:
        order = _sorted_order(pieces)
        # The id of a piece found twice: the last one's (as tokenizers' dict keeps it).
        keep = [
            i
            for n, i in enumerate(order)
            if n + 1 == len(order) or pieces[order[n + 1]] != pieces[i]
        ]
        self._sorted = [pieces[i] for i in keep]
        self._ids = keep
        self._scores = np.asarray(scores, np.float64)[keep].tolist()
        self._longest = max(map(len, pieces), default=1)
        self._unk_score = float(np.min(scores)) - UNK_PENALTY if len(pieces) else -UNK_PENALTY
        self._unk, self._bos, self._eos = unk_id, bos_id, eos_id
        self._max_tokens = max_tokens
        self._start_words()

    @classmethod
    def presorted(
        cls,
        pieces: list[str],
        ids: list[int],
        scores: list[float],
        *,
        unk_score: float,
        longest: int,
        unk_id: int,
        bos_id: int,
        eos_id: int,
        max_tokens: int,
        joined: str | None = None,
    ) -> UnigramIds:
        """From pieces already sorted and de-duplicated (:meth:`table`), with their ids and
        scores: what a file written from :meth:`table` reads back without sorting (``joined``:
        the pieces joined by NUL, if the caller has them)."""
        self = cls.__new__(cls)
        self._sorted, self._ids, self._scores = pieces, ids, scores
        self._unk_score, self._longest = unk_score, longest
        self._unk, self._bos, self._eos = unk_id, bos_id, eos_id
        self._max_tokens = max_tokens
        self._start_words(joined)
        return self

    def _start_words(self, joined: str | None = None) -> None:
        # Word by word only where ``▁`` is a piece and no piece holds it but first (e5's):
        # every path then breaks before each ``▁`` (no run of unknowns fuses across it), and
        # a word's best path is the same alone as in its text (its scores, float32 values,
        # add up exactly in float64: no tie is rounded apart).
        joined = "\0".join(self._sorted) if joined is None else joined
        first = joined.count("\0" + _META) + joined.startswith(_META)
        by_words = self._piece(_META) >= 0 and joined.count(_META) == first
        self._words: dict[str, list[int]] | None = {} if by_words else None

    def table(self) -> tuple[list[str], list[int], list[float], float, int]:
        """The sorted pieces, their ids and scores, the unknown score and the longest piece."""
        return self._sorted, self._ids, self._scores, self._unk_score, self._longest

    def specials(self) -> tuple[int, int, int]:
        """The ids of the unknown piece, ``<s>`` and ``</s>``."""
        return self._unk, self._bos, self._eos

    def _piece(self, text: str) -> int:
        """``text``'s id if it is a piece, else -1."""
        pos = self._find(text)
        return self._ids[pos] if pos < len(self._sorted) and self._sorted[pos] == text else -1

    def _find(self, text: str) -> int:
        """Where ``text`` is, or would be, among the sorted pieces."""
        return bisect_left(self._sorted, text)

    def ids(self, text: str) -> list[int]:
        """The ids the model reads for ``text``: ``<s>``, its pieces, ``</s>``."""
        if not text:
            return [self._bos, self._eos]  # nothing to prepend ``▁`` to
        text = _SPACES.sub(" ", text).replace(" ", _META)
        if not text.startswith(_META):
            text = _META + text
        room = self._max_tokens - 2
        found: list[int] = []
        if self._words is None:
            return [self._bos, *self._viterbi(text)[:room], self._eos]
        for word in text[1:].split(_META):  # what follows each ``▁``
            found += self._word_ids(_META + word)
            if len(found) >= room:
                break  # the rest is cut off, and no piece reaches back across a ``▁``
        return [self._bos, *found[:room], self._eos]

    def _word_ids(self, word: str) -> list[int]:
        """A ``▁``-led word's ids, remembered: notes repeat their words, and a word's ids
        depend on the word alone (see :meth:`_start_words`)."""
        words = self._words
        assert words is not None
        if len(word) > WORD_KEPT_CHARS:
            return self._viterbi(word)
        known = words.get(word)
        if known is None:
            if len(words) >= WORDS_KEPT:
                words.clear()
            known = words[word] = self._viterbi(word)
        return known

    def _viterbi(self, text: str) -> list[int]:
        n = len(text)
        best = [0.0] * (n + 1)  # best score of a path ending at each position
        start: list[int] = [-1] * (n + 1)  # where the last piece of that path starts
        piece: list[int] = [-1] * (n + 1)
        pieces, ids, scores = self._sorted, self._ids, self._scores
        count, unk = len(pieces), self._unk
        for at in range(n):
            here = best[at]
            single = False
            for end in range(at + 1, min(n, at + self._longest) + 1):
                candidate = text[at:end]
                pos = bisect_left(pieces, candidate)
                if pos == count or not pieces[pos].startswith(candidate):
                    break  # no piece starts so: none is longer either
                if pieces[pos] != candidate:
                    continue
                score = scores[pos] + here
                if start[end] < 0 or score > best[end]:
                    best[end], start[end], piece[end] = score, at, ids[pos]
                single = single or end == at + 1
            if not single:
                score = self._unk_score + here
                if start[at + 1] < 0 or score > best[at + 1]:
                    best[at + 1], start[at + 1], piece[at + 1] = score, at, unk
        return self._backtrack(text, start, piece)

    def _backtrack(self, text: str, start: list[int], piece: list[int]) -> list[int]:
        found: list[int] = []
        unknown_end = -1  # the end of a run of unknown characters being fused
        end = len(text)
        while end > 0:
            at = start[end]
            if piece[end] == self._unk:
                if unknown_end < 0:
                    unknown_end = end
            else:
                if unknown_end >= 0:
                    found.append(self._fused(text[end:unknown_end]))
                    unknown_end = -1
                found.append(piece[end])
            end = at
        if unknown_end >= 0:
            found.append(self._fused(text[:unknown_end]))
        found.reverse()
        return found

    def _fused(self, run: str) -> int:
        """A run of unknown characters: one token, its id if the run is a piece, else unk."""
        known = self._piece(run)
        return known if known >= 0 else self._unk


def _sorted_order(pieces: Sequence[str]) -> list[int]:
    """The pieces' positions in the order of their text, equal ones in input order.

    One ``sorted`` of 250,000 pieces holds the GIL ~0.1 s in one call (a window on another
    thread freezes that long); sorted runs merged by :func:`heapq.merge`, which runs Python
    between its items, give the same order and let the GIL go every switch interval.
    """
    key = pieces.__getitem__
    runs = [
        sorted(range(start, min(start + SORT_RUN, len(pieces))), key=key)
        for start in range(0, len(pieces), SORT_RUN)
    ]
    return list(heapq.merge(*runs, key=key))  # stable: equal pieces keep the runs' order
