"""A built-in model's documents embedded in a child process, while the app indexes.

Why: embedding a vault is minutes of work on a worker thread, and a built-in model's Python
around each text (e5's tokeniser is a Viterbi in Python; pooling, checks) holds the GIL the
window needs. When the operating system takes the CPU from that worker while it holds the GIL
(two cores, other programs), the window waits as long (bench_ui --why, indexing 10,000 notes
with e5 at load 5: 17 stalls over 16 ms, the window blocked, the indexer's worker holding the
GIL). In a child process (core/child_process: its own GIL, a lower priority) only the window's
own work is left on its GIL.

Rules:

* :func:`embed_documents` ``(embedder, texts)`` returns what ``embedder.embed_documents(texts)``
  returns — the same vectors: the child builds the same
  model with the same options (its :meth:`child_recipe`) and runs it the same way.
* Only embedders with a ``child_recipe()`` go apart (the built-in models); a remote model waits
  on its server, holding no GIL, and runs where it is. Only the app asks (``Engine.
  embed_apart``): the commands and the service embed in their own process, a child there
  would cost a second model load for no window.
* A batch of fewer than :data:`APART_MIN_TEXTS` texts (one note saved) is embedded in the
  calling thread unless the child is already running: starting one and loading the model in
  it costs more than a few texts.
* No child (it cannot start, it died): the calling thread embeds, as before (the reason is
  logged once). An error of the model itself (a damaged model file) is raised as it would be.
* :func:`embed_queries` is the same for queries (the relevance anchors as questions, embedded
  while the app indexes: the window's first search would embed them on its worker).
* The child keeps its model between calls and stops with the child after two idle minutes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from pixelmem.core.child_process import ChildProcess, ChildUnavailable
from pixelmem.core.providers.embeddings.base import Embedder, validate_vectors
from pixelmem.core.providers.embeddings.base import embed_queries as base_embed_queries
from pixelmem.core.providers.embeddings.recipe import Recipe

APART_MIN_TEXTS = 8
_child = ChildProcess("embedding documents")


def embed_documents(embedder: Embedder, texts: Sequence[str]) -> np.ndarray:
    """``embedder.embed_documents(texts)``, computed in the child process where it may be."""
    return _apart(embedder, texts, _embed_in_child, embedder.embed_documents)


def embed_queries(embedder: Embedder, texts: Sequence[str]) -> np.ndarray:
    """:func:`~pixelmem.core.providers.embeddings.base.embed_queries` ``(embedder, texts)``,
    computed in the child process where it may be (the relevance anchors as questions)."""
    return _apart(embedder, texts, _queries_in_child,
                  lambda texts: base_embed_queries(embedder, texts))  # fmt: skip


def _apart(
    embedder: Embedder,
    texts: Sequence[str],
    in_child: Callable[[Recipe, list[str]], np.ndarray],
    at_home: Callable[[Sequence[str]], np.ndarray],
) -> np.ndarray:
    """``in_child(recipe, texts)`` in the child process, or ``at_home(texts)`` here when the
    embedder has no recipe, no child can run, or a few texts would start one (the rules)."""
    recipe = _recipe_of(embedder)
    if recipe is None or not _child.usable or (len(texts) < APART_MIN_TEXTS and not _child.running):
        return at_home(texts)
    try:
        vectors = _child.run(in_child, recipe, list(texts))
    except ChildUnavailable:
        return at_home(texts)
    validate_vectors(vectors, len(texts), embedder.dim)
    return vectors


def shutdown() -> None:
    """Stop the child now (tests; the app's exit stops it anyway)."""
    _child.shutdown()


def _recipe_of(embedder: Embedder) -> Recipe | None:
    recipe = getattr(embedder, "child_recipe", None)
    return recipe() if recipe is not None else None


# -- in the child ---------------------------------------------------------------------------

_built: dict[Recipe, Embedder] = {}  # the child's models, kept between calls


def _embed_in_child(recipe: Recipe, texts: list[str]) -> np.ndarray:
    vectors = _model(recipe).embed_documents(texts)
    return np.ascontiguousarray(vectors, dtype=np.float32)


def _queries_in_child(recipe: Recipe, texts: list[str]) -> np.ndarray:
    return np.ascontiguousarray(base_embed_queries(_model(recipe), texts), dtype=np.float32)


def _model(recipe: Recipe) -> Embedder:
    embedder = _built.get(recipe)
    if embedder is None:
        embedder = _built[recipe] = recipe.build()
    return embedder
