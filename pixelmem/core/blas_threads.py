"""One BLAS thread for the processes that bring their own concurrency: the app and the service.

Their searches run on worker threads beside other work (the UI thread, an index build, other
requests). OpenBLAS's own thread pool on top of that oversubscribes a small machine: 8 service
clients on 2 cores ran 15x slower (bench_serve: p50 541 ms instead of 35 ms), and a hybrid
search at 30k chunks while an index built took a median 28-30 ms with the pool and 13-17 ms
without it (bench_search, alternating runs). Starting the pool also costs a launch ~50 ms.
"""

from __future__ import annotations

import os

_VARIABLES = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")  # not OMP_: onnxruntime reads it


def use_one_blas_thread() -> None:
    """Ask the BLAS library for one thread, unless the user set a number. Only takes effect
    before numpy is first imported (the library reads it when it loads)."""
    for name in _VARIABLES:
        os.environ.setdefault(name, "1")
