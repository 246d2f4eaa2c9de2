"""Token coverage on the border (token_coverage, decision.TokenCheck, SearchIndex's _lift): a
decision near the floor is moved by how much better the best hit covers the question token by
token than the next memory does; a sure decision, a best hit in another script and an
embedder without token vectors are never read."""

from __future__ import annotations

import dataclasses
import math
from datetime import UTC, datetime

import numpy as np
import pytest

from pixelmem.core.index import relevance as rel
from pixelmem.core.index.chunking import Chunk
from pixelmem.core.index.decision import Best, Decision, TokenCheck, decide
from pixelmem.core.index.search import SearchIndex
from pixelmem.core.index.token_coverage import (
    RememberedTokens,
    TokenVectors,
    lift,
    max_sim,
    reader_of,
)
from pixelmem.core.vault.memory import Memory

WIDE = TokenCheck(low=-6.0, high=6.0, weight=20.0, lower_below=0.02, raise_above=0.02)


def _unit(rows: np.ndarray) -> np.ndarray:
    rows = np.atleast_2d(np.asarray(rows, np.float32))
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_max_sim_is_each_question_tokens_best_cosine() -> None:
    question = _unit(np.eye(3)[:2])
    passage = _unit([[1, 0, 0], [0.6, 0.8, 0]])
    assert max_sim(question, passage) == pytest.approx([1.0, 0.8])


def test_lift_is_zero_when_the_next_memory_covers_the_question_as_well() -> None:
    question = _unit(np.eye(4)[:3])
    sibling = _unit(np.eye(4)[:2])  # the subject's tokens, not the entity asked about
    assert lift(question, sibling, sibling) == 0.0
    answer = _unit(np.eye(4)[:3])  # the entity too
    assert lift(question, answer, sibling) == pytest.approx(1 / 3)
    assert lift(question[:0], answer, sibling) is None


def test_a_check_moves_a_borderline_decision_within_its_band_only() -> None:
    assert WIDE.moved(0.0, 0.02) == 0.0  # at its threshold: no move
    assert WIDE.moved(0.0, 0.07) == pytest.approx(1.0)  # covered better than the next
    assert WIDE.moved(0.0, -0.5) == -6.0  # never below the band
    assert WIDE.moved(5.9, 1.0) < 6.0  # nor to its top
    assert WIDE.moved(7.0, -1.0) == 7.0  # a sure decision is not read
    assert TokenCheck(-6.0, 6.0).moved(0.0, 1.0) == 0.0  # weight 0: never


def test_between_its_thresholds_the_lift_says_nothing() -> None:
    check = TokenCheck(-1.0, 2.0, weight=100.0, lower_below=0.01, raise_above=0.02)
    assert check.moved(0.5, 0.015) == 0.5
    assert check.moved(0.5, 0.0) == pytest.approx(-0.5)
    assert check.moved(0.5, 0.025) == pytest.approx(1.0)
    lower_only = TokenCheck(-1.0, 1.0, weight=40.0, lower_below=0.0)
    assert lower_only.moved(0.2, 0.5) == 0.2  # never raised
    assert lower_only.moved(0.2, -0.01) == pytest.approx(-0.2)


def test_the_shipped_e5_checks_read_only_the_border() -> None:
    models = rel.CALIBRATIONS["e5-small"]
    for check in (models.tokens, models.tokens_cjk):
        assert check.weight > 0 and check.low < 0.0 < check.high
        assert not check.reads(check.high) and not check.reads(check.low - 1.0)
    minilm = rel.CALIBRATIONS["all-minilm-l6"]
    assert minilm.tokens.weight > 0 and minilm.tokens.low < 0.0 < minilm.tokens.high
    assert minilm.tokens_cjk.weight == 0  # MiniLM reads no Chinese


def _calibration(check: TokenCheck) -> rel.Calibration:
    base = rel.CALIBRATIONS["e5-small"]
    return dataclasses.replace(base, tokens=check, tokens_cjk=check)


