"""The BEIR evaluator: metrics, layout errors, and an end-to-end run through the engine."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pixelmem.cli import main
from pixelmem.core.errors import PixelmemError
from pixelmem.core.index.evaluate import evaluate, load_beir, ndcg_at, recall_at


def _write_beir(folder: Path) -> Path:
    (folder / "qrels").mkdir(parents=True)
    docs = [
        {"_id": "d1", "title": "Espresso", "text": "Espresso uses finely ground coffee beans."},
        {"_id": "d2", "title": "长城", "text": "长城是中国古代的军事防御工程。"},
        {"_id": "d3", "title": "Volcanoes", "text": "Magma erupts through the crust of the earth."},
    ]
    queries = [
        {"_id": "q1", "text": "ground coffee espresso"},
        {"_id": "q2", "text": "长城是什么工程"},
        {"_id": "q3", "text": "magma crust"},
        {"_id": "q4", "text": "unjudged query"},
    ]
    (folder / "corpus.jsonl").write_text(
        "\n".join(json.dumps(d, ensure_ascii=False) for d in docs), encoding="utf-8"
    )
    (folder / "queries.jsonl").write_text(
        "\n".join(json.dumps(q, ensure_ascii=False) for q in queries), encoding="utf-8"
    )
    (folder / "qrels" / "test.tsv").write_text(
        "query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\t1\nq3\td3\t1\n", encoding="utf-8"
    )
    return folder


def test_metrics() -> None:
    assert ndcg_at(["a", "b"], {"a": 1}) == pytest.approx(1.0)
    assert ndcg_at(["b", "a"], {"a": 1}) == pytest.approx(1 / 1.5849625)
    assert ndcg_at(["x"], {"a": 1}) == 0.0
    assert recall_at(["a", "c"], {"a": 1, "b": 1}) == 0.5
    assert recall_at([], {}) == 0.0


def test_load_beir_rejects_a_folder_without_the_layout(tmp_path: Path) -> None:
    with pytest.raises(PixelmemError, match=r"corpus\.jsonl"):
        load_beir(tmp_path)


def test_keyword_eval_end_to_end(tmp_path: Path) -> None:
    folder = _write_beir(tmp_path / "beir")
    (result,) = evaluate(folder, modes=["keyword"])
    assert result.queries == 3 and result.mode == "keyword"
    assert result.ndcg_at_10 == pytest.approx(1.0)
    assert result.recall_at_100 == pytest.approx(1.0)


def test_eval_cli_prints_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _write_beir(tmp_path / "beir")
    assert main(["eval", str(folder), "--mode", "hybrid"]) == 0
    out = capsys.readouterr().out.strip().splitlines()[-1]
    assert "nDCG@10=1.0000" in out and "Recall@100=1.0000" in out


def test_eval_cli_prints_every_mode_by_default(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _write_beir(tmp_path / "beir")
    assert main(["eval", str(folder)]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("mode=")]
    assert [line.split()[0] for line in lines] == ["mode=hybrid", "mode=semantic", "mode=keyword"]
