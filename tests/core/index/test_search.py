"""SearchIndex: modes, fusion, grouping per memory, filters, snippets, related, concurrency.

Vectors are hand-made unit vectors, so every cosine in these tests is known exactly.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, date, datetime

import numpy as np
import pytest

from pixelmem.core.index.chunking import Chunk
from pixelmem.core.index.relevance import (
    DEFAULT_MIN_RELEVANCE,
    VAULT_PRIOR,
    relevance,
    semantic_evidence,
)
from pixelmem.core.index.search import SearchFilters, SearchIndex
from pixelmem.core.index.text_tokens import make_snippet
from pixelmem.core.vault.memory import Memory

DIM = 8
E = np.eye(DIM, dtype=np.float32)


def unit(v: np.ndarray) -> np.ndarray:
    return (v / np.linalg.norm(v)).astype(np.float32)


MEMORIES = {
    "zorb": Memory(
        "zorb", "Zorblax-7 launch", topics=["Space"], importance="high",
        updated=datetime(2024, 3, 1, tzinfo=UTC),
    ),
    "bike": Memory(
        "bike", "Bicycle maintenance", topics=["bike"], updated=datetime(2023, 6, 1, tzinfo=UTC)
    ),
    "long": Memory(
        "long", "Long notes", topics=["misc", "Home"], importance="low",
        created=datetime(2022, 1, 1, tzinfo=UTC),
    ),
    "grant": Memory("grant", "Grant meeting notes", topics=["work"]),
    "tea": Memory("tea", "茶", topics=["生活"]),
}  # fmt: skip
CHUNKS = [
    Chunk("zorb", 0, 0, 49, "The probe launched from Kourou on a cold morning."),
    Chunk("bike", 0, 0, 52, "Fix a flat: find the puncture, patch the inner tube."),
    Chunk("long", 0, 0, 40, "Cooking pasta needs plenty of salted water."),
    Chunk("long", 1, 40, 90, "Engines have pistons; the inner workings are oily."),
    Chunk("long", 2, 90, 140, "Gardening: water the plants in the evening."),
    Chunk("grant", 0, 0, 60, "Met Dr. Okonkwo-Ferreira to review the XK-4471 budget lines."),
    Chunk("tea", 0, 0, 14, "我们喝了很多绿茶，龙井很香。"),
]  # fmt: skip
VECTORS = np.stack([E[0], E[1], E[2], E[3], unit(E[2] + E[4]), E[5], E[6]])


@pytest.fixture(scope="module")
def index() -> SearchIndex:
    return SearchIndex.build(CHUNKS, VECTORS, MEMORIES)


def ids(hits) -> list[str]:
    return [h.memory_id for h in hits]


def test_snapshot_contents(index: SearchIndex) -> None:
    assert len(index) == 5 and index.chunk_count == 7 and index.has_vectors
    assert index.memory_ids == ("zorb", "bike", "long", "grant", "tea")
    assert "long" in index and "nope" not in index
    assert [c.index for c in index.chunks_of("long")] == [0, 1, 2]
    assert index.chunks_of("nope") == []


def test_semantic_scores_are_calibrated_cosines_and_the_floor_drops_hits(
    index: SearchIndex,
) -> None:
    q = unit(0.6 * E[1] + 0.8 * E[7])
    hits = index.search("anything", q, mode="semantic", min_relevance=0.0, k=10, explain=True)
    assert ids(hits)[0] == "bike" and hits[0].semantic_score == pytest.approx(0.6)
    best = hits[0].evidence
    assert best is not None and best.best and best.semantic == pytest.approx(0.6)
    expected = max(best.parts.values())  # the best hit's score is the decision on it
    assert hits[0].score == pytest.approx(expected)
    assert hits[0].keyword_score is None
    assert all(0 <= h.score <= 1 for h in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert index.search("anything", q, mode="semantic", min_relevance=expected + 0.01) == []
    # the background moves what "unrelated" means: the same cosine counts for less
    shifted = index.search("anything", q, mode="semantic", min_relevance=0.0, background=0.5)
    assert shifted[0].score < hits[0].score


def test_keyword_mode_ranks_the_exact_rare_term_first(index: SearchIndex) -> None:
    hits = index.search("XK-4471", None, mode="keyword")
    assert ids(hits) == ["grant"]
    assert hits[0].score > 0.9 and (hits[0].keyword_score or 0) > 0
    assert hits[0].semantic_score is None
    assert hits[0].matched_terms == ("xk-4471", "xk", "4471")


def test_hybrid_finds_a_rare_name_the_semantic_side_misses(index: SearchIndex) -> None:
    q = unit(0.35 * E[0] + 0.25 * E[5] + 0.903 * E[7])  # closer to "zorb" than to "grant"
    assert ids(index.search("Okonkwo-Ferreira", q, mode="semantic", min_relevance=0.0))[0] == "zorb"
    hits = index.search("Okonkwo-Ferreira", q, mode="hybrid", min_relevance=0.0, k=2)
    assert ids(hits) == ["grant", "zorb"]
    assert hits[0].semantic_score == pytest.approx(0.25, abs=1e-3)
    assert hits[0].score > DEFAULT_MIN_RELEVANCE > hits[1].score  # the exact name decides


def test_hybrid_finds_a_paraphrase_the_keyword_side_misses(index: SearchIndex) -> None:
    q = unit(0.9 * E[1] + 0.1 * E[7])
    query = "mending a holed wheel"
    assert index.search(query, None, mode="keyword") == []
    hits = index.search(query, q, mode="hybrid")
    assert ids(hits) == ["bike"] and hits[0].keyword_score == 0.0
    assert hits[0].score > DEFAULT_MIN_RELEVANCE


def test_semantic_weight_scales_the_semantic_side_of_fusion(index: SearchIndex) -> None:
    q = unit(0.8 * E[0] + 0.6 * E[7])
    full = index.search("Okonkwo-Ferreira", q, mode="hybrid", min_relevance=0.0, k=2)
    muted = index.search("Okonkwo-Ferreira", q, mode="hybrid", semantic_weight=0.0)
    assert set(ids(full)) == {"grant", "zorb"}
    assert ids(muted) == ["grant"]  # a semantic-only hit cannot enter at weight 0
    keyword_only = index.search("Okonkwo-Ferreira", None, mode="keyword")
    assert muted[0].score == pytest.approx(keyword_only[0].score)
    half = index.search(
        "Okonkwo-Ferreira", q, mode="hybrid", semantic_weight=0.5, min_relevance=0.0
    )
    assert half[ids(half).index("zorb")].score < full[ids(full).index("zorb")].score


def test_hybrid_match_on_both_sides_scores_highest(index: SearchIndex) -> None:
    hits = index.search("XK-4471 budget", E[5], mode="hybrid", min_relevance=0.0, k=10)
    assert hits[0].memory_id == "grant" and hits[0].score > 0.9
    assert all(0 <= h.score <= 1 for h in hits) and hits[1].score < 0.2


def test_nothing_above_threshold_and_no_word_match_is_empty(index: SearchIndex) -> None:
    assert index.search("zqxj vwpt", E[7], mode="hybrid") == []
    assert index.search("zqxj vwpt", E[7], mode="semantic") == []
    assert index.search("zqxj vwpt", None, mode="keyword") == []


def test_hybrid_degrades_to_keyword_without_a_query_vector(index: SearchIndex) -> None:
    assert index.search("inner water", None) == index.search("inner water", None, mode="keyword")
    assert index.search("anything", None, mode="semantic") == []


def test_hybrid_with_only_stopwords_is_semantic(index: SearchIndex) -> None:
    q = E[1]
    assert index.search("how do I", q) == index.search("how do I", q, mode="semantic")


def test_a_memory_appears_once_with_its_best_chunk(index: SearchIndex) -> None:
    hits = index.search("water inner", None, mode="keyword", k=10)
    assert sorted(ids(hits)) == ["bike", "long"] and len(hits) == 2
    semantic = index.search("garden", E[4], mode="semantic")
    assert ids(semantic) == ["long"]
    best = semantic[0]
    assert (best.chunk_index, best.start, best.end) == (2, 90, 140)
    assert best.snippet.startswith("Gardening")


def test_best_chunk_combines_both_sides(index: SearchIndex) -> None:
    # "water" is in chunks 0 and 2 of "long"; the vector points at chunk 2 only.
    hit = index.search("water", unit(E[4] + 0.1 * E[2]), mode="hybrid")[0]
    assert hit.memory_id == "long" and hit.chunk_index == 2


def test_title_words_find_every_chunk_of_their_memory() -> None:
    with_titles = SearchIndex.build(CHUNKS, VECTORS, MEMORIES)
    assert ids(with_titles.search("bicycle", None)) == ["bike"]
    hit = with_titles.search("notes pistons", None)[0]
    assert (hit.memory_id, hit.chunk_index) == ("long", 1)
    assert hit.matched_terms == ("notes", "pistons")
    bare = SearchIndex.build(CHUNKS, VECTORS, MEMORIES, titles_in_keyword=False)
    assert bare.search("bicycle", None) == []


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        (SearchFilters(topic="home"), ["long"]),
        (SearchFilters(topic="HOME", importance="low"), ["long"]),
        (SearchFilters(importance="high"), ["zorb"]),
        (SearchFilters(topic="nothing"), []),
        (SearchFilters(date_from=datetime(2024, 1, 1)), ["zorb"]),
        (SearchFilters(date_to=date(2023, 6, 1)), ["bike", "long"]),
        (SearchFilters(date_from=date(2023, 6, 1), date_to=date(2023, 6, 1)), ["bike"]),
        (SearchFilters(), ["zorb", "bike", "long", "grant", "tea"]),
    ],
)
def test_filters_apply_before_ranking(index: SearchIndex, filters, expected) -> None:
    q = unit(np.ones(DIM, np.float32))
    hits = index.search("x", q, mode="semantic", k=10, min_relevance=0.0, filters=filters)
    assert sorted(ids(hits)) == sorted(expected)


def test_filters_do_not_cut_a_narrow_result_short(index: SearchIndex) -> None:
    # Even with k=1 the one matching memory is returned although others rank higher overall.
    hits = index.search("x", E[0], mode="semantic", k=1, min_relevance=0.0,
                        filters=SearchFilters(topic="work"))  # fmt: skip
    assert ids(hits) == ["grant"]


def test_chinese_query_highlights_whole_words(index: SearchIndex) -> None:
    hit = index.search("龙井的味道", None, min_relevance=0.0)[0]
    assert hit.memory_id == "tea" and hit.matched_terms == ("龙井",)


def test_snippet_centres_on_the_matched_terms() -> None:
    text = "filler " * 60 + "the needle sits here" + " filler" * 60
    snippet = make_snippet(text, ["needle"])
    assert "needle" in snippet and snippet.startswith("…") and snippet.endswith("…")
    assert len(snippet) <= 202
    assert make_snippet("short text", []) == "short text"
    assert make_snippet("a" * 500, []).endswith("…")
    dense = "alpha " + "x " * 150 + "beta gamma beta " + "y " * 150
    assert "gamma" in make_snippet(dense, ["beta", "gamma", "alpha"])
    crowded = "w1 " * 40 + "x " * 200 + "rare " + "w1 " * 500
    snippet = make_snippet(crowded, ["rare", "w1"])  # the window holding both terms wins
    assert snippet.startswith("…x x") and "x rare w1" in snippet


def test_related_returns_other_memories_by_vector(index: SearchIndex) -> None:
    hits = index.related("long", k=5, min_relevance=0.0)
    assert "long" not in ids(hits)
    solo = SearchIndex.build(CHUNKS[:3], np.stack([E[0], unit(E[0] + E[1]), E[1]]), MEMORIES)
    hits = solo.related("zorb", k=5, min_relevance=0.0)
    assert ids(hits) == ["bike", "long"]
    # No anchors: the vault's own median cosine (with "zorb" itself, "bike" and "long": 1,
    # 0.71, 0) is the background, weighing 3 / (3 + VAULT_PRIOR) against an anchor level of 0.
    background = np.median([1.0, 1 / np.sqrt(2), 0.0]) * 3 / (3 + VAULT_PRIOR)
    nearness = semantic_evidence(np.array([1 / np.sqrt(2)]), background)
    expected = relevance("semantic", nearness, None)[0]
    assert hits[0].score == pytest.approx(expected, abs=1e-6)
    assert solo.related("zorb", k=5, min_relevance=0.5) == [hits[0]]  # the floor holds
    assert hits[0].chunk_index == 0 and hits[0].matched_terms == ()
    assert index.related("nope") == []
    assert SearchIndex.build(CHUNKS, None, MEMORIES).related("long") == []


def test_keyword_only_index_and_empty_index() -> None:
    keyword_only = SearchIndex.build(CHUNKS, np.zeros((0, DIM), np.float32), MEMORIES)
    assert not keyword_only.has_vectors
    assert ids(keyword_only.search("XK-4471", E[5])) == ["grant"]
    empty = SearchIndex.build([], None, {})
    assert len(empty) == 0 and empty.chunk_count == 0
    assert empty.search("anything", None) == [] and empty.memory_ids == ()


def test_memory_missing_from_the_table_is_still_searchable() -> None:
    index = SearchIndex.build([Chunk("ghost", 0, 0, 5, "boo!!")], None, {})
    hit = index.search("boo", None)[0]
    assert hit.memory_id == "ghost" and hit.title == ""
    assert index.search("boo", None, filters=SearchFilters(date_from=date(2000, 1, 1))) == []


def test_invalid_arguments(index: SearchIndex) -> None:
    with pytest.raises(ValueError, match="unknown search mode"):
        index.search("x", None, mode="fuzzy")
    with pytest.raises(ValueError, match="3 vectors for 7 chunks"):
        SearchIndex.build(CHUNKS, VECTORS[:3], MEMORIES)
    assert index.search("XK-4471", None, k=0) == []


def test_concurrent_searches_on_one_snapshot(index: SearchIndex) -> None:
    rng = np.random.default_rng(0)
    queries = [
        (text, unit(rng.standard_normal(DIM).astype(np.float32)), mode)
        for text in ("water", "XK-4471 budget", "龙井", "inner tube", "zqxj")
        for mode in ("hybrid", "semantic", "keyword")
    ] * 4

    def run(q):
        return index.search(q[0], q[1], mode=q[2], min_relevance=0.0)

    expected = [run(q) for q in queries]
    with ThreadPoolExecutor(8) as pool:
        for _ in range(5):
            assert list(pool.map(run, queries)) == expected


def test_rebuild_with_previous_reuses_unchanged_chunks(monkeypatch) -> None:
    from pixelmem.core.index import search

    first = SearchIndex.build(CHUNKS, VECTORS, MEMORIES)
    edited = list(CHUNKS)
    edited[0] = Chunk("zorb", 0, 0, 30, "The probe landed near Rottnest.")
    memories = dict(MEMORIES, bike=Memory("bike", "Bicycle repair", topics=["bike"]))
    calls: list[str] = []
    real = search.tokenize

    def counting(text: str) -> list[str]:
        calls.append(text)
        return real(text)

    monkeypatch.setattr(search, "tokenize", counting)
    rebuilt = SearchIndex.build(edited, VECTORS, memories, previous=first)
    # Only the edited chunk and the renamed memory's chunk are tokenised (with their titles).
    expected = [edited[0].text, "Zorblax-7 launch", CHUNKS[1].text, "Bicycle repair"]
    assert sorted(calls) == sorted(expected)
    fresh = SearchIndex.build(edited, VECTORS, memories)
    for query in ("rottnest", "probe kourou", "repair", "bicycle", "water inner", "龙井"):
        assert rebuilt.search(query, None) == fresh.search(query, None)
    untitled = SearchIndex.build(edited, VECTORS, memories, titles_in_keyword=False, previous=first)
    assert untitled.search("repair", None) == []


def test_one_shared_common_chinese_character_is_not_a_hit() -> None:
    memories = {
        "tea": Memory("tea", "绿茶的冲泡方法"),
        "db": Memory("db", "数据库迁移方案"),
        "pork": Memory("pork", "红烧肉做法"),
        "park": Memory("park", "小区停车规定"),
    }
    chunks = [
        Chunk("tea", 0, 0, 12, "用八十度的水冲泡绿茶。"),
        Chunk("db", 0, 0, 15, "迁移前先做全量备份，可以暂停写入。"),
        Chunk("pork", 0, 0, 12, "五花肉焯水，小火慢炖。"),
        Chunk("park", 0, 0, 12, "访客车辆临时停车需要登记。"),
    ]
    index = SearchIndex.build(chunks, None, memories)
    assert ids(index.search("数据库迁移的风险", None)) == ["db"]  # not tea, via 的
    assert ids(index.search("停车", None)) == ["park"]  # not db, via 暂停
    assert index.search("火锅", None) == []  # not pork, via 火
    assert ids(index.search("火", None, mode="keyword", min_relevance=0.0)) == ["pork"]
    assert index.search("的", None, min_relevance=0.0) == []  # a function character alone


def test_english_stems_match_inflections_and_codes_stay_exact() -> None:
    memories = {m: Memory(m, t) for m, t in [("b", "Reading"), ("c", "Parts"), ("d", "Other")]}
    chunks = [
        Chunk("b", 0, 0, 30, "A book I liked, and one more."),
        Chunk("c", 0, 0, 30, "Part HX-99812 ships in May."),
        Chunk("d", 0, 0, 30, "Part HX-99813 ships in June."),
    ]
    index = SearchIndex.build(chunks, None, memories)
    hit = index.search("books", None, mode="keyword", min_relevance=0.0)[0]
    assert hit.memory_id == "b" and hit.matched_terms == ("book",)
    assert ids(index.search("HX-99812", None, mode="keyword", min_relevance=0.0)) == ["c", "d"]
    assert ids(index.search("HX-99812", None, mode="keyword")) == ["c"]


def test_identical_content_is_one_hit_with_copies_and_never_related() -> None:
    body = "Grind finer when the espresso shot runs fast."
    memories = {m: Memory(m, "Espresso", body=body) for m in ("a", "b")}
    memories["c"] = Memory("c", "Espresso ratio", body="Use 18 g in, 36 g out.")
    chunks = [Chunk(m, 0, 0, len(memories[m].body), memories[m].body) for m in "abc"]
    vectors = np.stack([E[0], E[0], unit(E[0] + 0.3 * E[1])])
    index = SearchIndex.build(chunks, vectors, memories)
    hits = index.search("espresso", E[0], k=5)
    assert [(h.memory_id, h.copies) for h in hits] == [("a", ("b",)), ("c", ())]
    assert ids(index.related("a", min_relevance=0.0)) == ["c"]
    assert ids(index.related("c", min_relevance=0.0)) == ["a"]
