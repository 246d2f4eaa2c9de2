"""Hits under the relevance floor: folded below the search results, one click away, marked
weaker, with their evidence in the tooltip; Related lists its weaker neighbours marked and
says when the index is still being built."""

from __future__ import annotations

from pathlib import Path

from pixelmem.core.index.engine import Engine
from pixelmem.core.settings import Settings
from pixelmem.gui.bus import MemoryBus
from pixelmem.gui.panels.related_panel import RelatedPanel
from pixelmem.gui.panels.search_results import score_text


def _titles(model) -> list[str]:
    return [model.hit_at(r).title for r in range(model.rowCount())]


def test_weaker_hits_are_folded_below_the_results(qtbot, window) -> None:
    panel = window.search_panel
    window.engine.settings.search.min_relevance = 0.99  # nothing clears it
    panel.set_mode("keyword")
    panel.search_box.setText("espresso")
    with qtbot.waitSignal(panel.results_shown, timeout=5000) as shown:
        panel.run_search()
    assert shown.args == ["espresso", 0]
    assert panel.stack.currentWidget() is panel.empty_label
    assert "Nothing relevant" in panel.empty_label.text()
    assert panel.weaker_button.isVisibleTo(panel)
    assert "1 weaker match" in panel.weaker_button.text()
    panel.weaker_button.click()
    assert panel.stack.currentWidget() is panel.view
    assert _titles(panel.model) == ["Espresso ratio"]
    hit = panel.model.hit_at(0)
    assert hit.weaker and "weaker" in score_text(hit)
    tooltip = panel.model.index(0).data(3)  # Qt.ToolTipRole
    assert "relevance" in tooltip and "BM25" in tooltip
    panel.weaker_button.click()
    assert panel.model.rowCount() == 0


def test_results_above_the_floor_come_without_the_fold(qtbot, window) -> None:
    panel = window.search_panel  # the fixture's floor is 0: every match clears it
    panel.set_mode("keyword")
    panel.search_box.setText("espresso")
    with qtbot.waitSignal(panel.results_shown, timeout=5000):
        panel.run_search()
    assert _titles(panel.model)[0] == "Espresso ratio"
    assert not panel.weaker_button.isVisibleTo(panel)
    assert not panel.model.hit_at(0).weaker


def test_related_marks_its_weaker_neighbours(qtbot, window) -> None:
    window.engine.settings.search.min_relevance = 0.99
    espresso = next(m for m in window.engine.store.list() if m.title == "Espresso ratio")
    panel = window.related_panel
    with qtbot.waitSignal(panel.refreshed, timeout=5000) as refreshed:
        panel.set_memory(espresso.id)
    assert refreshed.args[1] >= 1  # listed, though none clears the floor
    assert panel.stack.currentWidget() is panel.view
    assert all(panel.model.hit_at(r).weaker for r in range(panel.model.rowCount()))
    assert "weaker" in score_text(panel.model.hit_at(0))


def test_related_says_when_the_index_is_still_being_built(
    qtbot, small_vault: Path, embedder
) -> None:
    engine = Engine(small_vault, Settings(), embedder=embedder)
    engine.store.scan()  # memories known, nothing indexed yet
    panel = RelatedPanel(engine, MemoryBus())
    qtbot.addWidget(panel)
    memory = engine.store.list()[0]
    with qtbot.waitSignal(panel.refreshed, timeout=5000):
        panel.set_memory(memory.id)
    assert panel.stack.currentWidget() is panel.empty_label
    assert "Still indexing" in panel.empty_label.text()
