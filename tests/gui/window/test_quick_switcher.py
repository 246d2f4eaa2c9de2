"""The quick switcher lists the vault on a worker, never on the UI thread."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QWidget

from pixelmem.core.vault.memory import Memory
from pixelmem.core.vault.store import MemoryStore
from pixelmem.gui.window.quick_switcher import QuickSwitcher


def _switcher_over(qtbot, listed: Callable[[], list[Memory]]) -> tuple[QWidget, QuickSwitcher]:
    """A shown 800×600 window (keep it: the switcher goes with it) and a quick switcher in it,
    listing the memories with ``listed``."""
    window = QWidget()
    qtbot.addWidget(window)
    window.resize(800, 600)
    switcher = QuickSwitcher(listed, window)
    window.show()
    return window, switcher


def test_the_memories_are_listed_off_the_ui_thread_once_per_popup(qtbot, vault: Path) -> None:
    store = MemoryStore(vault)
    coffee = store.create("Coffee brewing", "Ratios.")
    store.create("Reading list", "Books.")
    threads: list[threading.Thread] = []

    def listed():
        threads.append(threading.current_thread())
        return store.list()

    _window, switcher = _switcher_over(qtbot, listed)
    with qtbot.waitSignal(switcher.results_shown, timeout=5000):
        switcher.popup()
    assert len(switcher.chosen_ids()) == 2
    with qtbot.waitSignal(switcher.results_shown, timeout=5000):
        switcher.query_edit.setText("cofbr")
    assert switcher.chosen_ids() == [coffee.id]
    assert threads and threading.main_thread() not in threads
    assert len(threads) == 1  # typing ranks the snapshot the popup took


def test_keystrokes_before_the_first_ranking_wait_for_its_listing(qtbot, vault: Path) -> None:
    store = MemoryStore(vault)
    coffee = store.create("Coffee brewing", "Ratios.")
    store.create("Reading list", "Books.")
    listings: list[int] = []
    slow = threading.Event()

    def listed():
        listings.append(1)
        slow.wait(2)  # a big vault: the listing takes a while on a busy worker
        return store.list()

    _window, switcher = _switcher_over(qtbot, listed)
    switcher.popup()
    for typed in ("c", "co", "cof", "cofbr"):  # typed while the first listing runs
        switcher.query_edit.setText(typed)
    slow.set()
    qtbot.waitUntil(lambda: switcher.chosen_ids() == [coffee.id], timeout=5000)
    assert len(listings) == 1
    with qtbot.waitSignal(switcher.results_shown, timeout=5000):
        switcher.popup()  # a new popup lists the vault again: it may have changed
    assert len(listings) == 2
