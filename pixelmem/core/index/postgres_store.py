"""The PostgreSQL + pgvector store of the ``postgres`` search backend: schema, sync, queries.

One database holds one vault's index and is shared by every client of that vault. The
Markdown files stay the source of truth: each client writes what it sees in the vault, and
reads only rows whose memory it knows.

Schema (``pm_schema`` holds its version; :data:`MIGRATIONS` bring any older one up to date,
under an advisory lock so two clients never migrate at once):

* ``pm_models``: one row per embedding model: its id, dimension and chunk table.
* ``pm_chunks_<n>``: one table per model (a ``vector(dim)`` column has one dimension, and
  vectors of two models must never mix): per chunk its memory id and index, the hash of its
  embedded text (title + chunk), its keyword tokens (our tokenizer's output, stopwords left
  out, so CJK works; GIN index), their count, the memory's topics, importance and date (for
  filters in SQL) and its vector (HNSW index, cosine).

A client that needs a vector first looks for the same content hash in the table: whatever any
client already embedded with that model is copied, never embedded again.

A client deletes the rows of memories it deletes itself. Rows of memories it does not know are
left alone (another client may have written a note this copy of the vault has not received
yet) and never shown; a full rebuild (``pixelmem index --full``, Edit → Rebuild Index) prunes
them.

Keyword scoring is BM25 in SQL over the chunks that hold a query term (found through the GIN
index); the idf of each term is computed in Python from its document frequency, so the SQL
sums ``idf · tf·(k1+1) / (tf + k1·(1 − b + b·len/avgdl))`` per chunk, exactly the local
formula.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import re
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import time
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import numpy as np

from pixelmem.core.errors import PixelmemError
from pixelmem.core.index.catalog import as_utc
from pixelmem.core.index.keyword_index import DEFAULT_B, DEFAULT_K1
from pixelmem.core.index.search_backend import SearchFilters
from pixelmem.core.index.text_tokens import STOPWORDS

if TYPE_CHECKING:
    import psycopg

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
CONNECT_TIMEOUT = 3  # seconds: a server that is down must not stall a search for long
EF_SEARCH_MIN = 64  # HNSW candidate list per query (at least k); more: better recall, slower
# The HNSW graph: pgvector's defaults (m 16, ef_construction 64) level off at recall@10 0.95
# for 1M chunks however large ef_search is; with these, 0.995 at ef 100 and 1.000 at the depth
# a 10-result search asks for, p99 12-16 ms (benchmarks/bench_backends.py). The build takes
# about twice as long (1M: 18 min instead of 6-9 on 2 cores).
HNSW_M = 32
HNSW_EF_CONSTRUCTION = 128
_LOCK_KEY = 0x70786D656D  # pg_advisory_xact_lock key while migrating ("pxmem")
_SYNC_LOCK = 0x70786D73  # with a model table's key: one client writes / embeds at a time
_COPY_TYPES = ["text", "int4", "bytea", "text[]", "int4", "text[]", "text", "float8", "vector"]

MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        "CREATE EXTENSION IF NOT EXISTS vector",
        """CREATE TABLE IF NOT EXISTS pm_models (
            model_id text PRIMARY KEY,
            dim integer NOT NULL,
            chunk_table text NOT NULL UNIQUE)""",
    ),
}


class PostgresUnavailable(PixelmemError):
    """The database cannot be used right now (down, unreachable, refused, not set up)."""


def describe_url(url: str) -> str:
    """``host:port/database`` of a libpq URL, for messages (never the user or password)."""
    parts = urlsplit(url)
    host = parts.hostname or "local socket"
    port = f":{parts.port}" if parts.port else ""
    return f"{host}{port}{parts.path or '/'}"


def _psycopg() -> Any:
    try:
        import psycopg
        from pgvector.psycopg import register_vector
    except ImportError as exc:
        raise PostgresUnavailable(
            "the postgres search backend needs psycopg and pgvector: "
            "pip install 'pixelmem[postgres]'"
        ) from exc
    return psycopg, register_vector


def _unavailable(url: str, exc: Exception) -> PostgresUnavailable:
    reason = " ".join(str(exc).split()) or type(exc).__name__
    password = urlsplit(url).password
    if password:
        reason = reason.replace(password, "***")
    return PostgresUnavailable(f"PostgreSQL at {describe_url(url)} is unavailable: {reason}")


@dataclass(frozen=True)
class ChunkRow:
    """One chunk as the database keeps it."""

    memory_id: str
    chunk_index: int
    content_hash: bytes
    tokens: list[str]  # keyword tokens without stopwords
    topics: list[str]  # casefolded
    importance: str
    stamp: float | None  # the memory's date (updated, else created) as a Unix time
    vector: np.ndarray | None


@dataclass(frozen=True)
class ServerReport:
    """What ``pixelmem doctor`` shows about the database."""

    server_version: str
    extension_version: str
    schema_version: int
    chunks: int
    without_vector: int
    indexes_valid: bool


class PostgresStore:
    """A connection to the database and this model's chunk table. Thread-safe (one lock)."""

    def __init__(self, url: str, model_id: str, dim: int) -> None:
        """Connect, migrate the schema and make sure this model has its table.

        ``model_id`` "" with ``dim`` 0: a keyword-only index (no embedding model).
        Raises :class:`PostgresUnavailable` with one readable line when that fails.
        """
        self.url, self.model_id, self.dim = url, model_id, dim
        self._lock = threading.RLock()
        self._conn: psycopg.Connection[Any] | None = None
        # Syncs write on a connection of their own: a search never waits behind an embedding
        # batch that holds its transaction open.
        self._sync_lock = threading.Lock()
        self._sync_conn: psycopg.Connection[Any] | None = None
        # One transaction: migrate()'s advisory lock lasts until this model's table exists
        # (with autocommit it ended with its own statement, and two clients starting on a
        # new database at once raced to create the same tables).
        with self._cursor(transaction=True) as cur:
            migrate(cur)
            self.table = _ensure_model_table(cur, model_id, dim)
        self._stats: tuple[int, float] | None = None

    # -- connection ------------------------------------------------------------------------

    def _connect(self) -> psycopg.Connection[Any]:
        psycopg, register_vector = _psycopg()
        try:
            conn = psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT)
        except psycopg.Error as exc:
            raise _unavailable(self.url, exc) from exc
        try:
            with conn.transaction():  # under the migration lock: two first clients at once
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
                conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            register_vector(conn)
        except psycopg.Error as exc:
            conn.close()  # not left open until garbage collection
            raise _unavailable(self.url, exc) from exc
        return conn

    @contextmanager
    def _cursor(self, *, transaction: bool = False) -> Iterator[Any]:
        psycopg, _ = _psycopg()
        with self._lock:
            if self._conn is None or self._conn.closed:
                self._conn = self._connect()
            try:
                if transaction:
                    with self._conn.transaction(), self._conn.cursor() as cur:
                        yield cur
                else:
                    with self._conn.cursor() as cur:
                        yield cur
            except psycopg.OperationalError as exc:
                self.close()  # reconnect next time (the server may be back)
                raise _unavailable(self.url, exc) from exc
            except psycopg.Error as exc:
                raise _unavailable(self.url, exc) from exc

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                try:
                    self._conn.close()
                finally:
                    self._conn = None
        self._close_sync()

    # -- sync ------------------------------------------------------------------------------

    def row_states(self) -> dict[tuple[str, int], tuple[bytes, tuple[Any, ...]]]:
        """(memory id, chunk index) → (content hash, (topics, importance, stamp)) of every row."""
        with self._cursor() as cur:
            cur.execute(
                f"SELECT memory_id, chunk_index, content_hash, topics, importance, stamp "
                f"FROM {self.table}"
            )
            return {
                (mid, idx): (bytes(h), (tuple(topics), importance, stamp))
                for mid, idx, h, topics, importance, stamp in cur
            }

    def vectors_by_hash(self, hashes: Iterable[bytes]) -> dict[bytes, np.ndarray]:
        """Vectors any client already stored for these content hashes (this model)."""
        with self._cursor() as cur:
            return _vectors_by_hash(cur, self.table, self.dim, hashes)

    @contextmanager
    def sync_batch(self) -> Iterator[SyncBatch]:
        """One batch of a sync, on a connection of its own (searches go on meanwhile) and
        under this model's advisory lock: what another client committed is visible, and no
        other client embeds the same chunks at the same time. Committed when the block ends
        (so a sync cut short keeps every batch done before); rolled back on an error."""
        psycopg, _ = _psycopg()
        with self._sync_lock:
            if self._sync_conn is None or self._sync_conn.closed:
                self._sync_conn = self._connect()
            conn = self._sync_conn
            try:
                with conn.transaction(), conn.cursor() as cur:
                    cur.execute(
                        "SELECT pg_advisory_xact_lock(%s, %s)", (_SYNC_LOCK, self._sync_key)
                    )
                    yield SyncBatch(self, cur)
            except psycopg.Error as exc:
                if isinstance(exc, psycopg.OperationalError):
                    self._close_sync()
                raise _unavailable(self.url, exc) from exc
        self._stats = None

    def _close_sync(self) -> None:
        if self._sync_conn is not None:
            with contextlib.suppress(Exception):
                self._sync_conn.close()
            self._sync_conn = None

    def vectors_of(self, keys: Sequence[tuple[str, int]]) -> dict[tuple[str, int], np.ndarray]:
        """The stored vectors of these chunks."""
        found: dict[tuple[str, int], np.ndarray] = {}
        with self._cursor() as cur:
            cur.execute(
                f"SELECT memory_id, chunk_index, embedding FROM {self.table} "
                "WHERE memory_id = ANY(%s) AND embedding IS NOT NULL",
                (sorted({m for m, _ in keys}),),
            )
            for mid, idx, vector in cur:
                found[(mid, idx)] = _array(vector)
        return found

    def inner_products(self, direction: np.ndarray) -> list[tuple[str, int, float]]:
        """(memory id, chunk index, inner product with ``direction``) of every chunk with a
        vector: one pass computed by the server (hubs.py measures each chunk by it)."""
        with self._cursor() as cur:
            cur.execute(
                f"SELECT memory_id, chunk_index, -(embedding <#> %s) FROM {self.table} "
                "WHERE embedding IS NOT NULL",
                (np.asarray(direction, np.float32),),
            )
            return [(m, i, float(v)) for m, i, v in cur]

    def write(self, rows: Sequence[ChunkRow], delete_memories: Iterable[str] = ()) -> None:
        """Replace the chunks of the memories in ``rows`` and delete ``delete_memories``' (one
        transaction: other clients never see a memory half written)."""
        with self._cursor(transaction=True) as cur:
            cur.execute("SELECT pg_advisory_xact_lock(%s, %s)", (_SYNC_LOCK, self._sync_key))
            _write_rows(cur, self.table, rows, delete_memories)
        self._stats = None

    @property
    def _sync_key(self) -> int:
        """This model table's advisory-lock key (a signed 32-bit number)."""
        return int.from_bytes(
            hashlib.blake2b(self.table.encode(), digest_size=4).digest(), "big", signed=True
        )

    # -- queries ---------------------------------------------------------------------------

    def nearest(
        self,
        query: np.ndarray,
        k: int,
        filters: SearchFilters | None,
        memory_ids: Sequence[str] | None,
    ) -> list[tuple[str, int, float]]:
        """(memory id, chunk index, cosine) of the ``k`` chunks nearest to ``query``: through
        the HNSW index, or exactly when ``memory_ids`` names the few memories to look at."""
        where, params = _where(filters, memory_ids)
        q = np.asarray(query, np.float32)
        with self._cursor(transaction=True) as cur:
            if memory_ids is not None:
                cur.execute(
                    f"SELECT memory_id, chunk_index, 1 - (embedding <=> %s) "
                    f"FROM {self.table} WHERE embedding IS NOT NULL{where}",
                    (q, *params),
                )
                rows = sorted(cur.fetchall(), key=lambda r: -r[2])
                return [(m, i, float(c)) for m, i, c in rows[:k]]
            cur.execute(f"SET LOCAL hnsw.ef_search = {max(EF_SEARCH_MIN, min(k, 1000))}")
            if where:  # keep scanning the graph until k rows pass the filter
                cur.execute("SET LOCAL hnsw.iterative_scan = strict_order")
            cur.execute(
                f"SELECT memory_id, chunk_index, 1 - (embedding <=> %s) "
                f"FROM {self.table} WHERE embedding IS NOT NULL{where} "
                f"ORDER BY embedding <=> %s LIMIT %s",
                (q, *params, q, k),
            )
            return [(m, i, float(c)) for m, i, c in cur]

    def keyword(
        self,
        strong: Sequence[str],
        weak: Sequence[str],
        k: int,
        filters: SearchFilters | None,
        memory_ids: Sequence[str] | None,
    ) -> list[tuple[str, int, float]]:
        """(memory id, chunk index, BM25) of the ``k`` best chunks holding a strong term (with
        none, a weak one); weak terms add to the score of a strong match."""
        terms = sorted(set(strong) | set(weak))
        needed = sorted(set(strong) or set(weak))
        if not needed:
            return []
        idf = self.idfs(terms)
        n_avg = self._corpus()
        where, params = _where(filters, memory_ids)
        k1, b = DEFAULT_K1, DEFAULT_B
        with self._cursor() as cur:
            cur.execute(
                f"""SELECT memory_id, chunk_index, score FROM (
                    SELECT c.memory_id, c.chunk_index, (
                        SELECT sum(q.idf * t.tf * {k1 + 1.0}
                                   / (t.tf + {k1} * (1 - {b} + {b} * c.length / %s)))
                        FROM unnest(%s::text[], %s::float8[]) AS q(term, idf)
                        CROSS JOIN LATERAL (SELECT coalesce(
                            cardinality(array_positions(c.tokens, q.term)), 0) AS tf) AS t
                        WHERE t.tf > 0) AS score
                    FROM {self.table} c WHERE c.tokens && %s::text[]{where}) AS s
                ORDER BY score DESC, memory_id, chunk_index LIMIT %s""",
                (n_avg[1], terms, [idf[t] for t in terms], needed, *params, k),
            )
            return [(m, i, float(s)) for m, i, s in cur]

    def idfs(self, terms: Iterable[str]) -> dict[str, float]:
        """Lucene's idf, ``log(1 + (N − df + 0.5) / (df + 0.5))``, of each term."""
        n = self._corpus()[0]
        wanted = sorted(set(terms))
        df = dict.fromkeys(wanted, 0)
        with self._cursor() as cur:
            for term in wanted:
                cur.execute(f"SELECT count(*) FROM {self.table} WHERE tokens @> %s", ([term],))
                row = cur.fetchone()
                df[term] = int(row[0]) if row else 0
        return {t: float(np.log1p((n - df[t] + 0.5) / (df[t] + 0.5))) for t in wanted}

    def idf_sum(self, terms: Iterable[str]) -> float:
        return float(sum(self.idfs(terms).values()))

    def _corpus(self) -> tuple[int, float]:
        """(number of chunks, average keyword length), cached until this client writes."""
        stats = self._stats
        if stats is None:
            with self._cursor() as cur:
                cur.execute(f"SELECT count(*), avg(length) FROM {self.table}")
                row = cur.fetchone()
            n = int(row[0]) if row else 0
            avg = float(row[1]) if row and row[1] else 1.0
            stats = self._stats = (n, avg if avg > 0 else 1.0)
        return stats

    # -- health ----------------------------------------------------------------------------

    def report(self) -> ServerReport:
        with self._cursor() as cur:
            cur.execute("SHOW server_version")
            version = str(_one(cur))
            cur.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
            extension = str(_one(cur) or "")
            cur.execute("SELECT max(version) FROM pm_schema")
            schema = int(_one(cur) or 0)
            cur.execute(f"SELECT count(*), count(*) - count(embedding) FROM {self.table}")
            row = cur.fetchone()
            cur.execute(
                "SELECT bool_and(i.indisvalid AND i.indisready) FROM pg_index i "
                "JOIN pg_class t ON t.oid = i.indrelid WHERE t.relname = %s",
                (self.table,),
            )
            valid = bool(_one(cur))
        chunks, missing = (int(row[0]), int(row[1])) if row else (0, 0)
        return ServerReport(version, extension, schema, chunks, missing, valid)


