"""A long statement (a claim, a pasted sentence) is decided by a model of its own where the
calibration has one (Calibration.statement), and --explain says so."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from pixelmem.core.index import relevance as rel
from pixelmem.core.index.decision import Best, Decision, decide
from pixelmem.core.index.query import asks, parse_query
from tests.test_calibration_design import _unit, _vault

CLAIM = "Arctic sea ice extent has been shrinking faster than climate models predicted for decades"


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        (CLAIM, True),
        ("Global warming is driving polar bears toward extinction across the Arctic", True),
        ("Is Arctic sea ice extent shrinking faster than the climate models predicted?", False),
        ("How fast has Arctic sea ice been shrinking compared with the climate models", False),
        ("bread fermentation schedule", False),  # a look-up, not a claim
        # A relative clause is part of a claim, not a question.
        ("Reef material is calcium carbonate, which contains 44 per cent carbon dioxide", True),
        ("Sea levels rose fastest in the decades when coal burning was at its height", True),
        ("北极海冰面积的缩小速度比气候模型预测的更快，而且已经持续了几十年", False),  # CJK
    ],
)
def test_a_long_sentence_without_a_question_is_a_statement(text: str, statement: bool) -> None:
    assert parse_query(text).statement is statement


def test_a_statement_is_decided_by_the_statement_model_where_there_is_one() -> None:
    shipped = rel.CALIBRATIONS["e5-small"]
    model = Decision(-1.0, rank=1.0, coverage=2.0)
    with_model = dataclasses.replace(shipped, statement=model)
    without = dataclasses.replace(shipped, statement=None)
    best = Best(rank=0.4, semantic=0.5, keyword=0.3, coverage=0.8, statement=True)
    _, parts = decide(with_model, best, "hybrid")
    assert "statement" in parts and "same" not in parts
    assert parts["statement"] == pytest.approx(model.logit(best))
    _, parts = decide(without, best, "hybrid")
    assert "same" in parts and "statement" not in parts
    # A question, and a statement whose best hit is in another script, are not statements' to
    # decide.
    _, parts = decide(with_model, dataclasses.replace(best, statement=False), "hybrid")
    assert "statement" not in parts
    _, parts = decide(with_model, dataclasses.replace(best, cross=True), "hybrid")
    assert "statement" not in parts and "across" in parts


def test_explain_says_a_pasted_claim_was_decided_as_a_statement() -> None:
    texts = [
        ("Sea ice", "Arctic sea ice extent has been shrinking faster than models predicted."),
        ("Bread", "Sourdough starter feeding schedule and bread fermentation times."),
        ("Bikes", "Lube the bike chain every 300 km and check the tyre pressure."),
    ]
    vectors = _unit(np.eye(3, 8) + 0.05)
    index = _vault(texts, vectors)
    calibration = dataclasses.replace(
        rel.CALIBRATIONS["e5-small"], statement=Decision(0.5, rank=1.0, coverage=1.0)
    )
    args = {"background": np.full(3, 0.2), "calibration": calibration, "min_relevance": 0.0}
    hits = index.search(CLAIM, vectors[0], explain=True, **args)
    evidence = hits[0].evidence
    assert hits[0].title == "Sea ice" and evidence is not None
    assert evidence.statement and evidence.decided_by() == "statement"
    assert evidence.relevance == pytest.approx(hits[0].score)
    lines = "\n".join(evidence.lines())
    assert "decided as a statement: a claim or a pasted sentence" in lines
    assert "the query reads as a statement" in lines
    # The same subject asked as a question is a question's to decide.
    asked = index.search(
        "Has Arctic sea ice extent been shrinking faster than models predicted?",
        vectors[0], explain=True, **args,
    )  # fmt: skip
    assert asked[0].evidence is not None and not asked[0].evidence.statement
    assert "same" in asked[0].evidence.parts and "statement" not in asked[0].evidence.parts
    assert "reads as a statement" not in "\n".join(asked[0].evidence.lines())


def test_a_statement_near_the_floor_is_not_moved_by_token_coverage() -> None:
    # e5's statement model has no token check (Calibration.tokens_statement): a claim's lift
    # over a sibling on its subject tells nothing (development claims: AUC 0.48); a question
    # on the border with the same evidence is still lowered.
    models = rel.CALIBRATIONS["e5-small"]
    assert models.statement is not None and models.tokens.weight > 0
    best = Best(rank=0.3, semantic=0.1, keyword=0.3, coverage=0.2, margin=0.2, statement=True)
    plain, parts = decide(models, best, "hybrid")
    assert models.tokens.reads(plain) and parts["statement"] == plain
    moved, parts = decide(models, dataclasses.replace(best, lift=-0.03), "hybrid")
    assert moved == plain and "tokens" not in parts
    asked = dataclasses.replace(best, statement=False)
    question, _ = decide(models, asked, "hybrid")
    if models.tokens.reads(question):
        lowered, parts = decide(models, dataclasses.replace(asked, lift=-0.03), "hybrid")
        assert lowered < question and "tokens" in parts
    # Without a statement model of its own, a statement is checked as a question is.
    without = dataclasses.replace(models, statement=None)
    logit, _ = decide(without, best, "hybrid")
    if without.tokens.reads(logit):
        assert decide(without, dataclasses.replace(best, lift=-0.03), "hybrid")[0] < logit


@pytest.mark.parametrize(
    ("text", "stated"),
    [
        ("北极海冰面积的缩小速度比气候模型预测的更快，而且已经持续了几十年", True),
        ("索马利亚有大小机场61个，绝大部分条件简陋，跑道未经铺垫。", True),
        ("北极海冰面积的缩小速度比气候模型预测的更快吗", False),  # asks (吗)
        ("哪一年北极海冰面积开始比气候模型预测的缩小得更快？", False),
        ("数据库索引", False),  # a look-up of a few words
        (CLAIM, False),  # an alphabet's statement is ParsedQuery.statement
    ],
)
def test_a_long_chinese_sentence_without_a_question_is_a_cjk_statement(
    text: str, stated: bool
) -> None:
    parsed = parse_query(text)
    assert parsed.cjk_statement is stated
    assert not (parsed.cjk_statement and parsed.statement)


def test_a_chinese_statement_near_the_floor_is_not_moved_by_token_coverage() -> None:
    # A long Chinese sentence that asks nothing is decided by the Chinese question model, but
    # its lift over a sibling is not read, either way: a question with the same evidence is.
    models = rel.CALIBRATIONS["e5-small"]
    assert models.tokens_cjk.weight > 0
    question = Best(rank=0.3, semantic=0.1, keyword=0.3, coverage=0.5, margin=0.5, cjk=True)
    logit, _ = decide(models, question, "hybrid")
    assert models.tokens_cjk.reads(logit)
    for lift in (-0.03, 0.06):
        asked, parts = decide(models, dataclasses.replace(question, lift=lift), "hybrid")
        assert asked != logit and "tokens" in parts
        stated = dataclasses.replace(question, lift=lift, cjk_statement=True)
        decided, parts = decide(models, stated, "hybrid")
        assert decided == logit and "tokens" not in parts


@pytest.mark.parametrize(
    ("text", "asking"),
    [
        ("他几乎每天都去图书馆", False),  # almost
        ("这片冰川在过去几十年里缩小了一半", False),  # some decades
        ("哪怕下雨我们也要出发", False),  # even if
        ("你几点到？", True),
        ("哪一年冰川开始缩小", True),
    ],
)
def test_chinese_words_that_only_look_like_question_words_ask_nothing(
    text: str, asking: bool
) -> None:
    assert asks(text) is asking


def test_a_statement_s_held_names_do_not_decide_it_where_a_statement_model_does() -> None:
    # "The United States shared some of its satellite images … with China": a note on the
    # subject holds both names whether or not it holds what the sentence states.
    models = rel.CALIBRATIONS["e5-small"]
    assert models.statement is not None
    best = Best(rank=0.3, semantic=0.1, keyword=0.3, coverage=0.2, margin=0.2, statement=True,
                names_keyword=1.2, names_held=True)  # fmt: skip
    stated, parts = decide(models, best, "hybrid")
    assert "names" not in parts and stated == parts["statement"]
    asked, parts = decide(models, dataclasses.replace(best, statement=False), "hybrid")
    assert "names" in parts and asked > stated
    # Without a statement model a statement is decided as a question, names included.
    without = dataclasses.replace(models, statement=None)
    assert "names" in decide(without, best, "hybrid")[1]
