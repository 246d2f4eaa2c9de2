"""The held-out sets' conversion (benchmarks/_heldout_sets.py) on small files in each source's
own format: what becomes a memory, which questions are judged and against which notes."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from benchmarks import _heldout_sets as sets
from pixelmem.core.index.evaluate import load_beir


def test_scifact_csv_export_gives_titled_abstracts_and_the_cited_documents_as_judgements(
    tmp_path: Path,
) -> None:
    source = tmp_path / "src"
    source.mkdir()
    with (source / "corpus_train.csv").open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["doc_id", "title", "abstract", "structured"])
        # numpy prints an array of sentences without commas, quoting with " when a ' is inside
        writer.writerow(
            ["11", "Bone cells.", "['First sentence.'\n \"The cell's wall.\"]", "False"]
        )
        writer.writerow(["22", "Other.", "['Only one.']", "False"])
    with (source / "claims_validation.csv").open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "claim", "evidence_doc_id", "evidence_label", "evidence_sentences",
                         "cited_doc_ids"])  # fmt: skip
        writer.writerow(["3", "Cells have walls.", "11", "SUPPORT", "[1]", "[11 22]"])
        writer.writerow(["3", "Cells have walls.", "22", "SUPPORT", "[0]", "[11 22]"])
        writer.writerow(["1", "No evidence claim.", "", "", "[]", "[22]"])

    assert sets.scifact(source, tmp_path / "out") == 2
    corpus, queries, qrels = load_beir(tmp_path / "out")
    assert corpus["11"]["title"] == "Bone cells."
    assert corpus["11"]["text"] == "First sentence. The cell's wall."
    assert queries == {"1": "No evidence claim.", "3": "Cells have walls."}
    assert qrels == {"1": {"22": 1}, "3": {"11": 1, "22": 1}}


@pytest.mark.parametrize("one_file", [True, False])
def test_locomo_sessions_are_memories_and_evidence_turns_name_the_right_sessions(
    tmp_path: Path, one_file: bool
) -> None:
    conversation = {
        "speaker_a": "Ann",
        "speaker_b": "Bo",
        "session_1_date_time": "1:00 pm on 8 May, 2023",
        "session_1": [{"speaker": "Ann", "dia_id": "D1:1", "text": "I adopted a cat."}],
        "session_2_date_time": "2:00 pm on 9 May, 2023",
        "session_2": [
            {"speaker": "Bo", "dia_id": "D2:1", "text": "Look!", "blip_caption": "a red kite"}
        ],
        "qa": [
            {"question": "What pet did Ann adopt?", "evidence": ["D1:1"], "category": 4},
            {"question": "What did they do?", "evidence": ["D1:1", "D2:1"], "category": 1},
            {"question": "Trick question", "evidence": ["D2:1"], "category": 5},
            {"question": "No evidence", "evidence": [], "category": 2},
            {"question": "Missing session", "evidence": ["D9:1"], "category": 2},
        ],
    }
    qa = conversation.pop("qa")
    if one_file:  # locomo10.json: a list of samples
        source = tmp_path / "locomo10.json"
        source.write_text(
            json.dumps([{"sample_id": "conv-7", "conversation": conversation, "qa": qa}])
        )
    else:  # the zip's locomo10_v2: one file per conversation
        source = tmp_path / "conversations"
        source.mkdir()
        (source / "7.json").write_text(json.dumps({**conversation, "qa": qa}))

    assert sets.locomo(source, tmp_path / "out") == 2
    corpus, queries, qrels = load_beir(tmp_path / "out" / "conv-7")
    assert corpus["s1"]["title"] == "Session 1, 1:00 pm on 8 May, 2023"
    assert corpus["s2"]["text"] == "Bo: Look! [shares a photo: a red kite]"
    assert queries == {"c4-0": "What pet did Ann adopt?", "c1-1": "What did they do?"}
    assert qrels == {"c4-0": {"s1": 1}, "c1-1": {"s1": 1, "s2": 1}}


def test_squad_dev_pools_paragraphs_and_leaves_out_what_xquad_already_holds(
    tmp_path: Path,
) -> None:
    def paragraph(context: str, *questions: tuple[str, str]) -> dict:
        return {"context": context, "qas": [{"id": i, "question": q} for i, q in questions]}

    dev = {
        "data": [
            {"title": "Steam_engine", "paragraphs": [
                paragraph("Steam drives pistons.", ("q1", "What drives pistons?")),
                paragraph("Seen in XQuAD.", ("q2", "A fresh question on it?")),
                paragraph("Watt improved it.", ("q3", "An XQuAD question?"),
                          ("q4", "Who improved it?")),
            ]},
        ]
    }  # fmt: skip
    (tmp_path / "dev.json").write_text(json.dumps(dev))
    xquad = tmp_path / "xquad"
    sets.write_beir(
        xquad,
        [{"_id": "x", "text": "Seen in XQuAD."}],
        [{"_id": "xq", "text": "An XQuAD question?"}],
        [("xq", "x")],
    )

    kept, left_out = sets.squad_dev(tmp_path / "dev.json", tmp_path / "out", xquad)
    corpus, queries, qrels = load_beir(tmp_path / "out")
    assert (kept, left_out) == (2, 2)
    assert len(corpus) == 3  # every paragraph stays a memory: siblings compete
    assert {row["title"] for row in corpus.values()} == {"Steam engine"}
    assert queries == {"q1": "What drives pistons?", "q4": "Who improved it?"}
    assert qrels == {"q1": {"a0-p0": 1}, "q4": {"a0-p2": 1}}
