"""Launch: the list is filled from the scan cache before the scan has checked the files, and
the chat, inbox and map docks are built after the first paint, each still opening and
keeping its place in the saved layout."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget

from pixelmem.core.index.engine import Engine
from pixelmem.core.settings import Settings
from pixelmem.gui.panels.registry import PANELS, Stage
from pixelmem.gui.window.main_window import MainWindow

AFTER_SCAN = Stage.AFTER_SCAN


def make_window(qtbot, vault: Path, embedder, settings: Settings) -> MainWindow:
    window = MainWindow(Engine(vault, settings, embedder=embedder), settings)
    qtbot.addWidget(window)
    window._closing_ok = True
    return window


def start_and_record(qtbot, window: MainWindow) -> list[tuple[str, int, bool]]:
    """Start the window; (signal, rows in the list then, scanned yet) for each list signal."""
    seen: list[tuple[str, int, bool]] = []
    session = window.session
    session.memories_listed.connect(lambda m: seen.append(("listed", len(m), session.loaded)))
    session.memories_loaded.connect(lambda m: seen.append(("loaded", len(m), session.loaded)))
    resets: list[int] = []
    window.list_model.modelReset.connect(lambda: resets.append(window.list_model.rowCount()))
    with qtbot.waitSignal(session.indexing_finished, timeout=10_000):
        window.start()
    seen.append(("resets", len(resets), True))
    return seen


def stop(window: MainWindow) -> None:
    window.session.shutdown()


def test_a_warm_vault_is_listed_from_the_cache_and_not_listed_again(
    qtbot, warm_vault: Path, embedder, settings: Settings
) -> None:
    window = make_window(qtbot, warm_vault, embedder, settings)
    seen = start_and_record(qtbot, window)
    # The picture came before the scan and the scan confirmed it: one reset of the list.
    assert seen == [("listed", 5, False), ("loaded", 5, True), ("resets", 1, True)]
    assert window.session.listing_confirmed
    assert window.list_model.rowCount() == 5
    # The picture's memories (no body, no path) were swapped for the scan's whole ones.
    rows = [window.list_model.memory_at(r) for r in range(5)]
    assert all(m.body and m.path is not None for m in rows)
    assert rows == [window.session.store.get(m.id) for m in rows]
    stop(window)


def test_a_file_changed_since_the_last_run_is_corrected_after_the_scan(
    qtbot, warm_vault: Path, embedder, settings: Settings
) -> None:
    note = next(p for p in warm_vault.glob("*.md") if "Espresso ratio" in p.read_text("utf-8"))
    note.write_text(note.read_text("utf-8").replace("Espresso ratio", "Espresso ratio 1:2.5"))
    (warm_vault / "new.md").write_text("# Brand new\n\nwritten while the app was closed\n")
    window = make_window(qtbot, warm_vault, embedder, settings)

    seen = start_and_record(qtbot, window)

    assert seen[:2] == [("listed", 5, False), ("loaded", 6, True)]
    assert not window.session.listing_confirmed
    titles = {window.list_model.memory_at(r).title for r in range(window.list_model.rowCount())}
    assert {"Espresso ratio 1:2.5", "Brand new"} <= titles and "Espresso ratio" not in titles
    stop(window)


def test_a_cold_vault_is_listed_once_by_the_scan(
    qtbot, small_vault: Path, embedder, settings: Settings
) -> None:
    window = make_window(qtbot, small_vault, embedder, settings)
    seen = start_and_record(qtbot, window)
    assert seen == [("loaded", 5, True), ("resets", 1, True)]
    stop(window)


def test_a_row_opened_before_the_scan_ends_opens_once_it_has(
    qtbot, warm_vault: Path, embedder, settings: Settings
) -> None:
    window = make_window(qtbot, warm_vault, embedder, settings)
    opened: list[str] = []

    def open_first(memories: list) -> None:
        assert not window.session.loaded
        opened.append(memories[0].id)
        window.open_memory(memories[0].id)  # the store has not been read: it waits

    window.session.memories_listed.connect(open_first)
    with qtbot.waitSignal(window.session.indexing_finished, timeout=10_000):
        window.start()
    qtbot.waitUntil(lambda: window.editor.current_id == opened[0], timeout=5000)
    stop(window)


def test_the_later_docks_are_built_after_the_list_and_each_opens(qtbot, window) -> None:
    qtbot.waitUntil(lambda: window.panels.is_built(AFTER_SCAN), timeout=5000)  # on their own
    window.show()
    window.commands.focus_chat()
    assert window.chat_dock.isVisible() and window.chat_focus.active
    window.commands.focus_chat()
    window.panels.reveal("map")
    assert window.map_dock.isVisible()
    qtbot.waitUntil(lambda: window.map_view.map is not None, timeout=10_000)
    window.inbox_dock.show()
    window.inbox_dock.raise_()
    qtbot.waitUntil(lambda: window.inbox.isVisible())
    toggles = [a for a in window.menus["view"].actions() if a.isCheckable()]
    docks = [window.list_dock, *(window.panels.dock(panel.name) for panel in PANELS)]
    assert toggles == [dock.toggleViewAction() for dock in docks]  # one each, in this order


def test_a_use_before_they_are_built_builds_them(qtbot, engine: Engine, settings) -> None:
    window = MainWindow(engine, settings)
    qtbot.addWidget(window)
    assert not window.panels.is_built(AFTER_SCAN)  # not built with the window
    assert window.map_dock.objectName() == "mapDock"  # the first use builds them
    assert window.panels.is_built(AFTER_SCAN)
    window.session.shutdown()


def test_the_later_docks_come_back_where_the_saved_layout_had_them(
    qtbot, small_vault: Path, embedder, settings: Settings
) -> None:
    first = make_window(qtbot, small_vault, embedder, settings)
    first.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, first.map_dock)  # moved by hand
    first.map_dock.show()
    first.inbox_dock.hide()
    first.close()  # saves the layout
    first.session.shutdown()

    second = make_window(qtbot, small_vault, embedder, settings)
    assert not second.panels.is_built(AFTER_SCAN)
    docks = {d.objectName(): d for d in second.findChildren(QDockWidget)}
    assert {"chatDock", "mapDock", "inboxDock"}.isdisjoint(docks)
    left = Qt.DockWidgetArea.LeftDockWidgetArea
    assert second.dockWidgetArea(second.map_dock) == left
    assert second.inbox_dock.isHidden()
    second.show()  # the tab groups are brought up to date by the next layout pass
    qtbot.waitUntil(lambda: second.chat_dock in second.tabifiedDockWidgets(second.search_dock))
    second.session.shutdown()


def test_the_dialogs_imported_on_demand_open(qtbot, window, monkeypatch) -> None:
    """Settings and Skipped Files are imported when first asked for: they must still open."""
    from PySide6.QtWidgets import QDialog

    opened: list[str] = []

    def exec_(dialog: QDialog) -> int:
        opened.append(type(dialog).__name__)
        return QDialog.DialogCode.Rejected

    monkeypatch.setattr(QDialog, "exec", exec_)
    window.actions_by_name["settings"].trigger()
    window.actions_by_name["skipped"].trigger()
    assert opened == ["SettingsDialog", "SkippedDialog"]


@pytest.mark.parametrize(
    ("action", "focused"),
    [("search", "search_box"), ("new", "title_edit"), ("quick_switch", None)],
)
def test_a_shortcut_pressed_before_the_views_are_built_works(
    qtbot, warm_vault: Path, embedder, settings: Settings, action: str, focused: str | None
) -> None:
    """Ctrl+K, Ctrl+N, Ctrl+P in the first moments of a launch: the views they need are built
    on the spot (not dropped, not waiting for the first paint). The quick switcher needs none
    of them: it is made at its own first use."""
    window = make_window(qtbot, warm_vault, embedder, settings)
    window.show()
    qtbot.waitExposed(window)
    assert window._views is None

    window.actions_by_name[action].trigger()

    assert (window._views is not None) == (focused is not None)
    if focused == "search_box":
        qtbot.waitUntil(lambda: window.search_panel.search_box.hasFocus(), timeout=2000)
    elif focused == "title_edit":
        qtbot.waitUntil(lambda: window.editor.form.title_edit.hasFocus(), timeout=2000)
    else:
        qtbot.waitUntil(lambda: window.quick_switcher.isVisible(), timeout=2000)
        window.quick_switcher.hide()
    window.session.shutdown()


def test_qt_types_are_warmed_after_the_first_paint(qtbot, warm_vault, embedder, settings) -> None:
    window = make_window(qtbot, warm_vault, embedder, settings)
    window.show()
    assert window.type_warmup is None  # nothing competes with the first paint
    with qtbot.waitSignal(window.session.indexing_finished, timeout=10_000):
        window.start()
    warmup = window.type_warmup
    assert warmup is not None
    if warmup.running:
        qtbot.waitSignal(warmup.finished, timeout=10_000).wait()
    assert warmup.made > 200  # QtWidgets' and QtGui's (in one step if made before)
    window.session.shutdown()


def test_building_the_views_makes_no_quick_switcher(qtbot, warm_vault, embedder, settings) -> None:
    """A hidden popup is not part of the views' build, which runs while a new vault indexes:
    it is made at its first Ctrl+P (the test above), once for the window's life."""
    window = make_window(qtbot, warm_vault, embedder, settings)
    assert window.views.editor is not None
    assert window._quick_switcher is None
    assert window.quick_switcher is window.quick_switcher
    window.session.shutdown()


