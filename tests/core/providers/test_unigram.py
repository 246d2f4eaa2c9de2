"""unigram.py against tokenizers' own Unigram model, on small vocabularies of our own."""

from __future__ import annotations

from typing import Any

import pytest
from unigram_reference import reference_tokenizer

from pixelmem.core.providers.embeddings import unigram
from pixelmem.core.providers.embeddings.unigram import UnigramIds

tokenizers = pytest.importorskip("tokenizers")

SPECIALS = [("<s>", 0.0), ("<pad>", 0.0), ("</s>", 0.0), ("<unk>", 0.0)]


def _both(vocab: list[tuple[str, float]], max_tokens: int = 64) -> tuple[UnigramIds, Any]:
    pieces = SPECIALS + vocab
    ours = UnigramIds(
        [p for p, _ in pieces], [s for _, s in pieces], unk_id=3, bos_id=0, eos_id=2,
        max_tokens=max_tokens,
    )  # fmt: skip
    theirs = reference_tokenizer(pieces, unk_id=3, bos_id=0, eos_id=2, max_tokens=max_tokens)
    return ours, theirs


VOCAB = [
    ("▁", -2.0), ("▁the", -3.0), ("▁cat", -4.5), ("▁ca", -5.0), ("t", -4.0), ("s", -3.5),
    ("▁sat", -5.5), ("a", -4.2), ("c", -4.4), ("▁on", -3.9), ("on", -4.1), ("▁mat", -6.0),
    ("m", -4.8), ("at", -4.3), ("▁a", -3.7), ("数据", -5.0), ("数", -6.0), ("据", -6.1),
    ("库", -6.2), ("▁数据库", -5.5),
]  # fmt: skip
TEXTS = [
    "the cat sat on the mat", "cats  sat   on mats", "the cat", "", " ", "xyz the qq cat",
    "数据库 数据 库", "the\tcat\nsat", "▁▁ ▁", "  leading", "trailing  ", "c a t s",
    "the cat sat on the mat " * 20,
]  # fmt: skip


def test_word_by_word_gives_tokenizers_ids() -> None:
    ours, theirs = _both(VOCAB)
    assert ours._words is not None  # no piece holds "▁" but first: word by word
    for text in TEXTS:
        assert ours.ids(text) == theirs.encode(text).ids, text


def test_a_piece_across_a_word_boundary_takes_the_whole_text_path() -> None:
    ours, theirs = _both([*VOCAB, ("t▁sat", -1.0)])
    assert ours._words is None
    for text in TEXTS:
        assert ours.ids(text) == theirs.encode(text).ids, text
    assert len(SPECIALS) + len(VOCAB) in ours.ids("the cat sat")  # the joined piece won


def test_without_a_piece_for_the_space_unknowns_fuse_across_words() -> None:
    ours, theirs = _both([(p, s) for p, s in VOCAB if p != "▁"])
    assert ours._words is None
    for text in [*TEXTS, "qq  zz", "the qq zz cat"]:
        assert ours.ids(text) == theirs.encode(text).ids, text


def test_remembered_words_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(unigram, "WORDS_KEPT", 3)
    ours, theirs = _both(VOCAB, max_tokens=512)
    for text in TEXTS * 2:
        assert ours.ids(text) == theirs.encode(text).ids, text
    assert ours._words is not None and len(ours._words) <= 3


def test_long_runs_between_spaces_are_not_remembered() -> None:
    """A run of Chinese between two spaces is one "word": kept, they would fill memory."""
    ours, theirs = _both(VOCAB, max_tokens=512)
    long_run = "数据库数据" * (unigram.WORD_KEPT_CHARS // 5 + 1)
    for text in (long_run, f"the {long_run} cat"):
        assert ours.ids(text) == theirs.encode(text).ids
    assert ours._words is not None and not any(
        len(w) > unigram.WORD_KEPT_CHARS for w in ours._words
    )
    assert "▁cat" in ours._words
