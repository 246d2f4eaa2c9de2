"""Who stalled the GUI thread: a watchdog that samples every thread's Python stack while the
GUI thread is late, and a report that puts a stack on every stall.

The heartbeat (a 5 ms QTimer on the GUI thread) calls :meth:`StallWatch.beat`. A watchdog
thread wakes every ``SAMPLE_MS``; while the GUI thread is more than ``LATE_MS`` past its next
beat, it records ``sys._current_frames()``: what the GUI thread is doing, and what every
worker is doing. Sampling needs the GIL, so the watchdog also measures how late it woke
itself: a watchdog that woke 40 ms late could not get the GIL (or a CPU) for 40 ms.

Reading a stall (a gap between beats longer than ``REPORT_MS`` + the period):

* the GUI thread's stack holds pixelmem frames above the event loop: the GUI thread itself
  worked that long (a slot, a paint, a signal's payload);
* a garbage collection ran across it (any thread: the collector holds the GIL for all of
  its pass, and a full one walks every object not frozen): the report names the
  generation, how long it ran, on which thread and where that thread allocated;
* it shows only the event loop: it was waiting for the GIL (or, under load, a CPU). The
  watchdog starved as long, and the worker stacks sampled right after it got the GIL show the
  call that held it (the line a worker is on when the GIL comes back). When a worker waited
  about as long for a CPU meanwhile ("a worker waited N ms"), the holder had lost its CPU to
  another program while holding the GIL: the machine's load, not a long call (typical when
  the stack ends on a Python line, not in a C call).

Where the GUI thread waited in the kernel: a separate process (it needs no GIL, so it sees
the GUI thread even while the GIL is held) reads the GUI thread's state and wait channel from
/proc every ``SAMPLE_MS`` (Linux); each "GUI waiting" line ends with the most frequent ones
during the stall — ``futex_wait_queue`` is a lock (the GIL, or a Qt mutex), ``R`` running or
waiting for a CPU, ``do_epoll_wait``/``do_sys_poll`` the event loop idle, a page-fault or
I/O channel the disk. The same process reads the CPU time the hypervisor took from the
machine (``steal`` in ``/proc/stat``): a stall across which it took some was the whole virtual
machine paused — no thread ran, none waited for a CPU it could see, and the stall reads as
the window's own with no stack to show for it.

With ``native``, ``perf record`` follows every thread's native stack too
(:mod:`_native_stacks`), and each cause's longest stall gets lines on what the GUI thread ran
in C/C++, where it blocked and who woke it, and what the other threads ran: the stalls whose
GUI stack shows no Python frame.

Stacks are load-independent evidence; stall lengths are only meaningful on a quiet machine.
"""

from __future__ import annotations

import gc
import os
import sys
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

from _native_stacks import NativeView

SAMPLE_MS = 2.0
LATE_MS = 8.0  # sample once the GUI thread is this late (a stall worth reporting is > 16)
REPORT_MS = 16.0
ROOT = Path(__file__).resolve().parent.parent
_EVENT_LOOP = {"exec", "exec_", "wait_until", "pause", "processEvents"}
GC_NOTED_MS = 2.0  # collections shorter than this are not recorded


@dataclass(frozen=True)
class Collection:
    """One pass of the cyclic garbage collector: when, which generation, where."""

    start: float
    end: float
    generation: int
    thread: str
    stack: tuple[str, ...]

    @property
    def ms(self) -> float:
        return (self.end - self.start) * 1000


@dataclass(frozen=True)
class Sample:
    at: float
    starved_ms: float  # how late the watchdog woke for this sample
    gui: tuple[str, ...]
    workers: tuple[tuple[str, ...], ...]
    # The longest any other thread of this process waited for a CPU since the last sample: a
    # GIL holder that lost its CPU to another program blocks the window as long (load).
    worker_cpu_wait_ms: float = 0.0


_KERNEL_SAMPLER = r"""
import select, sys, time
task = f"/proc/{sys.argv[1]}/task/{sys.argv[2]}"
period = float(sys.argv[3])
seen = []
while not select.select([sys.stdin], [], [], period)[0]:  # until told to stop
    try:
        state = open(task + "/stat").read().rsplit(")", 1)[1].split()[0]
        wait = "R" if state == "R" else open(task + "/wchan").read().strip() or state
        with open("/proc/stat") as stat:  # all CPUs' time stolen by the hypervisor, in ticks
            cpus = stat.readline().split()
        steal = cpus[8] if len(cpus) > 8 else "0"
    except OSError:
        break
    seen.append(f"{time.monotonic():.4f} {wait} {steal}")
sys.stdout.write("\n".join(seen))
"""


