"""A live language switch re-labels every widget: the walker finds no text of the old language.

The window is exercised first (a memory open, a search shown, a chat answer, a draft in the
inbox, a deletion in the status bar) so that texts made on the fly are covered too.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path

import pytest
from chat_fakes import GatedServer
from ui_walk import chinese_leftovers, english_leftovers

from pixelmem.core.archive.inbox import Inbox
from pixelmem.core.vault.store import MemoryStore
from pixelmem.gui import i18n

ENGLISH_ONLY = [m for m in __import__("conftest").MEMORIES if m[0].isascii()]


@pytest.fixture
def small_vault(vault: Path) -> Path:
    """English memories only: any Chinese text left after switching back is the UI's."""
    store = MemoryStore(vault)
    for title, body, topics, importance in ENGLISH_ONLY:
        store.create(title, body, topics=topics, importance=importance)
    Inbox(vault).add("Proposed by a tool", "Some body.", source="test-client")
    return vault


@pytest.fixture(autouse=True)
def _english_afterwards(qapp) -> Iterator[None]:
    yield
    i18n.install_translator("en")


def switch(window, qtbot, language: str) -> None:
    new = copy.deepcopy(window.settings)
    new.language = language
    window.commands.use_settings(new)
    qtbot.wait(50)  # Qt posts LanguageChange to each window


def exercise(window, qtbot) -> None:
    """Put texts made on the fly on screen: an open memory, search results, a deletion."""
    window.resize(1200, 800)
    window.show()
    memories = window.list_model.memories()
    window.open_memory(memories[0].id)
    panel = window.search_panel
    with qtbot.waitSignal(panel.results_shown, timeout=5000):
        panel.search_box.setText("espresso")
        panel.run_search()
    with qtbot.waitSignal(window.session.trashed, timeout=5000):
        window.session.delete(memories[-1].id)
    qtbot.waitUntil(lambda: bool(window.inbox.drafts), timeout=5000)
    window.commands.focus_search()


def test_english_to_chinese_leaves_no_english(qtbot, window) -> None:
    exercise(window, qtbot)
    assert english_leftovers(window), "the walker must see the English UI before switching"
    switch(window, qtbot, "zh_CN")
    left = english_leftovers(window)
    assert left == [], "\n".join(f"{w}: {t!r} (source {s!r})" for w, t, s in left)


def test_chinese_to_english_leaves_no_chinese(qtbot, window) -> None:
    switch(window, qtbot, "zh_CN")
    exercise(window, qtbot)
    assert chinese_leftovers(window), "the walker must see the Chinese UI before switching"
    switch(window, qtbot, "en")
    left = chinese_leftovers(window)
    assert left == [], "\n".join(f"{w}: {t!r}" for w, t in left)


def test_a_chat_answer_is_relabelled_too(qtbot, window) -> None:
    """Texts made with an answer (its buttons, "Memories used (n)") follow a switch."""
    with GatedServer(chat_reply="Use 18 g of coffee.") as server:
        server.release()
        new = copy.deepcopy(window.settings)
        new.chat.provider, new.chat.base_url, new.chat.model = "ollama", server.url, "fake"
        window.commands.use_settings(new)
        pane = window.chat_dock
        pane.raise_()
        pane.input.setPlainText("espresso ratio")
        with qtbot.waitSignal(pane.answer_finished, timeout=5000):
            pane.send()
        switch(window, qtbot, "zh_CN")
        left = english_leftovers(pane)
        assert left == [], "\n".join(f"{w}: {t!r} (source {s!r})" for w, t, s in left)
        assert pane.shutdown(5000)
