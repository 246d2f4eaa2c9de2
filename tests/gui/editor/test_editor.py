"""Create, edit and delete in the editor: each write is announced once and the list follows."""

from __future__ import annotations

from pathlib import Path

from pixelmem.core.vault.store import MemoryStore
from pixelmem.core.writes import MemoryWrites
from pixelmem.gui.editor import prompts


def _list_titles(window) -> list[str]:
    model = window.list_model
    return [model.memory_at(r).title for r in range(model.rowCount())]


def _type_body(window, text: str) -> None:
    """Replace the body as typing would (``setPlainText`` resets the modified flag)."""
    body = window.editor.form.body_edit
    body.selectAll()
    body.insertPlainText(text)


def _open(qtbot, window, title: str) -> str:
    memory = next(m for m in window.list_model.memories() if m.title == title)
    window.open_memory(memory.id)
    assert window.editor.current_id == memory.id
    return memory.id


def test_new_memory_is_created_announced_and_listed(qtbot, window) -> None:
    window.commands.new_memory()
    form = window.editor.form
    form.title_edit.setText("Kettle descaling")
    form.topics_edit.setText("home， cleaning")
    form.body_edit.setPlainText("Use citric acid once a month.")
    assert window.editor.is_dirty and window.isWindowModified()
    with qtbot.waitSignal(window.bus.memory_updated, timeout=5000) as announced:
        window.commands.save_memory()
    [(action, memory_id)] = announced.args[0].pairs()
    assert action == "created" and announced.args[1] is window.editor
    qtbot.waitUntil(lambda: "Kettle descaling" in _list_titles(window))
    saved = window.session.store.get(memory_id)
    assert saved.topics == ["home", "cleaning"]
    assert window.editor.current_id == memory_id and not window.editor.is_dirty
    assert window.list_panel.current_id() == memory_id


def test_edit_is_saved_and_the_row_updates(qtbot, window) -> None:
    memory_id = _open(qtbot, window, "Tomato garden")
    window.editor.form.title_edit.setText("Tomato garden (2025)")
    with qtbot.waitSignal(window.bus.memory_updated, timeout=5000) as announced:
        window.commands.save_memory()
    assert announced.args[0].pairs() == [("updated", memory_id)]
    model = window.list_model
    qtbot.waitUntil(
        lambda: model.memory_at(model.row_of(memory_id)).title == "Tomato garden (2025)"
    )
    text = window.session.store.path_for(memory_id).read_text(encoding="utf-8")
    assert "title: Tomato garden (2025)" in text


def test_delete_moves_to_trash_and_undo_restores(qtbot, window, small_vault: Path) -> None:
    memory_id = _open(qtbot, window, "Rust lifetimes")
    path = window.session.store.path_for(memory_id)
    with qtbot.waitSignal(window.bus.memory_updated, timeout=5000) as announced:
        window.commands.delete_memory()
    assert announced.args[0].pairs() == [("deleted", memory_id)]
    assert not path.exists()
    assert "Rust lifetimes" not in _list_titles(window)
    assert not window.editor.is_open
    record = window.status.last_trashed
    assert record is not None and record.trashed.exists()
    assert window.status.undo_button.isVisibleTo(window.status)
    with qtbot.waitSignal(window.bus.memory_updated, timeout=5000) as restored:
        window.commands.undo_delete()
    assert restored.args[0].pairs() == [("created", memory_id)]
    assert path.exists() and not record.trashed.exists()
    qtbot.waitUntil(lambda: "Rust lifetimes" in _list_titles(window))
    assert window.editor.current_id == memory_id


