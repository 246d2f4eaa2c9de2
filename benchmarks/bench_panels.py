"""GUI-thread CPU of the docked panels' build steps, the flow layout and the inbox's poll.

    .venv/bin/python benchmarks/bench_panels.py [--memories N] [--drafts N] [--old main --rounds 3]

The window opens a generated vault (the fake embedder) and builds its docked panels after the
first paint, one step per event-loop turn (``PanelDocks``). Each step is timed as the GUI
thread's CPU (``time.thread_time``: unlike a wall-clock stall it does not grow with the
machine's load): the editor's parts, each panel's build with its dock's placement, and the
relayout the placement asks for (the posted ``LayoutRequest`` events, handled at once after the
step here — the event loop handles them in its next turn). Also counted: every call Qt makes
into the Python flow layout (``FlowLayout``: how many, their CPU, the longest), and the inbox's
poll of a folder of ``--drafts`` drafts, run 20 times on the GUI thread.

``--old REF`` runs REF's code too (``git archive``), each round in fresh processes, alternating.
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SOURCE = Path(os.environ.get("PIXELMEM_BENCH_SOURCE", ROOT))
POLLS = 20


def timed_steps(steps: list[tuple[str, float]]) -> None:
    """Time PanelDocks' steps and the relayout after each one (GUI thread CPU, ms)."""
    from PySide6.QtCore import QCoreApplication, QEvent

    from pixelmem.gui.window.panel_docks import PanelDocks

    def relayout() -> float:
        start = time.thread_time()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        return (time.thread_time() - start) * 1000

    def wrap(name: str, label: Callable[[tuple[Any, ...]], str]) -> None:
        original = getattr(PanelDocks, name)

        def step(self: Any, *args: Any, **kwargs: Any) -> Any:
            start = time.thread_time()
            try:
                return original(self, *args, **kwargs)
            finally:
                steps.append((label(args), (time.thread_time() - start) * 1000))
                steps.append((f"{label(args)}: relayout", relayout()))

        setattr(PanelDocks, name, step)

    wrap("_build", lambda args: f"panel {args[0].name}")
    wrap("_prepare_part", lambda args: f"before {args[0].name.lower()}")


def counted_flow_calls(calls: collections.Counter[str], cpu: list[float]) -> None:
    """Count Qt's calls into FlowLayout's overrides and time the outermost ones."""
    from pixelmem.gui.widgets.flow_layout import FlowLayout

    depth = [0]
    for name in ("heightForWidth", "hasHeightForWidth", "minimumSize", "sizeHint", "setGeometry"):
        original = getattr(FlowLayout, name)

        def call(self: Any, *args: Any, _original: Any = original, _name: str = name) -> Any:
            calls[_name] += 1
            if depth[0]:
                return _original(self, *args)
            depth[0] += 1
            start = time.thread_time()
            try:
                return _original(self, *args)
            finally:
                depth[0] -= 1
                cpu.append((time.thread_time() - start) * 1000)

        setattr(FlowLayout, name, call)


