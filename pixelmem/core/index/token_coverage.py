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

Those runs are remembered (:class:`RememberedTokens`, per embedder, by text): a search typed
letter by letter, or asked again, meets the same few best chunks, and one 256-token run costs
30-60 ms on two cores (measured: 23 % of the questions asked of the Obsidian help vault reached
the check, each paying 35-196 ms, again on every repeat).
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from typing import Protocol, runtime_checkable

import numpy as np

REMEMBERED_BYTES = 24 * 1024 * 1024  # ~60 chunks of 256 tokens; a question is a few kB


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


class RememberedTokens:
    """A token reader that remembers the matrices it read, the most recently used first, up
    to ``budget`` bytes. The same text gives the same matrix (a model run is deterministic),
    so a remembered one is what a new run would give. Safe to share between threads: two
    searches reading one text at once may both run the model, and the first one kept wins."""

    def __init__(self, reader: TokenVectors, budget: int = REMEMBERED_BYTES) -> None:
        self._reader = reader
        self._budget = budget
        self._kept: OrderedDict[tuple[str, bool], np.ndarray] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def token_vectors(self, text: str, *, query: bool) -> np.ndarray:
        key = (text, query)
        with self._lock:
            kept = self._kept.get(key)
            if kept is not None:
                self._kept.move_to_end(key)
                return kept
        matrix = self._reader.token_vectors(text, query=query)  # the model runs unlocked
        matrix.setflags(write=False)  # shared by every later search of this text
        with self._lock:
            if key not in self._kept and matrix.nbytes <= self._budget:
                self._kept[key] = matrix
                self._bytes += matrix.nbytes
                while self._bytes > self._budget:
                    _, dropped = self._kept.popitem(last=False)
                    self._bytes -= dropped.nbytes
        return matrix


_remembered: weakref.WeakKeyDictionary[object, RememberedTokens] = weakref.WeakKeyDictionary()
_remembered_lock = threading.Lock()


def reader_of(embedder: object) -> TokenVectors | None:
    """The embedder as a token reader that remembers what it read (one per embedder, for as
    long as the embedder lives), or None when it cannot give token vectors (its
    ``token_vectors`` may also be missing on a wrapper: the wrapped one is not asked)."""
    if not isinstance(embedder, TokenVectors):
        return None
    with _remembered_lock:
        try:
            reader = _remembered.get(embedder)
        except TypeError:  # not weakly referable: read afresh each time
            return embedder
        if reader is None:
            reader = _remembered[embedder] = RememberedTokens(embedder)
        return reader