@dataclass(frozen=True)
class Check:
    """One line of ``pixelmem doctor``: what was checked, what was found, whether it is fine."""

    name: str
    found: str
    ok: bool


class SyncBatch:
    """What one :meth:`PostgresStore.sync_batch` can do inside its transaction."""

    def __init__(self, store: PostgresStore, cursor: Any) -> None:
        self._store, self._cursor = store, cursor

    def vectors_by_hash(self, hashes: Iterable[bytes]) -> dict[bytes, np.ndarray]:
        """Vectors committed for these hashes, by any client, up to this moment."""
        return _vectors_by_hash(self._cursor, self._store.table, self._store.dim, hashes)

    def write(self, rows: Sequence[ChunkRow], delete_memories: Iterable[str] = ()) -> None:
        _write_rows(self._cursor, self._store.table, rows, delete_memories)


def _vectors_by_hash(
    cur: Any, table: str, dim: int, hashes: Iterable[bytes]
) -> dict[bytes, np.ndarray]:
    wanted = list(set(hashes))
    if not wanted or not dim:
        return {}
    found: dict[bytes, np.ndarray] = {}
    for start in range(0, len(wanted), 5000):
        cur.execute(
            f"SELECT DISTINCT ON (content_hash) content_hash, embedding FROM {table} "
            "WHERE content_hash = ANY(%s) AND embedding IS NOT NULL",
            (wanted[start : start + 5000],),
        )
        for h, vector in cur:
            found[bytes(h)] = _array(vector)
    return found


