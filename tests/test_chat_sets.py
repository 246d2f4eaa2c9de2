"""The conversational-memory development sets (benchmarks/make_chat_sets.py) from a small copy
of MemoryBank-SiliconFriend's eval_data layout: one vault per user, one memory per day, every
day judged for each of the user's questions, query ids by language."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks import make_chat_sets
from pixelmem.core.index.evaluate import load_beir


def write_language(root: Path, language: str, name: str, question: str) -> None:
    folder = root / language
    folder.mkdir(parents=True)
    history = {
        "2023-04-27": [{"query": "I painted a sunrise.", "response": "Lovely!"}],
        "2023-04-28": [{"query": "I baked bread.", "response": "Yum."}],
    }
    memories = {f" {name} ": {"name": name, "history": history}}
    (folder / f"memory_bank_{language}.json").write_text(json.dumps(memories), "utf-8")
    (folder / f"probing_questions_{language}.jsonl").write_text(
        json.dumps({name: [question]}, ensure_ascii=False) + "\n", "utf-8"
    )


def test_each_user_is_a_vault_of_days_and_every_day_is_judged(tmp_path: Path) -> None:
    source = tmp_path / "eval_data"
    write_language(source, "en", "John Zhang", "What did I paint?")
    write_language(source, "cn", "李雪", "我画了什么？")
    out = tmp_path / "out"
    assert make_chat_sets.convert(source, out) == {"en": 1, "cn": 1}
    corpus, queries, qrels = load_beir(out / "locomo" / "en-John_Zhang")
    assert corpus["2023-04-27"]["title"] == "Conversation on 2023-04-27"
    assert corpus["2023-04-27"]["text"] == "John Zhang: I painted a sunrise.\nAI: Lovely!"
    assert queries == {"en-John_Zhang0": "What did I paint?"}
    assert set(qrels["en-John_Zhang0"]) == {"2023-04-27", "2023-04-28"}
    corpus, queries, _ = load_beir(out / "locomo" / "cn-李雪")
    assert corpus["2023-04-28"]["title"] == "2023-04-28 的对话"
    assert list(queries) == ["cn-李雪0"]


def test_the_tools_refuse_a_held_out_folder_wherever_it_is_kept(tmp_path: Path, monkeypatch):
    import pytest

    for name in ("PIXELMEM_EMBED_CACHE", "PIXELMEM_CONFIG_DIR"):  # set back after the test
        monkeypatch.setenv(name, str(tmp_path / name))
    (tmp_path / "locomo" / "conv-26").mkdir(parents=True)
    with pytest.raises(SystemExit, match="development sets only"):
        make_chat_sets.use_development_data(tmp_path, "explain_hidden")
    ours = tmp_path / "ours"
    (ours / "locomo" / "en-Emily").mkdir(parents=True)
    make_chat_sets.use_development_data(ours, "explain_hidden")  # a set of ours is read


def write_pair(folder: Path) -> None:
    turn = lambda who, text, dia: {"speaker": who, "clean_text": text, "dia_id": dia}  # noqa: E731
    chat = {
        "name": {"speaker_1": "Emi", "speaker_2": "Elise"},
        "session_1": [turn("Emi", "I took a cooking class.", "D1:1")],
        "session_1_date_time": "29.12.2023, 22:42:04",
        "session_2": [
            {**turn("Elise", "Look at my dog!", "D2:1"), "blip_caption": "a small brown dog"}
        ],
        "session_2_date_time": "30.12.2023, 10:00:00",
        "session_3": [turn("Emi", "The class made pasta.", "D3:1")],
        "qa": [
            {"question": "What class did Emi take?", "evidence": ["D1:1"], "category": 1},
            {"question": "What did the class make?", "evidence": ["D1:1", "D3:1"], "category": 2},
            {"question": "Unanswered?", "evidence": [], "category": 3},
        ],
    }
    folder.mkdir(parents=True)
    (folder / "Chat_1_Emi_Elise.json").write_text(json.dumps(chat), "utf-8")
    (folder / "locomo").mkdir()  # LoCoMo's split copy in REALTALK's data/: never read


def test_realtalk_pairs_are_vaults_of_sessions_and_the_answer_is_left_out_again(
    tmp_path: Path,
) -> None:
    write_pair(tmp_path / "data")
    out = tmp_path / "out"
    assert make_chat_sets.realtalk(tmp_path / "data", out) == (2, 1)
    corpus, queries, qrels = load_beir(out / "locomo" / "rt-Chat_1_Emi_Elise")
    assert corpus["s1"]["title"] == "Session 1, 29.12.2023, 22:42:04"
    assert corpus["s1"]["text"] == "Emi: I took a cooking class."
    assert corpus["s2"]["text"] == "Elise: Look at my dog! [shares a photo: a small brown dog]"
    assert corpus["s3"]["title"] == "Session 3"
    assert queries == {"c1-0": "What class did Emi take?", "c2-1": "What did the class make?"}
    assert set(qrels["c2-1"]) == {"s1", "s3"}
    left = out / "leftout" / "rt-Chat_1_Emi_Elise-wo-s1"
    corpus, queries, qrels = load_beir(left)
    assert set(corpus) == {"s2", "s3"}  # the siblings stay, the answer is gone
    assert queries == {"c1-0": "What class did Emi take?"}
    assert set(qrels["c1-0"]) == {"s1"}
    assert sorted(p.name for p in (out / "leftout").iterdir()) == [left.name]


def test_a_set_of_many_vaults_is_measured_vault_by_vault_and_split_by_pair(
    tmp_path: Path, monkeypatch
) -> None:
    import pytest

    from benchmarks import eval_calibration, fit_decision

    write_pair(tmp_path / "data")
    out = tmp_path / "out"
    make_chat_sets.realtalk(tmp_path / "data", out)
    monkeypatch.delenv("PIXELMEM_CHAT_SETS", raising=False)
    with pytest.raises(SystemExit, match="PIXELMEM_CHAT_SETS"):
        eval_calibration.folder_of("realtalk_leftout")
    monkeypatch.setenv("PIXELMEM_CHAT_SETS", str(out))
    assert eval_calibration.folder_of("realtalk_leftout") == out / "leftout"
    vaults = eval_calibration.vaults_of(eval_calibration.folder_of("realtalk"))
    assert vaults == [("rt-Chat_1_Emi_Elise/", out / "locomo" / "rt-Chat_1_Emi_Elise")]
    single = out / "locomo" / "rt-Chat_1_Emi_Elise"
    assert eval_calibration.vaults_of(single) == [("", single)]
    # the right notes are those the vault holds: none when the answer was left out
    held = {"m1": "s2", "m2": "s3"}
    assert eval_calibration.judged_in(held, {"s1": 1}) == set()
    assert eval_calibration.judged_in(held, {"s1": 1, "s3": 1, "s2": 0}) == {"s3"}

    def row(set_name: str, qid: str) -> fit_decision.Row:
        return fit_decision.Row(set_name, qid, "answerable", True, True, {})

    # a pair's full vault and its left-out vaults fall in the same half, whatever the question
    halves = {fit_decision.half_of(row(s, f"rt-Chat_{n}{tail}/c1-{q}"))
              for s, tail in (("realtalk", ""), ("realtalk_leftout", "-wo-s4")) for q in range(9)
              for n in (3,)}  # fmt: skip
    assert len(halves) == 1
    assert {fit_decision.half_of(row("realtalk", f"rt-Chat_{n}/c1-0")) for n in range(20)} == {
        0,
        1,
    }


def test_separation_counts_the_left_out_shown_and_the_trade_off_of_a_lower_floor() -> None:
    from benchmarks.explain_hidden import FEATURES, separation

    def row(score: float, cosine: float, first: bool = True) -> dict:
        return {**dict.fromkeys(FEATURES), "cosine": cosine, "score": score, "first": first}

    answers = [row(0.7, 0.9), row(0.45, 0.8), row(0.2, 0.1, first=False)]
    left_out = [row(0.6, 0.85), row(0.3, 0.7)]
    lines = separation(answers, left_out, 0.5)
    assert lines[0] == "asked with the answer left out: 2, something shown anyway 1"
    assert "  AUC cosine    0.750" in lines  # 3 of the 4 pairs: the answer's cosine is higher
    assert "  AUC loo           -" in lines
    assert lines[-5].endswith("hidden 1 of 2 right first, left-out shown 1 of 2")
    assert lines[-1].endswith("hidden 0 of 2 right first, left-out shown 2 of 2")  # +1 logit
