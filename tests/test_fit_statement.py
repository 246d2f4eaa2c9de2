"""fit_decision.no_loss (``--add e5-small:statement --no-loss``) on synthetic best hits: the
statement model it picks empties the statements nothing answers that the question model showed,
and hides no answer, while the questions' own decisions stay as they were."""

from __future__ import annotations

import math

import pytest

from benchmarks import fit_decision as fd
from pixelmem.core.index.relevance import CALIBRATIONS

E5 = CALIBRATIONS["e5-small"]


def _row(name: str, i: int, answerable: bool, coverage: float, statement: bool) -> fd.Row:
    evidence = {
        "semantic": 0.3, "keyword": 0.3, "coverage": coverage, "unknown": 0.0, "elsewhere": 0.0,
        "margin": 1.0, "standout": 0.0, "loo": math.nan, "cross": 0.0, "held": 0.0,
        "names_keyword": math.nan, "names_held": 0.0, "named": 0.0, "rank": 1.0, "cjk": 0.0,
        "short": 0.0, "statement": float(statement),
    }  # fmt: skip
    cls = "answerable" if answerable else "nothing"
    return fd.Row(name, f"q{i}", cls, answerable, answerable, evidence, [answerable], 1)


def test_no_loss_empties_unanswered_statements_and_hides_no_answer(capsys) -> None:
    claims = [_row("claims_split", i, i % 2 == 0, 0.9 if i % 2 == 0 else 0.1, True)
              for i in range(120)]  # fmt: skip
    questions = [_row("xquad_en", i, True, 0.1, False) for i in range(60)]
    shipped = fd.Block(claims, E5)
    assert shipped.misses({"same": E5.same})[1] == pytest.approx(1.0)
    model = fd.no_loss("e5-small", [claims, questions], "statement")
    assert model.coverage > 0
    blocks = [fd.Block(rows, E5) for rows in (claims, questions)]
    models = {p: getattr(E5, p) for p in fd.FEATURES} | {"statement": model}
    hidden, shown, _, _ = blocks[0].misses(models)
    assert hidden == 0 and shown == 0  # every answer shown, every unanswered claim empty
    assert blocks[1].misses(models)[0] == 0  # the questions (coverage 0.1) keep their decision
    assert "statement chosen on half" in capsys.readouterr().out
