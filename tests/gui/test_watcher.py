"""What only the app does with changes made by other programs (the shared keep-current suite,
tests/core/runtime/test_keep_current.py, proves the rest for the app, serve and MCP): the open
memory follows an in-place edit, and pixelmem's own saves are not echoed."""

from __future__ import annotations

import pytest


@pytest.fixture
def watched(qtbot, window):
    watcher = window.session.runtime.watcher
    qtbot.waitUntil(lambda: watcher.mode in ("native", "polling"))
    assert watcher.wait_ready(10)
    return window


def test_an_in_place_edit_of_the_open_memory_refreshes_the_editor(qtbot, watched) -> None:
    memory = next(m for m in watched.list_model.memories() if m.title == "Espresso ratio")
    watched.open_memory(memory.id)
    with open(memory.path, "a", encoding="utf-8") as handle:  # no rename: the file watch sees it
        handle.write("\nGrind finer if it runs fast.\n")
    body = watched.editor.form.body_edit
    qtbot.waitUntil(lambda: "Grind finer" in body.toPlainText(), timeout=5000)
    assert not watched.editor.is_dirty


def test_our_own_save_is_announced_once(qtbot, watched) -> None:
    announced: list[tuple[str, str]] = []
    watched.bus.memory_updated.connect(lambda c, _i: announced.extend(c.pairs()))
    memory = next(m for m in watched.list_model.memories() if m.title == "Sourdough starter")
    watched.open_memory(memory.id)
    watched.editor.form.title_edit.setText("Sourdough starter, fed daily")
    with qtbot.waitSignal(watched.editor.saved, timeout=5000):
        watched.commands.save_memory()
    qtbot.wait(1000)  # longer than the watcher's grouping: it has seen the write by now
    watched.session.writes.wait(5000)
    qtbot.waitUntil(lambda: not _pending_deliveries())
    assert announced == [("updated", memory.id)]


def _pending_deliveries() -> bool:
    from pixelmem.gui import workers

    return bool(workers._live)