def _write_rows(
    cur: Any, table: str, rows: Sequence[ChunkRow], delete_memories: Iterable[str]
) -> None:
    """Replace the rows of the memories in ``rows``, delete ``delete_memories``' (the caller
    holds the table's sync lock: two clients writing one memory at once would otherwise both
    delete nothing, then both insert — a duplicate key)."""
    touched = sorted({r.memory_id for r in rows} | set(delete_memories))
    if touched:
        cur.execute(f"DELETE FROM {table} WHERE memory_id = ANY(%s)", (touched,))
    columns = (
        "memory_id, chunk_index, content_hash, tokens, length, topics, importance, stamp, embedding"
    )
    with cur.copy(f"COPY {table} ({columns}) FROM STDIN (FORMAT BINARY)") as copy:
        copy.set_types(_COPY_TYPES)
        for r in rows:
            vector = None if r.vector is None else np.asarray(r.vector, np.float32)
            copy.write_row((
                r.memory_id, r.chunk_index, r.content_hash, r.tokens, len(r.tokens),
                r.topics, r.importance, r.stamp, vector,
            ))  # fmt: skip


def health(url: str) -> list[Check]:
    """Server version, pgvector, schema version and each model table's index health."""
    psycopg, _ = _psycopg()
    try:
        conn = psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT)
    except psycopg.Error as exc:
        return [Check("server", str(_unavailable(url, exc)), False)]
    checks = []
    with conn, conn.cursor() as cur:
        cur.execute("SHOW server_version_num")
        number = int(_one(cur))
        cur.execute("SHOW server_version")
        checks.append(Check("server", f"PostgreSQL {_one(cur)}", number >= 130000))
        cur.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
        version = _one(cur)
        cur.execute("SELECT default_version FROM pg_available_extensions WHERE name = 'vector'")
        available = _one(cur)
        if version:
            checks.append(Check("pgvector", f"extension vector {version}", True))
        elif available:
            found = f"vector {available} is installed but not created yet (the first client does)"
            checks.append(Check("pgvector", found, True))
        else:
            checks.append(Check("pgvector", "the vector extension is not installed", False))
        cur.execute("SELECT to_regclass('pm_schema') IS NOT NULL")
        schema = 0
        if _one(cur):
            cur.execute("SELECT max(version) FROM pm_schema")
            schema = int(_one(cur) or 0)
        fine = schema <= SCHEMA_VERSION
        shown = f"{schema} (this pixelmem: {SCHEMA_VERSION})" if schema else "not created yet"
        checks.append(Check("schema", shown, fine))
        if schema:
            try:
                cur.execute("SELECT model_id, dim, chunk_table FROM pm_models ORDER BY model_id")
                tables = cur.fetchall()
            except psycopg.Error as exc:
                return [
                    *checks,
                    Check("schema", f"pm_models cannot be read: {_reason(exc)}", False),
                ]
            for model, dim, table in tables:
                name = model or "(keyword only)"
                try:
                    checks.append(_table_health(cur, name, int(dim), table))
                except psycopg.Error as exc:
                    checks.append(_damaged(name, table, exc))
    return checks


