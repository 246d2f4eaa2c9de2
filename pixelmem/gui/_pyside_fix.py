"""Work around a PySide6 6.12.0 reference-count bug that crashes the app after a while.

On Python < 3.12, PySide6 6.12.0 drops one reference to ``None`` (and to ``True``/``False``)
each time C++ calls a Python override of a virtual function: every ``paint``,
``paintEvent``, ``QRunnable.run``, ``filterAcceptsRow``. After some tens of thousands of
calls ``None``'s count reaches zero and CPython aborts ("deallocating None"). 6.11.3 does not
do this, and on Python 3.12+ these objects are immortal, so neither is affected.

The fix belongs in the dependency pin (exclude 6.12.0); until every install has it, this
gives the three singletons a reference count so large that the leak can never reach zero,
which is what Python 3.12 does for them anyway. It runs once, at import, before any thread.
"""

from __future__ import annotations

import ctypes
import sys

import PySide6

AFFECTED_VERSIONS = frozenset({"6.12.0"})
HEADROOM = 1 << 40  # ~10^12 leaked references: centuries of repainting

_applied = False


def needed() -> bool:
    return (
        sys.implementation.name == "cpython"
        and sys.version_info < (3, 12)
        and PySide6.__version__ in AFFECTED_VERSIONS
    )


def apply() -> bool:
    """Pad the singletons' counts once if this PySide6/Python pair leaks; True if it did."""
    global _applied
    if _applied or not needed():
        return _applied
    for singleton in (None, True, False):
        # ob_refcnt is the first field of every CPython object (release and debug builds).
        ctypes.c_ssize_t.from_address(id(singleton)).value += HEADROOM
    _applied = True
    return True
