"""Keeping Python's cyclic garbage collector away from big builds of objects that live on.

Reading a 10k-memory vault from the scan cache makes ~200k containers (msgpack's lists and
dicts, then the memories) that all live on. Each allocation burst triggers collections that
walk the growing heap for nothing to free: ~30 % of the scan's time on the development VM
(benchmarks/bench_ui.py, launch). The collector is paused for the build, not tuned globally.

Pausing alone only postpones the walk: the first collection after the pause found all of
them young (generation 0: 29 ms) and the next ones walked them again as they aged (up to
~110 ms for a full collection), holding the GIL from every other thread, the window's
included (benchmarks/bench_gil_holds.py). A build whose objects live on (``keep=True``: the
scanned table, a search snapshot's chunks) therefore ends with :func:`gc.freeze`: everything
alive is moved where collections never look. Refcounting still frees those objects when they
are dropped; only a reference cycle among them would outlive its use, and these builds make
none. Collections after that walk only what was made since.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def collector_paused(*, keep: bool = False) -> Iterator[None]:
    """Run the block with the cyclic collector off; back on after it if it was on before.
    ``keep``: what the block built lives on, freeze it (and the rest of the heap) at the end.

    The switch is process-wide: another thread building at the same time may see it on again
    sooner (only slower, never wrong); it is never left off by this function.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if keep:
            gc.freeze()
        if was_enabled:
            gc.enable()
