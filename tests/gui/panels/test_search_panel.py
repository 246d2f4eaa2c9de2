"""Search as you type: results with highlights, stale answers dropped, hits open in context."""

from __future__ import annotations

import threading
from dataclasses import replace

from PySide6.QtCore import QSize, Qt

from pixelmem.core.errors import ProviderUnavailable
from pixelmem.core.index.engine import Engine
from pixelmem.gui.panels.search_results import PAD_X, PAD_Y, HitRole, ResultRow, row_key


def _titles(panel) -> list[str]:
    return [panel.model.hit_at(r).title for r in range(panel.model.rowCount())]


def test_typing_shows_highlighted_results(qtbot, window) -> None:
    panel = window.search_panel
    window.commands.focus_search()
    with qtbot.waitSignal(panel.results_shown, timeout=5000) as shown:
        qtbot.keyClicks(panel.search_box, "espresso")
    assert shown.args == ["espresso", len(_titles(panel))]
    assert _titles(panel)[0] == "Espresso ratio"
    row = panel.model.index(0).data(HitRole)
    assert "espresso" in [t.lower() for t in row.terms]
    assert panel.stack.currentWidget() is panel.view


def test_result_rows_are_made_on_the_worker(qtbot, window, monkeypatch) -> None:
    """The snippets' clean-up and the words to mark (regular expressions, every keystroke)
    are worked out with the search, off the GUI thread; the rows shown are those."""
    from pixelmem.gui.panels import search_panel, search_results

    threads: list[bool] = []

    def rows(query, hits):
        threads.append(threading.current_thread() is threading.main_thread())
        return search_results.result_rows(query, hits)

    monkeypatch.setattr(search_panel, "result_rows", rows)
    panel = window.search_panel
    with qtbot.waitSignal(panel.results_shown, timeout=5000):
        panel.search_box.setText("espresso")
        panel.run_search()
    assert threads == [False]
    shown = panel.model.index(0).data(HitRole)
    assert shown == search_results.result_rows("espresso", [shown.hit])[0]


def test_a_superseded_query_never_shows(qtbot, window, embedder) -> None:
    panel = window.search_panel
    panel.set_mode("semantic")
    gate = threading.Event()
    embedder.gates["tomato"] = gate  # the first query hangs in the embedder
    shown: list[str] = []
    panel.results_shown.connect(lambda query, _n: shown.append(query))
    panel.search_box.setText("tomato")
    panel.run_search()
    qtbot.waitUntil(lambda: "tomato" in embedder.queries)
    panel.search_box.setText("coffee espresso")
    with qtbot.waitSignal(panel.results_shown, timeout=5000):
        panel.run_search()
    assert shown == ["coffee espresso"]
    gate.set()
    from pixelmem.gui import workers

    qtbot.waitUntil(lambda: not workers._live)  # the slow answer came back... and was dropped
    assert shown == ["coffee espresso"]
    assert _titles(panel)[0] == "Espresso ratio"


def test_no_match_says_so(qtbot, window) -> None:
    panel = window.search_panel
    panel.set_mode("keyword")
    panel.search_box.setText("zeppelin")
    with qtbot.waitSignal(panel.results_shown, timeout=5000):
        panel.run_search()
    assert panel.stack.currentWidget() is panel.empty_label
    assert "Nothing relevant" in panel.empty_label.text()


def test_escape_clears_the_search(qtbot, window) -> None:
    from PySide6.QtCore import Qt

    panel = window.search_panel
    panel.search_box.setText("espresso")
    qtbot.keyClick(panel.search_box, Qt.Key.Key_Escape)
    assert panel.search_box.text() == ""


def test_enter_opens_the_hit_with_its_words_marked(qtbot, window) -> None:
    from PySide6.QtCore import Qt

    panel = window.search_panel
    panel.search_box.setText("mulch")
    with qtbot.waitSignal(panel.results_shown, timeout=5000):
        panel.run_search()
    hit = panel.model.hit_at(0)
    with qtbot.waitSignal(window.editor.memory_opened, timeout=5000):
        qtbot.keyClick(panel.search_box, Qt.Key.Key_Return)
    assert window.editor.current_id == hit.memory_id
    marks = window.editor.form.body_edit.extraSelections()
    assert [m.cursor.selectedText() for m in marks] == ["mulch"]


