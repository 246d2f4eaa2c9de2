"""Native stacks of every thread across a stall: what Python-level sampling cannot see.

``sys._current_frames`` shows only threads that run Python, and only once the sampler gets
the GIL; a GUI thread busy in Qt's C++ (a layout, a font look-up, a paint) or blocked on a
lock shows as "the event loop". :class:`NativeView` runs ``perf record`` on this process
(every thread, kernel and user space, stacks unwound by DWARF) with three kinds of events:

* ``cpu-clock`` samples: where each thread ran;
* ``sched:sched_switch``: where a thread left its CPU, and why (``prev_state`` ``S``/``D``:
  it blocked — a lock, the GIL, I/O — and the stack says on what; ``R``: it was preempted,
  still runnable: another program or thread took the CPU);
* ``sched:sched_waking``: who woke whom — the thread that released the lock (the GIL) the
  GUI thread waited for, with the stack where it did.

Timestamps are CLOCK_MONOTONIC (``perf record -k mono``), the clock of ``time.perf_counter``
on Linux, so a stall's (start, end) from the heartbeat selects its events directly.
:meth:`NativeView.describe` puts that in a few lines per stall. Needs ``perf`` and the right
to trace this process (root, or ``perf_event_paranoid`` ≤ 1); without them it says so once
and the report is the Python-level one.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

SAMPLE_HZ = 500
STACK_BYTES = 8192  # of each thread's stack copied per event, for DWARF unwinding
SHOWN_FRAMES = 7
OFF_CPU_SHOWN_MS = 2.0  # the GUI thread's shorter absences are not listed
_EVENTS = ("cpu-clock", "sched:sched_switch", "sched:sched_waking")
# Kernel frames that say nothing about why a thread stopped (the scheduler itself).
_SCHEDULER = {"__schedule", "schedule", "schedule_hrtimeout_range_clock", "[unknown]"}


@dataclass(frozen=True)
class Event:
    at: float  # CLOCK_MONOTONIC seconds
    pid: int  # not this process's: a child it started (perf follows children too)
    tid: int
    kind: str  # "cpu", "switch" or "waking"
    detail: str  # switch: prev_state; waking: the woken tid
    frames: tuple[str, ...]  # innermost first: "symbol (library)"


class NativeView:
    """``perf record`` on this process from :meth:`start` to :meth:`stop`."""

    def __init__(self, process: subprocess.Popen, data: Path) -> None:
        self._process = process
        self._data = data
        self.events: list[Event] = []
        self.names: dict[int, str] = {}
        self._children: dict[int, int] = {}  # thread → process, of the children

    @classmethod
    def start(cls) -> NativeView | None:
        perf = shutil.which("perf")
        if perf is None:
            print("native stacks: perf is not installed (apt-get install linux-perf)")
            return None
        data = Path(tempfile.mkdtemp(prefix="pixelmem-native-")) / "perf.data"
        command = [perf, "record", "-q", "-k", "mono", "-p", str(os.getpid()), "-o", str(data),
                   "-F", str(SAMPLE_HZ), "--call-graph", f"dwarf,{STACK_BYTES}"]  # fmt: skip
        for event in _EVENTS:
            command += ["-e", event]
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(0.5)  # perf attaches to every thread before the measured part begins
        if process.poll() is not None:
            print(f"native stacks: perf record failed: {process.stderr.read().decode()[-300:]}")
            return None
        return cls(process, data)

    def stop(self) -> None:
        """Stop recording and read the events (the threads' names as Python knows them)."""
        self.names = {t.native_id: t.name for t in threading.enumerate() if t.native_id}
        self.names[threading.main_thread().native_id or 0] = "GUI"
        self._process.send_signal(signal.SIGINT)
        self._process.wait(timeout=120)
        out = subprocess.run(
            ["perf", "script", "-i", str(self._data), "-F", "pid,tid,time,event,trace,ip,sym,dso"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout
        self.events = list(_parse(out))
        me = os.getpid()
        self._children = {e.tid: e.pid for e in self.events if e.pid != me}
        shutil.rmtree(self._data.parent, ignore_errors=True)

    def describe(self, start: float, end: float, gui: int) -> list[str]:
        """What every thread did natively from ``start`` to ``end`` (GUI thread ``gui``)."""
        inside = [e for e in self.events if start <= e.at <= end]
        lines = []
        mine = [e for e in inside if e.tid == gui]
        ran = Counter(_signature(e.frames) for e in mine if e.kind == "cpu")
        ran_total = sum(ran.values())
        if ran:
            top, n = ran.most_common(1)[0]
            lines.append(f"GUI ran {ran_total} samples, most at: {top} ({n})")
        for e in mine:
            gap = _next_on_cpu(self.events, e, end) if e.kind == "switch" else 0.0
            if gap >= OFF_CPU_SHOWN_MS:
                lines.append(
                    f"GUI off CPU at +{(e.at - start) * 1000:.1f} ms for {gap:.1f} ms "
                    f"({e.detail}): {_signature(e.frames, kernel=True)}"
                )
        for e in inside:  # a lock released to the GUI thread (not a timer that fired)
            woke = e.kind == "waking" and e.detail == str(gui) and e.tid != gui
            if woke and any(f.startswith("futex_wake") for f in e.frames):
                lines.append(
                    f"GUI woken at +{(e.at - start) * 1000:.1f} ms by {self._name(e.tid)}: "
                    f"{_signature(e.frames)}"
                )
        others: dict[int, Counter[str]] = defaultdict(Counter)
        for e in inside:
            if e.kind == "cpu" and e.tid != gui:
                others[e.tid][_signature(e.frames)] += 1
        for tid, seen in sorted(others.items(), key=lambda kv: -sum(kv[1].values())):
            top, n = seen.most_common(1)[0]
            total = sum(seen.values())
            lines.append(f"{self._name(tid)} ran {total} samples, most at: {top} ({n})")
        return lines or ["no native event in the stall"]

    def _name(self, tid: int) -> str:
        if tid in self._children:
            return f"child process {self._children[tid]} [{tid}]"
        return f"{self.names.get(tid, 'thread')} [{tid}]"


def _next_on_cpu(events: list[Event], switch: Event, end: float) -> float:
    """How long (ms) the thread stayed off its CPU after ``switch`` (until its next event)."""
    mine = (e for e in events if e.tid == switch.tid and e.kind != "waking")
    later = [e.at for e in mine if e.at > switch.at]
    return ((min(later) if later else end) - switch.at) * 1000


def _signature(frames: tuple[str, ...], kernel: bool = False) -> str:
    """The innermost frames, in user space (plus the kernel's reason to wait with ``kernel``),
    up to the first interpreter frame: the C call Python made, or Qt's own work."""
    user = [f for f in frames if "kernel.kallsyms" not in f]
    shown = []
    if kernel:
        waits = [f for f in frames if "kernel.kallsyms" in f and f.split()[0] not in _SCHEDULER]
        if waits:
            shown.append(waits[0])
    for frame in user:
        shown.append(frame)
        if frame.startswith("_PyEval_EvalFrameDefault") or len(shown) >= SHOWN_FRAMES:
            break
    return " < ".join(shown) if shown else "kernel: " + " < ".join(frames[:3])


def _parse(out: str):
    """perf script's text: a header line per event, then its frames, then a blank line."""
    header: str | None = None
    frames: list[str] = []
    for line in [*out.splitlines(), ""]:
        if not line.strip():
            if header is not None:
                event = _event(header, tuple(frames))
                if event is not None:
                    yield event
            header, frames = None, []
        elif header is None:
            header = line
        else:
            parts = line.split(None, 1)
            if len(parts) == 2:
                symbol, dso = parts[1].rsplit(" (", 1) if " (" in parts[1] else (parts[1], "")
                frames.append(f"{symbol} ({Path(dso.rstrip(')')).name})")


def _event(header: str, frames: tuple[str, ...]) -> Event | None:
    # "18187/18189 70085.099300: sched:sched_waking: comm=python pid=18187 prio=120 …"
    try:
        ids, rest = header.strip().split(None, 1)
        pid_text, _, tid_text = ids.partition("/")
        at_text, name, trace = [*rest.split(":", 2), "", ""][:3]
        if name.strip() == "sched":  # "sched:sched_switch: prev_comm=…"
            name, _, trace = trace.partition(":")
        at, pid, tid = float(at_text), int(pid_text), int(tid_text)
    except ValueError:
        return None
    fields = dict(p.split("=", 1) for p in trace.split() if "=" in p)
    if "sched_switch" in name:
        return Event(at, pid, tid, "switch", fields.get("prev_state", "?"), frames)
    if "sched_waking" in name:
        return Event(at, pid, tid, "waking", fields.get("pid", ""), frames)
    return Event(at, pid, tid, "cpu", "", frames)