def _damaged(model: str, table: str, exc: Exception) -> Check:
    """A model table pixelmem did not leave this way (a column dropped, a type changed)."""
    return Check(
        f"index {model}",
        f"the table {table} is damaged ({_reason(exc)}); drop it (DROP TABLE {table}; "
        f"DELETE FROM pm_models WHERE chunk_table = '{table}') and `pixelmem index` rebuilds it",
        False,
    )


def _reason(exc: Exception) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


_COLUMNS = frozenset(
    [
        "memory_id",
        "chunk_index",
        "content_hash",
        "tokens",
        "length",
        "topics",
        "importance",
        "stamp",
        "embedding",
    ]
)


def _table_health(cur: Any, model: str, dim: int, table: str) -> Check:
    cur.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_name = %s", (table,)
    )
    missing_columns = sorted(_COLUMNS - {row[0] for row in cur.fetchall()})
    if missing_columns:
        return _damaged(model, table, Exception(f"no column {', '.join(missing_columns)}"))
    cur.execute(f"SELECT count(*), count(*) - count(embedding) FROM {table}")
    row = cur.fetchone()
    chunks, missing = (int(row[0]), int(row[1])) if row else (0, 0)
    cur.execute(
        "SELECT count(*), count(*) FILTER (WHERE i.indisvalid AND i.indisready) FROM pg_index i "
        "JOIN pg_class t ON t.oid = i.indrelid WHERE t.relname = %s",
        (table,),
    )
    counts = cur.fetchone()
    expected = 4 if dim else 3  # primary key, tokens (GIN), content hash, HNSW
    valid = bool(counts) and int(counts[0]) == int(counts[1]) == expected
    parts = [f"{chunks:,} chunks"]
    if dim:
        parts.append(f"{missing:,} without a vector" if missing else "all with vectors")
    parts.append("indexes valid" if valid else "an index is missing or invalid (REINDEX it)")
    return Check(f"index {model}", ", ".join(parts), valid and not (dim and missing))