class KernelView:
    """A child process sampling one thread's kernel state (its own interpreter: no GIL)."""

    def __init__(self, process) -> None:
        self._process = process

    @classmethod
    def start(cls, native_id: int) -> KernelView | None:
        import subprocess

        if not Path(f"/proc/self/task/{native_id}/wchan").exists():
            return None
        period = str(SAMPLE_MS / 1000)
        command = [sys.executable, "-c", _KERNEL_SAMPLER, str(os.getpid()), str(native_id), period]
        process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        return cls(process)

    def stop(self) -> list[tuple[float, str, int]]:
        """(monotonic time, state, steal) samples: 'R' or the wait channel; the ticks of CPU
        time the hypervisor has taken from this machine's CPUs so far (``/proc/stat``)."""
        out, _ = self._process.communicate("stop\n", timeout=60)
        found = []
        for line in out.splitlines():
            at, wait, steal = line.split(" ")
            found.append((float(at), wait, int(steal)))
        return found


def cpu_waits(skip: set[int]) -> dict[int, float]:
    """Seconds each thread of this process (but ``skip``) has waited for a CPU (Linux)."""
    waits = {}
    for task in Path("/proc/self/task").iterdir():
        if int(task.name) in skip:
            continue
        try:
            waits[int(task.name)] = int((task / "schedstat").read_text().split()[1]) / 1e9
        except (OSError, IndexError, ValueError):
            continue
    return waits


def condense(frame: FrameType | None) -> tuple[str, ...]:
    """Outermost first: the frames in pixelmem or benchmarks, and always the innermost one."""
    frames: list[str] = []
    innermost = True
    while frame is not None:
        code = frame.f_code
        path = Path(code.co_filename)
        ours = ROOT in path.parents and ".venv" not in path.parts
        if ours or innermost:
            where = path.stem if ours else f"{path.parent.name}/{path.stem}"
            frames.append(f"{where}.{code.co_name}:{frame.f_lineno}")
        innermost = False
        frame = frame.f_back
    return tuple(reversed(frames))


def only_event_loop(stack: tuple[str, ...]) -> bool:
    """True when the GUI thread was only waiting in the event loop (not running our code)."""
    inner = [s for s in stack if not s.startswith(("bench_ui.", "_stalls."))]
    if not inner:
        return True
    return all(s.split(":")[0].rsplit(".", 1)[-1] in _EVENT_LOOP for s in inner)


# Causes listed per report (PIXELMEM_WHY_SHOW=40 lists more; the rest are counted).
SHOWN = int(os.environ.get("PIXELMEM_WHY_SHOW", "15"))


