"""The engine: one vault's store, embedder, cache and search index behind one object.

The CLI, the MCP server and the GUI all go through :class:`Engine`. It is plain synchronous
Python: the runtime (:mod:`pixelmem.core.runtime`) calls it from its threads. Writes go
through ``engine.writes`` (the one :class:`~pixelmem.core.writes.MemoryWrites` gateway), which
never indexes; :meth:`Engine.reindex` brings the index up to date afterwards. Searches read an
immutable snapshot, so any number can run while one (re)index runs; index builds are
serialised by a lock.

A snapshot travels with the embedder that made its vectors, and a search embeds its query with
that one: new settings (another model, provider, chunking or backend) take effect at the next
reindex, and until it has published its snapshot searches go on with the old model and its
vectors. A query vector never meets vectors of another model (the ``query has dimension 576,
the index has 384`` error of a search during a provider switch).
"""

from __future__ import annotations

import copy
import dataclasses
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pixelmem.core.errors import PixelmemError, ProviderError, ProviderUnavailable
from pixelmem.core.paths import appdata_dir
from pixelmem.core.search_mode import SearchMode
from pixelmem.core.settings import EmbeddingSettings, RerankSettings, Settings
from pixelmem.core.step_aside import step_aside
from pixelmem.core.vault.memory import Memory
from pixelmem.core.vault.store import MemoryStore
from pixelmem.core.vault.vault_scan import SkippedFile
from pixelmem.core.writes import MemoryWrites

# The search stack (numpy, the index, relevance, the cache) is imported where it is first used,
# not here: the app builds its Engine before the window's first paint, which needs only the
# store (numpy and the index modules are ~0.2 s of a launch). Lazy names: see __getattr__.
if TYPE_CHECKING:
    import numpy as np

    from pixelmem.core.index.cache import EmbeddingCache
    from pixelmem.core.index.chunking import ChunkerSettings
    from pixelmem.core.index.exact import FoldedTexts
    from pixelmem.core.index.hubs import HubMeasure
    from pixelmem.core.index.indexer import Indexer, IndexReport, Progress
    from pixelmem.core.index.model_choice import ModelChoice
    from pixelmem.core.index.postgres_store import PostgresStore
    from pixelmem.core.index.relevance import Calibration
    from pixelmem.core.index.saved_index import Expected, SavedIndex
    from pixelmem.core.index.search import SearchFilters, SearchHit, SearchIndex
    from pixelmem.core.providers.embeddings.base import Embedder
    from pixelmem.core.providers.rerank import Reranker

log = logging.getLogger(__name__)

CACHE_FILENAME = "embeddings.msgpack.zst"
SAVE_EVERY_SECONDS = 120  # an updated index is saved again at most this often
QUERY_CACHE_SIZE = 128
MAX_K = 100


@dataclass(frozen=True)
class EngineStatus:
    vault: Path
    model_id: str
    memories: int
    chunks: int
    indexed_chunks: int  # chunks with a vector (0 while semantic search is unavailable)
    stale_cache_entries: int
    skipped: tuple[SkippedFile, ...]
    semantic_error: str
    model_reason: str = ""  # why "auto" chose this model for the vault
    model_suggestion: str = ""  # a better model for this vault, in a sentence
    backend: str = "local"  # "local", or "postgres (host/database)"
    backend_error: str = ""  # why the postgres backend is not answering, if it is not
    waiting_chunks: int = 0  # chunks with no vector yet: the next index embeds them


