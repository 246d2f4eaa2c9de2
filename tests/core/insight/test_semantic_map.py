"""Semantic map: deterministic layout, incremental placement, clusters and their keywords."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from fakes import HashEmbedder

from pixelmem.core.index.engine import Engine
from pixelmem.core.insight.map_clusters import (
    choose_clusters,
    cluster_count,
    cluster_keywords,
    kmeans,
    label_terms,
)
from pixelmem.core.insight.map_layout import layout, pca_2d, place_new
from pixelmem.core.insight.memory_vectors import MemoryVectors, memory_vectors, nearest, unit_rows
from pixelmem.core.insight.semantic_map import MapStore, SemanticMap, build_map, engine_map
from pixelmem.core.settings import Settings


def _clustered(n: int, clusters: int = 4, dim: int = 32, seed: int = 0):
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((clusters, dim))
    labels = np.arange(n) % clusters
    return unit_rows(centres[labels] + 0.3 * rng.standard_normal((n, dim))), labels


def _vectors(n: int, **kw) -> MemoryVectors:
    v, _ = _clustered(n, **kw)
    return MemoryVectors(tuple(f"m{i:04d}" for i in range(n)), v)


def test_nearest_matches_a_full_sort():
    v, _ = _clustered(600, dim=16)
    idx, sim = nearest(v, v[:50], 7)
    full = v[:50] @ v.T
    expected = np.argsort(-full, axis=1, kind="stable")[:, :7]
    assert np.array_equal(idx, expected)
    assert np.allclose(sim, np.take_along_axis(full, expected, axis=1))


def test_layout_is_deterministic_for_a_seed():
    v, _ = _clustered(300)
    a, b = layout(v, seed=3), layout(v, seed=3)
    assert a.shape == (300, 2) and a.dtype == np.float32
    assert np.array_equal(a, b)
    assert not np.array_equal(a, layout(v, seed=4))


def test_layout_keeps_clusters_together():
    v, labels = _clustered(400, clusters=5)
    xy = layout(v)
    d2 = ((xy[:, None, :] - xy[None, :, :]) ** 2).sum(axis=2)
    np.fill_diagonal(d2, np.inf)
    neighbours = np.argsort(d2, axis=1)[:, :10]
    assert (labels[neighbours] == labels[:, None]).mean() > 0.95


def test_tiny_inputs():
    assert layout(np.zeros((0, 8), np.float32)).shape == (0, 2)
    assert layout(unit_rows(np.ones((1, 8)))).shape == (1, 2)
    assert layout(unit_rows(np.eye(8)[:2])).shape == (2, 2)
    assert pca_2d(unit_rows(np.eye(8)[:3])).shape == (3, 2)


def test_place_new_lands_beside_its_neighbours():
    v, labels = _clustered(200)
    xy = layout(v[:-1])
    new = place_new(xy, v[:-1], v[-1:], ["new"])
    d2 = ((xy - new[0]) ** 2).sum(axis=1)
    assert labels[np.argsort(d2)[:5]].tolist() == [labels[-1]] * 5


def test_incremental_update_keeps_existing_points():
    vectors = _vectors(120)
    first = build_map(vectors.subset(vectors.ids[:100]), lambda _: "", "m")
    second = build_map(vectors, lambda _: "", "m", previous=first)
    assert np.array_equal(second.xy[:100], first.xy)
    assert second.placed_since_layout == 20


def test_changed_and_deleted_memories():
    vectors = _vectors(100)
    first = build_map(vectors, lambda _: "", "m")
    changed = vectors.vectors.copy()
    changed[0] = changed[50]  # memory 0 now says what memory 50 says
    kept = MemoryVectors(vectors.ids[:99], changed[:99])
    second = build_map(kept, lambda _: "", "m", previous=first)
    assert np.array_equal(second.xy[1:99], first.xy[1:99])
    assert np.hypot(*(second.xy[0] - first.xy[50])) < 2.0
    assert second.placed_since_layout == 1


def test_relayout_when_most_points_are_new_or_model_changes():
    vectors = _vectors(100)
    small = build_map(vectors.subset(vectors.ids[:20]), lambda _: "", "m")
    grown = build_map(vectors, lambda _: "", "m", previous=small)
    assert grown.placed_since_layout == 0
    assert np.array_equal(grown.xy, build_map(vectors, lambda _: "", "m").xy)
    other = build_map(vectors.subset(vectors.ids[:20]), lambda _: "", "other", previous=grown)
    assert other.placed_since_layout == 0


def test_map_json_round_trip(tmp_path: Path):
    vectors = _vectors(30)
    store = MapStore(tmp_path / ".pixelmem")
    made = store.update(vectors, {m: "" for m in vectors.ids}, "m")
    loaded = MapStore(tmp_path / ".pixelmem").load()
    assert isinstance(loaded, SemanticMap)
    assert loaded.ids == made.ids and loaded.fingerprints == made.fingerprints
    assert np.allclose(loaded.xy, made.xy, atol=1e-4)
    (tmp_path / ".pixelmem" / "map.json").write_text("{not json")
    assert MapStore(tmp_path / ".pixelmem").load() is None


def test_kmeans_orders_by_size_and_is_deterministic():
    rng = np.random.default_rng(0)
    points = np.concatenate([rng.normal(0, 1, (60, 2)), rng.normal(20, 1, (30, 2))])
    labels = kmeans(points, 2)
    assert np.array_equal(labels, kmeans(points, 2))
    assert (labels[:60] == 0).all() and (labels[60:] == 1).all()
    assert cluster_count(5) == 2 and cluster_count(800) == 20 and cluster_count(10**6) == 24
    assert len(set(choose_clusters(points).tolist())) == 2


def test_a_map_without_gaps_is_cut_into_several_topics_not_two():
    rng = np.random.default_rng(3)
    points = rng.uniform(-1, 1, (173, 2))  # notes spread over the map, no clear groups
    assert len(set(choose_clusters(points).tolist())) >= 4
    groups = np.concatenate([rng.normal(c, 0.05, (30, 2)) for c in ((0, 0), (3, 0), (0, 3))])
    assert len(set(choose_clusters(groups).tolist())) == 3  # clear groups: as many clusters


def test_cluster_keywords_english_and_chinese():
    texts = [
        "Rust borrow checker and lifetimes",
        "Rust traits and the borrow checker",
        "Rust async runtime",
        "数据库索引可以减少随机读",
        "数据库的索引设计",
        "数据库事务",
    ]
    terms = [label_terms(t) for t in texts]
    assert "the" not in terms[1] and "~borrow" not in terms[0] and "数" not in terms[3]
    assert "lucide-send.svg" not in label_terms("see lucide-send.svg")  # a file name: no topic
    words = cluster_keywords(terms, np.array([0, 0, 0, 1, 1, 1]), 2)
    assert words[0][0] == "rust" and "borrow" in words[0]
    assert words[1][0] == "数据库" and "据库" not in words[1] and "索引" in words[1]


def test_chinese_labels_are_words_not_pairs_across_a_boundary():
    texts = [
        "发布服务可以把笔记发布成网站",
        "用发布服务发布你的知识库",
        "发布服务的自定义域名",
        "同步功能在设备之间同步笔记",
        "同步设置和端到端加密",
        "同步历史与版本恢复",
    ]
    terms = [label_terms(t) for t in texts]
    assert "布服" not in terms[0] and "发布" in terms[0]  # word segmentation, not bigrams
    words = cluster_keywords(terms, np.array([0, 0, 0, 1, 1, 1]), 2)
    assert words[0][0] in ("发布", "服务") and "同步" in words[1]


def _engine(vault: Path) -> Engine:
    engine = Engine(vault, Settings(), embedder=HashEmbedder())
    notes = [
        ("Espresso", "coffee grind espresso shot crema", ["coffee"]),
        ("Pour over", "coffee filter pour over bloom", ["coffee"]),
        ("Rust borrow", "rust borrow checker lifetime", ["rust"]),
        ("Rust traits", "rust trait generic lifetime", ["rust"]),
        ("数据库索引", "数据库 索引 查询", ["数据库"]),
    ]
    for title, body, topics in notes:
        engine.store.create(title, body, topics=topics)
    engine.open()
    return engine


def test_engine_map_is_cached_in_the_vault(vault: Path):
    engine = _engine(vault)
    made = engine_map(engine)
    assert made is not None and len(made) == 5
    assert set(made.ids) == set(engine.index.memory_ids)
    assert (vault / ".pixelmem" / "map.json").exists()
    assert made.cluster_info and made.cluster_info[0].size == 5
    vectors = memory_vectors(engine.index)
    assert np.allclose(np.linalg.norm(vectors.vectors, axis=1), 1.0, atol=1e-5)
    again = engine_map(engine)
    assert again is not None and np.allclose(again.xy, made.xy, atol=1e-4)


def test_map_json_is_written_in_slices_and_reads_back_whole():
    import json

    n = 1234  # more than two slices of points
    xy = np.arange(2 * n, dtype=np.float32).reshape(n, 2) / 7
    ids = tuple(f"m{i}" for i in range(n))
    m = SemanticMap("m", 0, ids, xy, tuple(f"f{i}" for i in range(n)), np.zeros(n, np.int32))
    data = json.loads(m.to_json())
    assert [p[0] for p in data["points"]] == list(ids)
    assert data["points"][700] == ["m700", 200.0, 200.1429, "f700"]  # 1400/7, 1401/7
    back = SemanticMap.from_json(m.to_json())
    assert back.ids == ids and np.allclose(back.xy, xy, atol=1e-4)
    empty = SemanticMap("m", 0, (), np.zeros((0, 2)), (), np.zeros(0, np.int32))
    assert json.loads(empty.to_json())["points"] == []


def test_the_word_segmenter_is_not_loaded_at_launch():
    import subprocess
    import sys

    code = (
        "import sys, pixelmem.gui.window.main_window, pixelmem.core.insight.semantic_map;"
        "print('rjieba' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
