"""Hub chunks: texts an embedding model puts close to every question, damped in search.

An embedding model gives a few texts a high cosine with almost any query — licence notices,
"Lorem ipsum" placeholders, one-line command stubs, tables of symbols. In a real vault they
were the best hit for questions they have nothing to do with (a recipe question → a licence
notice at 0.99, a question on the French revolution → a page of callout placeholders at 0.97),
above the note that answers a question, and most of all across languages, where every cosine
sits in a narrow band. Known as *hubness* (Radovanović et al. 2010; the cross-lingual fix CSLS,
Conneau et al. 2018, subtracts each text's mean similarity to its neighbours).

How close a chunk is to *every* question is measured once per model as its cosine with the
mean of the relevance anchor texts embedded as questions (:data:`~pixelmem.core.index.relevance.
ANCHOR_TEXTS`: everyday sentences on unrelated subjects). A chunk is a hub when that cosine
stands more than :data:`HUB_SPREADS` robust spreads above the typical chunk of its script in
this vault (the anchor texts, as passages, speak for a vault too small to say); each of its
cosines is lowered by the excess. Only the excess: a chunk of ordinary prose is never moved, so
ranking on clean text is what it was (XQuAD en/zh hybrid P@1 unchanged; across languages zh→en
62.5 → 64.9 %, en→zh 71.6 → 72.0 %: hubs are worst there, where every cosine sits in a narrow
band), and the decision's fitted features keep their meaning. :data:`HUB_SPREADS` was chosen on
those development sets (at 2: zh→en 63.4 %; at 1: 66.1 % but Chinese semantic P@1 −0.4).

Both backends damp alike: the local side measures its rows (kept with them, so a snapshot after
an edit measures only the rows it appended), the PostgreSQL server computes the inner products
of its rows in one pass per snapshot.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pixelmem.core.index.relevance import blend, unrelated
from pixelmem.core.index.scripts import CJK_SCRIPT, OTHER_SCRIPT
from pixelmem.core.index.vault_null import closeness

HUB_SPREADS = 1.5  # a chunk this many spreads above its script's typical one is a hub
STATS_SAMPLE = 4096  # chunks per script the typical one is measured on, at most


@dataclass(frozen=True)
class HubMeasure:
    """One model's measure of how close a text is to every question."""

    direction: np.ndarray  # the mean of the anchor texts embedded as questions (float32)
    typical: np.ndarray  # each anchor text's own value, embedded as a passage: the prior
    scripts: np.ndarray  # each anchor text's main script
    # How close two unrelated texts of a script are, as passages (vault_null.closeness of the
    # anchor texts): what a vault's notes are to each other when they share no subject.
    closeness: np.ndarray | None = None

    @classmethod
    def of(
        cls, query_vectors: np.ndarray, passage_vectors: np.ndarray, scripts: np.ndarray
    ) -> HubMeasure:
        direction = np.asarray(query_vectors, np.float32).mean(axis=0)
        passages = np.asarray(passage_vectors, np.float32)
        typical = passages @ direction
        scripts = np.asarray(scripts, np.int8)
        return cls(direction, typical.astype(np.float64), scripts, closeness(passages, scripts))

    def key(self) -> bytes:
        return self.direction.tobytes()

    def penalties(
        self, values: np.ndarray, chunk_scripts: np.ndarray, alive: np.ndarray | None
    ) -> np.ndarray:
        """What to take off each row's cosine (float32, 0 for all but the hubs): ``values`` is
        each row's cosine with :attr:`direction`, ``chunk_scripts`` its memory's main script,
        ``alive`` the live rows (None: all)."""
        values = np.asarray(values, np.float32)
        live = np.ones(len(values), bool) if alive is None else np.asarray(alive, bool)
        penalty = np.zeros(len(values), np.float32)
        for script in (CJK_SCRIPT, OTHER_SCRIPT, 0):
            rows = chunk_scripts == script
            mine = np.flatnonzero(rows & live)
            if not len(mine):
                continue
            step = max(1, len(mine) // STATS_SAMPLE)  # robust statistics need no more
            prior = self.typical[self.scripts == script] if script else self.typical
            vault = unrelated(values[mine[::step]])
            median, spread = blend(unrelated(prior), vault, len(mine))
            excess = values[rows] - (median + HUB_SPREADS * spread)
            penalty[rows] = np.maximum(excess, 0.0)
        return penalty