def test_a_hit_in_a_long_memory_selects_its_chunk(qtbot, window) -> None:
    from pixelmem.core.vault.memory import Memory

    paragraphs = [f"Paragraph {i} talks about bicycles and the weather." * 6 for i in range(8)]
    paragraphs[6] = "The zeppelin hangar in Friedrichshafen is enormous. " * 4
    draft = Memory(id="", title="Long travel diary", body="\n\n".join(paragraphs))
    with qtbot.waitSignal(window.bus.index_changed, timeout=5000):
        window.session.create(draft)
    panel = window.search_panel
    panel.set_mode("keyword")
    panel.search_box.setText("zeppelin")
    with qtbot.waitSignal(panel.results_shown, timeout=5000):
        panel.run_search()
    hit = panel.model.hit_at(0)
    assert hit.title == "Long travel diary" and hit.start > 0
    panel.hit_activated.emit(hit)  # what Enter or a click on the hit does
    selected = window.editor.form.body_edit.textCursor().selectedText()
    assert "zeppelin hangar" in selected and "Paragraph 0" not in selected  # a part, not all


def test_results_html_is_escaped(qtbot) -> None:
    from pixelmem.gui.panels.highlight import highlight_html

    html = highlight_html("<img src=http://x/a.png> espresso", ["espresso"], "font-weight:600")
    assert "<img" not in html and "&lt;img" in html
    assert '<span style="font-weight:600">espresso</span>' in html


def test_semantic_unavailable_is_said_next_to_results(qtbot, small_vault, settings) -> None:
    from pixelmem.gui.window.main_window import MainWindow

    class DownEmbedder:
        model_id, dim = "down", 8

        def embed_documents(self, texts):
            raise ProviderUnavailable("Ollama is not running at http://localhost:11434")

        def embed_query(self, text):
            raise ProviderUnavailable("Ollama is not running at http://localhost:11434")

    win = MainWindow(Engine(small_vault, settings, embedder=DownEmbedder()), settings)
    qtbot.addWidget(win)
    win._closing_ok = True
    with qtbot.waitSignal(win.session.indexing_finished, timeout=5000):
        win.start()
    assert win.status.semantic_label.isVisibleTo(win)
    panel = win.search_panel
    panel.search_box.setText("espresso")
    with qtbot.waitSignal(panel.results_shown, timeout=5000):
        panel.run_search()
    assert _titles(panel)[0] == "Espresso ratio"  # keyword results still come
    assert panel.warning_label.isVisibleTo(panel)
    assert "Ollama is not running" in panel.warning_label.text()
    win.session.shutdown()


def test_a_time_in_the_query_is_shown_with_the_results(qtbot, window) -> None:
    panel = window.search_panel
    panel.search_box.setText("espresso this year")
    with qtbot.waitSignal(panel.results_shown, timeout=5000):
        panel.run_search()
    assert _titles(panel)[0] == "Espresso ratio"
    text = panel.info_label.text()
    assert "first (“this year”)" in text and "-01-01 – " in text


def test_a_row_drawn_once_is_reused_by_the_next_answer(qtbot, window) -> None:
    """The next keystroke's answer, the same hit with the same words marked, paints with the
    picture already drawn; a different mark or width needs a new one."""
    panel = window.search_panel
    with qtbot.waitSignal(panel.results_shown, timeout=5000):
        panel.search_box.setText("espresso")
        panel.run_search()
    look = panel.delegate.look()
    row = panel.model.index(0).data(HitRole)
    first = row_key(row, look, False)
    again = ResultRow(row.hit, tuple(row.terms), str(row.snippet))  # the next answer's row
    assert again is not row and row_key(again, look, False) == first
    assert row_key(again, look, True) != first  # selected: marked otherwise
    assert row_key(ResultRow(row.hit, ("ratio",), row.snippet), look, False) != first
    assert row_key(row, replace(look, width=look.width + 40), False) != first


def test_an_answers_first_screenful_is_drawn_on_the_worker(qtbot, window) -> None:
    """The GUI thread only puts the rows' pictures on the screen: the search's worker drew the
    first screenful, the first row also selected (the view selects it)."""
    panel = window.search_panel
    window.resize(1280, 800)
    window.show()
    qtbot.waitUntil(panel.isVisible, timeout=5000)
    qtbot.wait(300)  # the docks built after the first paint are placed: widths settle
    with qtbot.waitSignal(panel.results_shown, timeout=5000):
        panel.search_box.setText("espresso")
        panel.run_search()
    delegate = panel.delegate
    before = delegate.stood_in
    picture = panel.view.viewport().grab().toImage()
    assert delegate.stood_in == before  # every row painted from a picture the worker drew
    rect = panel.view.visualRect(panel.model.index(0)).adjusted(PAD_X, PAD_Y, -PAD_X, -PAD_Y)
    shades = {
        picture.pixel(x, y)
        for x in range(rect.left(), rect.right(), 2)
        for y in range(rect.top(), rect.bottom(), 2)
    }
    assert len(shades) > 8  # the first row's text and score are there, antialiased


