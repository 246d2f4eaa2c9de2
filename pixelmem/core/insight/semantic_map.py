"""The semantic map: every memory as a point in 2-D, in clusters named by their keywords.

Rules:

* Positions come from the memories' document vectors (:mod:`~pixelmem.core.insight.memory_vectors`)
  through :func:`~pixelmem.core.insight.map_layout.layout`; the same vectors and seed give the
  same map.
* The map is kept in ``<vault>/.pixelmem/map.json`` (derived data, rebuilt when missing or made
  with another model). After that, memories that are new, or whose vector changed, are placed
  beside their nearest neighbours; every other point stays exactly where it was, so the map a
  person has learnt does not reshuffle after each save. Only once more than half the points
  were placed that way (the vault outgrew its layout) is the whole layout computed again.
* Clusters (:mod:`~pixelmem.core.insight.map_clusters`) are recomputed on every update; they are
cheap.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from pixelmem.core.files.atomic import atomic_write_text
from pixelmem.core.files.permissions import make_private_dirs
from pixelmem.core.insight.apart import run_apart
from pixelmem.core.insight.map_clusters import choose_clusters, cluster_keywords, label_terms
from pixelmem.core.insight.map_layout import layout, place_new
from pixelmem.core.insight.memory_vectors import MemoryVectors, memory_vectors
from pixelmem.core.paths import appdata_dir
from pixelmem.core.step_aside import step_aside
from pixelmem.core.vault.gc_pause import collector_paused

if TYPE_CHECKING:
    from pixelmem.core.index.engine import Engine

log = logging.getLogger(__name__)

MAP_FILENAME = "map.json"
FORMAT = 1
RELAYOUT_SHARE = 0.5  # placed incrementally / all points, above which the layout is redone
_JSON_SLICE = 500  # points per json.dumps call


@dataclass(frozen=True)
class MapCluster:
    """One cluster: its number (0 = largest), keywords and the centre of its points."""

    number: int
    keywords: tuple[str, ...]
    x: float
    y: float
    size: int

    @property
    def label(self) -> str:
        return " · ".join(self.keywords)


@dataclass(frozen=True)
class SemanticMap:
    """Point ``i`` is memory ``ids[i]`` at ``xy[i]`` in cluster ``clusters[i]``."""

    model_id: str
    seed: int
    ids: tuple[str, ...]
    xy: np.ndarray
    fingerprints: tuple[str, ...]
    clusters: np.ndarray
    cluster_info: tuple[MapCluster, ...] = ()
    placed_since_layout: int = 0

    def __len__(self) -> int:
        return len(self.ids)

    def position(self, memory_id: str) -> tuple[float, float] | None:
        try:
            i = self.ids.index(memory_id)
        except ValueError:
            return None
        return float(self.xy[i, 0]), float(self.xy[i, 1])

    def to_json(self) -> str:
        head = {
            "format": FORMAT,
            "model": self.model_id,
            "seed": self.seed,
            "placed_since_layout": self.placed_since_layout,
        }
        # Points are encoded a slice at a time: json's C encoder holds the GIL for a whole
        # call, and 10k points at once kept the GUI thread waiting for 10-50 ms.
        xy = np.round(self.xy.astype(np.float64), 4).tolist()
        slices = []
        for start in range(0, len(self.ids), _JSON_SLICE):
            end = start + _JSON_SLICE
            points = [
                [mid, x, y, fp]
                for mid, (x, y), fp in zip(
                    self.ids[start:end], xy[start:end], self.fingerprints[start:end], strict=True
                )
            ]
            slices.append(json.dumps(points, ensure_ascii=False, separators=(",", ":"))[1:-1])
        text = json.dumps(head, ensure_ascii=False, separators=(",", ":"))
        return text[:-1] + ',"points":[' + ",".join(slices) + "]}"

    @classmethod
    def from_json(cls, text: str) -> SemanticMap:
        data = json.loads(text)
        if data.get("format") != FORMAT:
            raise ValueError(f"map format {data.get('format')!r}, expected {FORMAT}")
        points = data["points"]
        xy = np.array([[p[1], p[2]] for p in points], np.float32).reshape(-1, 2)
        return cls(
            model_id=str(data["model"]),
            seed=int(data["seed"]),
            ids=tuple(str(p[0]) for p in points),
            xy=xy,
            fingerprints=tuple(str(p[3]) for p in points),
            clusters=np.zeros(len(points), np.int32),
            placed_since_layout=int(data.get("placed_since_layout", 0)),
        )


def fingerprint(vector: np.ndarray) -> str:
    """A short hash of a vector at 3 decimals: unchanged text, unchanged fingerprint."""
    rounded = np.round(np.asarray(vector, np.float32) * 1000).astype(np.int16)
    return hashlib.blake2b(rounded.tobytes(), digest_size=6).hexdigest()


def fingerprints(vectors: np.ndarray) -> tuple[str, ...]:
    """:func:`fingerprint` of every row (30k hashes: run in the map's child process, see
    core/insight/apart)."""
    return tuple(fingerprint(v) for v in vectors)


def build_map(
    vectors: MemoryVectors,
    text_of: Callable[[str], str],
    model_id: str,
    *,
    previous: SemanticMap | None = None,
    seed: int = 0,
    terms_cache: dict[tuple[str, str], set[str]] | None = None,
) -> SemanticMap:
    """The map of ``vectors``: ``previous`` kept where it still holds, the rest placed.

    ``text_of(memory_id)`` gives the text cluster keywords are taken from; ``terms_cache``
    (keyed by id and fingerprint) saves tokenising unchanged memories again.
    """
    fps = run_apart(fingerprints, vectors.vectors)
    xy, placed = _positions(vectors, fps, model_id, previous, seed)
    base = SemanticMap(model_id, seed, vectors.ids, xy, fps, np.zeros(len(fps), np.int32))
    return _with_clusters(base, text_of, terms_cache, placed)


def _positions(
    vectors: MemoryVectors,
    fps: tuple[str, ...],
    model_id: str,
    previous: SemanticMap | None,
    seed: int,
) -> tuple[np.ndarray, int]:
    """(positions, points placed incrementally since the last full layout)."""
    n = len(vectors)
    kept: dict[str, tuple[float, float]] = {}
    if previous is not None and previous.model_id == model_id and previous.seed == seed:
        saved = zip(previous.fingerprints, previous.xy.tolist(), strict=True)
        old = dict(zip(previous.ids, saved, strict=True))
        for mid, fp in zip(vectors.ids, fps, strict=True):
            if mid in old and old[mid][0] == fp:
                kept[mid] = (old[mid][1][0], old[mid][1][1])
    fresh = [i for i, mid in enumerate(vectors.ids) if mid not in kept]
    placed = (previous.placed_since_layout if previous is not None and kept else 0) + len(fresh)
    if not kept or placed > RELAYOUT_SHARE * n:
        return run_apart(layout, vectors.vectors, seed=seed), 0
    xy = np.zeros((n, 2), np.float32)
    rows = [i for i, mid in enumerate(vectors.ids) if mid in kept]
    xy[rows] = np.array([kept[vectors.ids[i]] for i in rows], np.float32)
    if fresh:
        new_ids = [vectors.ids[i] for i in fresh]
        xy[fresh] = place_new(xy[rows], vectors.vectors[rows], vectors.vectors[fresh], new_ids)
    return xy, placed


def _with_clusters(
    base: SemanticMap,
    text_of: Callable[[str], str],
    terms_cache: dict[tuple[str, str], set[str]] | None,
    placed: int,
) -> SemanticMap:
    labels = run_apart(choose_clusters, base.xy, seed=base.seed)
    cache = terms_cache if terms_cache is not None else {}
    terms = _terms(base, text_of, cache)
    live = set(zip(base.ids, base.fingerprints, strict=True))
    for key in [key for key in cache if key not in live]:
        del cache[key]  # edited or deleted memories
    k = int(labels.max()) + 1 if len(labels) else 0
    words = cluster_keywords(terms, labels, k)
    info = []
    for c in range(k):
        members = base.xy[labels == c]
        cx, cy = members.mean(axis=0).tolist()
        info.append(MapCluster(c, tuple(words[c]), cx, cy, len(members)))
    return SemanticMap(
        base.model_id,
        base.seed,
        base.ids,
        base.xy,
        base.fingerprints,
        labels,
        tuple(info),
        placed,
    )


def _terms(
    base: SemanticMap, text_of: Callable[[str], str], cache: dict[tuple[str, str], set[str]]
) -> list[set[str]]:
    """Each point's label words, from ``cache`` or its text. The sets made live on in the
    cache: the collector is paused while they are made and they are frozen after (a full
    collection walking 30k new sets held the GIL 29 ms on the map's worker, bench_ui --why)."""
    terms = []
    with collector_paused(keep=True):
        for number, (mid, fp) in enumerate(zip(base.ids, base.fingerprints, strict=True)):
            key = (mid, fp)
            if key not in cache:
                if number % 256 == 0:
                    step_aside()  # a search someone is typing goes first (core/step_aside)
                cache[key] = label_terms(text_of(mid))
            terms.append(cache[key])
    return terms


class MapStore:
    """The map of one vault, kept in ``<vault>/.pixelmem/map.json`` between runs."""

    def __init__(self, appdata: Path) -> None:
        self.path = appdata / MAP_FILENAME
        self._terms: dict[tuple[str, str], set[str]] = {}
        self._last: SemanticMap | None = None

    def load(self) -> SemanticMap | None:
        try:
            return SemanticMap.from_json(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, IndexError, TypeError) as exc:
            log.info("map cache %s not used: %s", self.path, exc)
            return None

    def update(
        self, vectors: MemoryVectors, texts: Mapping[str, str] | Callable[[str], str], model_id: str
    ) -> SemanticMap:
        """The current map (the cache brought up to date and saved when it changed)."""
        previous = self._last or self.load()
        text_of = texts.__getitem__ if isinstance(texts, Mapping) else texts
        result = build_map(vectors, text_of, model_id, previous=previous, terms_cache=self._terms)
        if not _same_points(previous, result):
            try:
                make_private_dirs(self.path.parent)
                atomic_write_text(self.path, result.to_json())
            except OSError as exc:  # a read-only vault still gets its map, just not cached
                log.info("map cache not saved: %s", exc)
        self._last = result
        return result


def _same_points(a: SemanticMap | None, b: SemanticMap) -> bool:
    return (
        a is not None
        and a.ids == b.ids
        and a.fingerprints == b.fingerprints
        and a.model_id == b.model_id
        and np.array_equal(a.xy, b.xy)
    )


def engine_map(engine: Engine, maps: MapStore | None = None) -> SemanticMap | None:
    """The map of the engine's current snapshot; None while it has no vectors."""
    vectors = memory_vectors(engine.index)
    embedder = engine.embedder
    if not len(vectors) or embedder is None:
        return None
    maps = maps or MapStore(appdata_dir(engine.vault))
    memories = {m.id: m.text for m in engine.store.view()}
    return maps.update(vectors, lambda mid: memories.get(mid, ""), embedder.model_id)
