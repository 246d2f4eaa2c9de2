"""A save over a file another program changed asks first: overwrite, keep both or reload."""

from __future__ import annotations

import pytest

from pixelmem.gui.editor import prompts


def _open_and_edit(window, title: str, new_body: str) -> str:
    memory = next(m for m in window.list_model.memories() if m.title == title)
    window.open_memory(memory.id)
    body = window.editor.form.body_edit
    body.selectAll()
    body.insertPlainText(new_body)
    return memory.id


def _change_on_disk(window, memory_id: str, old: str, new: str) -> None:
    path = window.session.store.path_for(memory_id)
    path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")


@pytest.fixture
def answer(monkeypatch):
    asked: list[str] = []

    def set_answer(choice: str) -> list[str]:
        monkeypatch.setattr(
            prompts, "ask_conflict", lambda _p, title: asked.append(title) or choice
        )
        return asked

    return set_answer


def test_cancel_leaves_the_other_programs_version(qtbot, window, answer) -> None:
    asked = answer(prompts.CANCEL)
    memory_id = _open_and_edit(window, "Espresso ratio", "mine")
    _change_on_disk(window, memory_id, "28 seconds", "30 seconds (theirs)")
    window.commands.save_memory()
    qtbot.waitUntil(lambda: asked == ["Espresso ratio"])
    text = window.session.store.path_for(memory_id).read_text(encoding="utf-8")
    assert "30 seconds (theirs)" in text and "mine" not in text
    assert window.editor.is_dirty


def test_keep_both_writes_a_conflict_copy(qtbot, window, answer) -> None:
    answer(prompts.KEEP_BOTH)
    memory_id = _open_and_edit(window, "Espresso ratio", "mine")
    _change_on_disk(window, memory_id, "28 seconds", "30 seconds (theirs)")
    original = window.session.store.path_for(memory_id)
    with qtbot.waitSignal(
        window.bus.memory_updated, timeout=5000, check_params_cb=lambda c, _i: bool(c.created)
    ) as created:
        window.commands.save_memory()
    copy_id = created.args[0].created[0]
    copy_path = window.session.store.path_for(copy_id)
    assert "(conflict" in copy_path.name and copy_path.parent == original.parent
    assert "mine" in copy_path.read_text(encoding="utf-8")
    assert "30 seconds (theirs)" in original.read_text(encoding="utf-8")
    qtbot.waitUntil(lambda: window.editor.current_id == copy_id)
    assert not window.editor.is_dirty


def test_overwrite_replaces_the_file(qtbot, window, answer) -> None:
    answer(prompts.OVERWRITE)
    memory_id = _open_and_edit(window, "Espresso ratio", "mine")
    _change_on_disk(window, memory_id, "28 seconds", "30 seconds (theirs)")
    with qtbot.waitSignal(window.editor.saved, timeout=5000):
        window.commands.save_memory()
    text = window.session.store.path_for(memory_id).read_text(encoding="utf-8")
    assert "mine" in text and "theirs" not in text


def test_reload_shows_the_file_as_it_is_now(qtbot, window, answer) -> None:
    answer(prompts.RELOAD)
    memory_id = _open_and_edit(window, "Espresso ratio", "mine")
    _change_on_disk(window, memory_id, "28 seconds", "30 seconds (theirs)")
    window.commands.save_memory()
    body = window.editor.form.body_edit
    qtbot.waitUntil(lambda: "theirs" in body.toPlainText())
    assert not window.editor.is_dirty
    assert "mine" not in window.session.store.path_for(memory_id).read_text(encoding="utf-8")
