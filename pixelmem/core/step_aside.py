"""Long background computations step aside while a person waits for an answer, or while the
window's thread is late.

A small machine has two cores and one GIL. While the map lays out 30k memories, a search
typed meanwhile shares both with it and with the window's thread: three threads wanting the
GIL, two cores, and a holder that loses its CPU stalls the window for as long (bench_ui --why,
typing over 100k chunks with the map open: most stalls had the map's layout and a search
running at once). So work nobody waits for calls :func:`step_aside` between its steps (a
block of rows, an epoch); while :func:`interactive` work runs (a search someone is typing),
the call waits until it ends, at most ``MAX_WAIT_S`` at a time so background work always
advances. Between interactive requests it runs at full speed.

The window's thread needs the GIL for every event it handles in Python. A worker running
Python between two of those steps lets it go every switch interval, but when that worker
loses its CPU while it holds the GIL, the window waits as long (bench_ui --why, indexing with
the real model: the keyword snapshot's tokenising in most of the stalls that were not the
window's own work). So the window beats while background work runs (:func:`ui_beat`, from a
timer the GUI starts when :func:`step_aside` is first called: :func:`watch_ui`), and a step
taken while the last beat is more than ``UI_LATE_S`` old sleeps until the window beats again
(at most ``UI_WAIT_S``): the window gets the GIL and a CPU without competing for them. A
window that does not beat within that time is blocked, not starved (it waits for workers to
finish, a modal loop, a long call of its own): steps go on at full speed until it beats again.

While the window builds its panels (its first second: a turn makes a panel's widgets, the
next ones polish, lay out and paint them), it says so ahead (:func:`window_building`): a step
taken meanwhile sleeps until that time has passed (at most ``limit``). Each of the window's
first calls back into Python from Qt's C++ (every new widget's virtual methods, once each)
takes the GIL; with a worker running Python beside it, each was a switch of the GIL and
often of the CPU (bench_ui --native: ~27 % of the window's time in its first 2 s).

Rules: a step between two calls takes a few milliseconds (a switch of the GIL and CPU comes
that soon); a caller holds no lock an interactive request needs while it waits.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

MAX_WAIT_S = 0.25  # a background step waits at most this long for interactive work
UI_LATE_S = 0.008  # the window's thread this late on its beat: background steps let it run
UI_WAIT_S = 0.05  # ... waiting at most this long for it
WAKE_EVERY_S = 0.1  # background steps remind the window to beat this often

_lock = threading.Lock()
_running = 0  # interactive requests in progress
_quiet = threading.Event()  # set while none is
_quiet.set()
_mine = threading.local()  # depth: interactive blocks this thread is in
_beat = 0.0  # perf_counter of the window's last beat; 0 while it does not beat
_wake: Callable[[], None] | None = None  # asks the window to beat (any thread)
_woken = 0.0  # when a step last asked
_ui_thread = 0  # the window's thread (watch_ui's caller)
_given_up = 0.0  # a beat the window did not follow within UI_WAIT_S: steps go on
_beaten = threading.Event()  # set by every beat: a waiting step wakes
_last_step = 0.0  # when background work last took a step
_building_until = 0.0  # perf_counter until which the window builds (window_building)


@contextmanager
def interactive() -> Iterator[None]:
    """Mark the block as work someone waits for: background steps wait while it runs."""
    global _running
    with _lock:
        _running += 1
        _quiet.clear()
    _mine.depth = getattr(_mine, "depth", 0) + 1
    try:
        yield
    finally:
        _mine.depth -= 1
        with _lock:
            _running -= 1
            if _running == 0:
                _quiet.set()


def step_aside(limit: float = MAX_WAIT_S) -> bool:
    """Between two steps of background work: wait while interactive work runs (at most
    ``limit`` seconds), or while the window's thread is late (at most ``UI_WAIT_S``). True
    when it waited."""
    global _last_step, _woken
    if getattr(_mine, "depth", 0) or _on_the_windows_thread():
        return False  # interactive work itself (a search building a small index) never waits
    now = _last_step = time.perf_counter()
    if _wake is not None and now - _woken > WAKE_EVERY_S:
        _woken = now
        _wake()
    if not _quiet.is_set():
        _quiet.wait(limit)
        return True
    if now < _building_until:
        return _wait_for_the_build(now, limit)
    return _let_the_window_run(now)


def window_building(seconds: float) -> None:
    """The window's thread builds for about ``seconds`` from now (called before each part,
    so the hold ends soon after the last one, or if the window goes away mid-build)."""
    global _building_until
    _building_until = max(_building_until, time.perf_counter() + seconds)


def _wait_for_the_build(now: float, limit: float) -> bool:
    end = now + limit
    while now < _building_until and now < end:
        time.sleep(min(_building_until, end) - now)
        now = time.perf_counter()
    return True


def _on_the_windows_thread() -> bool:
    """The window's thread (or the main thread, where it runs) never waits in a step: it
    would wait for work that waits for it, or freeze the window meanwhile."""
    me = threading.get_ident()
    return me == _ui_thread or me == threading.main_thread().ident


def _let_the_window_run(now: float) -> bool:
    global _given_up
    beat = _beat
    if not beat or now - beat < UI_LATE_S:
        return False
    if beat == _given_up:
        return False  # it did not beat within UI_WAIT_S: blocked (maybe waiting for us)
    # Asleep on an event the beat sets: the GIL and the CPU are the window's until then (a
    # loop of short sleeps took the GIL back at every wake-up, competing with the window).
    _beaten.clear()
    if _beat == beat:
        _beaten.wait(UI_WAIT_S)
    if _beat == beat:
        _given_up = beat
    return True


def watch_ui(wake: Callable[[], None] | None) -> None:
    """``wake()`` (callable from any thread) makes the window's thread beat (:func:`ui_beat`)
    while background work takes steps; None: no window to wait for. Called on the window's
    thread, which itself never waits in a step."""
    global _wake, _beat, _ui_thread
    _wake = wake
    _ui_thread = threading.get_ident() if wake is not None else 0
    if wake is None:
        _beat = 0.0


def ui_beat() -> None:
    """The window's thread is on time (called by its timer while background work runs)."""
    global _beat
    _beat = time.perf_counter()
    _beaten.set()


def ui_rest() -> None:
    """The window stops beating (no background work lately): steps no longer wait for it."""
    global _beat
    _beat = 0.0
    _beaten.set()


def seconds_since_last_step() -> float:
    return time.perf_counter() - _last_step


def interactive_running() -> bool:
    return not _quiet.is_set()
