"""The ranking development sets' conversion (benchmarks/make_rank_sets.py) on small files in
each source's own format: what becomes a memory, which questions are judged, against which."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

from pixelmem.core.index.evaluate import load_beir

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.fixture
def rank_sets(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))  # the script imports its neighbours by name
    return importlib.import_module("make_rank_sets")


def _claim(claim_id: str, text: str, evidences: list[tuple[str, int, str, str]]) -> dict:
    return {
        "_id": claim_id, "title": "SUPPORTS", "text": text,
        "metadata": {"claim_label": "SUPPORTS", "evidences": [
            {"evidence_id": f"{article}:{n}", "article": article, "evidence": sentence,
             "evidence_label": label}
            for article, n, sentence, label in evidences
        ]},
    }  # fmt: skip


def test_climate_claims_judge_the_articles_that_support_or_refute_them(
    rank_sets, tmp_path: Path
) -> None:
    claims = [
        _claim("0", "Polar bears are dying out.", [
            ("Polar bear", 7, "Bears lose sea ice.", "SUPPORTS"),
            ("Global warming", 14, "Species go extinct.", "REFUTES"),
            ("Arctic", 2, "The Arctic is cold.", "NOT_ENOUGH_INFO"),
        ]),
        _claim("1", "Nothing said here.", [("Arctic", 1, "Ice is white.", "NOT_ENOUGH_INFO")]),
        _claim("2", "Warming is real.", [("Global warming", 3, "It warms.", "SUPPORTS")]),
    ]  # fmt: skip
    source = tmp_path / "claims.jsonl"
    source.write_text("".join(json.dumps(c) for c in claims))  # one after another, as published
    assert rank_sets.climate_fever(source, tmp_path / "out") == (2, 3)
    corpus, queries, qrels = load_beir(tmp_path / "out")
    by_title = {row["title"]: row for row in corpus.values()}
    # An article's sentences in their order in the article, whichever claim cited them.
    assert by_title["Global warming"]["text"] == "It warms. Species go extinct."
    assert by_title["Arctic"]["text"] == "Ice is white. The Arctic is cold."
    assert queries == {"0": "Polar bears are dying out.", "2": "Warming is real."}
    title_of = {doc: row["title"] for doc, row in corpus.items()}
    assert {title_of[d] for d in qrels["0"]} == {"Polar bear", "Global warming"}
    assert {title_of[d] for d in qrels["2"]} == {"Global warming"}


def test_squad_train_pools_paragraphs_and_keeps_answerable_questions(
    rank_sets, tmp_path: Path
) -> None:
    def qa(qid: str, impossible: bool = False) -> dict:
        return {"id": qid, "question": f"question {qid}?", "is_impossible": impossible}

    data = {"data": [
        {"title": "New_York_City", "paragraphs": [
            {"context": "First paragraph.", "qas": [qa("a"), qa("b", impossible=True)]},
            {"context": "Second paragraph.", "qas": [qa("c")]},
        ]},
        {"title": "Solar_energy", "paragraphs": [{"context": "Sun.", "qas": [qa("d")]}]},
    ]}  # fmt: skip
    source = tmp_path / "train.json"
    source.write_text(json.dumps(data))
    assert rank_sets.squad_train(source, tmp_path / "out", max_questions=2) == 2
    corpus, queries, qrels = load_beir(tmp_path / "out")
    assert len(corpus) == 3 and corpus["a0-p1"]["title"] == "New York City"
    assert len(queries) == 2 and "b" not in queries  # at most 2, never an impossible one
    right = {"a": "a0-p0", "c": "a0-p1", "d": "a1-p0"}
    assert all(qrels[q] == {right[q]: 1} for q in queries)
