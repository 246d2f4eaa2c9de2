"""The Korean and Japanese development sets (benchmarks/make_qa_sets.py --korquad --jsquad) on
tiny inputs in their sources' layout: the vault's articles, its answerable questions, and
questions on other articles only; written outside the repository (KorQuAD's licence)."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from pixelmem.core.index.evaluate import load_beir

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def _korquad(path: Path, articles: int = 160, title: bool = False) -> Path:
    data = []
    for a in range(articles):
        paragraphs = [
            {
                "context": f"{'제목 [SEP] ' if title else ''}문서 {a}의 {p}번째 문단입니다.",
                "qas": [
                    {"id": f"{a}-{p}-{q}", "question": f"문서 {a} 문단 {p} 질문 {q}은?",
                     "answers": [{"text": "문단", "answer_start": 0}]}
                    for q in range(3)
                ],
            }
            for p in range(6)
        ]  # fmt: skip
        data.append({"title": f"제목 {a}", "paragraphs": paragraphs})
    path.write_text(json.dumps({"version": "KorQuAD_v1.0_dev", "data": data}), encoding="utf-8")
    return path


def test_korean_questions_nothing_answers_are_on_articles_outside_the_vault(
    monkeypatch, tmp_path: Path
) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    sets = importlib.import_module("make_qa_sets")
    written = sets.more_cjk_sets(_korquad(tmp_path / "dev.json"), "ko", tmp_path / "out")
    assert [p.name for p in written] == ["unans_ko_40", "unans_ko_700"]
    for folder, size in zip(written, (40, 700), strict=True):
        corpus, queries, qrels = load_beir(folder)
        assert len(corpus) == size
        inside = {doc.split("-")[1] for doc in corpus}  # the article of each passage
        asked = {q: text.split()[1] for q, text in queries.items()}  # "문서 {a} …"
        answerable = [q for q in queries if q.startswith("a-")]
        nothing = [q for q in queries if q.startswith("u-")]
        assert len(answerable) == len(nothing) == 100
        assert all(set(qrels[q]) <= set(corpus) for q in answerable)
        assert not any(asked[q] in inside for q in nothing)
    again = sets.more_cjk_sets(_korquad(tmp_path / "dev.json"), "ko", tmp_path / "again")
    for first, second in zip(written, again, strict=True):
        assert (first / "queries.jsonl").read_bytes() == (second / "queries.jsonl").read_bytes()


def test_a_japanese_passage_is_read_without_its_leading_title(monkeypatch, tmp_path) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    sets = importlib.import_module("make_qa_sets")
    source = _korquad(tmp_path / "valid.json", title=True)  # JSQuAD: "title [SEP] passage"
    written = sets.more_cjk_sets(source, "ja", tmp_path / "out")
    assert [p.name for p in written] == ["unans_ja_40", "unans_ja_700"]
    corpus, _, _ = load_beir(written[0])
    assert all(doc["text"].startswith("문서 ") for doc in corpus.values())


def test_the_korean_sets_are_never_written_into_the_repository(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "make_qa_sets.py"), "--korquad",
         str(_korquad(tmp_path / "dev.json", 2))],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 2 and "outside the repository" in done.stderr


def test_a_missing_source_file_is_named(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "make_qa_sets.py"), "--jsquad",
         str(tmp_path / "valid-v1.3.json"), "--out", str(tmp_path / "out")],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 2 and "no such file" in done.stderr
    assert "valid-v1.3.json" in done.stderr
    assert not (tmp_path / "out").exists()


def test_the_default_sets_add_the_korean_sets_the_folder_holds(monkeypatch, tmp_path) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS.parent))
    calibration = importlib.import_module("benchmarks.eval_calibration")
    (tmp_path / "unans_ko_700").mkdir()
    monkeypatch.delenv("PIXELMEM_STATEMENT_SETS", raising=False)
    monkeypatch.setenv("PIXELMEM_CJK_SETS", str(tmp_path))
    assert calibration.default_sets() == [*calibration.SETS, "unans_ko_700"]
    assert calibration.folder_of("unans_ko_700") == tmp_path / "unans_ko_700"
    assert not calibration.model_reads("local", "unans_ko_700")  # MiniLM reads English only
    monkeypatch.delenv("PIXELMEM_CJK_SETS")
    with pytest.raises(SystemExit):
        calibration.folder_of("unans_ko_40")
