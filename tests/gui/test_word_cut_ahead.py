"""The Chinese word cut loads on a worker once the index is first ready, in a vault with
Chinese notes: its dictionary holds the GIL while it loads, and the first Chinese search
typed must not freeze the window for it."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from pixelmem.core.index import word_cut
from pixelmem.core.index.engine import Engine
from pixelmem.core.vault.store import MemoryStore


@pytest.mark.parametrize("chinese", [True, False])
def test_the_word_cut_loads_on_a_worker_when_the_vault_holds_chinese(
    qtbot, tmp_path: Path, embedder, settings, monkeypatch, chinese: bool
) -> None:
    from pixelmem.gui.window.main_window import MainWindow

    store = MemoryStore(tmp_path / "vault")
    store.create("Hiking on Saturday", "Fragrant Hills early, water and lunch in the bag.")
    if chinese:
        store.create("周末爬山", "周六早上去香山爬山，带上水和午饭。")
    loaded: list[threading.Thread] = []
    monkeypatch.setattr(
        word_cut, "load_in_steps", lambda: loaded.append(threading.current_thread())
    )
    window = MainWindow(Engine(store.root, settings, embedder=embedder), settings)
    qtbot.addWidget(window)
    window._closing_ok = True
    with qtbot.waitSignal(window.session.indexing_finished, timeout=10_000):
        window.start()
    try:
        if chinese:
            qtbot.waitUntil(lambda: bool(loaded), timeout=5000)
            assert loaded[0] is not threading.main_thread()
        else:
            qtbot.wait(200)
            assert not loaded
    finally:
        window.session.shutdown()