def migrate(cur: Any) -> int:
    """Bring the schema to :data:`SCHEMA_VERSION`; returns the version found before. Run it
    in a transaction: the advisory lock it takes lasts as long as that."""
    cur.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
    cur.execute("CREATE TABLE IF NOT EXISTS pm_schema (version integer NOT NULL)")
    cur.execute("SELECT max(version) FROM pm_schema")
    found = int(_one(cur) or 0)
    if found > SCHEMA_VERSION:
        raise PostgresUnavailable(
            f"the database has index schema {found}; this pixelmem knows up to "
            f"{SCHEMA_VERSION}: update pixelmem"
        )
    for version in range(found + 1, SCHEMA_VERSION + 1):
        for statement in MIGRATIONS[version]:
            cur.execute(statement)
        cur.execute("INSERT INTO pm_schema (version) VALUES (%s)", (version,))
    return found


def _ensure_model_table(cur: Any, model_id: str, dim: int) -> str:
    """This model's chunk table (created on first use)."""
    cur.execute("SELECT chunk_table, dim FROM pm_models WHERE model_id = %s", (model_id,))
    row = cur.fetchone()
    if row is not None:
        if int(row[1]) != dim:
            raise PostgresUnavailable(
                f"the database has model {model_id!r} with dimension {row[1]}, not {dim}"
            )
        _ensure_indexes(cur, str(row[0]), dim)  # one dropped to be rebuilt comes back
        return str(row[0])
    digest = hashlib.blake2b(model_id.encode(), digest_size=6).hexdigest()
    slug = re.sub(r"[^a-z0-9]+", "_", model_id.casefold())[:30].strip("_")
    table = f"pm_chunks_{slug}_{digest}" if slug else f"pm_chunks_{digest}"
    vector = f"vector({dim})" if dim else "vector"
    cur.execute(
        f"""CREATE TABLE IF NOT EXISTS {table} (
            memory_id text NOT NULL,
            chunk_index integer NOT NULL,
            content_hash bytea NOT NULL,
            tokens text[] NOT NULL,
            length integer NOT NULL,
            topics text[] NOT NULL,
            importance text NOT NULL,
            stamp double precision,
            embedding {vector},
            PRIMARY KEY (memory_id, chunk_index))"""
    )
    _ensure_indexes(cur, table, dim)
    cur.execute(
        "INSERT INTO pm_models (model_id, dim, chunk_table) VALUES (%s, %s, %s) "
        "ON CONFLICT (model_id) DO NOTHING",
        (model_id, dim, table),
    )
    return table


