"""Imports after PySide6 is loaded cost what they cost without it.

PySide6 hooks ``import``: for every module imported after it loads, its ``__feature__``
support asks whether the module mentions "PySide6", by ``inspect.getsource`` — the whole
file read through ``linecache`` and split into lines in Python, while the importing thread
holds the GIL. The app imports most of its modules after Qt (at launch, and later on
workers: the panels' modules, the search stack, httpx), so every one paid that: 449 modules
took 460-480 ms to import instead of 380-410 (CPU, same machine), and a worker importing
held the GIL the window needs (bench_ui --why, indexing: ``linecache.updatecache`` in
stalls of the window's thread and of the workers beside it).

:func:`install` answers the same question by reading the file's bytes and searching them
(two C calls); a module without a ``.py`` file, or one it cannot read, still gets PySide's
own answer. Rules: the answer is PySide's own (a module's source is its file); when
PySide's internals are not where this expects them, nothing is changed.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import ModuleType

FEATURE_MODULE = "shibokensupport.feature"  # PySide6's __feature__ support, loaded with it
_MARK = "_pixelmem_reads_bytes"


def install() -> bool:
    """Replace PySide's source check with one that reads bytes; True when it is in place.
    Where PySide6 does not load, nothing happens here: the app's start says why
    (``system_check``, which must not fail on this package's import)."""
    try:
        import PySide6  # noqa: F401  (loads the feature support that is replaced here)
    except ImportError:
        return False
    feature = sys.modules.get(FEATURE_MODULE)
    original = getattr(feature, "_mod_uses_pyside", None)
    if feature is None or not callable(original):
        return False
    if not getattr(original, _MARK, False):
        feature._mod_uses_pyside = uses_pyside_reading_bytes(original)  # type: ignore[attr-defined]
    return True


def uses_pyside_reading_bytes(
    original: Callable[[ModuleType], bool],
) -> Callable[[ModuleType], bool]:
    """PySide's ``_mod_uses_pyside``: "PySide6" in the module's source, read as bytes."""

    def uses_pyside(module: ModuleType) -> bool:
        path = getattr(module, "__file__", None)
        if not isinstance(path, str) or not path.endswith(".py"):
            return original(module)
        try:
            with open(path, "rb") as source:
                return b"PySide6" in source.read()
        except OSError:
            return original(module)

    setattr(uses_pyside, _MARK, True)
    return uses_pyside
