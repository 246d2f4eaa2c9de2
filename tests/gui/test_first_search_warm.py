"""Once the window's index is ready, a worker does what its first search would do once
(Engine.prepare_first_search): the first keystroke then embeds only its query."""

from __future__ import annotations

from pixelmem.core.index import saved_index
from pixelmem.core.index.relevance import ANCHOR_TEXTS


def test_the_anchors_are_made_once_the_index_is_ready_not_at_the_first_search(
    qtbot, window, embedder
) -> None:
    vault = window.engine.vault
    qtbot.waitUntil(
        lambda: saved_index.anchors_path(vault, questions=True).is_file(), timeout=10_000
    )
    assert len(embedder.queries) == len(ANCHOR_TEXTS)  # the anchors as questions, no search yet
    panel = window.search_panel
    with qtbot.waitSignal(panel.results_shown, timeout=10_000):
        panel.search_box.setText("coffee grind")
        panel.run_search()
    assert embedder.queries[len(ANCHOR_TEXTS) :] == ["coffee grind"]