def test_decide_moves_only_a_model_of_the_querys_own_script() -> None:
    models = _calibration(WIDE)
    best = Best(rank=0.0, semantic=0.3, keyword=0.2, coverage=0.5)
    plain, parts = decide(models, best, "hybrid")
    assert -6.0 <= plain < 6.0 and "tokens" not in parts
    higher, parts = decide(models, dataclasses.replace(best, lift=0.12), "hybrid")
    assert higher == pytest.approx(min(plain + 2.0, math.nextafter(6.0, 0.0)))
    assert "tokens" in parts
    lower, _ = decide(models, dataclasses.replace(best, lift=-0.1), "hybrid")
    assert lower < plain
    across = dataclasses.replace(best, cross=True, lift=0.5)  # another script: not read
    assert decide(models, across, "hybrid")[0] == decide(models, replace_lift(across), "hybrid")[0]


def replace_lift(best: Best) -> Best:
    return dataclasses.replace(best, lift=None)


def test_a_name_rule_is_not_lowered_by_token_coverage() -> None:
    models = _calibration(WIDE)
    models = dataclasses.replace(models, same=Decision(-2.0, rank=1.0))
    best = Best(rank=-1.0, semantic=0.2, keyword=0.9, held=True, short_query=True, lift=-1.0)
    words = float(models.keyword.logit(0.0, 0.9))
    logit, parts = decide(models, best, "hybrid")
    assert logit >= words - 1e-9 and "tokens" not in parts


class Tokens:
    """A token reader that knows three texts: the question's tokens, and two passages — one
    holding every question token, one only the first (the subject, not the entity)."""

    def __init__(self, answer: str) -> None:
        self.answer = answer
        self.calls: list[tuple[str, bool]] = []

    def token_vectors(self, text: str, *, query: bool) -> np.ndarray:
        self.calls.append((text, query))
        if query:
            return _unit(np.eye(8)[:3])
        return _unit(np.eye(8)[:3] if self.answer in text else np.eye(8)[:1])


def _vault() -> tuple[SearchIndex, np.ndarray]:
    now = datetime(2024, 1, 1, tzinfo=UTC)
    rng = np.random.default_rng(7)
    texts = {f"m{i}": f"river delta sediment survey {i}" for i in range(12)}
    memories = {m: Memory(id=m, title=f"survey {m}", body=t, topics=[], created=now, updated=now)
                for m, t in texts.items()}  # fmt: skip
    chunks = [Chunk(memory_id=m, index=0, start=0, end=len(t), text=t) for m, t in texts.items()]
    vectors = _unit(rng.normal(size=(12, 16)))
    return SearchIndex.build(chunks, vectors, memories), vectors


def _search(index: SearchIndex, query: np.ndarray, **options):
    return index.search("sediment survey of the river delta", query, min_relevance=0.0,
                        background=np.full(3, 0.2), **options)  # fmt: skip


def test_search_reads_token_coverage_for_a_borderline_decision() -> None:
    index, vectors = _vault()
    query = _unit(vectors[3] + 0.9 * vectors[5])[0]  # m3 first, m5 close behind
    plain = _search(index, query, calibration=_calibration(WIDE), explain=True)
    assert plain[0].memory_id == "m3" and plain[0].evidence.lift is None  # no reader
    assert -6.0 <= math.log(plain[0].score / (1 - plain[0].score)) < 6.0  # on the border
    covers = Tokens(answer="survey m3")  # the best hit covers the question, m5 does not
    up = _search(index, query, calibration=_calibration(WIDE), tokens=covers)
    assert up[0].memory_id == "m3" and up[0].score > plain[0].score
    assert {text.split("\n")[0] for text, q in covers.calls if not q} == {"survey m3", "survey m5"}
    sibling = Tokens(answer="survey m5")  # the next memory covers it better
    down = _search(index, query, calibration=_calibration(WIDE), tokens=sibling)
    assert down[0].score < plain[0].score
    explained = _search(index, query, calibration=_calibration(WIDE), tokens=covers, explain=True)
    evidence = explained[0].evidence
    assert evidence.lift == pytest.approx(2 / 3, abs=1e-6)
    assert any("token by token" in line for line in evidence.lines())


