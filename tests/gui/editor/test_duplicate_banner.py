"""The near-duplicate banner after a save, Compare and Keep both."""

from __future__ import annotations

import pytest

from pixelmem.core.vault.memory import Memory
from pixelmem.gui.dialogs.duplicates_dialog import ID_ROLE
from pixelmem.gui.editor.duplicate_banner import CompareDialog

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


def test_duplicates_list_and_merge(qtbot, window):
    _save_copy_of(qtbot, window, "Espresso ratio")
    dialog = window.map_view.show_duplicates()
    with qtbot.waitSignal(dialog.groups_shown, timeout=10_000) as shown:
        pass
    assert shown.args == [1]
    group = dialog.tree.topLevelItem(0)
    keep = group.child(0)
    keep_id, other_id = keep.data(0, ID_ROLE), group.child(1).data(0, ID_ROLE)
    dialog.tree.setCurrentItem(keep)
    other_path = window.session.store.path_for(other_id)
    keep_title = window.session.store.get(keep_id).title
    other_title = window.session.store.get(other_id).title
    index = Memory(id="", title="Coffee index", body=f"See [[{other_title}|the ratio]].", topics=[])
    with qtbot.waitSignal(window.bus.memory_updated, timeout=5000) as made:
        window.session.create(index)
    index_id = made.args[0].created[0]
    with (
        qtbot.waitSignal(window.bus.memory_updated, timeout=5000) as announced,
        qtbot.waitSignal(dialog.merged, timeout=5000),
    ):
        dialog.merge_selected(confirm=False)
    changes = announced.args[0]  # one change set: the kept memory, the linking one, the trash
    assert set(changes.updated) == {keep_id, index_id} and changes.deleted == (other_id,)
    assert not other_path.exists()
    assert any((window.engine.vault / ".pixelmem").rglob(other_path.name))  # in the trash
    body = window.session.store.get(keep_id).body
    assert body.count("Use 18 g of coffee") == 1  # the same text is not repeated
    assert window.session.store.get(index_id).body.startswith(f"See [[{keep_title}|the ratio]].")
    assert "1 memory" in dialog.status.text()
    dialog.close()


def test_a_merge_names_every_memory_whose_links_were_left_alone(qtbot, window):
    from pixelmem.core.insight.merge import MergeResult
    from pixelmem.core.writes import LinkUpdateResult

    dialog = window.map_view.show_duplicates()
    with qtbot.waitSignal(dialog.groups_shown, timeout=10_000):
        pass
    failed = tuple(f"Note {i}: it changed since the links were looked up" for i in range(5))
    kept = window.session.store.list()[0]
    dialog._merged(MergeResult(kept, (), LinkUpdateResult((), failed)))
    text = dialog.status.text()
    assert "Note 0" in text and "Note 3" not in text and text.endswith("…")
    assert dialog.status.toolTip().splitlines() == list(failed)  # none lost
    dialog.close()
