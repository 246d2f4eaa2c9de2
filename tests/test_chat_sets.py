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
