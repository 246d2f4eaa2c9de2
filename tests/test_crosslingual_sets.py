"""The cross-language look-up sets (benchmarks/make_crosslingual.py ``build_keywords``) on a
small parallel set in XQuAD's layout: which vault holds which article, what a look-up keeps of
its question, and what it is judged against."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

from pixelmem.core.index.evaluate import load_beir

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
TOPICS = [  # one article each: (English word, Chinese word), five passages
    ("volcano", "火山"),
    ("orchestra", "管弦乐团"),
    ("glacier", "冰川"),
    ("satellite", "卫星"),
]


@pytest.fixture
def crosslingual(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    return importlib.import_module("make_crosslingual")


def _write(folder: Path, passages: list[str], questions: list[tuple[str, str, int]]) -> None:
    (folder / "qrels").mkdir(parents=True)
    with (folder / "corpus.jsonl").open("w", encoding="utf-8") as handle:
        for i, text in enumerate(passages):
            handle.write(json.dumps({"_id": f"p{i}", "text": text}, ensure_ascii=False) + "\n")
    with (folder / "queries.jsonl").open("w", encoding="utf-8") as handle:
        for qid, text, _ in questions:
            handle.write(json.dumps({"_id": qid, "text": text}, ensure_ascii=False) + "\n")
    (folder / "qrels" / "test.tsv").write_text(
        "query-id\tcorpus-id\tscore\n" + "".join(f"{q}\tp{p}\t1\n" for q, _, p in questions)
    )


def _parallel_xquad(root: Path) -> None:
    en, zh, en_q, zh_q = [], [], [], []
    for article, (word, chinese) in enumerate(TOPICS):
        for k in range(5):
            en.append(f"The {word} passage number {k} tells more about the {word} and weather.")
            zh.append(f"第{k}段：关于{chinese}的更多内容，以及天气。{chinese}很有名。")
        passage = article * 5 + 2
        en_q.append((f"q{article}", f"How old is the {word} near the weather station?", passage))
        zh_q.append((f"q{article}", f"{chinese}有多少年的历史？", passage))
    _write(root / "xquad_en", en, en_q)
    _write(root / "xquad_zh", zh, zh_q)


def test_a_look_up_keeps_the_words_its_article_is_about_and_is_judged_to_all_its_passages(
    crosslingual, tmp_path: Path
) -> None:
    _parallel_xquad(tmp_path / "eval")
    target = crosslingual.build_keywords(tmp_path / "eval", tmp_path / "out", "zh", "en")
    even_corpus, even_queries, even_qrels = load_beir(target / "even")
    odd_corpus, odd_queries, _ = load_beir(target / "odd")
    # Every other article's passages, in the corpus language: volcano and glacier in "even".
    assert set(even_corpus) == {f"p{i}" for i in (*range(0, 5), *range(10, 15))}
    assert set(odd_corpus) == {f"p{i}" for i in (*range(5, 10), *range(15, 20))}
    assert all("volcano" in d["text"] or "glacier" in d["text"] for d in even_corpus.values())
    # A look-up is its question's topic word, without the question words around it.
    assert even_queries["kw-q0"] == "火山" and even_queries["u-kw-q1"] == "管弦乐团"
    # From an article in the vault: any of its five passages answers; from one left out: none.
    assert even_qrels["kw-q0"] == {f"p{i}": 1 for i in range(5)}
    assert "u-kw-q1" not in even_qrels and "u-kw-q3" in even_queries
    assert set(odd_queries) == {"kw-q1", "kw-q3", "u-kw-q0", "u-kw-q2"}


def test_english_look_ups_drop_stopwords_and_question_words(crosslingual, tmp_path: Path) -> None:
    _parallel_xquad(tmp_path / "eval")
    target = crosslingual.build_keywords(tmp_path / "eval", tmp_path / "out", "en", "zh")
    _, queries, qrels = load_beir(target / "even")
    for text in queries.values():
        words = text.lower().split()
        assert words and not {"how", "old", "is", "the", "near"} & set(words)
        assert "weather" not in words  # every article says it: it names none of them
    assert queries["kw-q0"].startswith("volcano")
    assert set(qrels["kw-q2"]) == {f"p{i}" for i in range(10, 15)}
