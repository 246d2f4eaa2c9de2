"""The panel registry's entries are checked before a window uses them, and the real ones pass."""

from __future__ import annotations

import importlib
from dataclasses import replace

import pytest
from PySide6.QtGui import QKeySequence

from pixelmem.gui.panels.registry import (
    LEFT,
    PANELS,
    RIGHT,
    GoTo,
    Panel,
    Stage,
    check_panels,
    panel_named,
)
from pixelmem.gui.window.menus import MENU_TABLE, Entry

ONE = Panel("one", "One", "some.module", RIGHT, Stage.AFTER_PAINT)


def test_the_registered_panels_pass_and_name_their_build_functions() -> None:
    check_panels(PANELS, fixed_docks=("memories",))
    for panel in PANELS:
        module, function = panel.factory_path
        assert callable(getattr(importlib.import_module(module), function)), panel.name
        assert panel.dock_name == f"{panel.name}Dock"


def test_panel_go_to_keys_are_not_the_menus_own() -> None:
    entries = [row for row in MENU_TABLE if isinstance(row, Entry)]
    keys = [QKeySequence(e.shortcut).toString() for e in entries if isinstance(e.shortcut, str)]
    keys += [key for e in entries if isinstance(e.shortcut, tuple) for key in e.shortcut]
    gotos = [panel.goto for panel in PANELS if panel.goto is not None]
    assert {g.shortcut for g in gotos}.isdisjoint(k for k in keys if k)
    assert {g.action for g in gotos}.isdisjoint(e.name for e in entries)


@pytest.mark.parametrize(
    ("panels", "problem"),
    [
        ((ONE, replace(ONE, title="Again")), "two docks"),
        ((replace(ONE, below="nowhere"),), "not made yet"),
        # made with the window, it cannot be placed beside a dock made after the scan
        ((replace(ONE, name="late", stage=Stage.AFTER_SCAN), replace(ONE, tab_of="late")), "late"),
        (
            (
                replace(ONE, goto=GoTo("show", "Show", "Ctrl+9")),
                replace(ONE, name="two", goto=GoTo("other", "Other", "Ctrl+9")),
            ),
            "taken",
        ),
    ],
    ids=["name twice", "unknown neighbour", "neighbour made later", "shortcut taken"],
)
def test_an_entry_that_cannot_work_is_refused(panels: tuple[Panel, ...], problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        check_panels(panels)


def test_a_panel_may_sit_beside_the_windows_own_docks_and_earlier_panels() -> None:
    early = replace(ONE, below="memories")
    late = Panel("late", "Late", "m", LEFT, tab_of="one")
    check_panels((late, early), fixed_docks=("memories",))  # made by stage, then in order
    assert panel_named("late", (late, early)) is late
    with pytest.raises(KeyError):
        panel_named("missing")


def test_a_factory_may_live_in_another_module() -> None:
    assert replace(ONE, factory="pkg.wiring:build").factory_path == ("pkg.wiring", "build")
    assert ONE.factory_path == ("some.module", "build_panel")