def measure(memories: int, drafts: int) -> dict[str, Any]:
    """In this process, with the pixelmem of ``SOURCE``: the window's start, timed."""
    sys.path.insert(0, str(SOURCE))
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from pixelmem.core.blas_threads import use_one_blas_thread

    use_one_blas_thread()
    import bench_ui

    from pixelmem.core.archive.inbox import Inbox
    from pixelmem.core.index.engine import Engine
    from pixelmem.core.settings import Settings
    from pixelmem.gui.app import create_application

    app = create_application()
    steps: list[tuple[str, float]] = []
    calls: collections.Counter[str] = collections.Counter()
    flow_cpu: list[float] = []
    timed_steps(steps)
    counted_flow_calls(calls, flow_cpu)
    with tempfile.TemporaryDirectory(prefix="pixelmem-bench-panels-") as folder:
        os.environ["PIXELMEM_CONFIG_DIR"] = str(Path(folder) / "config")
        vault = Path(folder) / "vault"
        bench_ui.generate_vault(vault, memories, seed=1)
        inbox = Inbox(vault)
        for n in range(drafts):
            inbox.add(f"Draft {n}", f"Proposed by a tool, number {n}.", ["inbox"], "low", "mcp")
        settings = Settings()
        engine = Engine(vault, settings, embedder=bench_ui.pick_embedder("fake")[0])
        window = bench_ui.make_window(engine, settings)
        window.start()
        bench_ui.wait_until(lambda: window.session.index_ready, timeout=600)
        bench_ui.wait_until(lambda: all(window.panels.is_built(s) for s in _stages()), 60)
        bench_ui.pause(1.0)
        view = window.inbox
        polls = []
        for _ in range(POLLS):
            start = time.thread_time()
            view.poll()
            polls.append((time.thread_time() - start) * 1000)
            bench_ui.pause(0.05)
        bench_ui.close(window)
    del app
    return {
        "steps": steps,
        "flow_calls": sum(calls.values()),
        "flow_cpu": sum(flow_cpu),
        "flow_longest": max(flow_cpu, default=0.0),
        "poll_median": statistics.median(polls),
        "poll_longest": max(polls),
    }


def _stages() -> list[Any]:
    from pixelmem.gui.panels.registry import Stage

    return list(Stage)


def run_code(name: str, source: Path, args: argparse.Namespace) -> dict[str, Any] | None:
    env = dict(os.environ, PIXELMEM_BENCH_SOURCE=str(source), QT_QPA_PLATFORM="offscreen")
    command = [sys.executable, __file__, "--child", f"--memories={args.memories}"]
    out = subprocess.run(
        [*command, f"--drafts={args.drafts}"], env=env, capture_output=True, text=True
    )
    lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
    if not lines:
        print(f"{name} failed:\n{out.stdout[-2000:]}{out.stderr[-2000:]}")
        return None
    return json.loads(lines[-1])


def report(name: str, runs: list[dict[str, Any]]) -> None:
    longest = [max(runs_steps(r), key=lambda s: s[1]) for r in runs]
    over = ", ".join(str(sum(cpu > 8 for _, cpu in runs_steps(r))) for r in runs)
    steps = "; ".join(f"{cpu:.1f} ms ({label})" for label, cpu in longest)
    flow = "; ".join(
        f"{r['flow_calls']} calls, {r['flow_cpu']:.1f} ms in all, longest {r['flow_longest']:.2f}"
        for r in runs
    )
    polls = "; ".join(
        f"median {r['poll_median']:.3f} ms, longest {r['poll_longest']:.3f}" for r in runs
    )
    print(f"  {name}")
    print(f"    longest step: {steps} — steps over 8 ms: {over}")
    print(f"    flow layout: {flow}")
    print(f"    inbox poll on the GUI thread: {polls}")


def runs_steps(run: dict[str, Any]) -> list[tuple[str, float]]:
    return [(label, cpu) for label, cpu in run["steps"]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--memories", type=int, default=2000)
    parser.add_argument("--drafts", type=int, default=200)
    parser.add_argument("--old", help="git ref to measure too (before/after, same run)")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--steps", action="store_true", help="print every step of every run")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.memories, args.drafts)), flush=True)
        return
    from _old_code import alternate_rounds

    results = alternate_rounds(
        args.old,
        args.rounds,
        lambda name, source: run_code(name, source, args),
        "pixelmem-bench-panels-",
    )
    print(
        f"GUI thread CPU building the docked panels, {args.memories} memories, {args.drafts} "
        f"drafts, {args.rounds} round(s), load {os.getloadavg()}"
    )
    for name, runs in results.items():
        if runs:
            report(name, runs)
        if args.steps:
            for run in runs:
                print("    " + ", ".join(f"{label} {cpu:.1f}" for label, cpu in run["steps"]))


if __name__ == "__main__":
    main()
