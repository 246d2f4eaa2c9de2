"""The docks keep their shares of the window's width as it is resized (layout_policy.DockShares),
including the shares a person set by dragging a separator; no event filter stays on the window."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QObject, Qt

from pixelmem.gui.panels.registry import Stage
from pixelmem.gui.window.layout_policy import LEFT_SHARE, RIGHT_SHARE, DockShares


def _shown(qtbot, window, width: int = 1366) -> None:
    window.resize(width, 768)
    window.show()
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: window.panels.is_built(Stage.AFTER_SCAN), timeout=10_000)
    qtbot.waitUntil(
        lambda: (
            abs(_share(window, window.list_dock) - LEFT_SHARE) < 0.005
            and abs(_share(window, window.search_dock) - RIGHT_SHARE) < 0.005
        )
    )


def _share(window, dock) -> float:
    return dock.width() / window.width()


def _resized(qtbot, window, width: int) -> None:
    window.resize(width, 768)
    qtbot.wait(100)  # the shares come back one event-loop turn after Qt's own layout


def _shares_become(qtbot, window, left: float, right: float) -> None:
    def kept() -> None:
        assert _share(window, window.list_dock) == pytest.approx(left, abs=0.005)
        assert _share(window, window.search_dock) == pytest.approx(right, abs=0.005)

    qtbot.waitUntil(kept, timeout=3000)  # a loaded machine may take a few turns


@pytest.mark.parametrize("widths", [(1000, 1366), (900, 1200), (1200, 1000)])
def test_the_docks_keep_their_shares_both_ways(qtbot, window, widths) -> None:
    _shown(qtbot, window)
    for width in widths:
        _resized(qtbot, window, width)
        _shares_become(qtbot, window, LEFT_SHARE, RIGHT_SHARE)


def test_a_narrow_window_does_not_keep_the_share_it_forced(qtbot, window) -> None:
    """At 800 px the editor's minimum width takes room the docks' shares asked for; back at
    1366 px they have their shares again, not the smaller ones of the narrow window."""
    _shown(qtbot, window)
    _resized(qtbot, window, 800)
    _resized(qtbot, window, 1366)
    _shares_become(qtbot, window, LEFT_SHARE, RIGHT_SHARE)


def test_a_dragged_separator_sets_the_share_kept(qtbot, window) -> None:
    _shown(qtbot, window)
    # What dragging the list's separator does: the layout gives the dock a new width while
    # the window's stays.
    window.resizeDocks([window.list_dock], [480], Qt.Orientation.Horizontal)
    qtbot.waitUntil(lambda: window.list_dock.width() == 480)
    qtbot.wait(50)
    _resized(qtbot, window, 1200)
    _shares_become(qtbot, window, 480 / 1366, RIGHT_SHARE)


def test_no_event_filter_stays_on_the_window(qtbot, window, monkeypatch) -> None:
    """Each event the window gets would call Python (and wait for its lock) with a filter on:
    the policy's filter is gone once the window has been shown."""
    _shown(qtbot, window)
    calls: list[QEvent.Type] = []
    original = DockShares.eventFilter

    def counting(self: DockShares, watched: QObject, event: QEvent) -> bool:
        calls.append(event.type())
        return original(self, watched, event)

    monkeypatch.setattr(DockShares, "eventFilter", counting)
    window.update()
    _resized(qtbot, window, 1100)
    _shares_become(qtbot, window, LEFT_SHARE, RIGHT_SHARE)
    assert calls == []