class StallWatch:
    """Heartbeat stamps in, stack samples out; :meth:`report` attributes each stall."""

    def __init__(self, period_ms: float, native: bool = False) -> None:
        self.period = period_ms / 1000
        self._native_wanted = native
        self._native: NativeView | None = None
        self.beats: list[float] = []
        self.samples: list[Sample] = []
        self._gui = threading.get_ident()
        self._gui_native = threading.get_native_id()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="stall-watch", daemon=True)
        self.collections: list[Collection] = []
        self._gc_started: dict[int, float] = {}

    def start(self) -> None:
        self._kernel = KernelView.start(self._gui_native)
        if self._native_wanted:
            self._native = NativeView.start()
        self.beats = [time.perf_counter()]
        self.cpu = [(0.0, 0.0)]  # per beat: the GUI thread's (running, waiting for a CPU) s
        self.samples = []
        self._stop.clear()
        self.collections = []
        gc.callbacks.append(self._collected)
        self._thread = threading.Thread(target=self._watch, name="stall-watch", daemon=True)
        self._thread.start()

    def _collected(self, phase: str, info: dict[str, int]) -> None:
        """gc.callbacks: note every collection that took GC_NOTED_MS or longer."""
        now = time.perf_counter()
        me = threading.get_ident()
        if phase == "start":
            self._gc_started[me] = now
            return
        began = self._gc_started.pop(me, None)
        if began is None or (now - began) * 1000 < GC_NOTED_MS:
            return
        frame = sys._getframe(0).f_back  # the code whose allocation set the collector off
        name = threading.current_thread().name
        self.collections.append(Collection(began, now, info["generation"], name, condense(frame)))

    def beat(self, now: float, running: float = 0.0, waiting: float = 0.0) -> None:
        """A beat at ``now``; the GUI thread ran ``running`` and waited for a CPU ``waiting``
        seconds since the last one (GUI thread)."""
        self.beats.append(now)
        self.cpu.append((running, waiting))

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()
        self.kernel = self._kernel.stop() if self._kernel is not None else []
        if self._native is not None:
            self._native.stop()
        if self._collected in gc.callbacks:
            gc.callbacks.remove(self._collected)

    def _watch(self) -> None:
        interval = SAMPLE_MS / 1000
        me = threading.get_ident()
        skip = {threading.get_native_id(), self._gui_native}
        seen = cpu_waits(skip) if Path("/proc/self/task").is_dir() else {}
        expected = time.perf_counter() + interval
        while not self._stop.is_set():
            time.sleep(interval)
            now = time.perf_counter()
            starved = max(0.0, now - expected) * 1000
            expected = now + interval
            late = (now - self.beats[-1] - self.period) * 1000
            if late < LATE_MS and starved < LATE_MS:
                continue  # (a starved watchdog samples too: the GIL holder just let go)
            frames = sys._current_frames()
            gui = condense(frames.get(self._gui))
            workers = tuple(
                condense(f) for ident, f in frames.items() if ident not in (self._gui, me)
            )
            waits = cpu_waits(skip) if seen else {}
            waited = max((w - seen.get(t, w) for t, w in waits.items()), default=0.0) * 1000
            seen = waits or seen
            self.samples.append(Sample(now, starved, gui, workers, waited))
            del frames

    # -- the report ------------------------------------------------------------------------

    def stalls(self) -> list[tuple[float, float, float, float, float]]:
        """(start, end, stall ms, ms of it the GUI thread ran, ms it waited for a CPU) of every
        gap longer than the period by > REPORT_MS. The rest of a stall it was blocked (the
        GIL, a lock)."""
        found = []
        for i in range(1, len(self.beats)):
            before, after = self.beats[i - 1], self.beats[i]
            stall = (after - before - self.period) * 1000
            if stall > REPORT_MS:
                running, waiting = (x * 1000 for x in self.cpu[i])
                found.append((before, after, stall, running, waiting))
        return found

    def attribute(self, start: float, end: float) -> str:
        """One line: a garbage collection, where the GUI thread was, or which worker call kept
        the GIL."""
        overlap = [
            (min(end, c.end) - max(start, c.start), c)
            for c in self.collections
            if c.start < end and c.end > start
        ]
        if overlap:  # a collection across most of the stall: the cause, whatever else ran
            covered, c = max(overlap, key=lambda o: o[0])
            if covered >= (end - start - self.period) / 2:
                return (
                    f"garbage collection, generation {c.generation} ({c.ms:.0f} ms) on "
                    f"{_thread_kind(c.thread)}: " + " > ".join(_tail(c.stack, 5))
                )
        inside = [s for s in self.samples if start < s.at <= end + 0.002]
        # The watchdog may get the GIL only after the GUI thread did: its first sample then
        # comes just after the stall, starved, with the holder's stack.
        after = [s for s in self.samples if end < s.at <= end + 0.03 and s.starved_ms >= LATE_MS]
        if not inside and not after:
            return "no sample"
        gui = Counter(s.gui for s in inside or after).most_common(1)[0][0]
        worst = max(inside + after, key=lambda s: s.starved_ms)
        busy = [w for w in worst.workers if w and not _idle(w)]
        held = " | ".join(" > ".join(_tail(w, 5)) for w in busy) or "no worker running Python"
        if inside and not only_event_loop(gui):
            # Sampled where it let the GIL go (a call's entry, a loop's back edge): the
            # workers that ran meanwhile may be why it ran for less than the stall.
            return "GUI thread busy: " + " > ".join(_tail(gui, 6)) + f"; workers: {held}"
        lost = max(s.worker_cpu_wait_ms for s in inside + after)
        return (
            f"GUI waiting{self._in_kernel(start, end)} (watchdog starved "
            f"{worst.starved_ms:.0f} ms, a worker waited {lost:.0f} ms for a CPU); "
            f"workers: {held}"
        )

    def _in_kernel(self, start: float, end: float) -> str:
        """' in the kernel: futex_wait_queue 9, R 2' — the GUI thread's states over the stall."""
        seen = Counter(wait for at, wait, _ in getattr(self, "kernel", []) if start < at <= end)
        if not seen:
            return ""
        return " in the kernel: " + ", ".join(f"{w} {n}" for w, n in seen.most_common(3))

    def stolen_ms(self, start: float, end: float) -> float:
        """CPU time the hypervisor took from this machine's CPUs around a stall (between the
        kernel samples just before and just after it; ticks of 10 ms, all CPUs summed): while
        it does, nothing on the machine runs, and the stall looks like the GUI thread's own."""
        kernel = getattr(self, "kernel", [])
        before = [steal for at, _, steal in kernel if at <= start]
        after = [steal for at, _, steal in kernel if at >= end]
        if not before or not after:
            return 0.0
        return (after[0] - before[-1]) * 1000 / os.sysconf("SC_CLK_TCK")

    def report(self, label: str, show: int = SHOWN) -> None:
        """Stalls grouped by cause; ranked by their longest part that was not a wait for a
        CPU (ran + blocked: what does not depend on the machine's load)."""
        stalls = self.stalls()
        self._report_collections(label)
        if not stalls:
            print(f"{label}: no stall > {REPORT_MS:.0f} ms")
            return
        groups: dict[str, list[tuple[float, float, float, float, float]]] = defaultdict(list)
        for start, end, stall, running, waiting in stalls:
            own = max(0.0, stall - waiting)
            groups[self.attribute(start, end)].append((own, stall, running, start, end))
        ranked = sorted(groups.items(), key=lambda kv: -max(kv[1])[0])
        print(
            f"{label}: {len(stalls)} stalls > {REPORT_MS:.0f} ms by cause, ranked by their "
            "longest part not waiting for a CPU ('own': the GUI thread ran or was blocked):"
        )
        for cause, found in ranked[:show]:
            own, stall, running, start, end = max(found)
            stolen = self.stolen_ms(start, end)
            print(
                f"  {len(found):>3}× own max {own:5.1f} ms (ran {running:.0f}) of a "
                f"{stall:.0f} ms stall; longest stall {max(f[1] for f in found):.0f} ms  {cause}"
                + (f" [hypervisor took {stolen:.0f} ms of CPU around it]" if stolen else "")
            )
            if self._native is not None:  # the native stacks of its longest own stall
                for line in self._native.describe(start, end, self._gui_native):
                    print(f"        native: {line}")
        if len(ranked) > show:
            print(f"  … {len(ranked) - show} more causes")

    def _report_collections(self, label: str) -> None:
        """How many collections of each generation took GC_NOTED_MS or more, the longest."""
        found = self.collections
        if not found:
            print(f"{label}: no garbage collection took {GC_NOTED_MS:.0f} ms or more")
            return
        parts = []
        for generation in range(3):
            mine = [c.ms for c in found if c.generation == generation]
            if mine:
                parts.append(f"generation {generation}: {len(mine)}, longest {max(mine):.0f} ms")
        print(f"{label}: garbage collections ≥ {GC_NOTED_MS:.0f} ms — " + "; ".join(parts))


def _thread_kind(name: str) -> str:
    """A thread's name without its number (Qt's pool threads are Dummy-1, Dummy-2…)."""
    if name == "MainThread":
        return "the GUI thread"
    return "a pool worker" if name.startswith("Dummy-") else name


def _tail(stack: tuple[str, ...], n: int) -> tuple[str, ...]:
    return stack[-n:]


def _idle(stack: tuple[str, ...]) -> bool:
    """A worker parked in a wait (a lock, a sleep, a queue): it holds no GIL."""
    inner = stack[-1].split(":")[0] if stack else ""
    return inner.endswith((".wait", ".sleep", "._wait_for_tstate_lock", ".get", ".select"))
