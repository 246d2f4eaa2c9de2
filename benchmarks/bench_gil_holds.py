"""Which calls keep the GIL from the window while a vault is scanned and indexed, by line.

    .venv/bin/python benchmarks/bench_gil_holds.py                 # 10k memories
    .venv/bin/python benchmarks/bench_gil_holds.py --old main      # and main's code, same run

The window's thread needs the GIL to react; a worker hands it over every switch interval
(1 ms in the app) between Python bytecodes, but not inside one C call (a numpy pass,
``msgpack.packb``, ``np.concatenate`` over many arrays) nor during a garbage collection. This
runs the steps the app's workers run when a vault opens for the first time (scan, the scan
cache written, the keyword-first snapshot, embedding with a fast fake model, the final
snapshot, the link graph and the timeline, the map's vector sums), headless, and reports:

* every C call that ran ``--over`` ms or more while a probe thread asking for the GIL every
  0.5 ms got nowhere: the function, the Python line that called it and how long;
* every garbage collection of ``--over`` ms or more, its generation and the line that set it
  off.

A profiler hook (``threading.setprofile``) sees each C call's start and end; the probe's
counter says whether another thread ran meanwhile, and its scheduler counters how long it
itself waited for a CPU (the machine's load, subtracted). Holds are CPU work, so they vary
less with the load than bench_ui's stalls; run it on a quiet machine all the same.
"""

from __future__ import annotations

import argparse
import gc
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SOURCE = Path(os.environ.get("PIXELMEM_BENCH_SOURCE", ROOT))
sys.path.insert(0, str(SOURCE))
sys.path.insert(0, str(ROOT / "benchmarks"))

PROBE_S = 0.0005
SWITCH_S = 0.001  # the app's (pixelmem.gui.app.GIL_SWITCH_SECONDS)


def _cpu_wait(native_id: int) -> float:
    try:
        return int(Path(f"/proc/self/task/{native_id}/schedstat").read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


class Probe:
    """A thread that counts its wake-ups (each needs the GIL) and its waits for a CPU."""

    def __init__(self) -> None:
        self.ticks = 0
        self.cpu_wait = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="gil-probe", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        me = threading.get_native_id()
        while not self._stop.is_set():
            time.sleep(PROBE_S)
            self.ticks += 1
            self.cpu_wait = _cpu_wait(me)


def _where(frame: FrameType | None) -> str:
    """The innermost frame of ours (pixelmem or benchmarks) as ``module.function:line``."""
    while frame is not None:
        path = Path(frame.f_code.co_filename)
        if SOURCE in path.parents and ".venv" not in path.parts and "bench_gil" not in path.name:
            return f"{path.stem}.{frame.f_code.co_name}:{frame.f_lineno}"
        frame = frame.f_back
    return "?"


class HoldFinder:
    """C calls and collections during which the probe could not run, ``over`` ms or more."""

    def __init__(self, over_ms: float) -> None:
        self.over = over_ms / 1000
        self.probe = Probe()
        self.holds: dict[str, list[float]] = defaultdict(list)
        self._calls: dict[int, list[tuple[float, ...]]] = defaultdict(list)
        self._gc: dict[int, tuple[float, int, float, float]] = {}
        self._gc_seconds: dict[int, float] = defaultdict(float)  # per thread, so far

    def __enter__(self) -> HoldFinder:
        sys.setswitchinterval(SWITCH_S)
        self.probe.start()
        threading.setprofile(self._profile)
        sys.setprofile(self._profile)
        gc.callbacks.append(self._collected)
        return self

    def __exit__(self, *exc: object) -> None:
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]
        gc.callbacks.remove(self._collected)
        self.probe.stop()

    def _stamp(self) -> tuple[float, int, float, float]:
        return time.perf_counter(), self.probe.ticks, self.probe.cpu_wait, time.thread_time()

    def _held(self, began: tuple[float, ...]) -> float:
        """Seconds since ``began`` the probe could not run (0 if it did run), at most the CPU
        time this thread had meanwhile (a holder that lost its CPU to another program, the
        machine's load, is not a long call)."""
        now, ticks, waited, cpu = self._stamp()
        if ticks - int(began[1]) > 1:  # the probe ran meanwhile: the GIL was let go
            return 0.0
        return min((now - began[0]) - (waited - began[2]), cpu - began[3])

    def _profile(self, frame: FrameType, event: str, arg: Any) -> None:
        me = threading.get_ident()
        if event == "c_call":
            self._calls[me].append((*self._stamp(), self._gc_seconds[me]))
        elif event in ("c_return", "c_exception"):
            stack = self._calls[me]
            if not stack:
                return
            *began, collecting = stack.pop()
            # A collection the call set off is reported as such, not as the call's.
            held = self._held(tuple(began)) - (self._gc_seconds[me] - collecting)
            if held >= self.over:
                name = getattr(arg, "__qualname__", None) or getattr(arg, "__name__", "?")
                module = getattr(arg, "__module__", None) or type(getattr(arg, "__self__", ""))
                self.holds[f"{_where(frame)} {module}.{name}"].append(held * 1000)

    def _collected(self, phase: str, info: dict[str, int]) -> None:
        me = threading.get_ident()
        if phase == "start":
            self._gc[me] = self._stamp()
            return
        began = self._gc.pop(me, None)
        if began is None:
            return
        held = min(
            (time.perf_counter() - began[0]) - (self.probe.cpu_wait - began[2]),
            time.thread_time() - began[3],
        )
        self._gc_seconds[me] += held
        if held >= self.over:
            where = _where(sys._getframe(0).f_back)
            self.holds[f"{where} garbage collection, generation {info['generation']}"].append(
                held * 1000
            )

    def report(self, label: str) -> None:
        if not self.holds:
            print(f"{label}: no GIL hold ≥ {self.over * 1000:.0f} ms")
            return
        ranked = sorted(self.holds.items(), key=lambda kv: -max(kv[1]))
        longest = max(max(v) for v in self.holds.values())
        count = sum(len(v) for v in self.holds.values())
        print(f"{label}: {count} GIL holds ≥ {self.over * 1000:.0f} ms, longest {longest:.1f} ms")
        for where, times in ranked:
            print(f"  {len(times):>4}× longest {max(times):6.1f} ms, total {sum(times):7.1f} ms"
                  f"  {where}")  # fmt: skip


