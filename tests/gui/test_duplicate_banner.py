"""The near-duplicate banner after a save, Compare and Keep both."""

from __future__ import annotations

import pytest

from pixelmem.core.memory import Memory
from pixelmem.gui.duplicate_banner import CompareDialog

pytestmark = pytest.mark.gui


def _save_copy_of(qtbot, window, title: str) -> list:
    original = next(m for m in window.session.store.list() if m.title == title)
    draft = Memory(id="", title=f"{title} again", body=original.body, topics=[])
    banner = window.duplicate_banner
    with qtbot.waitSignal(banner.checked, timeout=10_000) as checked:
        window.session.create(draft)
    return checked.args


def test_banner_names_the_earlier_memory(qtbot, window):
    banner = window.duplicate_banner
    _, found = _save_copy_of(qtbot, window, "Espresso ratio")
    assert found and window.session.store.get(found[0][0]).title == "Espresso ratio"
    assert not banner.isHidden()
    assert "Espresso ratio" in banner.text.text()
    banner.compare()
    dialog = banner.findChild(CompareDialog)
    assert dialog is not None
    with qtbot.waitSignal(window.editor.memory_opened, timeout=3000):
        dialog.open_memory_requested.emit(found[0][0])
    dialog.close()


def test_keep_both_hides_and_remembers(qtbot, window):
    banner = window.duplicate_banner
    memory_id, _ = _save_copy_of(qtbot, window, "Tomato garden")
    banner.keep_both()
    assert banner.isHidden()
    with qtbot.waitSignal(banner.checked, timeout=10_000) as again:
        banner.check(memory_id)
    assert again.args[1] == [] and banner.isHidden()


def test_no_banner_for_a_new_subject(qtbot, window):
    banner = window.duplicate_banner
    draft = Memory(id="", title="Bicycle chain", body="Oil the chain every 300 km.", topics=[])
    with qtbot.waitSignal(banner.checked, timeout=10_000) as checked:
        window.session.create(draft)
    assert checked.args[1] == [] and banner.isHidden()