def test_the_app_embeds_its_vault_in_a_child_process(qtbot, engine: Engine, settings) -> None:
    assert not engine.embed_apart  # the commands' and the service's engines embed at home
    window = MainWindow(engine, settings)
    qtbot.addWidget(window)
    assert engine.embed_apart  # the window's: a built-in model's minutes off its GIL


def test_the_first_index_starts_once_the_panels_are_built(qtbot, engine: Engine, settings) -> None:
    # Embedding a new vault takes both cores for minutes; the docked panels are built first.
    from pixelmem.gui.panels.registry import Stage
    from pixelmem.gui.window.main_window import MainWindow

    win = MainWindow(engine, settings)
    qtbot.addWidget(win)
    win._closing_ok = True
    built_when_indexing: list[bool] = []
    win.session.indexing_started.connect(
        lambda: built_when_indexing.append(
            all(win.panels.is_built(s) for s in (Stage.AFTER_PAINT, Stage.AFTER_SCAN))
        )
    )
    with qtbot.waitSignal(win.session.indexing_finished, timeout=10_000):
        win.start()
    assert built_when_indexing == [True]
    win.session.shutdown()


def test_a_window_that_never_builds_its_panels_still_indexes(qtbot, engine: Engine) -> None:
    from pixelmem.gui.bus import MemoryBus
    from pixelmem.gui.session import VaultSession

    session = VaultSession(engine, MemoryBus())
    session.hold_index()  # and no release: at most WINDOW_BUILD_MS
    with qtbot.waitSignal(session.indexing_finished, timeout=10_000):
        session.open()
    session.shutdown()


def test_background_steps_wait_for_the_windows_first_turns(
    qtbot, engine: Engine, settings, monkeypatch
) -> None:
    """The scan's listing, the views' imports and the saved index's load start with the
    window: a step any of them takes in its first turns (its first show and paint) waits."""
    import time

    from pixelmem.core import step_aside
    from pixelmem.gui.window.main_window import START_HOLD_S

    monkeypatch.setattr(step_aside, "_building_until", 0.0)
    window = MainWindow(engine, settings)
    qtbot.addWidget(window)
    window._closing_ok = True
    started = time.perf_counter()
    with qtbot.waitSignal(window.session.indexing_finished, timeout=10_000):
        window.start()
        held = step_aside._building_until - started
        assert 0 < held <= START_HOLD_S + 0.01  # held from the start, for its first turns only
    qtbot.waitUntil(lambda: step_aside._building_until < time.perf_counter(), timeout=2000)
    stop(window)