class FakeEmbedder:
    """Fast and deterministic: a hashed bag of words, 384-d (no model's time in the way)."""

    model_id, dim = "bench:gil-holds", 384

    def embed_documents(self, texts: list[str]) -> Any:
        import numpy as np

        out = np.zeros((len(texts), self.dim), np.float32)
        for row, text in enumerate(texts):
            for word in text.split()[:64]:
                out[row, hash(word) % self.dim] += 1.0
        out[:, 0] += 1.0
        return out / np.linalg.norm(out, axis=1, keepdims=True)

    def embed_query(self, text: str) -> Any:
        return self.embed_documents([text])[0]


def steps(vault: Path) -> list[tuple[str, Callable[[], object]]]:
    """What the app's workers run when the vault opens for the first time, in order."""
    from pixelmem.core.index.engine import Engine
    from pixelmem.core.insight.timeline import build_timeline
    from pixelmem.core.settings import Settings
    from pixelmem.core.vault.links import LinkGraph

    engine = Engine(vault, Settings(), embedder=FakeEmbedder())
    store = engine.store
    memories = getattr(store, "view", store.list)  # the read-only view where the code has one

    def index_sums() -> object:
        return engine.index.memory_vector_sums()

    return [
        ("scan (the scan cache written)", store.scan),
        ("link graph", lambda: LinkGraph(memories(), store.root)),
        ("timeline", lambda: build_timeline(memories())),
        ("index (keyword-first snapshot, embedding, final snapshot)", engine.reindex),
        ("map's vector sums", index_sums),
        ("link graph again", lambda: LinkGraph(memories(), store.root)),
    ]


def run(memories: int, over: float, vault: Path | None) -> None:
    import numpy as np
    from _vaultgen import generate_vault

    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, load {os.getloadavg()}, "
          f"pixelmem from {SOURCE}")  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="pixelmem-gil-") as tmp:
        os.environ["PIXELMEM_CONFIG_DIR"] = str(Path(tmp) / "config")
        target = Path(tmp) / "vault"
        if vault is None:
            generate_vault(target, memories, seed=1)
        else:
            import shutil

            shutil.copytree(vault, target, ignore=shutil.ignore_patterns(".pixelmem"))
        total = HoldFinder(over)
        for label, step in steps(target):
            finder = HoldFinder(over)
            start = time.perf_counter()
            with finder:
                step()
            print(f"\n{label}: {time.perf_counter() - start:.2f} s (profiled)")
            finder.report("  ")
            for where, times in finder.holds.items():
                total.holds[where].extend(times)
        print()
        total.report(f"all steps, load {os.getloadavg()[0]:.1f}")


def compare(args: argparse.Namespace) -> None:
    """This checkout and ``args.old`` in their own processes, one after the other."""
    with tempfile.TemporaryDirectory(prefix="pixelmem-gil-old-") as tmp:
        tree = Path(tmp) / "old"
        subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(tree), args.old],
                       cwd=ROOT, check=True)  # fmt: skip
        try:
            for name, source in ((f"old {args.old}", tree), ("this checkout", ROOT)):
                print(f"\n######## {name}", flush=True)
                env = dict(os.environ, PIXELMEM_BENCH_SOURCE=str(source))
                forwarded = [f"--memories={args.memories}", f"--over={args.over}"]
                if args.vault:
                    forwarded.append(f"--vault={args.vault}")
                subprocess.run([sys.executable, __file__, *forwarded], env=env, check=False)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT,
                           check=False)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--over", type=float, default=8.0, help="report holds of this many ms")
    parser.add_argument("--vault", type=Path, help="copy this vault instead of generating one")
    parser.add_argument("--old", help="git ref to measure too (its own process, first)")
    args = parser.parse_args()
    if args.old:
        compare(args)
    else:
        run(args.memories, args.over, args.vault)


if __name__ == "__main__":
    main()
