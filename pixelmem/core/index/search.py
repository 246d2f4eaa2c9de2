"""Search over an immutable snapshot of chunks: semantic, keyword and hybrid, one hit per memory.

How a query is answered:

* Evidence per memory, from its best chunk: the cosine with the query vector (``semantic``),
  and BM25 over chunk text with the memory title prepended (``keyword``; a title word finds
  every chunk of its memory, the chunk that also holds the rest of the query wins). A chunk is
  a keyword hit only with a *strong* term match (a word, stem, compound or CJK bigram): one
  shared Chinese character is never enough (:class:`~pixelmem.core.index.text_tokens.QueryTerms`).
* ``score`` is the calibrated relevance of :mod:`pixelmem.core.index.relevance`: 0–1, the same scale
  in every mode, from the evidence the mode uses (``semantic``: the cosine; ``keyword``: BM25;
  ``hybrid``, the default: both). Memories are ranked by it and those below ``min_relevance``
  are dropped, so a query with nothing relevant gets ``[]``. ``semantic_score`` and
  ``keyword_score`` carry the best chunk's raw cosine and BM25.
* A query that is a memory's name (title, alias or file name, :func:`name_key`) puts that
  memory first in hybrid and keyword mode; a memory in another script than the query is
  measured against the query's background in that script (see :mod:`relevance`).
* When a side cannot run (no query vector, or no searchable word in the query) hybrid is
  exactly the other mode.
* Memories with the same content (an import made twice) are one hit; the others are listed in
  ``copies``.

Filters (topic, importance, date range) are per memory and are applied before ranking.
A snapshot never changes after :meth:`SearchIndex.build`; the indexer builds a new one and swaps
the reference, so any number of threads may search one snapshot.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import time

import numpy as np

from pixelmem.core.errors import PixelmemError
from pixelmem.core.index import numpy_pieces
from pixelmem.core.index.catalog import Catalog, MemoryChunks, as_utc, main_of, script_held
from pixelmem.core.index.chunking import Chunk, embedding_text
from pixelmem.core.index.decision import (
    MARGIN_CAP,
    STANDOUT_CAP,
    Best,
    decide,
    finish,
    lacks_a_name,
    names_outweighed,
    reads_tokens,
    standout,
)
from pixelmem.core.index.hubs import HubMeasure
from pixelmem.core.index.keyword_index import _POSITIVE, token_hashes
from pixelmem.core.index.keyword_side import LocalKeywordSide
from pixelmem.core.index.prose import without_addresses
from pixelmem.core.index.query import CoverageWord, ParsedQuery, asks, parse_query
from pixelmem.core.index.relevance import (
    CALIBRATIONS,
    DEFAULT_MIN_RELEVANCE,
    Calibration,
    Evidence,
    blend,
    keyword_evidence,
    keyword_gain,
    probability,
    rank_logits,
    semantic_evidence,
    unrelated,
)
from pixelmem.core.index.relevance import explain as explain_hit
from pixelmem.core.index.scripts import CJK_SCRIPT, SCRIPTS
from pixelmem.core.index.search_backend import (
    Allowed,
    ChunkBatch,
    Damping,
    KeywordSide,
    SearchFilters,
    VectorSide,
)
from pixelmem.core.index.text_tokens import (
    QueryTerms,
    make_snippet,
    name_key,
    one_letter_off,
    stem_of,
    tokenize,
)
from pixelmem.core.index.token_coverage import TokenVectors, covered, lift
from pixelmem.core.index.vault_null import closeness, loo_nulls, shared_subject
from pixelmem.core.index.vector_side import LocalVectorSide, row_group_sums
from pixelmem.core.search_mode import SearchMode
from pixelmem.core.step_aside import step_aside
from pixelmem.core.vault.memory import Memory, searchable_title

# The modes the index scores; ``exact`` chooses which memories may answer first (Engine.search)
# and is then scored as ``keyword``.
MODES = (SearchMode.HYBRID, SearchMode.SEMANTIC, SearchMode.KEYWORD)
log = logging.getLogger(__name__)
NAME_HOLDERS = 3  # memories: a question's names count as a look-up when at most this many hold them
# A short query is a look-up (a name, a code) when its rarest word is held by at most this many
# chunks, or this share of the vault's: a word every tenth chunk holds is the vault's subject.
LOOKUP_HOLDERS = 3
LOOKUP_SHARE = 0.02
# The share of a vault's memories in the query's script at or under which a long query's
# keyword evidence weighs no more in ranking (SearchIndex._keyword_gain); full from 1.0.
ONE_SCRIPT = 0.8
# The share of a vault's chunks holding a word of the query at which the query is on the
# vault's subject (SearchIndex._on_subject): what most of the vault holds.
SUBJECT_SHARE = 0.5
WEAKER_FLOOR = 0.1  # the least relevance of a hit listed below the floor as a weaker one
VAULT_SAMPLE = 256  # memories per script whose median cosine says where "unrelated" sits
DEFAULT_SPREAD = 0.1  # of 1 − median: the spread of unrelated cosines when none is measured
_NONE = -np.inf
_NO_POSITIONS = np.zeros(0, np.int64)
_NO_TERM = " "  # a keyword term no text can hold (no token holds a space)
# A name this long one letter off a word the vault holds is that word misspelt; a shorter one
# is as often another word ("Rus" and "bus").
MISSPELT_NAME_LETTERS = 5
# The next memories ranked whose words the best hit's are compared with: a question about a
# sibling of the best hit (another article's entity) names words the sibling holds.
SIBLINGS = 4
_TOKEN_CACHE = 1024  # memories whose keyword tokens a snapshot keeps for the coverage
_SCRIPTS = SCRIPTS  # what main_script returns, in background order


def _per_script(background: float | np.ndarray) -> np.ndarray:
    """A query's unrelated text per memory script (columns indexed by main_script): row 0 the
    median cosine, row 1 the span semantic evidence is measured in (``1 −`` the median with
    all anchors: one scale for the query), row 2 the spread of unrelated cosines (the
    standout's unit: relevance.unrelated), row 3 the median the standout is measured from
    (the vault's notes as they are: SearchIndex.backgrounds). From one median for all, one per
    script, or the (median, spread) rows of :func:`relevance.backgrounds`; without spreads,
    :data:`DEFAULT_SPREAD` of the span."""
    values = np.asarray(background, np.float64)
    if values.ndim == 2:
        medians, spreads = values[0].copy(), values[1].copy()
    else:
        medians = np.full(len(_SCRIPTS), float(values)) if values.ndim == 0 else values.copy()
        spreads = DEFAULT_SPREAD * (1.0 - medians)
    return np.stack([medians, np.full(len(_SCRIPTS), 1.0 - medians[0]), spreads, medians])


@dataclass(frozen=True)
class _VaultSample:
    """The first chunk vectors of up to :data:`VAULT_SAMPLE` memories per script, spread over
    the vault, and how many memories each script has: what unrelated text looks like in this
    vault (see :meth:`SearchIndex.backgrounds`)."""

    vectors: np.ndarray  # float32, one row per sampled memory
    scripts: np.ndarray  # main_script of each row
    counts: np.ndarray  # memories per script, indexed by main_script
    memories: np.ndarray  # the memory position of each row
    # Where the vault's text of each script is: per script, the first chunk written in it of
    # up to VAULT_SAMPLE memories holding one (a Chinese note's English settings table is
    # English text of this vault), and how many memories hold one
    written: _Written


@dataclass(frozen=True)
class _Written:
    vectors: np.ndarray  # float32, one row per sampled chunk
    scripts: np.ndarray  # the chunk's main script
    counts: np.ndarray  # memories holding a chunk of each script


@dataclass(frozen=True)
class _TokenHashes:
    """Every chunk's keyword token hashes, kept so the next build can reuse them."""

    titles_in_keyword: bool
    hashes: np.ndarray
    lengths: np.ndarray
    titles: tuple[str, ...] = ()  # the keyword title each chunk was hashed with


@dataclass(frozen=True)
class SearchHit:
    """One memory found, shown through its best chunk.

    ``start``/``end`` is the chunk's span in the memory body. ``matched_terms`` are the query's
    words (and, for CJK, its longest substrings) found in the title or chunk, for highlighting.
    """

    memory_id: str
    title: str
    score: float
    snippet: str
    chunk_index: int
    start: int
    end: int
    semantic_score: float | None
    keyword_score: float | None
    matched_terms: tuple[str, ...]
    copies: tuple[str, ...] = ()  # other memories with the same content, not listed apart
    weaker: bool = False  # below the floor: one of the next few, shown apart (search(weaker=))
    evidence: Evidence | None = None  # why this score (search(explain=True))


def keyword_title(memory: Memory | None, titles_in_keyword: bool = True) -> str:
    """The text of a memory's that BM25 adds to each of its chunks: its title and aliases (a
    title word finds every chunk of the memory). The one place that decides it."""
    return searchable_title(memory) if memory is not None and titles_in_keyword else ""


class SearchIndex:
    """Chunks and per-memory metadata (a :class:`Catalog`) plus a vector and a keyword side."""

    def __init__(
        self,
        catalog: Catalog,
        vectors: VectorSide | None,
        keywords: KeywordSide,
        *,
        titles_in_keyword: bool = True,
        hashes_source: _TokenHashes | None = None,
        fallback: KeywordSide | None = None,
        backend: str = "local",
    ) -> None:
        """Assemble a snapshot from prepared parts; :meth:`build` is the usual way in.

        ``fallback``: a local keyword side that answers when ``keywords`` (a database) cannot.
        """
        self._catalog = catalog
        self._vectors = vectors if vectors is not None and len(vectors) else None
        self._keywords = keywords
        self._titles_in_keyword = titles_in_keyword
        self._token_hashes = hashes_source
        self._fallback = fallback
        self.backend = backend
        self._sample: _VaultSample | None = None  # built on first use (backgrounds)
        self._nulls: np.ndarray | None = None  # the leave-one-out null per script (loo_null)
        self._nulls_lock = threading.Lock()  # one search measures it; others wait for it
        self._closeness: np.ndarray | None = None  # its notes' closeness per script (backgrounds)
        self._damped: tuple[bytes, VectorSide] | None = None  # hubs damped (_scoring)
        self._tokens: dict[int, frozenset[str]] = {}  # best hits' keyword tokens (coverage)

    @classmethod
    def build(
        cls,
        chunks: Sequence[Chunk],
        vectors: np.ndarray | None,
        memories: Mapping[str, Memory],
        *,
        titles_in_keyword: bool = True,
        previous: SearchIndex | None = None,
    ) -> SearchIndex:
        """Index ``chunks`` (row i ↔ ``vectors[i]``); no vectors or 0 rows: keyword-only.

        ``vectors`` is used without a copy when it is C-ordered float32. Pass the snapshot being
        replaced as ``previous`` and chunks whose text and memory title are unchanged are not
        tokenised again (a rebuild after one edit costs the postings sort, not the tokenising).
        """
        if vectors is not None and len(vectors) and len(vectors) != len(chunks):
            raise ValueError(f"{len(vectors)} vectors for {len(chunks)} chunks")
        catalog, keywords, source = cls._local_parts(chunks, memories, titles_in_keyword, previous)
        vector_side = None
        if vectors is not None and len(vectors):
            vector_side = LocalVectorSide.from_matrix(vectors, catalog.owners)
        return cls(
            catalog, vector_side, keywords, titles_in_keyword=titles_in_keyword,
            hashes_source=source,
        )  # fmt: skip

    def offline(self) -> SearchIndex:
        """This snapshot's local keyword index alone (the database is unreachable)."""
        return SearchIndex(
            self._catalog, None, self._fallback or self._keywords,
            titles_in_keyword=self._titles_in_keyword, hashes_source=self._token_hashes,
        )  # fmt: skip

    @classmethod
    def _local_parts(
        cls,
        chunks: Sequence[Chunk],
        memories: Mapping[str, Memory],
        titles_in_keyword: bool,
        previous: SearchIndex | None,
    ) -> tuple[Catalog, LocalKeywordSide, _TokenHashes]:
        catalog = Catalog.build(chunks, memories)
        reusable = previous._reusable_hashes(titles_in_keyword) if previous is not None else {}
        title_hashes: dict[str, np.ndarray] = {}
        parts = []
        titles = []
        for chunk in chunks:
            title = keyword_title(memories.get(chunk.memory_id), titles_in_keyword)
            titles.append(title)
            part = reusable.get((title, chunk.text))
            if part is None:  # as keyword_side.keyword_tokens, each title tokenised once
                if title not in title_hashes:
                    title_hashes[title] = token_hashes(tokenize(title))
                part = np.concatenate((token_hashes(tokenize(chunk.text)), title_hashes[title]))
            parts.append(part)
            if len(parts) % 64 == 0:
                step_aside()  # the window first when it is late (core/step_aside)
        # Not one np.concatenate (nor np.fromiter over map): either held the GIL 5-40 ms.
        lengths = np.array([len(part) for part in parts], np.int64)
        hashes = numpy_pieces.concatenate(parts, np.int64)
        keywords = LocalKeywordSide.from_hashes(hashes, lengths, catalog.owners)
        source = _TokenHashes(titles_in_keyword, hashes, lengths, tuple(titles))
        return catalog, keywords, source

    def updated(
        self,
        removed: Iterable[str],
        changed: Sequence[MemoryChunks],
        refreshed: Sequence[Memory] = (),
        vectors: np.ndarray | None = None,
    ) -> SearchIndex:
        """A new snapshot: ``removed`` memories gone, ``changed`` ones with their new chunks
        (``vectors``: one row per new chunk, in order; None for a keyword-only snapshot), the
        metadata of ``refreshed`` ones (same title and body) brought up to date.

        Only the changed chunks are tokenised and stored; this snapshot stays as it was.
        """
        catalog, gone, fresh, owners = self._catalog.updated(removed, changed, refreshed)
        new_chunks = [c for item in changed for c in item.chunks]
        titles = [
            keyword_title(item.memory, self._titles_in_keyword)
            for item in changed
            for _ in item.chunks
        ]
        if self._vectors is not None and new_chunks and vectors is None:
            raise ValueError("this snapshot has vectors: the new chunks need theirs")
        memories = [item.memory for item in changed for _ in item.chunks]
        batch = ChunkBatch(fresh, owners, new_chunks, titles, vectors, memories)
        keywords = self._keywords.remove(gone)
        vector_side = self._vectors.remove(gone) if self._vectors is not None else None
        fallback = self._fallback.remove(gone) if self._fallback is not None else None
        if len(batch):
            keywords = keywords.upsert(batch)
            vector_side = vector_side.upsert(batch) if vector_side is not None else None
            fallback = fallback.upsert(batch) if fallback is not None else None
        return SearchIndex(
            catalog, vector_side, keywords, titles_in_keyword=self._titles_in_keyword,
            hashes_source=self._token_hashes, fallback=fallback, backend=self.backend,
        )  # fmt: skip

    def _reusable_hashes(self, titles_in_keyword: bool) -> dict[tuple[str, str], np.ndarray]:
        """(title, chunk text) → that chunk's token hashes, for the next :meth:`build`."""
        source = self._token_hashes
        if source is None or source.titles_in_keyword != titles_in_keyword:
            return {}
        chunks = self._catalog.chunks
        ends = np.cumsum(source.lengths).tolist()
        reusable = {}
        for c, (end, length) in enumerate(zip(ends, source.lengths.tolist(), strict=True)):
            chunk = chunks[c]
            if chunk is not None:
                reusable[(source.titles[c], chunk.text)] = source.hashes[end - length : end]
        return reusable

    # -- what is in it ---------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._catalog.live_ids)

    def __contains__(self, memory_id: object) -> bool:
        return memory_id in self._catalog.position

    @property
    def memory_ids(self) -> tuple[str, ...]:
        """Ids of the searchable memories, in index order."""
        return self._catalog.live_ids

    @property
    def chunk_count(self) -> int:
        return self._catalog.live_chunks

    @property
    def has_vectors(self) -> bool:
        """False for a keyword-only snapshot (no embedder, or it failed)."""
        return self._vectors is not None

    @property
    def vector_dim(self) -> int:
        return self._vectors.dim if self._vectors is not None else 0

    @property
    def stale_share(self) -> float:
        """How much of the snapshot is left over from updates (dead chunks, the keyword delta):
        the indexer rebuilds from scratch when this grows large."""
        delta = getattr(self._fallback or self._keywords, "delta_size", 0)
        capacity = self._catalog.chunk_capacity
        return self._catalog.dead_share + (delta / capacity if capacity else 0.0)

    def saved_parts(self) -> tuple[Catalog, np.ndarray | None, bool]:
        """What a saved copy keeps (:mod:`~pixelmem.core.index.saved_index`): the catalog, the
        vector rows by chunk id (dead ones too; None without local vectors) and whether titles
        are in the keyword text."""
        vectors = self._vectors
        matrix = vectors.matrix if isinstance(vectors, LocalVectorSide) else None
        return self._catalog, matrix, self._titles_in_keyword

    def chunks_of(self, memory_id: str) -> list[Chunk]:
        """The chunks of one memory in index order (empty if it is not indexed)."""
        chunks = self._catalog.chunks
        return [c for r in self._catalog.rows_of(memory_id).tolist() if (c := chunks[r])]

    def memory_vector_sums(self) -> tuple[tuple[str, ...], np.ndarray]:
        """Each memory's sum of chunk vectors, with the memory ids (empty without vectors)."""
        if self._vectors is None or not len(self):
            return (), np.zeros((0, 0), np.float32)
        rows = [r for r, mid in zip(self._catalog.rows, self._catalog.ids, strict=True) if mid]
        return self.memory_ids, row_group_sums(self._vectors.vectors, rows, self.vector_dim)

    # -- queries ---------------------------------------------------------------------------

    def search(
        self,
        query: str,
        query_vector: np.ndarray | None,
        *,
        mode: str = "hybrid",
        k: int = 5,
        min_relevance: float = DEFAULT_MIN_RELEVANCE,
        filters: SearchFilters | None = None,
        semantic_weight: float = 1.0,
        background: float | np.ndarray = 0.0,
        calibration: Calibration | None = None,
        weaker: int = 0,
        explain: bool = False,
        hubs: HubMeasure | None = None,
        tokens: TokenVectors | None = None,
        explain_tokens: bool = True,
    ) -> list[SearchHit]:
        """Up to ``k`` memories for ``query``, most relevant first (see the module docstring).

        ``weaker``: also up to this many of the next memories below ``min_relevance`` (down to
        :data:`WEAKER_FLOOR`), after the others and marked ``weaker``: what a person may open
        when the floor hid the answer. ``explain``: each hit carries its :class:`Evidence`.

        ``background`` is the query's cosine with unrelated text, one for every memory or one
        per script of the memory (:func:`~pixelmem.core.index.relevance.backgrounds`).
        ``semantic_weight`` (0–1) is how far the model can read the query's language (an
        English-only model, a Chinese query: 0).
        ``calibration``: the embedding model's
        (:func:`~pixelmem.core.index.relevance.calibration_for`). ``hubs``: the model's
        measure of texts close to every question, whose cosines are damped (:mod:`hubs`).
        ``tokens``: the embedder's token vectors, read for a decision near the floor
        (:mod:`token_coverage`; None: the decision is made without them) and, with ``explain``
        and ``explain_tokens``, for every best hit in the query's script, to show it.
        """
        if mode not in MODES:
            raise ValueError(f"unknown search mode {mode!r}; use one of {', '.join(MODES)}")
        allowed = self._memory_mask(filters)
        if k <= 0 or (allowed is not None and not allowed.mask.any()) or not len(self):
            return []
        parsed = parse_query(query)
        terms = parsed.terms if mode != "semantic" else None
        vector_ok = mode != "keyword" and query_vector is not None and self.has_vectors
        if mode == "hybrid" and not (vector_ok and terms):
            mode = "semantic" if vector_ok else "keyword"
        query_ = _Query(
            mode,
            terms if mode != "semantic" and terms else None,
            query_vector if mode != "keyword" and vector_ok else None,
            (
                self.backgrounds(
                    query_vector, background, hubs, parsed.script, self._on_subject(terms)
                )
                if vector_ok
                else _per_script(background)
            ),
            semantic_weight,
            calibration,
            script=parsed.script,
            short=parsed.short and self._looked_up(terms),
            named=self._named(parsed.key, allowed) if mode != "semantic" else _NO_POSITIONS,
            names=parsed.names if mode == "hybrid" and parsed.names else None,
            coverage=parsed.coverage,
            proper_names=parsed.proper_names if mode != "semantic" else (),
            vectors=self._scoring(hubs) if vector_ok else None,
            siblings=explain or _reads_siblings(calibration or CALIBRATIONS["default"]),
            null=explain or _reads_loo(calibration or CALIBRATIONS["default"]),
            margins=explain,
            text=query,
            # Measured on English claims only: Chinese terms are character pairs, and a
            # request for a name (关于…的笔记) is no claim.
            statement=parsed.script != CJK_SCRIPT and not asks(query),
            long_statement=parsed.statement,
            cjk_statement=parsed.cjk_statement,
            tokens=tokens if vector_ok else None,
            explain_tokens=explain and explain_tokens,
        )
        if query_.terms is None and query_.vector is None:
            return []
        depth = max(_FIRST_DEPTH, _FIRST_DEPTH_PER_HIT * (2 * k + 8))
        floor = min(min_relevance, WEAKER_FLOOR) if weaker > 0 else min_relevance
        while True:
            ranked = self._ranked_candidates(query_, allowed, depth)
            groups = ranked.groups(k + max(0, weaker), floor, self._catalog.meta.content)
            if groups is not None:
                groups = _split_weaker(groups, ranked, k, weaker, min_relevance)
                return self._hits(groups, ranked, parsed, query_, explain, min_relevance)
            depth *= 4  # not enough certain candidates: ask both sides for more

    def backgrounds(
        self,
        query_vector: np.ndarray | None,
        anchors: float | np.ndarray = 0.0,
        hubs: HubMeasure | None = None,
        script: int = 0,
        on_subject: bool = False,
    ) -> np.ndarray:
        """Where "unrelated" sits for this query, per memory script (columns indexed by
        :func:`~pixelmem.core.index.scripts.main_script`; rows as :func:`_per_script`: the
        median cosine, the span semantic evidence is measured in, the spread): the query's
        median (and spread) with the anchor texts of that script (``anchors``:
        :func:`relevance.backgrounds`) blended with its median (and spread) over this vault's
        text in that script (:class:`_Written`: the first chunk written in it of each
        memory holding one — a Chinese note's English settings table is this vault's English
        text; sampled by each note's script instead, a public Chinese vault's 24 English notes
        and the anchor sentences were all the English a Chinese question was measured
        against, and its Chinese notes' English passages, closer to any Chinese question,
        showed 104 of 200 unrelated Chinese questions; 9 since), the vault's share growing
        with its size (:func:`relevance.blend`: ``n / (n + VAULT_PRIOR)``). The span is one for
        the query, ``1 −`` its median cosine with all the anchors: script and vault move where
        "unrelated" starts, not the scale, so within a script they shift every memory alike
        and the ranking stays the fitted one (a vault of one article's paragraphs, all close
        to any question on it, or Chinese text, closer to a Chinese question than anything,
        no longer inflates the semantic side against the keyword side).

        Unrelated notes of one vault are closer to a query than everyday sentences are when
        they share its language, style or field (a Chinese vault's notes are closer to each
        other than an English vault's): a note must stand out from its own vault, in its own
        script. A vault of a few notes cannot say where its typical note sits, so the anchors
        speak there. A vault whose notes share a subject (all about the same people: a chat
        history) is closer to a question on it than unrelated text is by what they share
        (``hubs``: the model's anchor texts, against which :func:`vault_null.shared_subject`
        measures it). For a question on that subject (``on_subject``: it holds a word most of
        the vault holds, :meth:`_on_subject`) in their script (``script``, the query's), that
        is taken off the vault's median semantic evidence is measured from (row 0), never
        below the anchors', and not off the median the standout is measured from (row 3: how
        far the best hit stands above this vault's notes as they are). A question on another
        subject shares no subject with them: in the Obsidian help vault, whose notes share one
        app, taken off for every question it showed 22 of 23 unrelated English questions (10
        of 23 bounded by the anchors; 2 as before when only a question on it is read).
        Not across scripts: what notes share is measured between notes of one language, and
        the decisions across languages, steep in the background, were fitted on the vault's
        median as it is (moved, a Chinese question showed an English help vault's page of
        placeholders, tests/core/index/test_hubs.py)."""
        values = _per_script(anchors)
        sample = self._vault_sample() if query_vector is not None else None
        if sample is None or not len(sample.vectors):
            return values
        query_vector = np.asarray(query_vector, np.float32)
        cosines = sample.vectors @ query_vector
        written = sample.written
        by_chunk = written.vectors @ query_vector if len(written.vectors) else cosines[:0]
        reads = script and on_subject
        shared = self._shared_subject(sample, hubs) if reads else np.zeros(len(_SCRIPTS))
        for column in _SCRIPTS:
            mine = cosines if column == 0 else by_chunk[written.scripts == column]
            n = int(sample.counts.sum() if column == 0 else written.counts[column])
            if len(mine) and n:
                own = (float(values[0, column]), float(values[2, column]))
                median, spread = unrelated(mine)
                values[3, column], values[2, column] = blend(own, (median, spread), n)
                if column == script:  # what the notes share, down to unrelated text at most
                    median = max(median - shared[column], min(median, own[0]))
                values[0, column] = blend(own, (median, spread), n)[0]
        return values

    def _on_subject(self, terms: QueryTerms | None) -> bool:
        """Whether the query names what this vault is about: one of its words is held by at
        least :data:`SUBJECT_SHARE` of the vault's chunks (the people of a chat history, the
        app of its help pages; by the keyword side's idf, as :meth:`_looked_up`)."""
        if terms is None or not terms.strong or not len(self._keywords):
            return False
        chunks = len(self._keywords)
        commonest = min(self._keywords.idfs(terms.strong).values())
        odds = float(np.expm1(commonest))  # idf = log(1 + (n - df + 0.5) / (df + 0.5))
        holders = (chunks + 0.5 - 0.5 * odds) / (1.0 + odds)
        return holders >= SUBJECT_SHARE * chunks

    def _shared_subject(self, sample: _VaultSample, hubs: HubMeasure | None) -> np.ndarray:
        """Per script, how much closer this vault's notes are to each other than unrelated
        texts are (:func:`vault_null.shared_subject`; 0 without the anchors' measure)."""
        if hubs is None or hubs.closeness is None:
            return np.zeros(len(_SCRIPTS))
        if self._closeness is None:  # once per snapshot: ≤ 256² cosines per script
            self._closeness = closeness(sample.vectors, sample.scripts)
        return shared_subject(self._closeness, hubs.closeness)

    def vault_counts(self) -> np.ndarray:
        """Memories per script (indexed by main_script; 0: all): the N of the standout."""
        sample = self._vault_sample()
        if sample is None:
            counts = np.bincount(
                self._catalog.meta.scripts[self._catalog.alive_memories()], minlength=3
            )
        else:
            counts = sample.counts.copy()
        counts[0] = counts.sum()
        return counts

    def prepare(
        self,
        calibration: Calibration | None = None,
        *,
        explained: bool = False,
        hubs: HubMeasure | None = None,
    ) -> None:
        """Measure what a search of this snapshot reads of the whole vault (its sample of
        unrelated notes; its leave-one-out null when ``calibration``'s decision reads it, or
        when searches are ``explained``: an explanation shows it; with ``hubs``, its hub
        chunks damped): called by the engine on the indexing worker before the snapshot is
        published, so no search pays for it (the app's search panel explains every search:
        measuring the null at the first keystroke after each new snapshot took ~0.1 s of CPU
        at 100k chunks, the hub values ~18 ms, bench_ui --why)."""
        sample = self._vault_sample()
        if sample is not None and hubs is not None:
            self._shared_subject(sample, hubs)
        if explained or (calibration is not None and _reads_loo(calibration)):
            self.loo_null(0)
        if hubs is not None:
            self._scoring(hubs)

    def _vault_sample(self) -> _VaultSample | None:
        """The vault's sample (see :class:`_VaultSample`), made once per snapshot."""
        if self._sample is None and self._vectors is not None:
            meta, rows = self._catalog.meta, self._catalog.rows
            alive = np.flatnonzero(self._catalog.alive_memories())
            scripts = meta.scripts[alive]
            counts = np.bincount(scripts, minlength=len(_SCRIPTS))
            # In the order of the memories' content keys (a hash of the text): the same
            # notes make the same sample, whatever their files are called or the order they
            # were indexed in — a vault built twice scores every search the same.
            ranked = alive[np.lexsort((alive, meta.content[alive]))]
            picked = []
            for script in _SCRIPTS[1:]:
                mine = ranked[meta.scripts[ranked] == script]
                step = max(1, len(mine) // VAULT_SAMPLE)
                picked.append(mine[::step][:VAULT_SAMPLE])
            chosen = np.concatenate(picked)
            chosen = chosen[np.array([len(rows[m]) > 0 for m in chosen.tolist()], bool)]
            first_rows = np.array([rows[m][0] for m in chosen.tolist()], np.int64)
            vectors = self._vectors.vectors(first_rows) if len(first_rows) else np.zeros((0, 0))
            vectors = np.asarray(vectors, np.float32)
            written = self._written(self._vectors, ranked)
            self._sample = _VaultSample(vectors, meta.scripts[chosen], counts, chosen, written)
        return self._sample

    def _written(self, side: VectorSide, ranked: np.ndarray) -> _Written:
        """Per script, the first chunk written in it of up to :data:`VAULT_SAMPLE` memories
        holding one, chosen as :meth:`_vault_sample` chooses memories (spread over the live
        memories ``ranked`` by content key; see :class:`_Written`). In a vault of notes in one
        script each, the sample of the notes' first chunks."""
        catalog = self._catalog
        owners = catalog.owners
        live = np.flatnonzero(owners >= 0)
        mains = main_of(catalog.chunk_scripts[live]).astype(np.int64)
        key = owners[live] * len(_SCRIPTS) + mains  # chunk ids ascend: the first of each pair
        keys, first = np.unique(key, return_index=True)
        holders, held = keys // len(_SCRIPTS), keys % len(_SCRIPTS)
        order = np.full(len(catalog.ids), -1, np.int64)
        order[ranked] = np.arange(len(ranked))
        rows, scripts, counts = [], [], np.zeros(len(_SCRIPTS), np.int64)
        for script in _SCRIPTS[1:]:
            here = np.flatnonzero((held == script) & (order[holders] >= 0))
            here = here[np.argsort(order[holders[here]], kind="stable")]
            counts[script] = len(here)
            step = max(1, len(here) // VAULT_SAMPLE)
            rows.append(live[first[here[::step][:VAULT_SAMPLE]]])
            scripts.append(np.full(len(rows[-1]), script, np.int64))
        chunk_rows = np.concatenate(rows)
        vectors = side.vectors(chunk_rows) if len(chunk_rows) else np.zeros((0, 0))
        return _Written(np.asarray(vectors, np.float32), np.concatenate(scripts), counts)

    def loo_null(self, script: int) -> tuple[float, float] | None:
        """The vault's leave-one-out null for memories of ``script`` (mean, deviation), None
        when the vault has too few memories there to say (see :mod:`vault_null`). Measured
        once per snapshot, when first asked (by :meth:`prepare` when a decision model reads
        it, else by the first search explained)."""
        if self._nulls is None:
            with self._nulls_lock:  # searches started meanwhile wait: measured once
                sample = self._vault_sample()
                if sample is None:
                    return None
                if self._nulls is None:
                    self._nulls = loo_nulls(
                        self._vectors, self._catalog, sample.memories, sample.vectors,
                        sample.counts,
                    )  # fmt: skip
        if not np.isfinite(self._nulls[0, script]):
            return None
        return float(self._nulls[0, script]), float(self._nulls[1, script])

    def _keyword_gain(self, query: _Query) -> float:
        """How many times hybrid ranking weighs this query's keyword evidence
        (:func:`~pixelmem.core.index.relevance.keyword_gain`: more for a long query), in full
        in a vault written in the query's script, not at all where :data:`ONE_SCRIPT` or less
        of it is (in between, in proportion).

        A note in another script than the query cannot share its words: in a bilingual vault
        the gain lifted every same-script sibling sharing a few words above the
        other-language note that answers (XQuAD mixed, half the questions across languages:
        right first 793 → 713 of 1,190; Chinese questions over English notes 165 → 86 of 300)."""
        if query.mode != "hybrid" or query.terms is None or query.vector is None:
            return 1.0
        gain = keyword_gain(len(set(query.terms.all)))
        counts = self.vault_counts()
        if gain <= 1.0 or not counts[0]:
            return gain
        share = float(counts[query.script]) / float(counts[0]) if query.script else 0.0
        weight = min(1.0, max(0.0, (share - ONE_SCRIPT) / (1.0 - ONE_SCRIPT)))
        return 1.0 + (gain - 1.0) * weight

    def _looked_up(self, terms: QueryTerms | None) -> bool:
        """Whether a short query's words are a name or a code to look up: its rarest word is
        held by few chunks (:data:`LOOKUP_HOLDERS`, or :data:`LOOKUP_SHARE` of the vault's).
        A short query's words alone speak for a memory that holds them all, a floor under its
        meaning; a word a tenth of the vault holds ("what is a vault" in a vault of notes
        about vaults, "tags" in one about tagging) is its subject, not a look-up: every holder
        tied at that floor, in index order (the shortest chunks holding it first, by BM25's
        length norm), above the note about it. Those are ranked by all their evidence."""
        if terms is None or not terms.strong:
            return True
        chunks = len(self._keywords)
        rarest = max(self._keywords.idfs(terms.strong).values())
        odds = float(np.expm1(rarest))  # idf = log(1 + (n - df + 0.5) / (df + 0.5))
        holders = (chunks + 0.5 - 0.5 * odds) / (1.0 + odds)
        return holders <= max(LOOKUP_HOLDERS, LOOKUP_SHARE * chunks)

    def _named(self, key: str, allowed: Allowed | None) -> np.ndarray:
        """Positions of the (allowed) memories whose title, alias or file name the query is
        (``key``: the query's :func:`name_key`)."""
        if not self._titles_in_keyword:
            return _NO_POSITIONS
        named = self._catalog.meta.named(key)
        return named if allowed is None else named[allowed.mask[named]]

    def relevance_features(self, query: str) -> tuple[np.ndarray, bool, np.ndarray]:
        """Per memory (in :attr:`memory_ids` order) whether it is in another script than
        ``query``, whether the query is short, and which memories it names: the features
        :func:`~pixelmem.core.index.relevance.relevance` takes besides the evidence. For
        fitting, as :meth:`evidence`; ``short`` here is the query's alone (search also asks
        that the memory hold every word: :meth:`_holds_every_word`)."""
        live = np.array([self._catalog.position[mid] for mid in self.memory_ids], np.int64)
        parsed = parse_query(query)
        named = np.isin(live, self._named(parsed.key, None))
        return self._cross(parsed.script, live), parsed.short, named

    def _cross(self, script: int, positions: np.ndarray) -> np.ndarray:
        """Per memory position: the memory is mostly in another script than the query."""
        return self._differs(script, self._catalog.meta.scripts[positions])

    @staticmethod
    def _differs(script: int, theirs: np.ndarray) -> np.ndarray:
        """Per script in ``theirs``: another one than ``script`` (never when either has no
        letters)."""
        return (theirs != 0) & (script != 0) & (theirs != script)

    def evidence(
        self,
        terms: QueryTerms | None,
        query_vector: np.ndarray | None,
        *,
        background: float | np.ndarray = 0.0,
        script: int = 0,
        hubs: HubMeasure | None = None,
    ) -> tuple[np.ndarray | None, np.ndarray | None]:
        """Every memory's semantic and keyword evidence (in :attr:`memory_ids` order), each
        None when its side does not run (``script``: the query's main script; ``hubs``: as
        :meth:`search` damps them). Scores every chunk: for fitting, not for searching."""
        on_subject = self._on_subject(terms)
        background = self.backgrounds(query_vector, background, hubs, script, on_subject)
        query = _Query("hybrid", terms or None, query_vector, background, 1.0, None, script=script,
                       vectors=self._scoring(hubs))  # fmt: skip
        if query.vector is not None and self._vectors is None:
            query = dataclasses.replace(query, vector=None)
        everything = max(1, self._catalog.chunk_capacity)
        found = self._candidates(query, None, everything)
        live = np.array([self._catalog.position[mid] for mid in self.memory_ids], np.int64)
        where = np.searchsorted(live, found.positions)
        sem = kw = None
        if found.cosine is not None:  # the vector side listed every memory
            scripts = found.scripts
            sem = semantic_evidence(
                found.cosine, query.background[0, scripts], query.background[1, scripts]
            )
        if found.bm25 is not None:
            kw = np.zeros(len(live))
            kw[where] = self._keyword_evidence(found.bm25, query)
        return sem, kw

    def related(
        self,
        memory_id: str,
        k: int = 5,
        *,
        min_relevance: float = DEFAULT_MIN_RELEVANCE,
        anchors: np.ndarray | None = None,
        calibration: Calibration | None = None,
        weaker: int = 0,
    ) -> list[SearchHit]:
        """The ``k`` other memories nearest to this one's chunk vectors (no re-embedding);
        with ``weaker``, up to that many more below ``min_relevance``, marked ``weaker``.

        A memory is scored by its best chunk's cosine with the normalised mean of this
        memory's chunk vectors, calibrated like a semantic search (``anchors``: the anchor
        texts' vectors, for the background), each on its own: no neighbour trails another.
        Copies of this memory are never listed. Empty when the memory is unknown or there are
        no vectors.
        """
        rows = self._catalog.rows_of(memory_id)
        if self._vectors is None or not len(rows) or k <= 0:
            return []
        mean = self._vectors.vectors(rows).mean(axis=0)  # the side scales it to unit length
        centre = _unit(mean)
        query = _Query("semantic", None, mean, _per_script(0.0), 1.0, calibration)
        found = self._candidates(query, None, self._catalog.chunk_capacity)
        assert found.cosine is not None
        best = found.cosine
        # A neighbour must stand out from the typical note of this vault, not only from
        # unrelated sentences: notes in one vault share style, language and subject. The
        # anchors (in this memory's language) speak for a vault too small to say.
        own = unrelated(anchors @ centre) if anchors is not None else (0.0, 1.0)
        background = blend(own, unrelated(best), len(best))[0]
        spread = 1.0 - background
        content = self._catalog.meta.content[found.positions]
        me = self._catalog.position[memory_id]
        nearness = semantic_evidence(best, background, spread)
        nearness[content == self._catalog.meta.content[me]] = _NONE  # itself and its copies
        # Each neighbour by its own nearness: how related two notes are does not depend on a
        # third being closer (no "behind the best", which is for a question's one answer).
        score = probability(rank_logits("semantic", nearness, None, calibration=calibration))
        score[~np.isfinite(nearness)] = _NONE
        ranked = _Ranked(found.positions, score, None)
        floor = min(min_relevance, WEAKER_FLOOR) if weaker > 0 else min_relevance
        groups = ranked.groups(k + max(0, weaker), floor, self._catalog.meta.content)
        assert groups is not None
        groups = _split_weaker(groups, ranked, k, weaker, min_relevance)
        return self._hits(groups, ranked, None, query, floor=min_relevance)

    # -- candidates ------------------------------------------------------------------------

    def _scoring(self, hubs: HubMeasure | None) -> VectorSide | None:
        """The vector side a search scores with: its hub chunks damped
        (:mod:`~pixelmem.core.index.hubs`), made once per snapshot and model."""
        vectors = self._vectors
        if hubs is None or not isinstance(vectors, Damping):
            return vectors
        key, damped = hubs.key(), self._damped
        if damped is None or damped[0] != key:
            values, live = vectors.hub_values(hubs.direction)
            owners = self._catalog.owners[: len(values)]
            owners = np.concatenate([owners, np.full(len(values) - len(owners), -1)])
            scripts = np.where(owners >= 0, self._catalog.meta.scripts[np.maximum(owners, 0)], 0)
            penalty = hubs.penalties(values, scripts, live)
            damped = self._damped = (key, vectors.damped(penalty))
        return damped[1]

    def _side(self, query: _Query) -> VectorSide:
        vectors = query.vectors if query.vectors is not None else self._vectors
        assert vectors is not None
        return vectors

    def _candidates(self, query: _Query, allowed: Allowed | None, depth: int) -> _Candidates:
        """The memories of the ``depth`` best chunks on each side that runs, with their best
        chunk's cosine and BM25 (looked up on the other side when it did not list them), and
        the most any other memory can have (None when a side listed every match)."""
        owners = self._known_owners
        sides: list[tuple[np.ndarray, np.ndarray]] = []
        cosine_cap = bm25_cap = None
        if query.vector is not None:
            vectors = self._side(query)
            if isinstance(vectors, LocalVectorSide):  # the set, not sorted
                ids, lowest = vectors.top_chunk_set(query.vector, depth, allowed)
                sides.append(self._best_of(vectors.scores(query.vector), self._of(ids), None))
            else:
                ids, cos = vectors.top_chunks(query.vector, depth, allowed)
                sides.append(_best_per_memory(owners(ids), cos))
                lowest = float(cos[-1]) if len(cos) else None
            cosine_cap = lowest if len(ids) >= depth else None
        if query.terms is not None:
            if isinstance(self._keywords, LocalKeywordSide):
                ids, lowest = self._keywords.top_chunk_set(query.terms, depth, allowed)
                scores = self._keywords.scores(query.terms)
                sides.append(self._best_of(scores, self._of(ids), _POSITIVE))
            else:
                ids, bm = self._keywords.top_chunks(query.terms, depth, allowed)
                sides.append(_best_per_memory(owners(ids), bm))
                lowest = float(bm[-1]) if len(bm) else None
            bm25_cap = lowest if len(ids) >= depth else None
        positions = self._union([query.named, *(p for p, _ in sides)])
        cosine = bm25 = None
        side = iter(sides)
        if query.vector is not None:
            look_up = (lambda m: self._cosines(query, m)) if cosine_cap is not None else None
            cosine = self._fill(next(side), positions, look_up)
        if query.terms is not None:
            look_up = (lambda m: self._bm25(query, m)) if bm25_cap is not None else None
            bm25 = self._fill(next(side), positions, look_up)
        scripts = self._where_they_live(query, positions)
        return _Candidates(positions, cosine, bm25, cosine_cap, bm25_cap, scripts)

    def _where_they_live(self, query: _Query, positions: np.ndarray) -> np.ndarray:
        """Per memory position, the script it is measured in: its own, but for a memory
        written in more than one (:attr:`Catalog.mixed`: a Chinese note with English code, an
        English note with a Chinese section), the script of its best chunk by meaning. A
        question is close to a passage in its own language whatever the rest of the note is
        written in: measured against unrelated text in the note's main script instead, a
        Chinese question on anything came out as strong cross-language evidence for every
        English note holding a Chinese paragraph (a public bilingual research vault: 111 of
        200 XQuAD zh questions showed such a note; its English questions, 56). A chunk that
        holds a Chinese passage (:data:`~.catalog.HOLDS_CJK_CHARACTERS`: a sentence between
        code) is measured in Chinese for a Chinese question; one that is mostly code or
        attachments, in the question's script, whatever it is (a public Chinese vault's
        commands under Chinese headings, measured as English: the best hit of 187 of 200
        unrelated Chinese questions; 9 since, with the vault's text sampled chunk by chunk,
        :meth:`backgrounds`)."""
        scripts = self._catalog.meta.scripts[positions]
        mixed = self._catalog.mixed[positions]
        if query.vector is None or not mixed.any():
            return scripts
        scripts = scripts.copy()
        chosen = np.flatnonzero(mixed)
        ids, counts = self._catalog.chunk_ids_of(positions[chosen])
        vectors = self._side(query)
        if isinstance(vectors, LocalVectorSide):  # every chunk is scored already (memoised)
            cosines = vectors.scores(query.vector)[ids]
        else:
            listed, cos = vectors.top_chunks(
                query.vector, self._catalog.chunk_capacity, self._only(positions[chosen])
            )
            found = _by_chunk(listed, cos)
            cosines = np.array([found.get(c, -np.inf) for c in ids.tolist()], np.float64)
        held = counts > 0
        chosen, counts = chosen[held], counts[held]
        if not len(ids):
            return scripts
        starts = np.cumsum(counts) - counts
        best = np.maximum.reduceat(cosines, starts)
        at_best = np.flatnonzero(cosines >= np.repeat(best, counts))
        group = np.searchsorted(starts, at_best, side="right") - 1
        _, first = np.unique(group, return_index=True)  # each memory's best chunk
        entries = self._catalog.chunk_scripts[ids[at_best[first]]]
        in_query = script_held(entries, query.script)
        scripts[chosen] = np.where(in_query, query.script, main_of(entries))
        return scripts

    def _of(self, ids: np.ndarray) -> np.ndarray:
        """The memory positions (sorted, distinct) of some local chunk ids.

        A memory with one chunk in a side's top list has its best chunk there too (or one as
        good, tied at the cut), so the best of all its chunks (:meth:`_best_of`) is what the
        sorted list would have given."""
        return self._union([self._catalog.owners[ids]])

    def _union(self, parts: list[np.ndarray]) -> np.ndarray:
        """The distinct memory positions in ``parts``, sorted (a mask, not a sort)."""
        seen = np.zeros(self._catalog.size, bool)
        for part in parts:
            seen[part] = True
        return np.flatnonzero(seen)

    def _known_owners(self, ids: np.ndarray) -> np.ndarray:
        """Memory positions of chunk ids; a database may list rows newer than this snapshot,
        which get position -1."""
        owners = self._catalog.owners
        if self.backend == "local":
            return owners[ids]
        known = np.where(ids < len(owners), ids, 0)
        return np.where(ids < len(owners), owners[known], -1)

    def _fill(
        self,
        listed: tuple[np.ndarray, np.ndarray],
        positions: np.ndarray,
        look_up: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]] | None,
    ) -> np.ndarray:
        """Best score per memory in ``positions``: from the side's own list, else looked up
        (``look_up`` None: the side listed every chunk it scores above 0)."""
        out = np.zeros(len(positions), np.float64)
        where = np.searchsorted(positions, listed[0])
        out[where] = listed[1]
        missing = np.ones(len(positions), bool)
        missing[where] = False
        if look_up is not None and missing.any():
            found_at, found_best = look_up(positions[missing])
            out[np.searchsorted(positions, found_at)] = found_best
        return out

    def _only(self, positions: np.ndarray) -> Allowed:
        """Just these memories (to look up their chunks' scores)."""
        mask = np.zeros(self._catalog.size, bool)
        mask[positions] = True
        chunks, _ = self._catalog.chunk_ids_of(positions)  # one gather, not a step per memory
        # Names only for a database side; the local sides read the chunk ids.
        ids = self._catalog.ids
        names = tuple(str(ids[m]) for m in positions.tolist()) if self.backend != "local" else ()
        return Allowed(mask, memory_ids=names, chunk_ids=chunks)

    def _cosines(self, query: _Query, positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        assert query.vector is not None
        vectors = self._side(query)
        if isinstance(vectors, LocalVectorSide):  # every chunk is scored already
            return self._best_of(vectors.scores(query.vector), positions, None)
        every = self._catalog.chunk_capacity
        ids, cos = vectors.top_chunks(query.vector, every, self._only(positions))
        return _best_per_memory(self._known_owners(ids), cos)

    def _bm25(self, query: _Query, positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        assert query.terms is not None
        if isinstance(self._keywords, LocalKeywordSide):
            return self._best_of(self._keywords.scores(query.terms), positions, _POSITIVE)
        every = self._catalog.chunk_capacity
        ids, bm = self._keywords.top_chunks(query.terms, every, self._only(positions))
        return _best_per_memory(self._known_owners(ids), bm)

    def _best_of(
        self, scores: np.ndarray, positions: np.ndarray, least: float | None
    ) -> tuple[np.ndarray, np.ndarray]:
        """What ``_best_per_memory`` makes of a side's ranked list of these memories' chunks
        (sorted positions, each one's best score; ``least``: only those reaching it), from
        every chunk's score: a gather and a maximum per memory, no sort of thousands of
        chunks (the deep passes of a search spent most of their time there)."""
        ids, counts = self._catalog.chunk_ids_of(positions)
        held = counts > 0
        if not held.all():
            positions, counts = positions[held], counts[held]
        if not len(ids):
            return positions, np.zeros(0, np.float64)
        best = np.maximum.reduceat(scores[ids], np.cumsum(counts) - counts)
        if least is not None:
            enough = best >= least
            positions, best = positions[enough], best[enough]
        return positions, best.astype(np.float64)

    def _holds_every_word(self, query: _Query, positions: np.ndarray) -> np.ndarray:
        """1.0 per memory in ``positions`` that holds every strong word of a short query
        (anywhere in its chunks), else 0.0: where the short-query keyword term applies.

        A name or code is asked for whole: a memory with one word of a two-word name
        ("Middle East" → a note about the east wing) is no closer to it than a long question's
        partial match. Boosting partial matches showed a passage for 21 more of the names set's
        146 unanswerable queries; with this check, 3 more (and 3 more names found)."""
        covered = np.zeros(len(positions))
        calibration = query.calibration or CALIBRATIONS["default"]
        if query.mode != "hybrid" or not query.short or not (query.terms and query.terms.strong):
            return covered  # the term is in the hybrid model only
        return self._holding(query.terms, positions, calibration)

    def _holding(
        self, terms: QueryTerms, positions: np.ndarray, calibration: Calibration
    ) -> np.ndarray:
        """1.0 per memory in ``positions`` that holds every strong term, else 0.0."""
        covered = np.zeros(len(positions))
        if not len(positions):
            return covered
        holding = np.ones(len(positions), bool)
        only = self._only(positions)
        strong = set(terms.strong)
        # A word whose stem is a term too is held by any of its inflections ("descaling" by
        # "descale"): the stem stands for it.
        needed = [t for t in dict.fromkeys(terms.strong) if stem_of(t) not in strong]
        for term in needed:
            ids, _ = self._keywords.top_chunks(
                QueryTerms((term,), ()), self._catalog.chunk_capacity, only
            )
            holding &= np.isin(positions, self._known_owners(ids))
        covered[holding] = 1.0
        return covered

    def _writes(self, query: _Query, position: int) -> bool:
        """Whether memory ``position`` writes every name of the query (in its title or text)
        outside a web address. A name met only in an address is part of where a page is,
        not a word of the note: in a vault of clipped articles a footnote's address
        ("whogan.scholars.harvard.edu") held "Harvard", and the question "Where is Harvard
        stadium located?" was shown that note (on electricity prices) at 0.99 by the names
        rule, as the bare name "Harvard" would."""
        assert query.names is not None
        strong = set(query.names.strong)
        only = self._only(np.array([position]))
        for term in (t for t in strong if stem_of(t) not in strong):  # as _holding reads them
            ids, _ = self._keywords.top_chunks(
                QueryTerms((term,), ()), self._catalog.chunk_capacity, only
            )
            if not any(self._written_in(int(row), term, position) for row in ids):
                return False
        return True

    def _written_in(self, row: int, term: str, position: int) -> bool:
        """Whether chunk ``row`` of memory ``position``, which holds ``term`` (in its text or
        its keyword title), holds it outside its web addresses."""
        chunk = self._catalog.chunks[row] if row < len(self._catalog.chunks) else None
        if chunk is None or "://" not in chunk.text:
            return chunk is not None
        titles = self._token_hashes.titles if self._token_hashes is not None else ()
        title = titles[row] if row < len(titles) else self._catalog.meta.titles[position]
        words = set(tokenize(f"{title}\n{without_addresses(chunk.text)}"))
        return term in words or stem_of(term) in words

    def _keyword_evidence(self, bm25: np.ndarray, query: _Query) -> np.ndarray:
        assert query.terms is not None
        kw = keyword_evidence(bm25, self._keywords.idf_sum(query.terms.all))
        kw[~(bm25 > 0)] = 0.0
        return kw

    def _name_evidence(
        self, query: _Query, positions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray] | None:
        """The keyword evidence of the names the query contains, as a query of those names
        alone would have it, and whether each memory in ``positions`` (the candidates) holds
        all of them (1.0/0.0). None when the query names nothing
        (:attr:`ParsedQuery.names`), or when more than :data:`NAME_HOLDERS` candidates hold
        the names (a question about Beyoncé in a vault of notes on her is decided by all its
        words, not by the name every note holds)."""
        names = query.names
        if names is None or query.terms is None or not len(positions):
            return None
        ids, bm = self._keywords.top_chunks(
            names, self._catalog.chunk_capacity, self._only(positions)
        )
        found_at, best = _best_per_memory(self._known_owners(ids), bm)
        bm25 = np.zeros(len(positions))
        bm25[np.searchsorted(positions, found_at)] = best
        held = self._holding(names, positions, query.calibration or CALIBRATIONS["default"])
        if held.sum() > NAME_HOLDERS:
            return None  # a name many notes hold is the vault's subject, not a look-up
        kw = keyword_evidence(bm25, self._keywords.idf_sum(names.all))
        kw[~(bm25 > 0)] = 0.0
        return kw, held

    def _ranked_candidates(self, query: _Query, allowed: Allowed | None, depth: int) -> _Ranked:
        """Candidates scored by relevance, plus the score no memory outside them can beat.

        Each candidate gets its rank logit (:func:`~pixelmem.core.index.relevance.rank_logits`);
        the best of them the decision (:mod:`~pixelmem.core.index.decision`), the others
        their rank logit less their distance to it (:func:`~decision.finish`). The bound is
        scored as one more, imaginary memory with the caps of both sides: every evidence
        raises the rank logit, so no unlisted memory ranks above it, nor scores above it.
        When it ranks below the best and the second-best candidate (the decision reads the
        margin between them), the best is a real candidate and every candidate's score is the
        one a scan of every chunk gives.
        """
        if not _monotone(query.calibration):
            depth = max(depth, self._catalog.chunk_capacity)  # no bound holds: score them all
        found = self._candidates(query, allowed, depth)
        sem = kw = None
        bound = found.bound(query.mode)
        # The bound is scored once per script an unlisted memory may be written in (each has
        # its background and is, or is not, in the query's script); never named (every named
        # memory is a candidate).
        unlisted = np.array([] if bound is None else _SCRIPTS, np.int8)
        extra = len(unlisted)
        n = len(found.positions)
        scripts = np.concatenate([found.scripts, unlisted])
        if found.cosine is not None:
            cosine = found.cosine if bound is None else np.append(found.cosine, [bound[0]] * extra)
            sem = semantic_evidence(
                cosine, query.background[0, scripts], query.background[1, scripts]
            )
        if found.bm25 is not None:
            bm25 = found.bm25 if bound is None else np.append(found.bm25, [bound[1]] * extra)
            kw = self._keyword_evidence(bm25, query)
        cross = self._differs(query.script, scripts)
        named = np.concatenate([np.isin(found.positions, query.named), np.zeros(extra, bool)])
        # An unlisted memory may hold every word of a short query: short is an upper bound for
        # it; a longer query's term never applies (so it does not loosen the bound), nor does
        # it once the keyword side has listed every chunk holding a query word (an unlisted
        # memory that held them all would have keyword evidence).
        holds_any = bound is not None and found.bm25 is not None and bound[1] > 0
        unlisted_short = np.full(extra, 1.0 if query.short and holds_any else 0.0)
        short = np.concatenate([self._holds_every_word(query, found.positions), unlisted_short])
        short_query = query.short and query.mode == "hybrid" and bool(query.terms)
        logits = {
            gain: rank_logits(
                query.mode, sem, kw, query.semantic_weight, query.calibration,
                cross=cross, short=short, named=named, short_query=short_query, gain=gain,
            )
            for gain in {1.0, self._keyword_gain(query)}
        }  # fmt: skip
        rank = logits[max(logits)]  # the order
        # What the decision reads of the best: a long statement's gained logit (a claim is
        # checked against the note that holds its rare words), a question's ungained one.
        calibrated = logits[max(logits)] if query.statement else logits[1.0]
        if query.mode == "keyword":
            assert kw is not None
            rank[(kw <= 0) & ~named] = _NONE  # a keyword search lists only memories that match
        values: dict[str, np.ndarray] = {"short": short[:n], "cross": cross[:n], "named": named[:n]}
        if short_query:
            values["partial"] = (short[:n] <= 0).astype(np.float64)
        if sem is not None:
            values |= {"cosine": cosine[:n], "background": query.background[0, scripts[:n]],
                       "semantic": sem[:n]}  # fmt: skip
        if kw is not None:
            kw_used = np.where(short_query & (short <= 0), 0.0, kw) if short_query else kw
            values |= {"bm25": bm25[:n], "keyword": kw[:n]}
        values["rank"] = rank[:n]
        listed = rank[:n]
        if not n or not np.isfinite(listed).any():
            score = probability(rank)
            return _Ranked(found.positions, score[:n], float(score[n:].max()) if extra else None,
                           values)  # fmt: skip
        top = int(np.lexsort((found.positions, -listed))[0])  # ties: by position, as a scan
        rows = (cosine if sem is not None else None, kw_used if kw is not None else None,
                scripts, short)  # fmt: skip
        best, certain = self._best(query, found, top, (rank, calibrated), n, rows)
        models = query.calibration or CALIBRATIONS["default"]
        mode = query.mode if query.semantic_weight >= 1.0 else "keyword"
        decision, parts = decide(models, best, mode)
        if query.tokens is not None and (
            reads_tokens(models, best, decision, parts) or (query.explain_tokens and not best.cross)
        ):
            coverage = self._lift(query, found, top, listed)
            if coverage is not None:
                best = dataclasses.replace(best, lift=coverage[0], next_coverage=coverage[1])
                decision, parts = decide(models, best, mode)
        final = finish(rank, top, decision, models.behind)
        score = probability(final)
        values |= {"coverage": np.full(n, best.coverage), "margin": np.full(n, best.margin),
                   "statement": np.full(n, float(best.statement)),
                   "names_outweighed": np.full(n, float(names_outweighed(best))),
                   "unknown": np.full(n, best.unknown),
                   "name_absent": np.full(n, float(lacks_a_name(best))),
                   "elsewhere": np.full(n, best.elsewhere)}  # fmt: skip
        if best.standout is not None:
            values["standout"] = np.full(n, best.standout)
        if best.loo is not None:
            values["loo"] = np.full(n, best.loo)
        if best.lift is not None:
            values["lift"] = np.full(n, best.lift)
            values["next_coverage"] = np.full(n, best.next_coverage)
        if best.names_keyword is not None:
            values |= {"names_keyword": np.full(n, best.names_keyword),
                       "names_held": np.full(n, float(best.names_held))}  # fmt: skip
        ranked_bound = float(score[n:].max()) if extra else None
        return _Ranked(found.positions, score[:n], ranked_bound, values,
                       best=int(found.positions[top]), parts=parts, certain=certain)  # fmt: skip

    def _best(
        self,
        query: _Query,
        found: _Candidates,
        top: int,
        ranks: tuple[np.ndarray, np.ndarray],
        n: int,
        values: tuple[np.ndarray | None, np.ndarray | None, np.ndarray, np.ndarray],
    ) -> tuple[Best, bool]:
        """The evidence the decision reads for candidate ``top`` (:class:`Best`), and whether
        it is certain: no unlisted memory (the bound rows after ``n``) may rank above the
        best, nor, when the decision reads the margin, change it (rank above the next
        candidate of other content, closer than :data:`MARGIN_CAP` to the best). ``values``:
        every row's cosine, keyword evidence (as ranked), script and short-query hold.
        ``ranks``: the rank logits that order the candidates, and the calibrated ones (the
        same unless a long query's keyword evidence weighs more in the order: keyword_gain),
        which the decision reads: the best's, and its margin over the next."""
        cosine, keyword, scripts, short = values
        rank, calibrated = ranks
        models = query.calibration or CALIBRATIONS["default"]
        content = self._catalog.meta.content
        position = int(found.positions[top])
        others = content[found.positions] != content[position]
        listed = rank[:n]
        second = float(listed[others].max()) if others.any() else -np.inf
        unlisted = float(rank[n:].max()) if len(rank) > n else -np.inf
        own = calibrated[:n]
        next_own = float(own[others].max()) if others.any() else -np.inf
        margin = (
            min(MARGIN_CAP, max(0.0, float(own[top] - next_own)))
            if np.isfinite(next_own)
            else MARGIN_CAP
        )
        script = int(scripts[top])
        cross = bool(self._differs(query.script, scripts[top : top + 1])[0])
        cjk = query.script == CJK_SCRIPT
        reads_margin = (
            cosine is not None
            and query.mode != "keyword"
            and (query.margins or _reads_margin(models, cross, cjk, query.long_statement))
        )
        unlisted_own = float(calibrated[n:].max()) if len(calibrated) > n else -np.inf
        certain = unlisted <= listed[top] and (  # a tie at the top is as arbitrary as at the cut
            not reads_margin
            or (unlisted < second and unlisted_own < next_own)
            or own[top] - unlisted_own >= MARGIN_CAP
        )
        semantic = standout_value = loo = None
        notes = 0
        if cosine is not None and query.vector is not None:
            null = None if cross or not query.null else self.loo_null(script)
            if null is not None:
                loo = min(STANDOUT_CAP, (float(cosine[top]) - null[0]) / null[1])
            counts = self.vault_counts()
            notes = int(counts[0])
            standout_value = standout(
                float(cosine[top]), float(query.background[3, script]),
                float(query.background[2, script]), int(counts[script]),
            )  # fmt: skip
            semantic = float(
                semantic_evidence(
                    cosine[top], query.background[0, script], query.background[1, script]
                )
            )
        names = self._name_evidence(query, found.positions)
        siblings = _NO_POSITIONS
        if query.siblings:  # a few memories' words: only where the decision or a person reads it
            siblings = found.positions[np.argsort(-listed, kind="stable")]
            siblings = siblings[content[siblings] != content[position]][:SIBLINGS]
        coverage, unknown, elsewhere = self._coverage(query, position, siblings)
        best = Best(
            rank=float(own[top]), semantic=semantic,
            keyword=None if keyword is None else float(keyword[top]),
            coverage=coverage, unknown=unknown, elsewhere=elsewhere, margin=margin,
            standout=standout_value, loo=loo,
            cross=cross, held=bool(query.short and short[top] > 0),
            names_keyword=None if names is None else float(names[0][top]),
            names_held=names is not None and bool(names[1][top]) and self._writes(query, position),
            named=bool(np.isin(position, query.named)), short_query=query.short, cjk=cjk,
            statement=query.long_statement, cjk_statement=query.cjk_statement, notes=notes,
            name_absent=self._lacks_a_name(query, position),
        )  # fmt: skip
        return best, certain

    def _lacks_a_name(self, query: _Query, position: int) -> bool:
        """Whether the query writes a proper name (:attr:`~pixelmem.core.index.query.
        ParsedQuery.proper_names`) that no note of the vault holds (decision.lacks_a_name):
        not as written, nor by its stem, nor — a name of :data:`MISSPELT_NAME_LETTERS`
        letters or more — one letter off ("Moncalm" for "Montcalm": a name is often typed as
        it is remembered), nor in the best hit (``position``) with its accents taken off
        ("Severine" for "Sévérine")."""
        names = query.proper_names
        if not names or query.terms is None:
            return False
        missing = self._unknown(names, lambda name: (name, stem_of(name)))
        if not missing:
            return False
        held = {name_key(t) for t in self._memory_tokens(position)}  # accents off
        missing = [name for name in missing if name_key(name) not in held]
        long = [name for name in missing if len(name) >= MISSPELT_NAME_LETTERS]
        misspelt = set(long) - set(self._unknown(long, one_letter_off))
        return any(name not in misspelt for name in missing)

    def _idfs(self, terms: Iterable[str]) -> tuple[dict[str, float], float]:
        """Each term's idf, in one look-up (a query on PG), and the idf from which a term is
        held by no chunk."""
        idfs = self._keywords.idfs([*terms, _NO_TERM])
        return idfs, idfs[_NO_TERM] - 1e-9

    def _unknown(self, words: Sequence[str], ways: Callable[[str], Iterable[str]]) -> list[str]:
        """The ``words`` no chunk holds in any of their ``ways`` (one look-up for all)."""
        spelt = {word: [t for t in ways(word) if t] for word in words}
        idfs, nowhere = self._idfs({t for way in spelt.values() for t in way})
        return [word for word, way in spelt.items() if all(idfs[t] >= nowhere for t in way)]

    def _lift(
        self, query: _Query, found: _Candidates, top: int, listed: np.ndarray
    ) -> tuple[float, float] | None:
        """How much better the best candidate's best chunk covers the query token by token
        than the next candidate of other content does (:func:`token_coverage.lift`), and how
        well that next one covers it (:func:`token_coverage.covered`); None without a next
        one, without question tokens or when the model fails (the decision is then made
        without it)."""
        assert query.tokens is not None
        content = self._catalog.meta.content
        position = int(found.positions[top])
        others = content[found.positions] != content[position]
        if not others.any():
            return None
        second = int(found.positions[np.flatnonzero(others)[np.argmax(listed[others])]])
        try:
            question = query.tokens.token_vectors(query.text, query=True)
            best, other = (
                query.tokens.token_vectors(self._chunk_text(m, query), query=False)
                for m in (position, second)
            )
        except PixelmemError as exc:
            log.warning("token coverage unavailable: %s", exc)
            return None
        gained = lift(question, best, other)
        return None if gained is None else (gained, covered(question, other))

    def _chunk_text(self, m: int, query: _Query) -> str:
        """The text embedded for memory ``m``'s chunk closest to the query (title and chunk)."""
        rows = self._catalog.rows[m].tolist()
        row = rows[0]
        if len(rows) > 1 and query.vector is not None:
            ids, _ = self._side(query).top_chunks(query.vector, 1, self._only(np.array([m])))
            row = int(ids[0]) if len(ids) else row
        chunk = self._catalog.chunks[row]
        assert chunk is not None
        return embedding_text(self._catalog.meta.titles[m], chunk.text)

    def _coverage(
        self, query: _Query, position: int, siblings: np.ndarray
    ) -> tuple[float, float, float]:
        """Of the query's words (:class:`~pixelmem.core.index.query.CoverageWord`: a word or
        its stem, a Chinese word's character pairs), each weighed by its idf squared: the
        share the memory holds, the share no memory of the vault holds (its unknown words),
        and the share the memory lacks while one of ``siblings`` (the next memories ranked)
        holds it: the question names another thing of the vault than the memory is about.
        (0, 0, 0) without keyword terms."""
        terms, words = query.terms, query.coverage
        if terms is None or not terms.strong or not words or query.mode == "semantic":
            return 0.0, 0.0, 0.0
        held = self._memory_tokens(position)
        looked = {t for w in words for way in (w.terms, *w.ways) for t in way}
        idfs, nowhere = self._idfs(looked)
        weights = np.array([max(idfs[t] for t in w.terms) for w in words], np.float64) ** 2
        has = np.array([any(all(t in held for t in way) for way in w.ways) for w in words])
        known = np.array([any(all(idfs[t] < nowhere for t in way) for way in w.ways)
                          for w in words])  # fmt: skip
        # The siblings' tokens only when the memory lacks a word, and then one sibling at a
        # time: tokenising five memories was most of a search's Python (bench_first_search).
        others = _Lazy([int(p) for p in siblings], self._memory_tokens)
        sibling = np.array([not h and any(all(t in o for t in way) for o in others
                                              for way in w.ways)
                            for w, h in zip(words, has, strict=True)], bool)  # fmt: skip
        total = float(weights.sum())
        if total <= 0:
            return 0.0, 0.0, 0.0
        return (float(weights[has].sum() / total), float(weights[~known].sum() / total),
                float(weights[sibling].sum() / total))  # fmt: skip

    def _memory_tokens(self, position: int) -> frozenset[str]:
        """The keyword tokens of one memory (its chunks and title), kept for this snapshot."""
        tokens = self._tokens.get(position)
        if tokens is None:
            chunks = self._catalog.chunks
            texts = [c.text for r in self._catalog.rows[position].tolist() if (c := chunks[r])]
            if self._titles_in_keyword:
                texts.append(self._catalog.meta.titles[position])
            tokens = frozenset(token for text in texts for token in tokenize(text))
            if len(self._tokens) >= _TOKEN_CACHE:
                self._tokens.clear()
            self._tokens[position] = tokens
        return tokens

    # -- internals -------------------------------------------------------------------------

    def _memory_mask(self, filters: SearchFilters | None) -> Allowed | None:
        """Which memory positions pass ``filters`` (None: no filter, every live memory)."""
        if filters is None:
            return None
        meta = self._catalog.meta
        keep = self._catalog.alive_memories()
        if filters.topic is not None:
            members = np.zeros(len(keep), bool)
            members[meta.with_topic(filters.topic)] = True
            keep &= members
        if filters.importance is not None:
            keep &= meta.importance == filters.importance
        if filters.date_from is not None:
            keep &= meta.dates >= as_utc(filters.date_from, time.min).timestamp()
        if filters.date_to is not None:
            keep &= meta.dates <= as_utc(filters.date_to, time.max).timestamp()
        if filters.memory_ids is None:
            return Allowed(keep, filters=filters)
        chosen = np.zeros(len(keep), bool)
        known = [
            self._catalog.position[m] for m in filters.memory_ids if m in self._catalog.position
        ]
        chosen[np.asarray(known, np.int64)] = True
        keep &= chosen
        names = tuple(sorted(filters.memory_ids))
        return Allowed(keep, filters=filters, memory_ids=names)

    def _hits(
        self,
        groups: list[list[int]],
        ranked: _Ranked,
        query: ParsedQuery | None,
        how: _Query,
        explain: bool = False,
        floor: float = 0.0,
    ) -> list[SearchHit]:
        """One hit per group (its first memory, shown through its best chunk), copies after;
        those under ``floor`` marked weaker; with their :class:`Evidence` if ``explain``."""
        firsts = np.array([group[0] for group in groups], np.int64)
        cosine = bm25 = None
        if how.vector is not None and self._vectors is not None:
            vectors = self._side(how)
            cosine = _by_chunk(*vectors.top_chunks(how.vector, 1 << 62, self._only(firsts)))
        if how.terms is not None:
            bm25 = _by_chunk(*self._keywords.top_chunks(how.terms, 1 << 62, self._only(firsts)))
        hits = []
        for first, *others in groups:
            score = ranked.score_of(first)
            hit = self._hit(first, score, query, cosine, bm25)
            extra: dict = {"copies": tuple(str(self._catalog.ids[m]) for m in others)}
            extra["weaker"] = score < floor
            if explain:
                parts = ranked.parts if first == ranked.best else None
                evidence = explain_hit(ranked.values_of(first), score, parts)
                script = int(self._catalog.meta.scripts[first])
                hub = self._hub_of(first, cosine, how)
                shared = float(how.background[3, script] - how.background[0, script])
                if hub or shared > 1e-9:  # what was taken off its cosine, or its background
                    shared = shared if shared > 1e-9 else 0.0
                    evidence = dataclasses.replace(evidence, hub=hub, shared=shared)
                extra["evidence"] = evidence
            hits.append(dataclasses.replace(hit, **extra))
        return hits

    def _hub_of(self, m: int, cosine: dict[int, float] | None, how: _Query) -> float:
        """What was taken off memory ``m``'s best cosine for its chunk being a hub (nothing
        when the meaning side did not run: no vectors, or the embedder is down)."""
        if cosine is None:
            return 0.0
        side = self._side(how)
        penalty = getattr(side, "penalty", None)  # a damped side's (hubs.py)
        if penalty is None:
            return 0.0
        rows = self._catalog.rows[m].tolist()
        return float(penalty[max(rows, key=lambda row: cosine.get(row, -np.inf))])

    def _hit(
        self,
        m: int,
        score: float,
        query: ParsedQuery | None,
        cosine: dict[int, float] | None,
        bm25: dict[int, float] | None,
    ) -> SearchHit:
        rows = self._catalog.rows[m].tolist()
        row = rows[_best_row(rows, cosine, bm25)]
        chunk = self._catalog.chunks[row]
        assert chunk is not None
        title = self._catalog.meta.titles[m]
        terms = query.highlight(f"{title}\n{chunk.text}") if query is not None else ()
        return SearchHit(
            memory_id=chunk.memory_id,
            title=title,
            score=score,
            snippet=make_snippet(chunk.text, terms),
            chunk_index=chunk.index,
            start=chunk.start,
            end=chunk.end,
            semantic_score=None if cosine is None else cosine.get(row, 0.0),
            keyword_score=None if bm25 is None else bm25.get(row, 0.0),
            matched_terms=terms,
        )


_FIRST_DEPTH = 64  # chunks asked of each side at first
_FIRST_DEPTH_PER_HIT = 16  # … per memory the copy folding looks at (2k + 8)


class _Lazy:
    """``[make(key) for key in keys]``, each item made when an iteration first reaches it."""

    def __init__(self, keys: list[int], make: Callable[[int], frozenset[str]]) -> None:
        self._keys, self._make = keys, make
        self._made: list[frozenset[str]] = []

    def __iter__(self) -> Iterator[frozenset[str]]:
        for i, key in enumerate(self._keys):
            if i == len(self._made):
                self._made.append(self._make(key))
            yield self._made[i]


@dataclass(frozen=True)
class _Query:
    """What one search asks of the sides (None: that side does not run)."""

    mode: str
    terms: QueryTerms | None
    vector: np.ndarray | None
    background: np.ndarray  # rows of _per_script, per memory script (scripts.main_script)
    semantic_weight: float
    calibration: Calibration | None
    script: int = 0  # of the query (scripts.main_script)
    short: bool = False  # a few words: a name, a code
    named: np.ndarray = dataclasses.field(default_factory=lambda: _NO_POSITIONS)
    names: QueryTerms | None = None  # the names a longer question contains (hybrid only)
    coverage: tuple[CoverageWord, ...] = ()  # its words as coverage counts them (query.py)
    proper_names: tuple[str, ...] = ()  # the words it writes as proper names (query.py)
    vectors: VectorSide | None = None  # the side to score with (None: the snapshot's own)
    siblings: bool = False  # the best hit's words are compared with the next ones' (explained)
    null: bool = False  # the best hit is measured against the vault's leave-one-out null
    # The best hit's margin made certain whatever the decision reads (explained): evidence a
    # fit learns from must not depend on the models it replaces (fit_decision --fresh).
    margins: bool = False
    text: str = ""  # the query as typed (the token reader reads it)
    statement: bool = False  # a claim or a pasted sentence, not a question (query.asks)
    long_statement: bool = False  # one long enough to be decided as one (ParsedQuery.statement)
    cjk_statement: bool = False  # a long CJK text that asks nothing (ParsedQuery.cjk_statement)
    tokens: TokenVectors | None = None  # the embedder's token vectors (token_coverage)
    explain_tokens: bool = False  # read them for an explanation too, not only on the border


@dataclass(frozen=True)
class _Candidates:
    """Memory positions (sorted) with their best chunk's cosine / BM25 (float64), and the
    most an unlisted memory can have on each side (None: that side listed every match)."""

    positions: np.ndarray
    cosine: np.ndarray | None
    bm25: np.ndarray | None
    cosine_cap: float | None
    bm25_cap: float | None
    scripts: np.ndarray  # the script each is measured in (SearchIndex._where_they_live)

    def bound(self, mode: str) -> tuple[float, float] | None:
        """(cosine, BM25) of the best imaginable unlisted memory; None when there is none."""
        if mode == "keyword":
            return None if self.bm25_cap is None else (0.0, self.bm25_cap)
        if self.cosine_cap is None:
            return None  # the vector side listed every allowed chunk: nobody is unlisted
        return self.cosine_cap, self.bm25_cap or 0.0


class _Ranked:
    """Candidates by relevance; those scoring at least ``bound`` are certainly in scan order.

    A memory tied with the bound may stand for an unlisted one with the same score: which of
    several equal scores makes the cut was always arbitrary (``np.argpartition`` in a scan).
    """

    def __init__(
        self,
        positions: np.ndarray,
        score: np.ndarray,
        bound: float | None,
        values: dict[str, np.ndarray] | None = None,
        *,
        best: int = -1,
        parts: dict[str, float] | None = None,
        certain: bool = True,
    ) -> None:
        self._sorted_positions, self._sorted_scores = positions, score  # positions are sorted
        self._values = values or {}  # the evidence scored, aligned with the sorted positions
        self.best = best  # the memory the decision was made on (-1: none)
        self.parts = parts  # the decision's models, as logits
        self.certain = certain  # no unlisted memory can change the best hit or its margin
        if bound is not None:  # only what can make the list needs ordering
            keep = score >= bound
            positions, score = positions[keep], score[keep]
        order = np.lexsort((positions, -score))  # best first; ties by position, as a scan
        self.positions = positions[order]
        self.scores = score[order]
        self.bound = bound

    def score_of(self, m: int) -> float:
        return float(self._sorted_scores[np.searchsorted(self._sorted_positions, m)])

    def values_of(self, m: int) -> dict[str, float | None]:
        """The evidence memory ``m`` was scored on (see relevance.explain)."""
        at = int(np.searchsorted(self._sorted_positions, m))
        return {name: float(array[at]) for name, array in self._values.items()}

    def groups(self, k: int, floor: float, content: np.ndarray) -> list[list[int]] | None:
        """The first ``k`` groups of equal content among the best memories at or above
        ``floor``, as :meth:`SearchIndex.search` always grouped them; None when that needs
        memories these candidates cannot vouch for."""
        if (self.bound is not None and not len(self.scores)) or not self.certain:
            return None  # the best hit or its margin may be unlisted: the decision would be off
        complete = self.bound is None or self.bound < floor
        ranked_all = self.positions[self.scores >= floor]
        chosen: dict[int, list[int]] = {}  # content key → memory positions, best first
        depth = 2 * k + 8
        while True:
            if depth > len(ranked_all) and not complete:
                return self._certain_groups(ranked_all, k, content)
            ranked = ranked_all[:depth]
            for m in ranked.tolist():
                group = chosen.setdefault(int(content[m]), [])
                if m not in group:
                    group.append(m)
            if len(chosen) >= k or len(ranked) < depth:
                break
            chosen.clear()
            depth *= 4  # many copies near the top: look further
        return list(chosen.values())[:k]

    @staticmethod
    def _certain_groups(ranked: np.ndarray, k: int, content: np.ndarray) -> list[list[int]] | None:
        """The first ``k`` groups when fewer memories are certain than the window a scan
        groups in, or None. The certain ones are the scan's first memories; its first ``k``
        groups are theirs when they hold ``k`` distinct contents, and their members are all
        here when no other memory of the vault shares those contents (a copy ranked below the
        cut would join its group in a scan). A made-up word in a short query gave a few
        keyword matches far above every other memory, and the search deepened three times
        (×4) to rank memories it would never list."""
        chosen: dict[int, list[int]] = {}
        keys = content[ranked]
        for m, key in zip(ranked.tolist(), keys.tolist(), strict=True):
            if key not in chosen and len(chosen) == k:
                continue
            chosen.setdefault(key, []).append(m)
        if len(chosen) < k:
            return None
        members = sum(len(group) for group in chosen.values())
        if int(np.isin(content, list(chosen)).sum()) != members:
            return None  # a copy outside the certain memories: rank further
        return list(chosen.values())


def _split_weaker(
    groups: list[list[int]], ranked: _Ranked, k: int, weaker: int, floor: float
) -> list[list[int]]:
    """Up to ``k`` groups at or above ``floor``, then up to ``weaker`` below it (groups come
    best first)."""
    above = [g for g in groups if ranked.score_of(g[0]) >= floor][:k]
    below = [g for g in groups if ranked.score_of(g[0]) < floor][: max(0, weaker)]
    return above + below


def _reads_margin(models: Calibration, cross: bool, cjk: bool, statement: bool = False) -> bool:
    """Whether the decision on a best hit so placed reads its margin (decision.decide)."""
    part = getattr(models, ("across" if cross else "same") + ("_cjk" if cjk else ""))
    if statement and not cross and not cjk and models.statement is not None:
        part = models.statement
    return part.margin > 0 or (not cross and models.meaning.margin > 0)


def _reads_siblings(models: Calibration) -> bool:
    """Whether a decision model reads a sibling's words (decision.Best.elsewhere)."""
    parts = (models.meaning, models.same, models.same_cjk, models.across, models.across_cjk,
             models.statement)  # fmt: skip
    return any(part is not None and part.elsewhere for part in parts)


def _reads_loo(models: Calibration) -> bool:
    """Whether a decision model reads the vault's leave-one-out null (decision.Best.loo)."""
    parts = (models.meaning, models.same, models.same_cjk, models.statement)
    return any(part is not None and part.loo for part in parts)


def _monotone(calibration: Calibration | None) -> bool:
    """True when more evidence never lowers relevance (what the candidate bound relies on)."""
    models = calibration or CALIBRATIONS["default"]
    sides = (models.hybrid, models.semantic, models.keyword)
    return all(m.monotone() for m in sides) and models.behind >= 0


def _best_per_memory(owners: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(memory positions sorted, best score of each) from chunks listed best first (owner -1:
    a chunk this snapshot does not know, left out)."""
    if len(owners) and owners.min() < 0:
        known = owners >= 0
        owners, scores = owners[known], scores[known]
    positions, first = np.unique(owners, return_index=True)
    return positions, scores[first].astype(np.float64)


def _by_chunk(ids: np.ndarray, scores: np.ndarray) -> dict[int, float]:
    return dict(zip(ids.tolist(), scores.tolist(), strict=True))


def _best_row(
    rows: list[int], cosine: dict[int, float] | None, bm25: dict[int, float] | None
) -> int:
    """Position in ``rows`` of the chunk that is best on both sides, each scaled to its max."""
    total = np.zeros(len(rows), np.float64)
    for scores in (cosine, bm25):
        if scores is not None:
            part = np.array([scores.get(r, 0.0) for r in rows], np.float64)
            top = part.max()
            if top > 0:
                total += part / top
    return int(np.argmax(total))


def _unit(vector: np.ndarray) -> np.ndarray:
    norm = float(np.linalg.norm(vector))
    v = vector.astype(np.float32, copy=False)
    return v / np.float32(norm) if norm > 0 else v
