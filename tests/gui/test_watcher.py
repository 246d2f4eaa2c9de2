"""Changes made by other programs reach the list; pixelmem's own saves are not echoed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

NEW_NOTE = """---
title: Written elsewhere
topics: [outside]
---
A note another editor created.
"""


@pytest.fixture
def watched(qtbot, window):
    watcher = window.watcher
    qtbot.waitUntil(lambda: watcher.polls >= 1 and bool(watcher._watcher.directories()))
    qtbot.waitUntil(lambda: not watcher._pending)
    return window


def _titles(window) -> list[str]:
    return [m.title for m in window.list_model.memories()]


def test_an_external_new_file_shows_up(qtbot, watched, small_vault: Path) -> None:
    with qtbot.waitSignal(watched.bus.memory_updated, timeout=5000) as announced:
        (small_vault / "elsewhere.md").write_text(NEW_NOTE, encoding="utf-8")
    assert announced.args[0].created
    qtbot.waitUntil(lambda: "Written elsewhere" in _titles(watched))


def test_a_new_subfolder_is_watched_too(qtbot, watched, small_vault: Path) -> None:
    folder = small_vault / "projects"
    folder.mkdir()
    qtbot.waitUntil(lambda: str(folder) in watched.watcher._watcher.directories(), timeout=5000)
    with qtbot.waitSignal(watched.bus.memory_updated, timeout=5000):
        (folder / "inner.md").write_text(NEW_NOTE, encoding="utf-8")
    qtbot.waitUntil(lambda: "Written elsewhere" in _titles(watched))


def test_a_rename_save_updates_and_a_delete_removes(qtbot, watched) -> None:
    memory = next(m for m in watched.list_model.memories() if m.title == "Tomato garden")
    path = memory.path
    temp = path.with_name(".tmp-editor-save")
    temp.write_text(
        path.read_text(encoding="utf-8").replace("Tomato garden", "Tomato bed"), encoding="utf-8"
    )
    with qtbot.waitSignal(watched.bus.memory_updated, timeout=5000) as announced:
        os.replace(temp, path)  # how vim, VS Code and sync tools often save
    assert announced.args[0].pairs() == [("updated", memory.id)]
    qtbot.waitUntil(lambda: "Tomato bed" in _titles(watched))
    with qtbot.waitSignal(watched.bus.memory_updated, timeout=5000) as announced:
        path.unlink()
    assert announced.args[0].pairs() == [("deleted", memory.id)]
    qtbot.waitUntil(lambda: "Tomato bed" not in _titles(watched))


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
    polls = watched.watcher.polls
    with qtbot.waitSignal(watched.editor.saved, timeout=5000):
        watched.commands.save_memory()
    qtbot.waitUntil(lambda: watched.watcher.polls > polls, timeout=5000)  # it saw the write
    watched.session.writes.wait(5000)
    qtbot.waitUntil(lambda: not _pending_deliveries())
    assert announced == [("updated", memory.id)]


def _pending_deliveries() -> bool:
    from pixelmem.gui import workers

    return bool(workers._live)
