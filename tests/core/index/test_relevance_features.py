"""The relevance features besides the evidence: names, short queries, other scripts."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from fakes import HashEmbedder

from pixelmem.core.index import relevance as rel
from pixelmem.core.index.engine import Engine
from pixelmem.core.index.scripts import CJK_SCRIPT, OTHER_SCRIPT, main_script
from pixelmem.core.index.text_tokens import (
    name_key,
    query_word_count,
)
from pixelmem.core.settings import Settings
from pixelmem.core.vault.store import MemoryStore


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Levain", "levain"),
        ("Café Müller", "cafe muller"),
        ("Café-Müller", "CAFÉ  MÜLLER"),
        ("ＧＰＴ４", "gpt4"),
        ("ERR_SSL_PROTOCOL", "err-ssl-protocol"),
        ("卡万·肖特", "卡万肖特"),
        ("VX-3309-K", "vx3309k"),
    ],
)
def test_name_keys_ignore_case_width_accents_and_separators(a: str, b: str) -> None:
    assert name_key(a) == name_key(b) != ""


def test_name_keys_keep_the_words() -> None:
    assert name_key("Levain") != name_key("Levain bread")
    assert name_key("长城旅行") != name_key("长城")
    assert name_key("?!") == ""


def test_scripts_and_word_counts() -> None:
    assert main_script("how long should my espresso shot run") == OTHER_SCRIPT
    assert main_script("绿茶用多少度的水泡") == CJK_SCRIPT
    assert main_script("NASUWT是什么？") == CJK_SCRIPT
    assert main_script("We drank Longjing (龙井) at the tea house on the lake.") == OTHER_SCRIPT
    assert main_script("1,600") == main_script("") == 0
    assert query_word_count("Levain") == 1
    assert query_word_count("ERR_SSL_PROTOCOL") == query_word_count("gpt-4o") == 1
    assert query_word_count("how long should my espresso shot run?") == 5  # stopwords left out
    assert query_word_count("王建国") == 2
    assert query_word_count("孩子下一针疫苗什么时候打") == 6


def test_the_features_move_the_logit() -> None:
    model = rel.Logistic(-1.0, 2.0, 1.0, short_keyword=3.0, cross=0.5, cross_semantic=1.0)
    base = float(model.logit(0.5, 0.5))
    assert float(model.logit(0.5, 0.5, short=1.0)) == pytest.approx(base + 1.5)
    assert float(model.logit(0.5, 0.5, cross=1.0)) == pytest.approx(base + 0.5 + 0.5)
    assert model.monotone()
    assert not rel.Logistic(0.0, 1.0, 1.0, cross_semantic=-2.0).monotone()


def test_a_named_memory_comes_first_and_above_the_name_relevance() -> None:
    semantic = np.array([0.6, 0.1, 0.3])
    keyword = np.array([0.2, 0.0, 0.1])
    named = np.array([False, True, False])
    plain = rel.relevance("hybrid", semantic, keyword)
    lifted = rel.relevance("hybrid", semantic, keyword, named=named)
    assert int(np.argmax(plain)) == 0 and int(np.argmax(lifted)) == 1
    assert lifted[1] >= rel.NAME_RELEVANCE - 1e-9
    assert lifted[0] < plain[0]  # the others now trail the named memory
    # Semantic search is by meaning: no name rule there.
    assert np.allclose(rel.relevance("semantic", semantic, None, named=named),
                       rel.relevance("semantic", semantic, None))  # fmt: skip


def _engine(root: Path) -> Engine:
    store = MemoryStore(root)
    store.create("Sourdough starter care", "Feed it twice a day with rye.", aliases=["Levain"])
    store.create("Bread log", "Levain bread on Saturday, 75% hydration, burnt crust.")
    store.create("Espresso", "18 g in, 36 g out.")
    (root / "kubectl cheatsheet.md").write_text(
        "---\ntitle: Debugging pods\n---\ndescribe the pod, then read the previous logs.\n",
        encoding="utf-8",
    )
    store.scan()
    engine = Engine(root, Settings(), embedder=HashEmbedder(), store=store)
    engine.open()
    return engine


def test_search_puts_the_named_memory_first_in_hybrid_and_keyword_mode(tmp_path: Path) -> None:
    engine = _engine(tmp_path)
    for mode in ("hybrid", "keyword"):
        hits = engine.search("LÉVAIN", mode=mode, min_relevance=0.0)
        assert hits[0].title == "Sourdough starter care"
        assert hits[0].score >= rel.NAME_RELEVANCE - 1e-9
        # The file name is a name too, though no chunk holds its words.
        found = engine.search("Kubectl Cheatsheet", mode=mode)
        assert [h.title for h in found] == ["Debugging pods"]


def test_a_renamed_alias_stops_naming_the_memory(tmp_path: Path) -> None:
    engine = _engine(tmp_path)
    memory = next(m for m in engine.store.list() if m.title == "Sourdough starter care")
    memory.aliases = ["Mother dough"]
    engine.writes.update(memory)
    engine.reindex()
    assert engine.search("mother dough", mode="keyword")[0].title == "Sourdough starter care"
    hits = engine.search("levain", mode="keyword", min_relevance=0.0)
    assert hits[0].title == "Bread log"  # the only memory that still holds the word
