"""Topic suggestions above the editor come from the nearest memories' topics."""

from __future__ import annotations

import pytest

from pixelmem.core.vault.memory import Memory

pytestmark = pytest.mark.gui


def test_suggestions_from_neighbours_and_one_click_add(qtbot, window):
    strip = window.topic_suggestions
    draft = Memory(id="", title="Espresso shot", body="Use 18 g of coffee for 36 g of espresso.")
    created: list[Memory] = []
    with qtbot.waitSignal(window.session.indexing_finished, timeout=10_000):
        window.session.create(draft, on_done=created.append)
    with qtbot.waitSignal(strip.shown, timeout=5000) as shown:
        window.open_memory(created[0].id)
    assert shown.args[0][:1] == ["coffee"]
    assert not strip.isHidden()
    strip.buttons[0].click()
    assert window.editor.form.topics_edit.text() == "coffee"
    assert window.isWindowModified()  # the person saves as usual
