"""GUI test fixtures: a small vault, an engine with a fast fake embedder, a main window.

Every test must leave no worker running (napari's rule): a QRunnable still going after the
test would touch a vault that pytest is about to delete.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pytestqt")

from pixelmem.core.index.engine import Engine
from pixelmem.core.settings import Settings
from pixelmem.core.vault import scan_cache
from pixelmem.core.vault.store import MemoryStore
from pixelmem.gui import workers

TOKEN = re.compile(r"[a-z0-9]+|[\u4e00-\u9fff]", re.IGNORECASE)

MEMORIES = [
    (
        "Espresso ratio",
        "Use 18 g of coffee for 36 g of espresso in 28 seconds.",
        ["coffee"],
        "high",
    ),
    (
        "Sourdough starter",
        "Feed the starter with equal flour and water every day.",
        ["baking"],
        "medium",
    ),
    (
        "Rust lifetimes",
        "A borrow cannot outlive the value it points to.",
        ["rust", "programming"],
        "low",
    ),
    (
        "Tomato garden",
        "Water tomatoes deeply twice a week; mulch keeps the soil moist.",
        ["garden"],
        "medium",
    ),
    ("数据库索引", "索引可以减少随机读，查询更快。", ["数据库"], "high"),
]


class FakeEmbedder:
    """Hashed bag-of-words vectors, L2-normalised: instant, deterministic, no model file.

    ``gates`` maps a query to an Event: ``embed_query`` for that text waits until it is set,
    which makes one search slow on purpose.
    """

    def __init__(self, dim: int = 64) -> None:
        self._dim = dim
        self.gates: dict[str, threading.Event] = {}
        self.queries: list[str] = []

    @property
    def model_id(self) -> str:
        return "fake:hash-bow"

    @property
    def dim(self) -> int:
        return self._dim

    def _vector(self, text: str) -> np.ndarray:
        vector = np.zeros(self._dim, dtype=np.float32)
        for token in TOKEN.findall(text.lower()):
            digest = hashlib.blake2b(token.encode(), digest_size=4).digest()
            vector[int.from_bytes(digest, "little") % self._dim] += 1.0
        norm = float(np.linalg.norm(vector))
        if norm == 0.0:
            vector[0], norm = 1.0, 1.0
        return vector / norm

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self._dim), dtype=np.float32)
        return np.stack([self._vector(t) for t in texts])

    def embed_query(self, text: str) -> np.ndarray:
        self.queries.append(text)
        gate = self.gates.get(text)
        if gate is not None:
            gate.wait(10)
        return self._vector(text)


@pytest.fixture(autouse=True, scope="session")
def _english_ui(qapp) -> None:
    """As the app starts in English: with the English plural forms ("1 memory")."""
    from pixelmem.gui import i18n

    i18n.install_translator("en")


@pytest.fixture(autouse=True)
def _no_worker_left_running() -> Iterator[None]:
    yield
    finished = workers.wait_for_all(5000)
    assert finished and workers.active_thread_count() == 0, "a QRunnable was left running"


@pytest.fixture(autouse=True)
def _no_runtime_left_running(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every vault runtime a test started is stopped after it: a window a test builds and
    drops (a close that waits for unsaved edits never comes back once the test's event loop
    is gone) kept its index lane, watcher and local channel threads into every later test —
    95 of them by the end of tests/gui, with their vaults deleted under them."""
    from pixelmem.core.runtime.vault_runtime import VaultRuntime

    started: list[VaultRuntime] = []
    start = VaultRuntime.start

    def recorded(runtime: VaultRuntime, *args, **kwargs) -> None:
        started.append(runtime)
        start(runtime, *args, **kwargs)

    monkeypatch.setattr(VaultRuntime, "start", recorded)
    yield
    for runtime in started:
        runtime.cancel_indexing()
        runtime.stop(5)


@pytest.fixture
def small_vault(vault: Path) -> Path:
    store = MemoryStore(vault)
    for title, body, topics, importance in MEMORIES:
        store.create(title, body, topics=topics, importance=importance)
    return vault


@pytest.fixture
def warm_vault(small_vault: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The small vault with a scan cache whose entries are trusted at once."""
    monkeypatch.setattr(scan_cache, "RACY_WINDOW_NS", 0)
    monkeypatch.setattr(scan_cache, "FINE_RACY_WINDOW_NS", 0)
    MemoryStore(small_vault, create=False).scan()
    return small_vault


@pytest.fixture
def embedder() -> FakeEmbedder:
    return FakeEmbedder()


@pytest.fixture
def settings() -> Settings:
    settings = Settings()
    settings.search.min_relevance = 0.0  # hashed vectors score low; show every match
    return settings


@pytest.fixture
def engine(small_vault: Path, embedder: FakeEmbedder, settings: Settings) -> Engine:
    return Engine(small_vault, settings, embedder=embedder)


@pytest.fixture
def window(qtbot, engine: Engine, settings: Settings):
    """The main window on the small vault, scanned and indexed."""
    from pixelmem.gui.window.main_window import MainWindow

    win = MainWindow(engine, settings)
    qtbot.addWidget(win)
    win._closing_ok = True  # tests close without the unsaved-changes prompt unless they ask
    with qtbot.waitSignal(win.session.indexing_finished, timeout=10_000):
        win.start()
    yield win
    win.session.shutdown()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.gui)


@pytest.fixture(autouse=True)
def _a_large_screen(monkeypatch: pytest.MonkeyPatch) -> None:
    """The offscreen platform's one screen is 800×800: windows tested at 1920×1080 would be
    fitted onto it. Tests of the fitting give their own screens (window/test_screen_fit.py)."""
    from PySide6.QtCore import QRect

    from pixelmem.gui.window import screen_fit

    monkeypatch.setattr(screen_fit, "available_areas", lambda: [QRect(0, 0, 3840, 2160)])
