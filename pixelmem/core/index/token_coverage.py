"""How much better the best hit covers a question token by token than the next memory does.

Every other piece of evidence compares one pooled vector, or exact words, of question and
passage. Late interaction reads them token by token with the same model (no other weights):
per question token its best cosine over a passage's tokens (MaxSim). A question about a thing
the vault does not hold, answered by a sibling passage of the same kind, is covered by that
sibling as well as by the best hit (the entity, the date asked about, missing in both); a
paraphrased or deictic question is covered by its own passage in meaning where the words
differ, and by the next memory less. The **lift** is that difference, averaged over the
question's tokens.

Only an embedder that exposes its token vectors (:class:`TokenVectors`: the default e5 ONNX
model and the English MiniLM) gives it; with any other the lift is None and the decision is
made without it. It costs a model run per text (the question and two chunks, at most
:data:`~pixelmem.core.providers.embeddings.e5_onnx.TOKEN_LIMIT` tokens each), so search reads
it only for a decision near the floor (:class:`~pixelmem.core.index.decision.TokenCheck`).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class TokenVectors(Protocol):
    """An embedder that gives each token's normalised vector of a text."""

    def token_vectors(self, text: str, *, query: bool) -> np.ndarray: ...


def max_sim(question: np.ndarray, passage: np.ndarray) -> np.ndarray:
    """Per question token (rows of ``question``) its best cosine over ``passage``'s tokens."""
    if not len(question) or not len(passage):
        return np.zeros(len(question), np.float64)
    return (np.asarray(question, np.float32) @ np.asarray(passage, np.float32).T).max(axis=1)


def covered(question: np.ndarray, passage: np.ndarray) -> float:
    """The mean over the question's tokens of their MaxSim over ``passage`` (0 without any)."""
    return float(np.mean(max_sim(question, passage))) if len(question) else 0.0


def lift(question: np.ndarray, best: np.ndarray, other: np.ndarray) -> float | None:
    """The mean over the question's tokens of MaxSim over ``best`` less that over ``other``
    (token matrices, rows L2-normalised); None without question tokens."""
    if not len(question):
        return None
    return float(np.mean(max_sim(question, best) - max_sim(question, other)))


def reader_of(embedder: object) -> TokenVectors | None:
    """The embedder as a token reader, or None when it cannot give token vectors (its
    ``token_vectors`` may also be missing on a wrapper: the wrapped one is not asked)."""
    return embedder if isinstance(embedder, TokenVectors) else None
