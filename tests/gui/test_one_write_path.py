"""One write path: saves never wait for indexing, and a batch is one announcement."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from conftest import FakeEmbedder

from pixelmem.core.index.engine import Engine
from pixelmem.core.settings import Settings
from pixelmem.core.writes import ChangeSet
from pixelmem.gui.chat.dialogs import Draft
from pixelmem.gui.window.main_window import MainWindow


class GatedDocumentEmbedder(FakeEmbedder):
    """A first indexing that takes as long as the test wants: documents wait for ``gate``."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = threading.Event()
        self.entered = threading.Event()

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        self.entered.set()
        self.gate.wait(20)
        return super().embed_documents(texts)


def test_a_chat_save_during_a_long_first_indexing_does_not_delay_an_editor_save(
    qtbot, small_vault: Path, settings: Settings
) -> None:
    embedder = GatedDocumentEmbedder()
    window = MainWindow(Engine(small_vault, settings, embedder=embedder), settings)
    qtbot.addWidget(window)
    window._closing_ok = True
    try:
        window.start()
        qtbot.waitUntil(embedder.entered.is_set, timeout=10_000)  # indexing is now stuck
        memory = next(m for m in window.list_model.memories() if m.title == "Tomato garden")
        window.open_memory(memory.id)
        with qtbot.waitSignal(window.chat_dock.memory_saved, timeout=5000):
            window.chat_dock._save(Draft("From the chat", "Saved while indexing runs."))
            window.editor.form.title_edit.setText("Tomato garden, staked")
            started = time.perf_counter()
            with qtbot.waitSignal(window.editor.saved, timeout=5000):
                window.commands.save_memory()
            latency = time.perf_counter() - started
        assert latency < 0.1, f"the editor save took {latency * 1000:.0f} ms"
        assert window.session.busy_indexing  # the first indexing is still running
    finally:
        embedder.gate.set()
        qtbot.waitUntil(lambda: not window.session.busy_indexing, timeout=10_000)
        window.session.shutdown()


def test_an_import_of_many_files_is_one_announcement_and_one_list_update(
    qtbot, window, tmp_path: Path
) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    for i in range(1000):
        (folder / f"note {i}.md").write_text(f"# Note {i}\n\nBody {i}.\n", encoding="utf-8")
    announced: list[ChangeSet] = []
    window.bus.memory_updated.connect(lambda changes, _initiator: announced.append(changes))
    model = window.list_model
    updates: list[str] = []
    model.modelReset.connect(lambda: updates.append("reset"))
    model.rowsInserted.connect(lambda *_: updates.append("insert"))
    before = model.rowCount()
    with qtbot.waitSignal(window.bus.message_reported, timeout=30_000):
        window.session.import_files([folder])
    assert len(announced) == 1 and len(announced[0].created) == 1000
    assert updates == ["reset"]
    assert model.rowCount() == before + 1000


def test_a_view_ignores_its_own_echo_but_not_others(qtbot, window) -> None:
    memory = next(m for m in window.list_model.memories() if m.title == "Sourdough starter")
    window.open_memory(memory.id)
    window.editor.form.title_edit.setText("Sourdough starter, fed daily")
    with qtbot.waitSignal(window.bus.memory_updated, timeout=5000) as own:
        window.commands.save_memory()
    assert own.args[1] is window.editor
    assert window.editor.form.title_edit.text() == "Sourdough starter, fed daily"
    fresh = window.session.store.get(memory.id)
    fresh.title = "Sourdough starter (from elsewhere)"
    with qtbot.waitSignal(window.bus.memory_updated, timeout=5000) as other:
        window.session.save(fresh)
    assert other.args[1] is None
    assert window.editor.form.title_edit.text() == "Sourdough starter (from elsewhere)"