def test_a_read_only_note_is_trashed_only_after_asking(qtbot, window, monkeypatch) -> None:
    memory_id = _open(qtbot, window, "Rust lifetimes")
    path = window.session.store.path_for(memory_id)
    path.chmod(0o444)
    asked: list[str] = []
    answers = iter([False, True])
    monkeypatch.setattr(
        prompts,
        "ask_trash_protected",
        lambda _parent, message: asked.append(message) or next(answers),
    )
    window.commands.delete_memory()  # Cancel: nothing happens
    qtbot.waitUntil(lambda: len(asked) == 1, timeout=5000)
    assert path.name in asked[0] and "read-only" in asked[0]
    assert path.exists() and "Rust lifetimes" in _list_titles(window)
    with qtbot.waitSignal(window.bus.memory_updated, timeout=5000) as announced:
        window.commands.delete_memory()  # Yes: moved to the trash
    assert len(asked) == 2 and announced.args[0].pairs() == [("deleted", memory_id)]
    assert not path.exists()


def test_a_delete_made_by_the_cli_can_be_undone_in_the_app(
    qtbot, window, small_vault: Path
) -> None:
    memory_id = _open(qtbot, window, "Sourdough starter")
    path = window.session.store.path_for(memory_id)
    MemoryWrites(MemoryStore(small_vault)).delete(memory_id)  # another process, one trash policy
    with qtbot.waitSignal(window.session.trashed, timeout=5000):
        window.session.apply_paths([path])  # what the file watcher does
    record = window.status.last_trashed
    assert record is not None and record.memory_id == memory_id
    assert record.trashed.parent == small_vault / ".pixelmem" / "trash"
    with qtbot.waitSignal(window.bus.memory_updated, timeout=5000):
        window.commands.undo_delete()
    qtbot.waitUntil(lambda: window.list_model.row_of(memory_id) >= 0)
    assert path.exists()


def test_switching_with_unsaved_edits_asks_first(qtbot, window, monkeypatch) -> None:
    asked: list[str] = []
    monkeypatch.setattr(
        prompts, "ask_unsaved", lambda _parent, title: asked.append(title) or prompts.CANCEL
    )
    first = _open(qtbot, window, "Espresso ratio")
    _type_body(window, "changed")
    other = next(m.id for m in window.list_model.memories() if m.title == "Tomato garden")
    window.open_memory(other)
    assert asked == ["Espresso ratio"]
    assert window.editor.current_id == first and window.editor.is_dirty
    assert window.list_panel.current_id() == first
    monkeypatch.setattr(prompts, "ask_unsaved", lambda _parent, _title: prompts.SAVE)
    with qtbot.waitSignal(
        window.editor.memory_opened, timeout=5000, check_params_cb=lambda m: m == other
    ):
        window.open_memory(other)
    assert window.session.store.get(first).body == "changed\n"  # saves end with a newline


def test_closing_with_unsaved_edits_can_be_cancelled(qtbot, window, monkeypatch) -> None:
    monkeypatch.setattr(prompts, "ask_unsaved", lambda _parent, _title: prompts.CANCEL)
    window._closing_ok = False
    _open(qtbot, window, "Espresso ratio")
    window.editor.form.title_edit.setText("Espresso ratio!")
    window.show()
    window.close()
    assert window.isVisible() and not window._closing_ok  # no close queued either
    monkeypatch.setattr(prompts, "ask_unsaved", lambda _parent, _title: prompts.DISCARD)
    window.close()
    qtbot.waitUntil(lambda: not window.isVisible())


def test_untouched_body_bytes_survive_a_title_edit(qtbot, window, small_vault: Path) -> None:
    memory_id = _open(qtbot, window, "Espresso ratio")
    path = window.session.store.path_for(memory_id)
    raw = path.read_bytes().replace(b"36 g of espresso", b"36 g of espresso\r\nnext line")
    path.write_bytes(raw)
    with qtbot.waitSignal(window.bus.memory_updated, timeout=5000):
        window.session.apply_paths([path])  # what the watcher would do
    window.editor.form.title_edit.setText("Espresso ratio v2")
    with qtbot.waitSignal(window.bus.memory_updated, timeout=5000):
        window.commands.save_memory()
    assert b"espresso\r\nnext line" in path.read_bytes()
