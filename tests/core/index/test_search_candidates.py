"""Search from candidate lists equals scoring every chunk; updates equal a fresh build.

A generated vault (English-like and Chinese text, copies of the same note, several chunks per
memory, topics, importance and dates) is searched for many queries in every mode, with and
without filters and floors, at several ``k``. Reference: the same search with candidate lists
as deep as the whole index, so every memory is scored (the full scan).
"""

from __future__ import annotations

from datetime import UTC, date, datetime

import numpy as np
import pytest

from pixelmem.core.index import search as search_module
from pixelmem.core.index.catalog import MemoryChunks
from pixelmem.core.index.chunking import Chunk
from pixelmem.core.index.relevance import CALIBRATIONS
from pixelmem.core.index.search import SearchFilters, SearchIndex
from pixelmem.core.index.text_tokens import split_query
from pixelmem.core.vault.memory import Memory

DIM = 16
TOPICS = ("work", "home", "travel")


def _vault(seed: int, memories: int = 240) -> tuple[list[Chunk], np.ndarray, dict[str, Memory]]:
    rng = np.random.default_rng(seed)
    vocab = ["".join(rng.choice(list("aeioustrnlkpm"), rng.integers(3, 8))) for _ in range(400)]
    weights = 1 / np.arange(1, len(vocab) + 1)
    weights /= weights.sum()
    han = [chr(c) for c in rng.integers(0x4E00, 0x4E00 + 300, 300)]
    centres = rng.standard_normal((12, DIM)).astype(np.float32)
    chunks, vectors, table = [], [], {}
    for m in range(memories):
        mid = f"m{m:04d}"
        copy_of = m - 1 if m % 17 == 16 else None  # some memories are copies of the previous
        if copy_of is not None:
            source = table[f"m{copy_of:04d}"]
            table[mid] = Memory(mid, source.title + " copy", source.body, topics=["work"])
            for c in [c for c in chunks if c.memory_id == source.id]:
                chunks.append(Chunk(mid, c.index, c.start, c.end, c.text))
                vectors.append(vectors[chunks.index(c)] + rng.normal(0, 0.01, DIM))
            continue
        texts = []
        for _ in range(int(rng.integers(1, 5))):
            if m % 7 == 3:
                texts.append("".join(rng.choice(han, 40)))
            else:
                texts.append(" ".join(rng.choice(vocab, 25, p=weights)))
        title = " ".join(rng.choice(vocab, 2))
        when = datetime(2020 + m % 5, 1 + m % 12, 1 + m % 28, tzinfo=UTC)
        table[mid] = Memory(
            mid, title, "\n\n".join(texts), topics=[TOPICS[m % 3]],
            importance=("low", "medium", "high")[m % 3], updated=when,
        )  # fmt: skip
        start = 0
        centre = centres[m % len(centres)]
        for c, text in enumerate(texts):
            chunks.append(Chunk(mid, c, start, start + len(text), text))
            vectors.append(centre + rng.normal(0, 0.6, DIM))
            start += len(text) + 2
    matrix = np.array(vectors, np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    return chunks, matrix, table


def _queries(chunks: list[Chunk], vectors: np.ndarray, seed: int, n: int = 24) -> list:
    rng = np.random.default_rng(seed + 1)
    out = []
    for _ in range(n):
        c = int(rng.integers(len(chunks)))
        words = chunks[c].text.split() or [chunks[c].text[:4]]
        text = " ".join(rng.choice(words, min(len(words), int(rng.integers(1, 4)))))
        vector = vectors[c] + rng.normal(0, 0.3, vectors.shape[1]).astype(np.float32)
        out.append((text, vector / np.linalg.norm(vector), float(rng.uniform(0.0, 0.3))))
    for _ in range(4):  # long queries: hybrid ranks by a larger keyword weight (keyword_gain)
        c = int(rng.integers(len(chunks)))
        words = chunks[c].text.split() or [chunks[c].text[:4]]
        text = " ".join(rng.choice(words, min(len(words), int(rng.integers(10, 30)))))
        vector = vectors[c] + rng.normal(0, 0.3, vectors.shape[1]).astype(np.float32)
        out.append((text, vector / np.linalg.norm(vector), float(rng.uniform(0.0, 0.3))))
    out.append(("", vectors[0], 0.1))  # no words: hybrid is semantic
    out.append(("zzzznotaword", None, 0.0))  # no vector: hybrid is keyword
    return out


FILTERS = [
    None,
    SearchFilters(topic="WORK"),
    SearchFilters(importance="high", date_from=date(2021, 1, 1)),
    SearchFilters(date_to=date(2022, 6, 30)),
]


def _key(hits) -> list[tuple]:
    return [
        (h.memory_id, h.score, h.chunk_index, h.semantic_score, h.keyword_score, h.copies)
        for h in hits
    ]


def _all_results(index: SearchIndex, queries: list, family: str = "all-minilm-l6") -> list:
    results = []
    for text, vector, background in queries:
        for mode in ("hybrid", "semantic", "keyword"):
            for filters in FILTERS:
                for k, floor in ((5, 0.3), (12, 0.0), (1, 0.5)):
                    hits = index.search(
                        text, vector, mode=mode, k=k, min_relevance=floor, filters=filters,
                        background=background, semantic_weight=0.7 if k == 12 else 1.0,
                        calibration=CALIBRATIONS[family],
                    )  # fmt: skip
                    results.append(_key(hits))
    return results


@pytest.fixture(scope="module")
def vault() -> tuple[list[Chunk], np.ndarray, dict[str, Memory]]:
    return _vault(3)


# all-minilm-l6's decisions read the best hit's margin over the next memory in every script;
# e5-small's do not for a query in an alphabet (its best hit then needs no certain second).
@pytest.mark.parametrize("family", ["all-minilm-l6", "e5-small"])
def test_candidate_search_equals_scoring_every_chunk(vault, monkeypatch, family: str) -> None:
    chunks, vectors, table = vault
    index = SearchIndex.build(chunks, vectors, table)
    queries = _queries(chunks, vectors, 3)
    found = _all_results(index, queries, family)
    with monkeypatch.context() as patch:  # candidate lists as deep as the index: a full scan
        patch.setattr(search_module, "_FIRST_DEPTH", 10 * len(chunks))
        full = _all_results(index, queries, family)
    with monkeypatch.context() as patch:  # one chunk at first: the deepening is exercised
        patch.setattr(search_module, "_FIRST_DEPTH", 1)
        patch.setattr(search_module, "_FIRST_DEPTH_PER_HIT", 0)
        shallow = _all_results(index, queries[:8], family)
    assert sum(map(len, full)) > 1000  # the queries do find things
    assert any(copies for hits in full for *_, copies in hits)  # and fold copies
    assert _untied(found) == _untied(full)
    assert _untied(shallow) == _untied(full[: len(shallow)])
    assert found != _untied(found)  # the vault has ties (keyword evidence is capped)


def _untied(results: list) -> list:
    """Every hit's key, except only the score for hits tied with the last hit of their list:
    which of several equal scores makes the cut is arbitrary (a full scan too)."""
    return [[h if h[1] != hits[-1][1] else ("tied", h[1]) for h in hits] for hits in results]


def test_related_and_evidence_see_every_memory(vault) -> None:
    chunks, vectors, table = vault
    index = SearchIndex.build(chunks, vectors, table)
    hits = index.related("m0005", k=8, min_relevance=0.0)
    assert len(hits) == 8 and "m0005" not in [h.memory_id for h in hits]
    sem, kw = index.evidence(split_query(chunks[0].text[:20]), vectors[0])
    assert sem is not None and kw is not None
    assert len(sem) == len(kw) == len(index) and (kw > 0).any() and (kw == 0).any()


def _edit(table: dict[str, Memory], seed: int) -> tuple[dict[str, Memory], list, list, list]:
    """A new vault state: some memories edited, some new, some removed, some retagged."""
    rng = np.random.default_rng(seed)
    new_table = dict(table)
    ids = sorted(table)
    edited = [ids[i] for i in rng.choice(len(ids), 6, replace=False)]
    removed = [m for m in ids[::37] if m not in edited]
    retagged = [m for m in ids[5::41] if m not in edited and m not in removed]
    for mid in removed:
        del new_table[mid]
    for mid in retagged:
        old = table[mid]
        new_table[mid] = Memory(mid, old.title, old.body, topics=["travel"], importance="high")
    changed = []
    for mid in [*edited, "fresh1", "fresh2"]:
        words = " ".join(rng.choice(["orbit", "kettle", "lantern", "quince"], 6))
        new_table[mid] = Memory(mid, f"note {mid}", f"{words}\n\n{mid} second paragraph")
        changed.append(mid)
    return new_table, changed, removed, retagged


def _chunks_of(memory: Memory) -> list[Chunk]:
    out, start = [], 0
    for c, text in enumerate(memory.body.split("\n\n")):
        out.append(Chunk(memory.id, c, start, start + len(text), text))
        start += len(text) + 2
    return out


@pytest.mark.parametrize("with_vectors", [True, False])
def test_updates_equal_a_fresh_build(vault, with_vectors: bool) -> None:
    chunks, vectors, table = vault
    rng = np.random.default_rng(9)
    index = SearchIndex.build(chunks, vectors if with_vectors else None, table)
    vector_of = {(c.memory_id, c.text): vectors[i] for i, c in enumerate(chunks)}
    current_table, current = table, index
    for round_ in range(3):  # several updates on top of each other
        current_table, changed, removed, retagged = _edit(current_table, round_)
        items = [MemoryChunks(m, current_table[m], _chunks_of(current_table[m])) for m in changed]
        new_vectors = []
        for item in items:
            for c in item.chunks:
                v = rng.standard_normal(DIM).astype(np.float32)
                vector_of[(c.memory_id, c.text)] = v / np.linalg.norm(v)
                new_vectors.append(vector_of[(c.memory_id, c.text)])
        current = current.updated(
            removed, items, [current_table[m] for m in retagged],
            np.array(new_vectors) if with_vectors else None,
        )  # fmt: skip
    assert index.chunk_count == len(chunks)  # the first snapshot did not change
    fresh_chunks = [
        c
        for m in sorted(current_table, key=lambda m: (m.startswith("fresh"), m))
        for c in (
            _chunks_of(current_table[m])
            if current_table[m] is not table.get(m)
            else [c for c in chunks if c.memory_id == m]
        )
    ]
    fresh_vectors = np.array([vector_of[(c.memory_id, c.text)] for c in fresh_chunks])
    fresh = SearchIndex.build(fresh_chunks, fresh_vectors if with_vectors else None, current_table)
    assert set(current.memory_ids) == set(fresh.memory_ids)
    assert current.chunk_count == fresh.chunk_count
    queries = [*_queries(fresh_chunks, fresh_vectors, 5, n=12), ("orbit kettle", None, 0.0)]
    for got, want in zip(_all_results(current, queries), _all_results(fresh, queries), strict=True):
        assert [h[0] for h in got] == [h[0] for h in want]
        for g, w in zip(got, want, strict=True):
            memory_id, score, chunk, semantic, keyword, copies = g
            assert (memory_id, chunk, set(copies)) == (w[0], w[2], set(w[5]))
            assert score == pytest.approx(w[1], rel=1e-5, abs=1e-9)
            for side, wanted in ((semantic, w[3]), (keyword, w[4])):
                assert side == (None if wanted is None else pytest.approx(wanted, rel=1e-5))
    retagged_one = current_table[retagged[0]]
    hits = current.search(
        retagged_one.title, None, k=50, min_relevance=0.0,
        filters=SearchFilters(topic="travel", importance="high"),
    )  # fmt: skip
    assert retagged_one.id in [h.memory_id for h in hits]


class _SeamOnly:
    """A local side seen only through the search-backend seam, as a database side is: the
    candidate machinery's shortcuts for local sides (every chunk's scores at hand, unsorted
    top sets, a gather and a maximum per memory) cannot apply, so the generic path (sorted
    candidate lists, look-ups through ``top_chunks``) answers: an independent reference."""

    def __init__(self, side: object) -> None:
        self._side = side

    def __len__(self) -> int:
        return len(self._side)  # type: ignore[arg-type]

    def __getattr__(self, name: str) -> object:
        if name in ("top_chunk_set", "scores"):
            raise AttributeError(name)
        return getattr(self._side, name)


def _through_the_seam(index: SearchIndex) -> SearchIndex:
    vectors = None if index._vectors is None else _SeamOnly(index._vectors)
    return SearchIndex(
        index._catalog, vectors, _SeamOnly(index._keywords),  # type: ignore[arg-type]
        titles_in_keyword=index._titles_in_keyword, hashes_source=index._token_hashes,
    )  # fmt: skip


@pytest.mark.parametrize("seed", [11, 29, 47])
def test_local_shortcuts_equal_the_generic_candidate_path(seed: int, monkeypatch) -> None:
    """Random vaults, fresh and after updates (dead chunks, moved rows), searched at the
    usual depth and with the deepening forced: the same hits, scores and chunks as the path a
    database side takes."""
    chunks, vectors, table = _vault(seed, memories=160)
    index = SearchIndex.build(chunks, vectors, table)
    rng = np.random.default_rng(seed)
    current_table, current = table, index
    for round_ in range(2):
        current_table, changed, removed, retagged = _edit(current_table, seed + round_)
        items = [MemoryChunks(m, current_table[m], _chunks_of(current_table[m])) for m in changed]
        fresh = rng.standard_normal((sum(len(i.chunks) for i in items), DIM)).astype(np.float32)
        fresh /= np.linalg.norm(fresh, axis=1, keepdims=True)
        current = current.updated(removed, items, [current_table[m] for m in retagged], fresh)
    queries = _queries(chunks, vectors, seed, n=10)
    for snapshot in (index, current):
        assert _all_results(snapshot, queries) == _all_results(_through_the_seam(snapshot), queries)
        with monkeypatch.context() as patch:  # one chunk at first: every deeper pass runs
            patch.setattr(search_module, "_FIRST_DEPTH", 1)
            patch.setattr(search_module, "_FIRST_DEPTH_PER_HIT", 0)
            shallow = _all_results(snapshot, queries[:5])
            assert shallow == _all_results(_through_the_seam(snapshot), queries[:5])


def test_the_catalogs_look_ups_and_flat_rows_follow_updates(vault) -> None:
    """Topic and name look-ups and the flat chunk-id table are kept up to date by an update
    (not rebuilt): they equal what a build from the updated rows and metadata gives."""
    from pixelmem.core.index.catalog import _positions_by

    chunks, _, table = vault
    current_table, current = table, SearchIndex.build(chunks, None, table)
    for round_ in range(3):
        current_table, changed, removed, retagged = _edit(current_table, 100 + round_)
        items = [MemoryChunks(m, current_table[m], _chunks_of(current_table[m])) for m in changed]
        current = current.updated(removed, items, [current_table[m] for m in retagged], None)
        catalog = current._catalog
        members, named = catalog.meta.look_ups()
        assert members == _positions_by(catalog.meta.topics)
        assert named == _positions_by(catalog.meta.names)
        everyone = np.arange(catalog.size)
        ids, counts = catalog.chunk_ids_of(everyone)
        np.testing.assert_array_equal(ids, np.concatenate(catalog.rows))
        np.testing.assert_array_equal(counts, [len(r) for r in catalog.rows])
        assert catalog.live_chunks == sum(len(r) for r in catalog.rows)  # from the table
        picked = everyone[::3][::-1]  # any order, any subset
        ids, _ = catalog.chunk_ids_of(picked)
        np.testing.assert_array_equal(ids, np.concatenate([catalog.rows[m] for m in picked]))
    assert members and named


def test_a_few_certain_matches_far_above_the_rest_need_no_deeper_pass(monkeypatch) -> None:
    """A word only a few memories hold puts them far above every other memory: they are the
    scan's first hits, so even with no floor the search ranks once (it deepened ×4 three times
    to rank memories it would never list) — and the same hits as a full scan."""
    chunks, vectors, table = _vault(5, memories=600)
    rare = "qzxvorbl"
    holders = {"m0011", "m0020", "m0030"}  # none Chinese, none a copy
    chunks = [
        Chunk(c.memory_id, c.index, c.start, c.end, f"{c.text} {rare}")
        if c.memory_id in holders and c.index == 0 else c
        for c in chunks
    ]  # fmt: skip
    index = SearchIndex.build(chunks, vectors, table)
    query = rare
    vector = np.random.default_rng(9).standard_normal(DIM).astype(np.float32)
    vector /= np.linalg.norm(vector)
    passes: list[int] = []
    ranked = SearchIndex._ranked_candidates

    def counted(self, query_, allowed, depth):  # type: ignore[no-untyped-def]
        passes.append(depth)
        return ranked(self, query_, allowed, depth)

    monkeypatch.setattr(search_module, "_FIRST_DEPTH", 8)  # a vault far deeper than a pass
    monkeypatch.setattr(search_module, "_FIRST_DEPTH_PER_HIT", 0)
    monkeypatch.setattr(SearchIndex, "_ranked_candidates", counted)
    hits = index.search(query, vector, k=3, min_relevance=0.0)
    assert {h.memory_id for h in hits} == holders
    assert len(passes) == 1
    monkeypatch.setattr(search_module, "_FIRST_DEPTH", 10 * len(chunks))
    assert _key(index.search(query, vector, k=3, min_relevance=0.0)) == _key(hits)


def _explained_margins(index: SearchIndex, queries: list, family: str) -> list:
    margins = []
    for text, vector, background in queries:
        hits = index.search(
            text, vector, k=1, min_relevance=0.0, background=background, explain=True,
            calibration=CALIBRATIONS[family],
        )  # fmt: skip
        if hits and hits[0].evidence is not None and hits[0].evidence.semantic is not None:
            margins.append(round(float(hits[0].evidence.margin), 9))
    return margins


def test_explained_margin_does_not_depend_on_the_models(vault, monkeypatch) -> None:
    """e5-small's decision on a query in an alphabet reads no margin, so a search need not make
    it certain; an explained one (what fit_decision learns from) makes it certain anyway: its
    evidence must not depend on the models the fit replaces, or a refit on fresh rows does not
    give the models back."""
    chunks, vectors, table = vault
    index = SearchIndex.build(chunks, vectors, table)
    queries = [q for q in _queries(chunks, vectors, 11, n=40) if q[1] is not None and q[0]]
    with monkeypatch.context() as patch:
        patch.setattr(search_module, "_FIRST_DEPTH", 10 * len(chunks))
        full = _explained_margins(index, queries, "e5-small")
    with monkeypatch.context() as patch:  # one chunk at first: only certainty deepens it
        patch.setattr(search_module, "_FIRST_DEPTH", 1)
        patch.setattr(search_module, "_FIRST_DEPTH_PER_HIT", 0)
        shallow = _explained_margins(index, queries, "e5-small")
    assert len(full) > 30 and len(set(full)) > 10
    assert shallow == full