def test_a_row_without_a_picture_is_drawn_on_a_worker_not_here(qtbot, window) -> None:
    """Rows painted with no picture at the view's look (scrolled to, the view resized) are
    never laid out on the GUI thread: their last picture or their title stands in, a worker
    draws them, and the view paints them from the pictures it sends back."""
    panel = window.search_panel
    window.resize(1280, 800)
    window.show()
    qtbot.waitUntil(panel.isVisible, timeout=5000)
    qtbot.wait(300)
    with qtbot.waitSignal(panel.results_shown, timeout=5000):
        panel.search_box.setText("espresso")
        panel.run_search()
    delegate = panel.delegate
    for forget in ((delegate._pictures,), (delegate._pictures, delegate._latest)):
        for kept in forget:  # nothing drawn at this look (and, second, at none)
            kept.clear()
        stood = delegate.stood_in
        stand_in = panel.view.viewport().grab().toImage()
        assert delegate.stood_in > stood
        qtbot.waitUntil(lambda: not delegate._wanted and not delegate._drawing, timeout=5000)
        stood = delegate.stood_in
        final = panel.view.viewport().grab().toImage()
        assert delegate.stood_in == stood  # painted from the pictures the worker sent
        assert final != stand_in or forget == (delegate._pictures,)  # a title alone differs


def test_the_exact_phrase_mode_is_chosen_from_the_combo_by_keyboard(qtbot, window) -> None:
    panel = window.search_panel
    labels = [panel.mode_combo.itemText(i) for i in range(panel.mode_combo.count())]
    assert "Exact phrase" in labels
    panel.search_box.setText("equal flour and water")
    panel.mode_combo.setFocus()
    exact = panel.mode_combo.findData("exact")
    while panel.mode_combo.currentIndex() != exact:
        key = Qt.Key.Key_Down if panel.mode_combo.currentIndex() < exact else Qt.Key.Key_Up
        qtbot.keyClick(panel.mode_combo, key)
    assert panel.mode == "exact"
    with qtbot.waitSignal(panel.results_shown, timeout=5000):
        panel.run_search()
    assert _titles(panel) == ["Sourdough starter"]
    panel.search_box.setText("water and flour")  # the same words in another order
    with qtbot.waitSignal(panel.results_shown, timeout=5000):
        panel.run_search()
    assert _titles(panel) == []


def test_the_first_screen_is_drawn_as_wide_as_the_rows_will_be(qtbot, window) -> None:
    """A scroll bar takes width from the rows once an answer has more than fit: the worker
    draws them as wide as the view will show them."""
    panel = window.search_panel
    with qtbot.waitSignal(panel.results_shown, timeout=5000):
        panel.search_box.setText("espresso")
        panel.run_search()
    rows = [panel.model.index(r).data(HitRole) for r in range(panel.model.rowCount())]
    looks = panel.delegate.answer_looks(QSize(400, 10_000))  # room for every row
    assert looks.fit >= len(rows)
    assert {key[5] for key, _ in looks.first_screen(rows)} == {looks.few.width}
    crowded = panel.delegate.answer_looks(QSize(400, 1))
    assert crowded.fit == 1 and len(crowded.first_screen(rows)) == min(len(rows), 2) + 1
    assert {key[5] for key, _ in crowded.first_screen(rows)} == {crowded.many.width}
    assert crowded.many.width <= crowded.few.width


def test_result_rows_read_the_query_once(monkeypatch) -> None:
    """Read per row and text, the query's parsing was ~75 % of making 20 rows (1.9 → 0.5 ms
    English, 2.8 → 0.6 ms Chinese, GIL held). The words to mark are those of each text."""
    from pixelmem.core.index import query as query_module
    from pixelmem.core.index.search import SearchHit
    from pixelmem.gui.panels import search_results

    hits = [
        SearchHit(f"m{i}", title, 0.5, snippet, 0, 0, len(snippet), None, None, ())
        for i, (title, snippet) in enumerate(
            [("数据库笔记", "索引的设计"), ("Books", "two books and a booking"), ("x", "y")]
        )
    ]
    calls: list[str] = []
    real = query_module.parse_query
    monkeypatch.setattr(search_results, "parse_query", lambda q: calls.append(q) or real(q))
    rows = search_results.result_rows("数据库索引 book", hits)
    assert calls == ["数据库索引 book"]
    assert [r.terms for r in rows] == [("数据库", "索引"), ("books", "booking"), ()]
