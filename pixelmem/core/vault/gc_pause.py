"""Pausing Python's cyclic garbage collector while a scan builds its table.

Reading a 10k-memory vault from the scan cache makes ~200k containers (msgpack's lists and
dicts, then the memories) that all live on. Each allocation burst triggers collections that
walk the growing heap for nothing to free: ~30 % of the scan's time on the development VM
(benchmarks/bench_ui.py, launch). The collector is paused for the build, not tuned globally.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Run the block with the cyclic collector off; back on after it if it was on before.

    The switch is process-wide: another thread building at the same time may see it on again
    sooner (only slower, never wrong); it is never left off by this function.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