def _ensure_indexes(cur: Any, table: str, dim: int) -> None:
    """The chunk table's indexes: tokens (GIN), content hash, vectors (HNSW, cosine)."""
    cur.execute(f"CREATE INDEX IF NOT EXISTS {table}_tokens ON {table} USING gin (tokens)")
    cur.execute(f"CREATE INDEX IF NOT EXISTS {table}_hash ON {table} (content_hash)")
    if dim:
        cur.execute(
            f"CREATE INDEX IF NOT EXISTS {table}_hnsw ON {table} "
            "USING hnsw (embedding vector_cosine_ops) "
            f"WITH (m = {HNSW_M}, ef_construction = {HNSW_EF_CONSTRUCTION})"
        )


def _where(filters: SearchFilters | None, memory_ids: Sequence[str] | None) -> tuple[str, list]:
    """SQL conditions (each after `` AND ``) and their parameters."""
    parts: list[str] = []
    params: list[Any] = []
    if memory_ids is not None:
        parts.append("memory_id = ANY(%s)")
        params.append(list(memory_ids))
    if filters is not None:
        if filters.topic is not None:
            parts.append("topics @> %s")
            params.append([filters.topic.casefold()])
        if filters.importance is not None:
            parts.append("importance = %s")
            params.append(filters.importance)
        if filters.date_from is not None:
            parts.append("stamp >= %s")
            params.append(as_utc(filters.date_from, time.min).timestamp())
        if filters.date_to is not None:
            parts.append("stamp <= %s")
            params.append(as_utc(filters.date_to, time.max).timestamp())
    return "".join(f" AND {p}" for p in parts), params


def keyword_tokens_for_db(tokens: Sequence[str]) -> list[str]:
    """Tokens as the table keeps them: stopwords do not count (as in the local index)."""
    return [t for t in tokens if t not in STOPWORDS]


def _array(vector: Any) -> np.ndarray:
    """A stored vector as float32 (pgvector returns its own ``Vector`` type)."""
    values = vector.to_numpy() if hasattr(vector, "to_numpy") else vector
    return np.asarray(values, np.float32)


def _one(cur: Any) -> Any:
    row = cur.fetchone()
    return row[0] if row else None
