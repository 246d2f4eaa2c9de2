"""The one-file recipe: a panel registered with one entry gets its dock, its place (first and
saved), its View-menu toggle and shortcut, its build on time (modules imported on a worker) or
on first use, and the window's events through its host; this module is the probe panel."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QDockWidget, QLineEdit, QVBoxLayout, QWidget

from pixelmem.core.index.engine import Engine
from pixelmem.core.settings import Settings
from pixelmem.gui import workers
from pixelmem.gui.panels.host import PanelHost
from pixelmem.gui.panels.registry import LEFT, PANELS, RIGHT, GoTo, Panel, Stage
from pixelmem.gui.window.main_window import MainWindow
from pixelmem.gui.window.panel_docks import BUILD_HOLD_S

PROBE = Panel(
    "probe",
    "Probe",
    __name__,  # this module: its build_panel below
    RIGHT,
    tab_of="search",
    goto=GoTo("show_probe", "&Probe", "Ctrl+9", focus="focus_box"),
)
EARLY = Panel("early", "Early", __name__, RIGHT, Stage.AFTER_PAINT, below="search")


class ProbePanel(QWidget):
    """A panel as a new one would be: it keeps what the window tells it."""

    def __init__(self, host: PanelHost) -> None:
        super().__init__()
        self.host = host
        self.opened: list[str] = []
        self.box = QLineEdit()
        QVBoxLayout(self).addWidget(self.box)
        host.memory_opened.connect(self.opened.append)

    def focus_box(self) -> None:
        self.box.setFocus(Qt.FocusReason.ShortcutFocusReason)


def build_panel(host: PanelHost) -> ProbePanel:
    return ProbePanel(host)


def _window(qtbot, engine: Engine, settings: Settings, *extra: Panel) -> MainWindow:
    window = MainWindow(engine, settings, panels=(*PANELS, *extra))
    qtbot.addWidget(window)
    window._closing_ok = True
    return window


def _stop(window: MainWindow) -> None:
    window.session.shutdown()


def test_a_registered_panel_is_built_after_the_scan_in_its_place(qtbot, engine, settings) -> None:
    window = _window(qtbot, engine, settings, PROBE)
    assert window.findChild(QDockWidget, "probeDock") is None  # not with the window
    with qtbot.waitSignal(window.session.indexing_finished, timeout=10_000):
        window.start()
    qtbot.waitUntil(lambda: window.panels.is_built(Stage.AFTER_SCAN), timeout=5000)
    dock, probe = window.panels.dock("probe"), window.panels.widget("probe")
    assert dock.objectName() == "probeDock" and dock.widget() is probe
    assert dock in window.tabifiedDockWidgets(window.search_dock)  # its first place
    assert dock.windowTitle() == "Probe" and probe.host is window
    view = window.menus["view"].actions()
    assert view[-1] is dock.toggleViewAction()  # the last registered: the last toggle
    go = window.actions_by_name["show_probe"]
    assert go in view and go.shortcut().toString() == "Ctrl+9"
    memory = window.list_model.memories()[0]
    window.open_memory(memory.id)
    assert probe.opened[-1] == memory.id  # host.memory_opened
    _stop(window)


def test_its_shortcut_before_the_scan_builds_it_and_puts_the_keyboard_in_it(
    qtbot, engine, settings
) -> None:
    window = _window(qtbot, engine, settings, PROBE)
    window.show()
    qtbot.waitExposed(window)
    window.actions_by_name["show_probe"].trigger()
    probe = window.panels.widget("probe")
    assert window.panels.dock("probe").isVisible() and window.focusWidget() is probe.box
    _stop(window)


def test_its_modules_are_imported_on_a_worker_first(qtbot, engine, settings, monkeypatch) -> None:
    imported: list[list[str]] = []
    real = workers.import_then

    def import_then(modules, then, *, context):
        imported.append(list(modules))
        return real(modules, then, context=context)

    monkeypatch.setattr(workers, "import_then", import_then)
    window = _window(qtbot, engine, settings, PROBE)
    with qtbot.waitSignal(window.panels.stage_built, timeout=5000):
        window.panels.load(Stage.AFTER_SCAN)
    assert __name__ in imported[0] and "pixelmem.gui.chat.pane" in imported[0]
    window.panels.load(Stage.AFTER_SCAN)  # once
    assert len(imported) == 1
    _stop(window)


def _record_turns(window: MainWindow, monkeypatch) -> tuple[dict[str, int], Callable[[], int]]:
    """Which turn of the event loop each panel is built in (a zero timer counts the turns)."""
    turns, built_in = [0], {}
    ticker = QTimer(window, interval=0)
    ticker.timeout.connect(lambda: turns.__setitem__(0, turns[0] + 1))
    ticker.start()
    build = window.panels._build

    def record(panel: Panel) -> None:
        built_in.setdefault(panel.name, turns[0])
        build(panel)

    monkeypatch.setattr(window.panels, "_build", record)
    return built_in, lambda: turns[0]


@pytest.mark.parametrize("stage", list(Stage))
def test_a_stage_on_time_is_built_one_panel_per_event_loop_turn(
    qtbot, engine, settings, monkeypatch, stage
) -> None:
    from pixelmem.gui.window import main_views

    window = _window(qtbot, engine, settings, PROBE, EARLY)
    built_in, turn = _record_turns(window, monkeypatch)
    build_views, place = main_views.build_views, window.setCentralWidget

    def editor_made(*args):  # the window builds the editor before the AFTER_PAINT panels
        built_in["editor made"] = turn()
        return build_views(*args)

    def editor_placed(widget: QWidget) -> None:
        built_in["editor placed"] = turn()
        place(widget)

    banner = main_views.DuplicateBanner

    def companions_made(*args):  # the banner and the suggestions, after the editor
        built_in["companions made"] = turn()
        return banner(*args)

    monkeypatch.setattr(main_views, "build_views", editor_made)
    monkeypatch.setattr(main_views, "DuplicateBanner", companions_made)
    monkeypatch.setattr(window, "setCentralWidget", editor_placed)
    with qtbot.waitSignal(window.panels.stage_built, timeout=10_000) as built:
        window.panels.load(stage)
    assert built.args == [stage]
    names = [panel.name for panel in window.panels.of_stage(stage)]
    if stage is Stage.AFTER_PAINT:  # the editor first: made, its companions, placed
        names = ["editor made", "companions made", "editor placed", *names]
        assert window.centralWidget() is not None and window._views is not None
    assert list(built_in) == names  # every one, in the registry's order
    assert len(set(built_in.values())) == len(names), built_in  # each in a turn of its own
    for panel in window.panels.of_stage(stage):  # in its dock (the chat is its own dock)
        widget, dock = window.panels.widget(panel.name), window.panels.dock(panel.name)
        assert widget in (dock, dock.widget())
    _stop(window)


def test_a_first_use_while_a_stage_is_built_in_turns_builds_the_rest_at_once(
    qtbot, engine, settings, monkeypatch
) -> None:
    window = _window(qtbot, engine, settings, PROBE)
    built_in, _turn = _record_turns(window, monkeypatch)
    stages: list[Stage] = []
    window.panels.stage_built.connect(stages.append)
    used: dict[str, object] = {}

    def use_probe() -> None:  # the turn after the stage's first panel: the rest on their way
        used["built before"] = window.panels.is_built(Stage.AFTER_SCAN)
        used["probe"] = window.panels.widget("probe")  # the last one, used now
        used["built after"] = window.panels.is_built(Stage.AFTER_SCAN)

    recorded = window.panels._build

    def first_then_use(panel: Panel) -> None:
        recorded(panel)
        if not used:
            used["scheduled"] = True
            QTimer.singleShot(0, use_probe)

    monkeypatch.setattr(window.panels, "_build", first_then_use)
    window.panels.load(Stage.AFTER_SCAN)
    # Polling for the first panel let the loop build the rest under load before the use.
    qtbot.waitUntil(lambda: "built after" in used, timeout=10_000)
    assert used["built before"] is False  # on its way, a panel at a time
    assert isinstance(used["probe"], ProbePanel) and used["built after"] is True
    assert list(built_in) == [p.name for p in window.panels.of_stage(Stage.AFTER_SCAN)]
    qtbot.wait(50)  # the turns left find it built: nothing twice, one stage_built
    assert stages == [Stage.AFTER_SCAN]
    assert len(window.findChildren(ProbePanel)) == 1
    _stop(window)


def test_its_place_comes_back_from_the_saved_layout(qtbot, small_vault: Path, embedder) -> None:
    settings = Settings()
    first = _window(qtbot, Engine(small_vault, settings, embedder=embedder), settings, PROBE)
    first.addDockWidget(LEFT, first.panels.dock("probe"))  # moved there by hand
    first.close()  # saves the layout
    _stop(first)
    second = _window(qtbot, Engine(small_vault, settings, embedder=embedder), settings, PROBE)
    assert second.findChild(QDockWidget, "probeDock") is None
    assert second.dockWidgetArea(second.panels.dock("probe")) == LEFT
    _stop(second)


@pytest.mark.parametrize("use", ["the first paint", "a use"])
def test_an_after_paint_panel_has_its_dock_from_the_start(qtbot, engine, settings, use) -> None:
    window = _window(qtbot, engine, settings, EARLY)
    dock = window.findChild(QDockWidget, "earlyDock")
    assert dock is not None and not isinstance(dock.widget(), ProbePanel)  # empty for now
    empty = dock.widget()
    if use == "a use":
        probe = window.panels.widget("early")  # builds its stage (and the editor) now
    else:
        with qtbot.waitSignal(window.views_ready, timeout=10_000):
            window.start()
        probe = window.panels.widget("early")
    assert dock.widget() is probe and window.editor is not None
    qtbot.waitUntil(lambda: not _alive(empty))  # the empty one is gone
    assert window.dockWidgetArea(dock) == RIGHT
    _stop(window)


def _alive(widget: QWidget) -> bool:
    import shiboken6

    return shiboken6.isValid(widget)


def test_background_work_steps_aside_while_each_panel_is_built_and_laid_out(
    qtbot, engine, settings, monkeypatch
) -> None:
    """A worker's step taken while a part is built, or in the turns Qt lays it out, waits:
    the window's first calls into Python do not compete for the GIL (core/step_aside)."""
    import time

    from pixelmem.core import step_aside

    monkeypatch.setattr(step_aside, "_building_until", 0.0)
    window = _window(qtbot, engine, settings, PROBE)
    held: dict[str, float] = {}  # panel: how long a step taken as it is built would wait
    build = window.panels._build

    def record(panel: Panel) -> None:
        held[panel.name] = step_aside._building_until - time.perf_counter()
        build(panel)

    monkeypatch.setattr(window.panels, "_build", record)
    with qtbot.waitSignal(window.panels.stage_built, timeout=10_000):
        window.panels.load(Stage.AFTER_SCAN)
    assert list(held) == [p.name for p in window.panels.of_stage(Stage.AFTER_SCAN)]
    assert all(0 < hold <= BUILD_HOLD_S for hold in held.values()), held
    qtbot.waitUntil(lambda: step_aside._building_until < time.perf_counter(), timeout=2000)
    _stop(window)  # the hold ended soon after the last part: steps go on at once
