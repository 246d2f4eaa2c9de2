"""The ``exact`` search mode: only memories holding the query as typed, ranked by keyword."""

from __future__ import annotations

from pathlib import Path

from fakes import HashEmbedder

from pixelmem.core.index.engine import Engine
from pixelmem.core.index.exact import fold, phrase_holders, phrase_of
from pixelmem.core.index.search import SearchFilters
from pixelmem.core.search_mode import SearchMode, uses_meaning
from pixelmem.core.settings import Settings
from pixelmem.core.vault.memory import Memory
from pixelmem.core.vault.store import MemoryStore


def _engine(vault: Path) -> tuple[Engine, MemoryStore]:
    store = MemoryStore(vault)
    store.create("Deploy checklist", "Run the smoke tests before the release train leaves.")
    store.create("Trains", "The release of the new train timetable is in May.")
    store.create("Retro", "We said the release\ntrain was late again; smoke TESTS were skipped.")
    store.create("接口文档", "新版的接口文档放在共享盘，ＡＰＩ 密钥在保险库里。")
    store.create("API keys", "Rotate the api 密钥 every quarter.", topics=["security"])
    engine = Engine(vault, Settings(), embedder=HashEmbedder(), store=store)
    engine.open()
    return engine, store


def _titles(engine: Engine, query: str, **kwargs) -> list[str]:
    return [h.title for h in engine.search(query, mode="exact", k=10, **kwargs)]


def test_only_memories_holding_the_words_in_that_order_answer(vault: Path) -> None:
    engine, _ = _engine(vault)
    # "release train": two hold it (one across a line break); "Trains" has both words apart.
    assert sorted(_titles(engine, "release train")) == ["Deploy checklist", "Retro"]
    assert "Trains" in [h.title for h in engine.search("release train", mode="keyword", k=10)]
    assert _titles(engine, "train release") == []


def test_case_width_and_quotes_do_not_matter(vault: Path) -> None:
    engine, _ = _engine(vault)
    assert sorted(_titles(engine, '"Smoke Tests"')) == ["Deploy checklist", "Retro"]
    both = ["API keys", "接口文档"]  # one writes ＡＰＩ in full width, one "api"
    assert sorted(_titles(engine, "“API 密钥”")) == sorted(_titles(engine, "ａｐｉ 密钥")) == both
    assert _titles(engine, "接口文档") == ["接口文档"]  # the title counts


def test_every_holder_clears_the_floor_and_filters_still_apply(vault: Path) -> None:
    engine, _ = _engine(vault)
    assert _titles(engine, "smoke tests", min_relevance=0.99) != []
    only_security = SearchFilters(topic="security")
    assert _titles(engine, "api 密钥", filters=only_security) == ["API keys"]
    assert _titles(engine, "smoke tests", filters=only_security) == []


def test_a_new_memory_is_found_at_once_and_nothing_when_no_memory_holds_it(vault: Path) -> None:
    engine, store = _engine(vault)
    assert _titles(engine, "purple giraffe") == []
    store.create("Zoo", "We saw a purple giraffe.")
    engine.reindex()
    assert _titles(engine, "purple giraffe") == ["Zoo"]
    zoo = next(m for m in store.list() if m.title == "Zoo")
    zoo.body = "We saw a green giraffe."  # the folded text kept from the last search is stale
    engine.writes.update(zoo)
    engine.reindex()
    assert _titles(engine, "purple giraffe") == []
    assert _titles(engine, "green giraffe") == ["Zoo"]


def test_folding_and_holders() -> None:
    assert phrase_of('  "Release\n  Train"  ') == "release train"
    assert phrase_of('"unbalanced') == '"unbalanced'
    assert fold("ＡＰＩ  Key") == "api key"
    memories = [Memory(id="a", title="Hello World", body=""), Memory(id="b", title="x", body="y")]
    assert phrase_holders(memories, "hello world") == {"a"}
    assert phrase_holders(memories, "") == frozenset()


def test_the_mode_is_declared_once_and_asks_no_model() -> None:
    assert SearchMode("exact") is SearchMode.EXACT
    assert not uses_meaning("exact") and not uses_meaning("keyword")
    assert uses_meaning("hybrid") and uses_meaning(None)
