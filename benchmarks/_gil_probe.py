"""How long a call keeps other Python threads waiting: a probe thread that asks for the GIL
every half millisecond while the call runs on this one.

    with GilProbe() as probe:
        work()
    probe.longest_ms, probe.longest_cpu_wait_ms

The probe sleeps 0.5 ms, then needs the GIL to note the time. With the app's switch interval
(1 ms, ``pixelmem.gui.app.GIL_SWITCH_SECONDS``) a holder running Python hands it over within
about a millisecond; one long C call that does not release it (a numpy pass, ``msgpack.packb``,
a garbage collection) keeps the probe out for all of it, as it keeps the window's thread out.
Each gap is split by the probe's scheduler counters (Linux): the part it waited for a CPU is
the machine's load, the rest ("GIL") the call.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path
from types import TracebackType

PROBE_SLEEP_S = 0.0005
APP_SWITCH_INTERVAL_S = 0.001


def _cpu_wait_s(native_id: int) -> float:
    try:
        fields = Path(f"/proc/self/task/{native_id}/schedstat").read_text().split()
        return int(fields[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


class GilProbe:
    """The longest gap between the probe thread's wake-ups while the block ran, in ms, and
    how much of it was a wait for a CPU (the rest: waiting for the GIL)."""

    def __init__(self, switch_interval: float = APP_SWITCH_INTERVAL_S) -> None:
        self.switch_interval = switch_interval
        self.longest_ms = 0.0
        self.longest_cpu_wait_ms = 0.0
        self.gil_ms = 0.0  # the longest gap minus its CPU wait
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="gil-probe", daemon=True)
        self._old_interval = sys.getswitchinterval()

    def __enter__(self) -> GilProbe:
        sys.setswitchinterval(self.switch_interval)
        self._thread.start()
        time.sleep(0.005)  # let it start
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._stop.set()
        self._thread.join()
        sys.setswitchinterval(self._old_interval)

    def _run(self) -> None:
        me = threading.get_native_id()
        last, last_wait = time.perf_counter(), _cpu_wait_s(me)
        while not self._stop.is_set():
            time.sleep(PROBE_SLEEP_S)
            now, wait = time.perf_counter(), _cpu_wait_s(me)
            gap = (now - last - PROBE_SLEEP_S) * 1000
            cpu = (wait - last_wait) * 1000
            if gap - cpu > self.gil_ms:
                self.gil_ms = gap - cpu
                self.longest_ms, self.longest_cpu_wait_ms = gap, cpu
            last, last_wait = now, wait


def measure(label: str, work, repeat: int = 3) -> float:  # type: ignore[no-untyped-def]
    """Run ``work`` ``repeat`` times under a probe; print and return the least GIL hold (ms):
    the least is the call's own, the others add the machine's noise."""
    holds, walls = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        with GilProbe() as probe:
            work()
        walls.append(time.perf_counter() - start)
        holds.append(probe.gil_ms)
    print(
        f"  {label:<52} longest GIL hold {min(holds):6.1f} ms (runs: "
        f"{', '.join(f'{h:.1f}' for h in holds)}), wall {min(walls) * 1000:7.1f} ms",
        flush=True,
    )
    return min(holds)


if __name__ == "__main__":  # a self-check: a pure-Python loop hands over, a big sort may not
    import numpy as np

    def python_loop() -> None:
        total = 0
        for i in range(3_000_000):
            total += i

    big = np.random.default_rng(0).integers(0, 1 << 60, 4_000_000)
    print(f"load {os.getloadavg()[0]:.1f}")
    measure("pure Python loop", python_loop)
    measure("np.sort of 4M int64", lambda: np.sort(big))
    measure("np.repeat to 4M", lambda: np.repeat(np.arange(10_000), 400))
    measure("np.bincount of 4M", lambda: np.bincount(big % 100_000))