class Engine:
    """Everything one vault needs: ``open()`` once, then search and write through it."""

    def __init__(
        self,
        vault: Path | None = None,
        settings: Settings | None = None,
        *,
        embedder: Embedder | None = None,
        store: MemoryStore | None = None,
    ) -> None:
        self.settings = settings or Settings()
        self.store = store or MemoryStore(vault)
        self.vault = self.store.root
        # Every write goes through here; it only writes. The index follows via reindex().
        self.writes = MemoryWrites(self.store)
        self._embedder = embedder
        self._embedder_error = ""
        self._embedder_ready = embedder is not None
        # The current snapshot and the embedder whose vectors it holds (None: keyword only);
        # replaced as one tuple, so a search reads a matching pair. See index.
        self._snapshot: tuple[SearchIndex, Embedder | None] | None = None
        self._empty: tuple[SearchIndex, Embedder | None] | None = None  # until a snapshot
        self._settings_lock = threading.Lock()
        self._pending_resets: set[str] = set()  # applied by the next reindex (reconfigure)
        self._report: IndexReport | None = None
        self._indexer: Indexer | None = None
        self._build_lock = threading.RLock()
        self._query_cache: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
        self._query_lock = threading.Lock()
        self._anchors_lock = threading.Lock()  # held while the anchors are embedded
        self._embedder_lock = threading.Lock()
        self._anchors: dict[tuple[str, bool], np.ndarray] = {}  # (model, as questions) → vectors
        self._hubs: dict[str, HubMeasure] = {}  # model id → its measure of hub chunks
        self._folded_texts: FoldedTexts | None = None  # the exact mode's, made on first use
        self._reranker: Reranker | None = None
        self._reranker_settings: RerankSettings | None = None
        self.rerank_warning: str | None = None  # why the last search was not reranked
        # The built-in model picked for this vault when embedding.provider is "auto".
        self.model_choice: ModelChoice | None = None
        self._store: PostgresStore | None = None  # the postgres backend's database
        self.backend_error = ""  # one line: why the database is not answering
        # Why this thread's last search answered from the local keyword index instead (the
        # database was down): read with semantic_error by whoever words the answer.
        self._last_search = threading.local()
        # The saved index (saved_index) the snapshot came from, until a reindex took it over;
        # the snapshot on disk and when it was written (what the next save decides from).
        self._saved: SavedIndex | None = None
        self._on_disk: SearchIndex | None = None
        self._saved_ns = 0
        # False until a reindex finished, or a saved index was found to match every file:
        # until then a search answers from what is loaded so far (marked partial).
        self.index_ready = False
        # Whether searches carry their evidence (the app's search panel): each snapshot then
        # measures what an explanation reads before it is published (SearchIndex.prepare).
        self.explains = False
        # True in the app: a built-in model embeds documents in a child process, so that
        # the window's GIL is not held by minutes of tokenising (embeddings/apart).
        self.embed_apart = False

    # -- set-up ----------------------------------------------------------------------------

    @property
    def chunker(self) -> ChunkerSettings:
        from pixelmem.core.index.chunking import ChunkerSettings

        chunk = self.settings.chunk
        return ChunkerSettings(size=chunk.size, overlap=chunk.overlap)

    @property
    def embedder(self) -> Embedder | None:
        """The configured embedder, created on first use; None (with a reason) if it cannot be."""
        if not self._embedder_ready:
            with self._embedder_lock:  # a second thread waits for it, never sees None
                if not self._embedder_ready:
                    self._embedder = self._created_embedder()
                    self._embedder_ready = True
        return self._embedder

    def _created_embedder(self) -> Embedder | None:
        try:
            from pixelmem.core.providers.embeddings.factory import create_embedder

            return create_embedder(self._embedding_settings())
        except PixelmemError as exc:
            self._embedder_error = str(exc)
            log.warning("semantic search unavailable: %s", exc)
            return None

    def _embedding_settings(self) -> EmbeddingSettings:
        """The embedding settings with ``auto`` resolved to a built-in model for this vault."""
        wanted = self.settings.embedding
        if wanted.provider != "auto":
            self.model_choice = None
            return wanted
        from pixelmem.core.index import model_choice

        self.model_choice = model_choice.resolve(self.vault, self._memories())
        resolved = copy.copy(wanted)
        resolved.provider = self.model_choice.provider
        return resolved

    def _memories(self) -> Iterator[Memory]:
        """The store's memories, listed (scanned) only when iterated."""
        yield from self.store.list()

    def model_suggestion(self) -> str:
        """Why this vault would be better served by the multilingual model ("" if it is not)."""
        if self.model_choice is None:
            return ""
        from pixelmem.core.index import model_choice

        return model_choice.suggestion(self.model_choice, self._memories())

    @property
    def cache_path(self) -> Path:
        return appdata_dir(self.vault) / CACHE_FILENAME

    def _ensure_indexer(self) -> Indexer:
        from pixelmem.core.index.indexer import Indexer

        if self._indexer is None or (self._wants_database() and self._store is None):
            embedder = self.embedder
            store = self._open_store(embedder) if self._wants_database() else None
            if store is not None:
                self._indexer = Indexer(embedder, None, self.chunker, store)
            elif self._wants_database():  # server down: the local keyword index answers
                self._indexer = Indexer(None, None, self.chunker)
            else:
                cache = self._open_cache(embedder) if embedder is not None else None
                self._indexer = Indexer(embedder, cache, self.chunker)
        self._indexer.embed_apart = self.embed_apart
        return self._indexer

    def _wants_database(self) -> bool:
        return self.settings.search.backend == "postgres"

    def _open_store(self, embedder: Embedder | None) -> PostgresStore | None:
        """The database of the postgres backend; None (and one line in ``backend_error``) when
        it cannot be reached or set up."""
        from pixelmem.core.index.postgres_store import PostgresStore, PostgresUnavailable

        url = self.settings.search.postgres_url
        try:
            if not url:
                raise PostgresUnavailable(
                    "search.backend is postgres but search.postgres_url is empty"
                )
            model = embedder.model_id if embedder is not None else ""
            self._store = PostgresStore(url, model, embedder.dim if embedder is not None else 0)
        except (PostgresUnavailable, ProviderError) as exc:
            self._store, self.backend_error = None, str(exc)
            log.warning("%s", exc)
            return None
        self.backend_error = ""
        return self._store

    @property
    def backend(self) -> str:
        """The search backend in words: "local" or "postgres (host/database)"."""
        if not self._wants_database():
            return "local"
        from pixelmem.core.index.postgres_store import describe_url

        return f"postgres ({describe_url(self.settings.search.postgres_url)})"

    def _open_cache(self, embedder: Embedder) -> EmbeddingCache | None:
        from pixelmem.core.index.cache import EmbeddingCache

        try:
            cache = EmbeddingCache(
                self.cache_path, embedder.model_id, embedder.dim, self.chunker.as_dict()
            )
        except ProviderError as exc:  # a remote provider is probed for its dimension
            self._embedder_error = str(exc)
            return None
        first_run = not self.cache_path.exists()
        for warning in cache.load():
            # A missing cache on first run is expected; anything else deserves a warning.
            log.log(logging.INFO if first_run else logging.WARNING, "%s", warning)
        return cache

    # -- indexing --------------------------------------------------------------------------

    def open(
        self, *, progress: Progress | None = None, cancel: threading.Event | None = None
    ) -> IndexReport:
        """Scan the vault, load the cache and index whatever is new."""
        self.store.scan()
        return self.reindex(progress=progress, cancel=cancel)

    def reindex(
        self,
        *,
        progress: Progress | None = None,
        cancel: threading.Event | None = None,
        full: bool = False,
        published: Callable[[], None] | None = None,
    ) -> IndexReport:
        """Bring the index up to date with the store's memories (incremental unless ``full``).
        ``published()`` hears of an interim keyword-only snapshot published before a long
        embedding (searches find every memory from then on)."""
        # A run's start imports and opens the index's parts in one go: a window that builds
        # or is late goes first (bench_ui --why, 10k: the first index's start, in the stall
        # as the scanned vault reached the views).
        step_aside()
        with self._build_lock:
            self._apply_pending_resets()
            if full:
                self._check_can_embed()  # before the cache is dropped: never lose it for nothing
                self._reset_index_state(drop_cache=True)
            indexer = self._ensure_indexer()
            indexer.prune_database = full  # only an explicit rebuild deletes others' rows
            # Read only (the store's own, not copies: 10k copies set off ~100 ms collections).
            memories = list(self.store.view())
            self._adopt_saved(indexer, memories)
            index, report = indexer.build(
                memories,
                progress=progress,
                cancel=cancel,
                previous=self.index,
                publish=lambda index: self._publish(index, published),
            )
            if not report.semantic_error and self._embedder_error:
                report.semantic_error = self._embedder_error
            if self._wants_database() and self._store is None and self.backend_error:
                report.semantic_error = self.backend_error
                self._indexer = None  # try the server again next time
            self._prepare(index, indexer.embedder)  # on the worker, not a search
            self._snapshot, self._report = (index, indexer.embedder), report
            self._saved, self.index_ready = None, True
            if self._should_save(index, report, indexer):
                self.save_index(memories, indexer)
            return report

    # -- the saved index (saved_index) -----------------------------------------------------

    def load_saved_index(self, *, check_files: bool = False) -> bool:
        """Search the index a process saved for this vault until a reindex takes over; True
        when there was one for these settings. ``check_files``: compare the vault's files
        with those it was made from (vault_state): all the same, and it is :attr:`index_ready`
        at once. Does nothing once a snapshot is there."""
        # Its imports and reading run in one go, at the window's first show: the window's
        # building goes first (bench_ui --why, at +0.01 s: the scan, the views' imports and
        # this beside the window's first turns).
        step_aside()
        from pixelmem.core.index import saved_index, vault_state

        if self._snapshot is not None or self._wants_database():
            return False
        embedder = self.embedder
        if embedder is None:
            return False
        expected = self._expected(embedder)
        saved = saved_index.load_index(self.vault, expected)
        if saved is None:
            return False
        with self._build_lock:
            if self._snapshot is not None:
                return False
            self._prepare(saved.index, embedder)
            self._saved, self._on_disk, self._saved_ns = saved, saved.index, saved.saved_ns
            self._snapshot = (saved.index, embedder)
        if check_files and vault_state.unchanged(self.vault, saved.files):
            self.index_ready = True
        return True

    def memory_path(self, memory_id: str) -> Path:
        """Where a memory's file is: from the saved index while it is current and the vault
        not scanned (a search needs no scan), else from the store."""
        saved = self._saved
        if saved is not None and self.index_ready and not self.store.scanned:
            rel = saved.paths.get(memory_id)
            if rel:
                return self.vault / rel
        return self.store.path_for(memory_id)

    def _adopt_saved(self, indexer: Indexer, memories: list[Memory]) -> None:
        """Hand a loaded saved index to a new indexer, which then updates it by difference."""
        saved = self._saved
        if saved is not None and saved.index is self.index and indexer.last is None:
            indexer.adopt(saved.index, saved.seeds(), {m.id: m for m in memories})

    def _should_save(self, index: SearchIndex, report: IndexReport, indexer: Indexer) -> bool:
        if indexer.cache is None or not index.has_vectors or report.semantic_error:
            return False  # the postgres backend, a keyword-only or degraded index
        if report.rebuilt:
            return True
        age = time.time_ns() - self._saved_ns
        return index is not self._on_disk and age >= SAVE_EVERY_SECONDS * 1_000_000_000

    def save_index(self, memories: list[Memory], indexer: Indexer) -> bool:
        """Save the current snapshot for the next process (see saved_index)."""
        from pixelmem.core.index import saved_index, vault_state

        index, embedder = self._current()
        if embedder is None:
            return False
        files = vault_state.file_table(
            self.vault,
            memories,
            [s.path for s in self.store.skipped],
            self.store.last_scan_cache,
        )
        if files is None:
            files = vault_state.FileTable.empty()
        expected = self._expected(embedder)
        table = {m.id: m for m in memories}
        if saved_index.save_index(self.vault, index, table, indexer.seeds(), expected, files):
            self._on_disk, self._saved_ns = index, time.time_ns()
            return True
        return False

    def _expected(self, embedder: Embedder) -> Expected:
        """What a saved index must have been made with to be used (saved_index.Expected)."""
        from pixelmem.core.index import saved_index
        from pixelmem.core.vault.titles import vault_title_rule

        return saved_index.Expected(
            embedder.model_id, self.chunker.as_dict(), title_rule=vault_title_rule(self.vault)
        )

    def _check_can_embed(self) -> None:
        """Raise a :class:`ProviderError` unless the embedder answers now."""
        embedder = self.embedder
        kept = "the embedding cache was kept and nothing re-embedded"
        if embedder is None:
            raise ProviderUnavailable(f"{self._embedder_error or 'no embedding model'}; {kept}")
        try:
            embedder.embed_query("pixelmem")
        except ProviderError as exc:
            raise ProviderError(f"{exc}; {kept}") from None

    def _publish(self, index: SearchIndex, published: Callable[[], None] | None) -> None:
        """Swap in an interim (keyword-only) snapshot while a long embedding run goes on."""
        self._snapshot = (index, None)
        if published is not None:
            published()

    def reconfigure(self, settings: Settings) -> None:
        """Use new settings now; a new model, chunking or backend takes effect at the next
        :meth:`reindex` (a fresh index, never one of mixed models). Never waits for a build."""
        with self._settings_lock:
            old, self.settings = self.settings, settings
            search, was = settings.search, old.search
            if (was.backend, was.postgres_url) != (search.backend, search.postgres_url):
                self._pending_resets.add("backend")
            if old.embedding != settings.embedding:
                self._pending_resets.add("embedder")
            elif old.chunk != settings.chunk:
                self._pending_resets.add("index")
        self._clear_query_cache()

    @property
    def reconfigure_pending(self) -> bool:
        """Whether settings wait for the next reindex (another model, chunking or backend)."""
        with self._settings_lock:
            return bool(self._pending_resets)

    def _apply_pending_resets(self) -> None:
        with self._settings_lock:
            pending, self._pending_resets = self._pending_resets, set()
        if "backend" in pending:
            self._close_store()
        if "embedder" in pending:
            self._embedder, self._embedder_ready = None, False
            self._embedder_error = ""
        if pending:
            self._reset_index_state(drop_cache=False)

    def _close_store(self) -> None:
        if self._store is not None:
            self._store.close()
        self._store, self.backend_error = None, ""

    def _reset_index_state(self, *, drop_cache: bool) -> None:
        if drop_cache and self.cache_path.exists():
            self.cache_path.unlink()  # our own derived data; never a user file
        self._indexer = None
        self._clear_query_cache()

    # -- reads -----------------------------------------------------------------------------

    @property
    def index(self) -> SearchIndex:
        """The current snapshot: an empty one until the first (re)index."""
        return self._current()[0]

    def _current(self) -> tuple[SearchIndex, Embedder | None]:
        """The snapshot and the embedder of its vectors, as one consistent pair."""
        snapshot = self._snapshot
        if snapshot is None:  # kept apart: a saved index may still take its place
            if self._empty is None:
                from pixelmem.core.index.search import SearchIndex

                self._empty = (SearchIndex.build([], None, {}), None)
            return self._empty
        return snapshot

    @property
    def last_report(self) -> IndexReport:
        if self._report is None:
            from pixelmem.core.index.indexer import IndexReport

            self._report = IndexReport()
        return self._report

    @property
    def semantic_error(self) -> str:
        """Why semantic search is not available (""), including "the database was down for
        this thread's last search" — the CLI, REST and MCP all word their note from it."""
        fell_back = getattr(self._last_search, "fallback", "")
        return self.last_report.semantic_error or self._embedder_error or fell_back

    def search(
        self,
        query: str,
        *,
        mode: str | None = None,
        k: int | None = None,
        min_relevance: float | None = None,
        filters: SearchFilters | None = None,
        weaker: int = 0,
        explain: bool = False,
    ) -> list[SearchHit]:
        """Search the current snapshot; semantic parts fall back to keyword if the model fails.

        ``min_relevance`` defaults to the ``search.min_relevance`` setting. ``weaker``: also
        up to this many of the next hits below it, last and marked ``weaker`` (what the
        search view and ``pixelmem search --weaker`` show apart; chat, MCP and HTTP ask for
        none). ``explain``: each hit carries its evidence.
        """
        query = query.strip()
        self._last_search.fallback = ""
        if not query:
            return []
        mode = mode or self.settings.search.mode
        k = max(1, min(k or self.settings.search.top_k, MAX_K))
        if min_relevance is None:
            min_relevance = self.settings.search.min_relevance
        if mode == SearchMode.EXACT:  # the phrase's holders, ranked by their keywords
            filters = self._holding_phrase(query, filters)
            if filters is None:
                return []
            mode, min_relevance, weaker = SearchMode.KEYWORD, 0.0, 0
        index, embedder = self._current()
        vector = None
        if mode != "keyword" and index.has_vectors and embedder is not None:
            vector = self.query_vector(query, embedder)
        if vector is None and mode == "semantic":
            return []
        from pixelmem.core.index.token_coverage import reader_of

        reranker = self._current_reranker()
        depth = max(k, self.settings.rerank.candidates) if reranker is not None else k
        options = dict(
            k=depth,
            min_relevance=min_relevance,
            filters=filters,
            semantic_weight=self.semantic_weight(query, embedder),
            background=self.backgrounds(vector, embedder),
            calibration=self._calibration_of(embedder),
            weaker=weaker,
            explain=explain,
            hubs=self.hub_measure(embedder) if vector is not None else None,
            tokens=reader_of(embedder) if vector is not None else None,
            # The app explains every search typed (its panel's tooltips): a token run for a
            # decision the check does not read would add 20-50 ms to each keystroke's search
            # with e5 only to show a figure; `pixelmem search --explain` shows it always.
            explain_tokens=not self.explains,
        )
        from pixelmem.core.index.postgres_store import PostgresUnavailable

        try:
            hits = index.search(query, vector, mode=mode, **options)  # type: ignore[arg-type]
        except PostgresUnavailable as exc:  # the local keyword index answers meanwhile
            self.backend_error = self._last_search.fallback = str(exc)
            log.warning("%s", exc)
            hits = index.offline().search(query, None, mode="keyword", **options)  # type: ignore[arg-type]
        if reranker is None:
            return hits
        from pixelmem.core.providers.rerank import rerank_or_fallback

        strong = [h for h in hits if not h.weaker]
        reranked, self.rerank_warning = rerank_or_fallback(
            reranker, query, strong, self._hit_text, top_n=min(k, self.settings.rerank.top_n)
        )
        return reranked + [h for h in hits if h.weaker]

    def _holding_phrase(self, query: str, filters: SearchFilters | None) -> SearchFilters | None:
        """``filters`` narrowed to the memories holding ``query`` as typed (None: no memory
        does); see :mod:`pixelmem.core.index.exact`."""
        from pixelmem.core.index.exact import FoldedTexts, phrase_of
        from pixelmem.core.index.search_backend import SearchFilters

        if self._folded_texts is None:
            self._folded_texts = FoldedTexts()
        holders = self._folded_texts.holders(self.store.view(), phrase_of(query))
        if filters is not None and filters.memory_ids is not None:
            holders &= filters.memory_ids
        if not holders:
            return None
        return dataclasses.replace(filters or SearchFilters(), memory_ids=holders)

    def anchor_vectors(
        self, embedder: Embedder | None = None, *, questions: bool = False
    ) -> np.ndarray | None:
        """The embedded :data:`~pixelmem.core.index.relevance.ANCHOR_TEXTS` (once per model),
        as passages or (``questions``) as questions; ``embedder`` defaults to the configured
        one."""
        embedder = embedder or self.embedder
        if embedder is None:
            return None
        key = (embedder.model_id, questions)
        with self._query_lock:
            cached = self._anchors.get(key)
        if cached is not None:
            return cached
        with self._anchors_lock:  # made once: a search waits for prepare_first_search's
            with self._query_lock:
                cached = self._anchors.get(key)
            if cached is not None:
                return cached
            from pixelmem.core.index import saved_index
            from pixelmem.core.index.relevance import ANCHOR_TEXTS

            texts, model = list(ANCHOR_TEXTS), embedder.model_id
            cached = saved_index.load_anchors(self.vault, model, texts, questions)
            if cached is None:
                try:
                    cached = self._embed_anchors(embedder, texts, questions)
                except ProviderError as exc:
                    log.warning("relevance background unavailable: %s", exc)
                    return None
                saved_index.save_anchors(self.vault, model, texts, cached, questions)
            with self._query_lock:
                self._anchors[key] = cached
        return cached

    def _embed_anchors(self, embedder: Embedder, texts: list[str], questions: bool) -> np.ndarray:
        """The anchor texts embedded as passages or questions: in the embedding child process
        where the app embeds (``embed_apart``), else here."""
        if self.embed_apart:
            from pixelmem.core.providers.embeddings import apart  # multiprocessing: the app only

            if questions:
                return apart.embed_queries(embedder, texts)
            return apart.embed_documents(embedder, texts)
        if questions:
            from pixelmem.core.providers.embeddings.base import embed_queries

            return embed_queries(embedder, texts)
        return embedder.embed_documents(texts)

    def hub_measure(self, embedder: Embedder | None = None) -> HubMeasure | None:
        """The model's measure of texts close to every question (:mod:`~pixelmem.core.index.
        hubs`), from the anchor texts; None without them."""
        embedder = embedder or self.embedder
        if embedder is None:
            return None
        with self._query_lock:
            measure = self._hubs.get(embedder.model_id)
        if measure is None:
            import numpy as np

            from pixelmem.core.index.hubs import HubMeasure
            from pixelmem.core.index.relevance import ANCHOR_TEXTS
            from pixelmem.core.index.scripts import main_script

            passages = self.anchor_vectors(embedder)
            questions = self.anchor_vectors(embedder, questions=True)
            if passages is None or questions is None:
                return None
            scripts = np.array([main_script(text) for text in ANCHOR_TEXTS], np.int8)
            measure = HubMeasure.of(questions, passages, scripts)
            with self._query_lock:
                self._hubs[embedder.model_id] = measure
        return measure

    @property
    def calibration(self) -> Calibration:
        """How evidence becomes relevance for the model of the current snapshot."""
        return self._calibration_of(self._current()[1] or self._embedder)

    def _prepare(self, index: SearchIndex, embedder: Embedder | None) -> None:
        index.prepare(self._calibration_of(embedder), explained=self.explains)

    def prepare_first_search(self) -> None:
        """Do now, on the caller's worker, what the current snapshot's first search would do
        once: embed the relevance anchors (in the embedding child where the app embeds, and
        saved for the next process), make the hub measure and damp the snapshot's hub chunks,
        import what a search imports lazily (numpy's first ``median``/``isin`` imports
        ``numpy.ma``). The app runs it after every snapshot it is given: its first keystroke
        paid all this on the search worker while the window waited for the GIL (at 100k
        chunks 50-60 ms of CPU against ~11 for the next searches; with e5 305-336 ms, the 72
        anchor texts run through its Python tokeniser — bench_first_search). A search that
        comes meanwhile waits for the anchors instead of embedding them a second time."""
        index, embedder = self._current()
        if embedder is None or not index.has_vectors:
            return
        hubs = self.hub_measure(embedder)  # both sets of anchors first
        index.prepare(self._calibration_of(embedder), explained=self.explains, hubs=hubs)
        _import_what_a_search_imports()

    @staticmethod
    def _calibration_of(embedder: Embedder | None) -> Calibration:
        from pixelmem.core.index.relevance import calibration_for
        from pixelmem.core.providers.embeddings.base import is_multilingual

        if embedder is None:
            return calibration_for("")
        return calibration_for(embedder.model_id, is_multilingual(embedder))

    def background(self, vector: np.ndarray | None) -> float:
        """The query's cosine with unrelated text (0.0 without a vector or anchors)."""
        from pixelmem.core.index.relevance import background

        anchors = self.anchor_vectors() if vector is not None else None
        return background(anchors @ vector) if anchors is not None and vector is not None else 0.0

    def backgrounds(
        self, vector: np.ndarray | None, embedder: Embedder | None = None
    ) -> np.ndarray:
        """The query's cosines with unrelated text, per script of the memory compared: their
        median (row 0) and spread (row 1) (:func:`~pixelmem.core.index.relevance.backgrounds`;
        zeros without a vector). One value for all with a model that reads one language: its
        cosine across languages is noise, with no background to correct."""
        import numpy as np

        from pixelmem.core.index.relevance import backgrounds, unrelated
        from pixelmem.core.providers.embeddings.base import is_multilingual

        embedder = embedder or self._current()[1] or self._embedder
        anchors = self.anchor_vectors(embedder) if vector is not None else None
        if anchors is None or vector is None:
            return np.zeros(3)
        if embedder is None or not is_multilingual(embedder):
            return np.array(unrelated(anchors @ vector))[:, None].repeat(3, axis=1)
        return backgrounds(anchors @ vector)

    def _current_reranker(self) -> Reranker | None:
        """The reranker for the current settings (None when no URL is set)."""
        wanted = self.settings.rerank
        if self._reranker_settings != wanted:
            self._reranker = None
            if wanted.url:  # its module imports httpx (~60 ms of a command's start)
                from pixelmem.core.providers.rerank import reranker_from_settings

                self._reranker = reranker_from_settings(wanted)
            self._reranker_settings = copy.copy(wanted)
        return self._reranker

    def _hit_text(self, hit: SearchHit) -> str:
        return self.chunk_texts([hit])[0]

    def semantic_weight(self, query: str, embedder: Embedder | None = None) -> float:
        """How much hybrid search trusts the model for this query.

        An English-only model cannot read Chinese: for a Chinese query it is the keyword side
        that finds things. Its vector of a mostly-CJK query is noise that would pull good
        keyword hits down (xquad_zh hybrid nDCG@10: 0.57 unweighted, 0.946 with weight
        1 − share, 0.965 with this rule, keyword alone 0.965), so the weight reaches 0 once half
        the query is CJK.
        """
        from pixelmem.core.index.scripts import cjk_share
        from pixelmem.core.providers.embeddings.base import is_multilingual

        embedder = embedder or self._current()[1] or self._embedder
        if embedder is None or is_multilingual(embedder):
            return 1.0
        return max(0.0, 1.0 - 2.0 * cjk_share(query))

    def query_vector(self, query: str, embedder: Embedder | None = None) -> np.ndarray | None:
        """The query's embedding (by ``embedder``, default the configured one) from a small LRU
        cache; None if the embedder is unavailable."""
        embedder = embedder or self.embedder
        if embedder is None:
            return None
        key = (embedder.model_id, query)
        with self._query_lock:
            cached = self._query_cache.get(key)
            if cached is not None:
                self._query_cache.move_to_end(key)
                return cached
        try:
            vector = embedder.embed_query(query)
        except ProviderError as exc:
            self._embedder_error = str(exc)
            log.warning("semantic search unavailable: %s", exc)
            return None
        with self._query_lock:
            self._query_cache[key] = vector
            while len(self._query_cache) > QUERY_CACHE_SIZE:
                self._query_cache.popitem(last=False)
        return vector

    def _clear_query_cache(self) -> None:
        with self._query_lock:
            self._query_cache.clear()

    def related(
        self,
        memory_id: str,
        k: int = 5,
        *,
        min_relevance: float | None = None,
        weaker: int = 0,
    ) -> list[SearchHit]:
        """The memories nearest to this one, above the relevance floor, copies left out; with
        ``weaker``, up to that many more below it, marked ``weaker`` (the Related panel)."""
        if min_relevance is None:
            min_relevance = self.settings.search.min_relevance
        index, embedder = self._current()
        if not index.has_vectors or embedder is None or memory_id not in index:
            return []
        text = " ".join(c.text for c in index.chunks_of(memory_id))[:4000]
        if self.semantic_weight(text, embedder) < 0.5:
            return []  # the model cannot read this memory's language: no honest neighbours
        from pixelmem.core.index.relevance import same_language_anchors

        anchors = self.anchor_vectors(embedder)
        if anchors is not None:
            anchors = anchors[same_language_anchors(text)]
        from pixelmem.core.index.postgres_store import PostgresUnavailable

        try:
            return index.related(
                memory_id,
                k=k,
                min_relevance=min_relevance,
                anchors=anchors,
                calibration=self._calibration_of(embedder),
                weaker=weaker,
            )
        except PostgresUnavailable as exc:
            self.backend_error = str(exc)
            log.warning("%s", exc)
            return []

    def chunk_texts(self, hits: Iterable[SearchHit]) -> list[str]:
        """The embedded text of each hit's best chunk (for a reranker)."""
        from pixelmem.core.index.chunking import embedding_text

        texts = []
        for hit in hits:
            memory = self.store.get(hit.memory_id)
            texts.append(embedding_text(memory.title, memory.body[hit.start : hit.end]))
        return texts

    def survey(self) -> EngineStatus:
        """What :meth:`status` says, without embedding or building anything: the saved index
        when every file is as it was, else the scanned vault's chunks hashed against the
        vectors stored for them (the cache, or the database): indexed, or waiting."""
        from pixelmem.core.index.indexer import memory_chunks

        if self.load_saved_index(check_files=True) and self.index_ready:
            saved = self._saved
            assert saved is not None
            hashes = saved.chunk_hashes()
            skipped = tuple(SkippedFile(self.vault / rel, "") for rel in saved.skipped_files())
            count, live = len(saved.index), saved.index.chunk_count
        else:
            self.store.scan()
            memories = self.store.list()
            seeds = self._saved.seeds() if self._saved is not None else {}
            hashes = []
            for memory in memories:
                seed = seeds.get(memory.id)
                if seed is not None and memory.disk_hash and seed.disk_hash == memory.disk_hash:
                    hashes.extend(seed.hashes)
                else:
                    hashes.extend(memory_chunks(memory, self.chunker)[1])
            skipped, count, live = tuple(self.store.skipped), len(memories), len(hashes)
        stored = self._stored_hashes()
        indexed = sum(1 for h in hashes if h in stored)
        embedder = self.embedder
        return EngineStatus(
            vault=self.vault,
            model_id=embedder.model_id if embedder is not None else "",
            memories=count,
            chunks=live,
            indexed_chunks=indexed,
            stale_cache_entries=len(stored - set(hashes)) if not self._wants_database() else 0,
            skipped=skipped,
            semantic_error=self.semantic_error,
            model_reason=self.model_choice.reason if self.model_choice else "",
            model_suggestion=self.model_suggestion(),
            backend=self.backend,
            backend_error=self.backend_error,
            waiting_chunks=live - indexed,
        )

    def _stored_hashes(self) -> set[bytes]:
        """The content hashes vectors are stored for, with the configured model."""
        from pixelmem.core.index.cache import EmbeddingCache

        embedder = self.embedder
        if embedder is None:
            return set()
        if not self._wants_database():
            chunker = self.chunker.as_dict()
            return EmbeddingCache.stored_hashes(self.cache_path, embedder.model_id, chunker)
        from pixelmem.core.index.postgres_store import PostgresUnavailable

        store = self._store or self._open_store(embedder)
        try:
            return {h for h, _meta in store.row_states().values()} if store else set()
        except PostgresUnavailable as exc:
            self.backend_error = str(exc)
            return set()

    def status(self) -> EngineStatus:
        embedder = self._embedder
        cache = self._indexer.cache if self._indexer else None
        index = self.index
        live = index.chunk_count
        stale = max(0, len(cache) - live) if cache is not None else 0
        return EngineStatus(
            vault=self.vault,
            model_id=embedder.model_id if embedder is not None else "",
            memories=len(self.store.list()),
            chunks=live,
            indexed_chunks=live if index.has_vectors else 0,
            stale_cache_entries=stale,
            skipped=tuple(self.store.skipped),
            semantic_error=self.semantic_error,
            model_reason=self.model_choice.reason if self.model_choice else "",
            model_suggestion=self.model_suggestion(),
            backend=self.backend,
            backend_error=self.backend_error,
        )


# Re-exported for callers of the engine, loaded on first use (PEP 562) like the rest of the
# search stack.
_LAZY_NAMES = {
    "IndexReport": "pixelmem.core.index.indexer",
    "SearchFilters": "pixelmem.core.index.search",
    "SearchHit": "pixelmem.core.index.search",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY_NAMES:
        import importlib

        return getattr(importlib.import_module(_LAZY_NAMES[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["Engine", "EngineStatus", "IndexReport", "SearchFilters", "SearchHit"]


def _import_what_a_search_imports() -> None:
    """The modules a first search imports lazily (numpy's first ``median``/``isin`` imports
    ``numpy.ma``: 60 ms of Python, bench_ui --why), imported on the indexing worker instead
    of a search's."""
    import numpy.ma  # noqa: F401

    import pixelmem.core.index.postgres_store  # noqa: F401 - engine.search's except clause