def test_a_sure_decision_costs_no_token_run() -> None:
    index, vectors = _vault()
    query = _unit(vectors[3] + 0.9 * vectors[5])[0]
    narrow = TokenCheck(low=-0.01, high=0.0, weight=20.0)  # a band the decision is not in
    tokens = Tokens(answer="survey m3")
    hits = _search(index, query, calibration=_calibration(narrow), tokens=tokens)
    plain = _search(index, query, calibration=_calibration(narrow))
    assert tokens.calls == [] and hits[0].score == plain[0].score


def test_only_an_embedder_with_token_vectors_is_a_reader() -> None:
    assert isinstance(Tokens("x"), TokenVectors) and reader_of(Tokens("x")) is not None
    assert reader_of(object()) is None


class _Counting:
    """A token reader that counts its model runs: a 4x8 float32 matrix (128 bytes) per text."""

    def __init__(self) -> None:
        self.runs: list[tuple[str, bool]] = []

    def token_vectors(self, text: str, *, query: bool) -> np.ndarray:
        self.runs.append((text, query))
        seed = sum(map(ord, text)) + query
        return _unit(np.random.default_rng(seed).standard_normal((4, 8)))


def test_a_text_read_again_costs_no_model_run() -> None:
    model = _Counting()
    reader = RememberedTokens(model)
    first = reader.token_vectors("a chunk", query=False)
    again = reader.token_vectors("a chunk", query=False)
    as_question = reader.token_vectors("a chunk", query=True)  # read as a question: another run
    assert model.runs == [("a chunk", False), ("a chunk", True)]
    assert again is first and not np.array_equal(as_question, first)
    assert not first.flags.writeable  # shared by later searches: nobody may change it


def test_the_least_recently_read_text_is_forgotten_past_the_budget() -> None:
    model = _Counting()
    reader = RememberedTokens(model, budget=2 * 128)  # room for two matrices
    for text in ("one", "two", "one", "three"):  # "two" is now the least recently read
        reader.token_vectors(text, query=False)
    reader.token_vectors("one", query=False)
    reader.token_vectors("two", query=False)
    assert [t for t, _ in model.runs] == ["one", "two", "three", "two"]


def test_every_search_of_one_embedder_shares_its_remembered_reads() -> None:
    model = _Counting()
    assert reader_of(model) is reader_of(model)
    assert reader_of(_Counting()) is not reader_of(model)


def test_a_raise_needs_a_sibling_next_to_the_best_hit() -> None:
    check = TokenCheck(-1.0, 2.0, weight=100.0, lower_below=0.01, raise_above=0.02, sibling=0.78)
    assert check.moved(0.0, 0.1, next_coverage=0.83) > 0.0  # a sibling covers less
    assert check.moved(0.0, 0.1, next_coverage=0.72) == 0.0  # next to unrelated notes: nothing
    assert check.moved(0.0, -0.05, next_coverage=0.72) < 0.0  # lowering needs no sibling
    models = _calibration(check)
    best = Best(rank=0.0, semantic=0.3, keyword=0.2, coverage=0.3, margin=0.0, cjk=True, lift=0.1)
    alone, _ = decide(models, dataclasses.replace(best, next_coverage=0.72), "hybrid")
    assert alone == decide(models, dataclasses.replace(best, lift=None), "hybrid")[0]
    assert decide(models, dataclasses.replace(best, next_coverage=0.85), "hybrid")[0] > alone
    assert -1.0 <= alone < 2.0  # on the border: only the missing sibling kept it
