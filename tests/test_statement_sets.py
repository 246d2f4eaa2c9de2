"""The statement sets (benchmarks/make_statement_sets.py) on tiny inputs in the sources'
layouts: which vault holds which article, which statements are asked of which vault and how
they are judged (answered where their articles are, by nothing where none of them is)."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

from pixelmem.core.index.evaluate import load_beir

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.fixture
def statements(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    return importlib.import_module("make_statement_sets")


def _names_in_each_vault(module, count: int = 40) -> tuple[list[str], list[str]]:
    names = [f"Article {i}" for i in range(count)]
    one = [n for n in names if module.vault_of(n) == "one"]
    two = [n for n in names if module.vault_of(n) == "two"]
    assert one and two  # the hash splits even a few names both ways
    return one, two


def _evidence(article: str, label: str, number: int) -> dict:
    return {"evidence_id": f"{article}:{number}", "evidence_label": label, "article": article,
            "evidence": f"{article} sentence {number}."}  # fmt: skip


def test_claims_are_answered_where_their_articles_are_and_by_nothing_elsewhere(
    statements, tmp_path: Path
) -> None:
    one, two = _names_in_each_vault(statements)
    claims = [
        # answered by an article of vault one; its other source is in one too
        {"_id": "1", "text": "Claim one.", "metadata": {"evidences": [
            _evidence(one[0], "SUPPORTS", 1), _evidence(one[1], "NOT_ENOUGH_INFO", 2)]}},
        # answered in both vaults
        {"_id": "2", "text": "Claim two.", "metadata": {"evidences": [
            _evidence(one[0], "REFUTES", 3), _evidence(two[0], "SUPPORTS", 4)]}},
        # answered in two; a NOT_ENOUGH_INFO source in one: on its subject there, not asked
        {"_id": "3", "text": "Claim three.", "metadata": {"evidences": [
            _evidence(two[1], "SUPPORTS", 5), _evidence(one[2], "NOT_ENOUGH_INFO", 6)]}},
        # no answering sentence at all: left out
        {"_id": "4", "text": "Claim four.", "metadata": {"evidences": [
            _evidence(one[3], "NOT_ENOUGH_INFO", 7)]}},
    ]  # fmt: skip
    source = tmp_path / "claims.jsonl"
    source.write_text("".join(json.dumps(c) for c in claims))  # one after another, as exported
    counts = statements.claims_split(source, tmp_path / "out")
    assert counts == {"one": (2, 0), "two": (2, 1)}
    corpus, queries, qrels = load_beir(tmp_path / "out" / "one")
    titles = {row["title"] for row in corpus.values()}
    assert set(one[:4]) <= titles and not titles & set(two)
    assert set(queries) == {"a-1", "a-2"}
    assert {corpus[d]["title"] for d in qrels["a-2"]} == {one[0]}  # the held answer only
    corpus, queries, qrels = load_beir(tmp_path / "out" / "two")
    assert set(queries) == {"u-1", "a-2", "a-3"}
    assert "u-1" not in qrels  # nothing in this vault answers it
    assert queries["u-1"] == "Claim one."


def test_a_pasted_sentence_is_answered_by_its_paragraph_and_by_nothing_in_the_other_vault(
    statements, tmp_path: Path
) -> None:
    one, two = _names_in_each_vault(statements)
    articles = [
        (one[0], ["The river floods each spring and farmers plant rice on its banks. Short one.",
                  "Is this a question? The dam was finished in 1962 after a decade of work."]),
        (two[0], ["The orchestra tours twelve cities every winter with a new programme."]),
    ]  # fmt: skip
    counts = statements.sentence_pair(
        articles, tmp_path / "out", statements.english_sentences, per_vault=5
    )
    assert counts == {"one": (2, 1), "two": (1, 2)}
    corpus, queries, qrels = load_beir(tmp_path / "out" / "one")
    assert len(corpus) == 2 and all(row["title"] == one[0] for row in corpus.values())
    answered = {q: t for q, t in queries.items() if q.startswith("a-")}
    assert sorted(answered.values()) == [
        "The dam was finished in 1962 after a decade of work.",
        "The river floods each spring and farmers plant rice on its banks.",
    ]  # too short and question sentences left out
    for qid, text in answered.items():
        (doc,) = qrels[qid]
        assert text in corpus[doc]["text"]
    assert [t for q, t in queries.items() if q.startswith("u-")] == [
        "The orchestra tours twelve cities every winter with a new programme."
    ]


def test_chinese_sentences_are_cut_at_full_stops_and_kept_by_length(statements) -> None:
    text = (
        "黄河是中国第二长的河流，全长约五千四百六十四公里。太短了。它流经九个省份吗？"
        "这是一个没有问号的陈述句，长度足够被保留下来。"
    )
    assert statements.chinese_sentences(text) == [
        "黄河是中国第二长的河流，全长约五千四百六十四公里。",
        "这是一个没有问号的陈述句，长度足够被保留下来。",
    ]


def test_the_same_inputs_give_the_same_sets(statements, tmp_path: Path) -> None:
    one, two = _names_in_each_vault(statements)
    paragraphs = [f"Sentence number {i} about the topic of this article is here." for i in range(9)]
    articles = [(one[0], [" ".join(paragraphs)]), (two[0], [" ".join(paragraphs[:4])])]
    for out in ("a", "b"):
        statements.sentence_pair(articles, tmp_path / out, statements.english_sentences, 3)
    for vault in statements.VAULTS:
        for name in ("corpus.jsonl", "queries.jsonl", "qrels/test.tsv"):
            assert (tmp_path / "a" / vault / name).read_bytes() == (
                tmp_path / "b" / vault / name
            ).read_bytes()


def _check_covid(folder: Path, abstracts: dict[str, str], claims: list[tuple], retrieved: dict):
    """A Check-COVID folder: ``abstracts`` {CORD id: title} (corpus.json), ``claims`` (id, CORD
    id, label), ``retrieved`` {claim id: {CORD id: title}} (an abstracts/*.jsonl file)."""
    (folder / "abstracts").mkdir(parents=True)
    (folder / "corpus.json").write_text("".join(
        json.dumps({"cord_id": d, "title": t, "abstract": [f"{t} first.", f"{t} second."]}) + "\n"
        for d, t in abstracts.items()))  # fmt: skip
    (folder / "Check-COVID_all.json").write_text("".join(
        json.dumps({"id": i, "claim": f"Claim {i} ", "cord_id": d, "label": label}) + "\n"
        for i, d, label in claims))  # fmt: skip
    (folder / "abstracts" / "abstract_retrieval_test.jsonl").write_text("".join(
        json.dumps({"claim_id": c, "doc_ids": list(docs),
                    "abstracts": {d: [t, f"{t} body."] for d, t in docs.items()}}) + "\n"
        for c, docs in retrieved.items()))  # fmt: skip


def test_bio_claims_are_answered_by_their_abstract_and_distractors_join_their_claims_vault(
    statements, tmp_path: Path
) -> None:
    ids = [f"cord{i}" for i in range(40)]
    one = [d for d in ids if statements.vault_of(d) == "one"]
    two = [d for d in ids if statements.vault_of(d) == "two"]
    # a retrieved abstract whose own id hashes to the other vault than its claim's abstract
    stray = next(d for d in (f"ret{i}" for i in range(40)) if statements.vault_of(d) == "two")
    _check_covid(
        tmp_path / "src",
        {one[0]: "Masks in schools", two[0]: "Vitamin D in ICU"},
        [("c1_0", one[0], "SUPPORT"), ("c1_1", one[0], "REFUTE"),
         ("c1_2", one[0], "NOTENOUGHINFO"), ("c2_0", two[0], "SUPPORT")],
        {"c1_0": {one[0]: "Masks in schools", stray: "Masks on buses"}},
    )  # fmt: skip
    counts = statements.claims_bio(tmp_path / "src", tmp_path / "out")
    assert counts == {"one": (2, 1), "two": (1, 2)}  # NOTENOUGHINFO left out
    corpus, queries, qrels = load_beir(tmp_path / "out" / "one")
    assert set(corpus) == {one[0], stray}  # the near miss stays with its claim's abstract
    assert (corpus[stray]["title"], corpus[stray]["text"]) == (
        "Masks on buses",
        "Masks on buses body.",
    )
    assert corpus[one[0]]["text"] == "Masks in schools first. Masks in schools second."
    assert set(queries) == {"a-c1_0", "a-c1_1", "u-c2_0"} and queries["a-c1_0"] == "Claim c1_0"
    assert set(qrels["a-c1_1"]) == {one[0]} and "u-c2_0" not in qrels
    corpus, queries, _ = load_beir(tmp_path / "out" / "two")
    assert set(corpus) == {two[0]} and set(queries) == {"u-c1_0", "u-c1_1", "a-c2_0"}


def test_the_default_sets_are_the_statement_sets_the_folder_holds(monkeypatch, tmp_path) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS.parent))
    calibration = importlib.import_module("benchmarks.eval_calibration")
    (tmp_path / "claims_split").mkdir()
    (tmp_path / "sentences_en").mkdir()
    monkeypatch.delenv("PIXELMEM_CJK_SETS", raising=False)
    monkeypatch.setenv("PIXELMEM_STATEMENT_SETS", str(tmp_path))
    added = calibration.default_sets()[len(calibration.SETS) :]
    assert added == ["claims_split", "sentences_en"]  # claims_bio not built there: not asked
    monkeypatch.delenv("PIXELMEM_STATEMENT_SETS")
    assert calibration.default_sets() == calibration.SETS
