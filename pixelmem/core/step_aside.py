"""Long background computations step aside while a person waits for an answer.

A small machine has two cores and one GIL. While the map lays out 30k memories, a search
typed meanwhile shares both with it and with the window's thread: three threads wanting the
GIL, two cores, and a holder that loses its CPU stalls the window for as long (bench_ui --why,
typing over 100k chunks with the map open: most stalls had the map's layout and a search
running at once). So work nobody waits for calls :func:`step_aside` between its steps (a
block of rows, an epoch); while :func:`interactive` work runs (a search someone is typing),
the call waits until it ends, at most ``MAX_WAIT_S`` at a time so background work always
advances. Between interactive requests it runs at full speed.

Rules: a step between two calls takes a few milliseconds (a switch of the GIL and CPU comes
that soon); a caller holds no lock an interactive request needs while it waits.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

MAX_WAIT_S = 0.25  # a background step waits at most this long for interactive work

_lock = threading.Lock()
_running = 0  # interactive requests in progress
_quiet = threading.Event()  # set while none is
_quiet.set()


@contextmanager
def interactive() -> Iterator[None]:
    """Mark the block as work someone waits for: background steps wait while it runs."""
    global _running
    with _lock:
        _running += 1
        _quiet.clear()
    try:
        yield
    finally:
        with _lock:
            _running -= 1
            if _running == 0:
                _quiet.set()


def step_aside(limit: float = MAX_WAIT_S) -> bool:
    """Between two steps of background work: wait while interactive work runs (at most
    ``limit`` seconds). True when it waited."""
    if _quiet.is_set():
        return False
    _quiet.wait(limit)
    return True


def interactive_running() -> bool:
    return not _quiet.is_set()
