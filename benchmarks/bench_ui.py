"""UI responsiveness benchmarks, offscreen. Prints figures; asserts nothing.

    ./dev.sh bench ui                  # or: .venv/bin/python benchmarks/bench_ui.py
    .venv/bin/python benchmarks/bench_ui.py --embedder fake --index-memories 500   # quick

1. Longest UI-thread stall while the app indexes a 2k-memory vault from scratch (real local
   embedder when it loads, else the fake one; the script says which).
2. Longest stall while searching a 100k-chunk index as someone types (synthetic vectors).
3. Launch to a filled list on a 10k-memory vault with a warm cache, in-process and as a fresh
   process, and how many chunks were re-embedded (should be 0). ``--old REF`` launches the code
   of REF too (a temporary git worktree), alternating with this checkout, for a before/after
   in one run: ``bench_ui.py --embedder fake --only launch --old main --rounds 7``.

The stall is measured with a 5 ms QTimer heartbeat on the GUI thread: the longest gap between
two beats, minus the 5 ms period, is the longest time the window could not react; the report
also says when each stall over a frame came and the longest after the first 2 s (the window
builds its panels in its first second; what comes later is the work beside it). ``--why``
puts a cause on every stall (Python stacks, collections, the GUI thread's kernel state);
``--native`` adds every thread's native stack from ``perf`` (what no Python sampler sees: Qt's
C++, a lock, a library's own thread). The process runs with one BLAS thread, as the app does
(``--blas-pool`` keeps OpenBLAS's pool, as rounds before 9 measured).
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parent.parent
# The pixelmem measured: this checkout, or another one (``--old``'s child processes).
SOURCE = Path(os.environ.get("PIXELMEM_BENCH_SOURCE", ROOT))
sys.path.insert(0, str(SOURCE))
sys.path.insert(0, str(ROOT / "benchmarks"))

# The app's BLAS: one thread (cli._run_app sets it before numpy loads). With OpenBLAS's own
# pool, as this benchmark ran before, a pool thread spins on a CPU for a while after every
# matrix product: on 2 cores the GUI thread waited for a CPU with no Python frame anywhere
# (bench_ui --native: "blas_thread_server" on CPU through the stall). --blas-pool measures it.
from pixelmem.core.blas_threads import use_one_blas_thread  # noqa: E402

if "--blas-pool" not in sys.argv:
    use_one_blas_thread()

import numpy as np  # noqa: E402
from _stalls import StallWatch  # noqa: E402
from PySide6.QtCore import QEventLoop, QObject, Qt, QTimer  # noqa: E402

from pixelmem.core.index.chunking import Chunk  # noqa: E402
from pixelmem.core.index.engine import Engine  # noqa: E402
from pixelmem.core.index.search import SearchIndex  # noqa: E402
from pixelmem.core.settings import Settings  # noqa: E402
from pixelmem.core.vault.memory import Memory  # noqa: E402

HEARTBEAT_MS = 5
FRAME_MS = 16  # the target: no stall longer than one frame
DIM = 384

try:
    from _vaultgen import generate_vault
except ImportError:  # pragma: no cover - the shared generator is missing: a tiny local one

    def generate_vault(root: Path, n: int, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        words = ["index", "query", "garden", "tomato", "recipe", "budget", "meeting", "train"]
        root.mkdir(parents=True, exist_ok=True)
        for i in range(n):
            body = " ".join(rng.choice(words, 80))
            (root / f"note_{i:05d}.md").write_text(f"# Note {i}\n\n{body}\n", encoding="utf-8")


class FakeEmbedder:
    """Hashed bag-of-words, 384-d, L2-normalised: deterministic and fast."""

    model_id, dim = "bench:hash-bow", DIM

    def _vector(self, text: str) -> np.ndarray:
        vector = np.zeros(DIM, dtype=np.float32)
        for word in text.lower().split():
            vector[int(hashlib.blake2b(word.encode(), digest_size=4).hexdigest(), 16) % DIM] += 1
        norm = float(np.linalg.norm(vector)) or 1.0
        return vector / norm

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        return (
            np.stack([self._vector(t) for t in texts]) if texts else np.zeros((0, DIM), np.float32)
        )

    def embed_query(self, text: str) -> np.ndarray:
        return self._vector(text)


def model_id_fake(vault: Path) -> FakeEmbedder:
    """The fake embedder under the id of the model the app picks for ``vault`` by default
    (``auto``): its cache is what a real index leaves, without the minutes of embedding."""
    fake = FakeEmbedder()
    real = Engine(vault, Settings()).embedder
    if real is not None:
        fake.model_id = real.model_id  # type: ignore[misc]
    return fake


class Heartbeat(QObject):
    """A 5 ms timer on the GUI thread; every late beat is time the UI could not react.

    Each beat also reads the GUI thread's scheduler counters (Linux), so a stall splits into
    the GUI thread's own work, its wait for a CPU (the machine's load: other agents, or our
    own workers' threads) and the rest, blocked (the GIL). "Without CPU waits" is the stall a
    quiet machine would show. With ``--why``, a watchdog samples the stacks while a beat is
    late and the report puts a cause on every stall longer than a frame (_stalls.py)."""

    def __init__(self, why: bool = False, native: bool = False) -> None:
        super().__init__()
        self._timer = QTimer(self, interval=HEARTBEAT_MS)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.timeout.connect(self._beat)
        self.gaps: list[float] = []
        self.cpu_waits: list[float] = []  # seconds of each gap spent waiting for a CPU
        self._last = 0.0
        self._last_cpu = CpuClock.ZERO
        self._clock = CpuClock()
        self._watch = StallWatch(HEARTBEAT_MS, native) if why or native else None

    def start(self) -> None:
        self.gaps.clear()
        self.cpu_waits.clear()
        if self._watch is not None:  # first: starting perf (--native) takes ~0.5 s
            self._watch.start()
        self._last = time.perf_counter()
        self._last_cpu = self._clock.read()
        if self._watch is not None:
            self._watch.beats = [self._last]
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()
        if self._watch is not None:
            self._watch.stop()

    def _beat(self) -> None:
        now, cpu = time.perf_counter(), self._clock.read()
        self.gaps.append(now - self._last)
        self.cpu_waits.append(cpu.waiting - self._last_cpu.waiting)
        if self._watch is not None:
            self._watch.beat(now, cpu.running - self._last_cpu.running, self.cpu_waits[-1])
        self._last, self._last_cpu = now, cpu

    def report(self, label: str) -> None:
        if not self.gaps:
            print(f"{label}: no heartbeat recorded")
            return
        stalls = [max(0.0, g * 1000 - HEARTBEAT_MS) for g in self.gaps]
        worst = max(stalls)
        p99 = float(np.percentile(stalls, 99))
        over = sum(1 for s in stalls if s > 50)
        frames = sum(1 for s in stalls if s > FRAME_MS)
        verdict = "OK" if worst <= FRAME_MS else "OVER"
        print(
            f"{label}: longest UI stall {worst:.1f} ms (target ≤ {FRAME_MS} ms, {verdict}), "
            f"p99 {p99:.1f} ms, {frames} stalls > {FRAME_MS} ms, {over} > 50 ms, "
            f"{len(self.gaps)} beats, load {os.getloadavg()[0]:.1f}"
        )
        figures = dict(worst=worst, p99=p99, over16=frames, over50=over)
        if self._clock.works:
            own = [max(0.0, s - w * 1000) for s, w in zip(stalls, self.cpu_waits, strict=True)]
            figures.update(
                own_worst=max(own),
                own_over16=sum(1 for s in own if s > FRAME_MS),
                own_over50=sum(1 for s in own if s > 50),
            )
            print(
                f"  without the GUI thread's waits for a CPU (what a quiet machine shows): "
                f"longest {max(own):.1f} ms, {figures['own_over16']} > {FRAME_MS} ms, "
                f"{figures['own_over50']} > 50 ms; CPU waits {sum(self.cpu_waits):.1f} s in all"
            )
        figures["after_start_worst"] = self._report_when(stalls)
        record_result(label, **figures)
        if self._watch is not None:
            self._watch.report(f"{label}, why")

    def _report_when(self, stalls: list[float]) -> float:
        """Print when the stalls over a frame came, in seconds from the start: the window's
        own first seconds (building its panels) or later (the work beside it). Returns the
        longest stall after the first :data:`START_S`."""
        starts = np.cumsum(self.gaps) - np.asarray(self.gaps)
        timed = list(zip(starts.tolist(), stalls, strict=True))
        longest_after = max((s for at, s in timed if at > START_S), default=0.0)
        late = [(at, s) for at, s in timed if s > FRAME_MS]
        if late:
            shown = ", ".join(f"+{at:.2f} s ({s:.0f} ms)" for at, s in late[:MAX_WHEN])
            more = f" and {len(late) - MAX_WHEN} more" if len(late) > MAX_WHEN else ""
            after = sum(1 for at, _ in late if at > START_S)
            print(
                f"  stalls > {FRAME_MS} ms at {shown}{more}; after the first {START_S:.0f} s: "
                f"{after}, longest {longest_after:.1f} ms"
            )
        return longest_after


START_S = 2.0  # the window's first seconds: its panels are built then (report's "when")
MAX_WHEN = 12  # stalls listed by their time


class CpuClock:
    """The calling thread's time on a CPU and waiting for one (``/proc/.../schedstat``), in
    seconds; zeros where the kernel does not say."""

    class Reading(NamedTuple):
        running: float
        waiting: float

    ZERO = Reading(0.0, 0.0)

    def __init__(self) -> None:
        path = f"/proc/self/task/{threading.get_native_id()}/schedstat"
        try:
            self._fd: int | None = os.open(path, os.O_RDONLY)
        except OSError:
            self._fd = None

    @property
    def works(self) -> bool:
        return self._fd is not None

    def read(self) -> CpuClock.Reading:
        if self._fd is None:
            return self.ZERO
        running, waiting, _ = os.pread(self._fd, 96, 0).split()
        return self.Reading(int(running) / 1e9, int(waiting) / 1e9)


def record_result(label: str, **figures: float) -> None:
    """Figures for the parent of an ``--old`` comparison (a JSON file it names)."""
    out = os.environ.get("PIXELMEM_BENCH_RESULT")
    if not out:
        return
    path = Path(out)
    results = json.loads(path.read_text()) if path.exists() else {}
    results.setdefault(label, []).append(figures)
    path.write_text(json.dumps(results))


def wait_until(condition: Callable[[], bool], timeout: float) -> bool:
    """Run the event loop (idle, as the real app does) until ``condition`` or ``timeout``."""
    loop = QEventLoop()
    deadline = time.perf_counter() + timeout
    poll = QTimer(interval=10)
    poll.timeout.connect(lambda: (condition() or time.perf_counter() > deadline) and loop.quit())
    if not condition():
        poll.start()
        loop.exec()
        poll.stop()
    return condition()


def pause(seconds: float) -> None:
    wait_until(lambda: False, seconds)


def make_window(engine: Engine, settings: Settings):
    from pixelmem.gui.window.main_window import MainWindow

    window = MainWindow(engine, settings)
    window._closing_ok = True
    window.resize(1280, 800)
    window.show()
    return window


def close(window) -> None:
    from pixelmem.gui import workers

    window.session.shutdown(60_000)
    window.close()
    workers.wait_for_all(60_000)


# -- 1. indexing ---------------------------------------------------------------------------


def pick_embedder(kind: str):
    if kind == "e5":
        try:
            from pixelmem.core.providers.embeddings.e5_onnx import E5OnnxEmbedder

            embedder = E5OnnxEmbedder()
            embedder.embed_query("warm up")
            return embedder, "real E5OnnxEmbedder (multilingual-e5-small int8)"
        except Exception as exc:  # the model is optional for this benchmark
            print(f"E5OnnxEmbedder did not load ({exc}); using the fake embedder")
    if kind == "local":
        try:
            from pixelmem.core.providers.embeddings.local import LocalEmbedder

            embedder = LocalEmbedder()
            embedder.embed_query("warm up")
            return embedder, "real LocalEmbedder (all-MiniLM-L6-v2 int8)"
        except Exception as exc:  # the model is optional for this benchmark
            print(f"LocalEmbedder did not load ({exc}); using the fake embedder")
    return FakeEmbedder(), "fake hashed bag-of-words embedder"


def bench_indexing(tmp: Path, memories: int, kind: str, why: bool, native: bool) -> None:
    vault = tmp / f"index{memories}"
    generate_vault(vault, memories, seed=1)
    embedder, name = pick_embedder(kind)
    print(f"\n== 1. indexing {memories} memories from scratch with the {name} ==")
    settings = Settings()
    engine = Engine(vault, settings, embedder=embedder)
    window = make_window(engine, settings)
    beat = Heartbeat(why, native)
    beat.start()
    start = time.perf_counter()
    window.start()
    done = wait_until(lambda: window.session.index_ready, timeout=3600)
    elapsed = time.perf_counter() - start
    beat.stop()
    report = engine.last_report
    print(
        f"indexed {report.memories} memories / {report.chunks} chunks, embedded {report.embedded} "
        f"in {elapsed:.1f} s ({report.embedded / max(elapsed, 1e-9):.1f} chunks/s)"
        + ("" if done else " — TIMED OUT")
    )
    beat.report("while indexing")
    close(window)


# -- 2. searching 100k chunks ----------------------------------------------------------------


def synthetic_index(chunks: int) -> SearchIndex:
    rng = np.random.default_rng(7)
    vocab = np.array(
        ["".join(rng.choice(list("etaoinshrdlucmfwyp"), rng.integers(3, 9))) for _ in range(20_000)]
    )
    weights = 1 / np.arange(1, len(vocab) + 1) ** 1.1
    weights /= weights.sum()
    table: dict[str, Memory] = {}
    items: list[Chunk] = []
    per = 3
    for m in range(chunks // per):
        mid = f"m{m:06d}"
        texts = [" ".join(rng.choice(vocab, 110, p=weights)) for _ in range(per)]
        body = "\n\n".join(texts)
        table[mid] = Memory(mid, " ".join(rng.choice(vocab, 4, p=weights)), body=body, topics=["t"])
        offset = 0
        for c, text in enumerate(texts):
            items.append(Chunk(mid, c, offset, offset + len(text), text))
            offset += len(text) + 2
    vectors = rng.standard_normal((len(items), DIM), dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return SearchIndex.build(items, vectors, table), list(vocab[:400])


def prepare_as_published(engine: Engine, index: SearchIndex) -> None:
    """What the measured code's engine measures of a snapshot before it publishes it (the
    swapped-in one skipped that): ``Engine._prepare`` where there is one, else the call
    older code made; and what the app does once it is ready (``prepare_first_search``)."""
    if hasattr(engine, "_prepare"):
        engine._prepare(index, engine.embedder)
    elif hasattr(index, "prepare"):
        index.prepare(engine._calibration_of(engine.embedder))
    if hasattr(engine, "prepare_first_search"):  # the app runs it once a snapshot is ready
        engine.prepare_first_search()


class RandomQueryEmbedder(FakeEmbedder):
    model_id = "bench:random"

    def embed_query(self, text: str) -> np.ndarray:
        rng = np.random.default_rng(abs(hash(text)) % 2**32)
        vector = rng.standard_normal(DIM).astype(np.float32)
        return vector / np.linalg.norm(vector)


def bench_search(tmp: Path, chunks: int, keystrokes: int, why: bool, native: bool) -> None:
    print(f"\n== 2. searching {chunks:,} chunks while typing ({keystrokes} keystrokes) ==")
    start = time.perf_counter()
    index, words = synthetic_index(chunks)
    print(f"built the synthetic index in {time.perf_counter() - start:.1f} s")
    vault = tmp / "search-empty"
    vault.mkdir()
    settings = Settings()
    engine = Engine(vault, settings, embedder=RandomQueryEmbedder())
    window = make_window(engine, settings)
    window.start()
    wait_until(lambda: window.session.index_ready, timeout=60)
    # The benchmark swaps in the big synthetic snapshot (where this version of Engine keeps it).
    if hasattr(engine, "_snapshot"):
        engine._snapshot = (index, engine.embedder)
    else:
        engine._index = index
    # ... and keeps it: a reindex of the empty vault (the watcher, a late request) would put
    # an empty index back and every later keystroke would search nothing.
    engine.reindex = lambda *args, **kwargs: None
    prepare_as_published(engine, index)
    gc.freeze()  # as the app does with every new snapshot (session._reindexed)
    panel = window.search_panel
    seconds: list[float] = []
    panel._latest_outcomes = seconds
    original_show = panel._show

    def show(outcome) -> None:
        seconds.append(outcome.seconds)
        original_show(outcome)

    panel._show = show
    rng = np.random.default_rng(3)
    text = " ".join(rng.choice(words, 60))
    beat = Heartbeat(why, native)
    beat.start()
    for i in range(1, keystrokes + 1):  # ~12 characters a second, each one a search
        panel.search_box.setText(text[:i])
        panel.run_search()
        pause(0.08)
    wait_until(lambda: not panel._debounce.isActive(), timeout=5)
    from pixelmem.gui import workers

    # The event loop keeps running (a blocking wait would be a stall of the benchmark's own).
    wait_until(lambda: not workers.active_thread_count() and not workers._live, timeout=120)
    beat.stop()
    searched = engine.index.chunk_count
    if searched != index.chunk_count:
        print(f"the searches ran on another index ({searched:,} chunks): figures not comparable")
    beat.report("while searching")
    if seconds:
        print(
            f"search on the worker: median {statistics.median(seconds) * 1000:.1f} ms, "
            f"max {max(seconds) * 1000:.1f} ms; {len(seconds)} of {keystrokes} answers shown "
            "(superseded ones dropped)"
        )
    close(window)


# -- 3. launch on a warm 10k vault -----------------------------------------------------------


# The fresh-process launch is the real entry point, `python -m pixelmem --vault DIR`, with a
# probe that watches the window the app opens: it patches AppController.open (the app imports
# that module before any window anyway) and records, in wall-clock seconds since the parent
# started the process (interpreter start-up included): the window shown, the list painted with
# rows, the other views built (at once in code that builds everything before the show), the
# scan done, the index ready (the session's first run finished: every memory searchable). CPU
# time of all threads at the list. Then it quits. The vault's cache holds a vector for every
# chunk under the default model's id (model_id_fake): nothing is embedded, the model is not
# even loaded; what is timed is the index built (old code) or the saved one loaded.
LAUNCH_PROBE = textwrap.dedent(
    """
    import json, sys, time
    import pixelmem.gui.app as app_module
    from PySide6.QtCore import QEvent, QObject, QTimer
    from PySide6.QtWidgets import QApplication

    seen = {{}}

    def mark(name):
        if name == "listed" and name not in seen:  # the first filled paint's, not a later one's
            seen["listed_cpu"] = time.process_time()
        seen.setdefault(name, time.time())

    class ListPaint(QObject):  # the first paint of the list's viewport once it has rows
        def __init__(self, window):
            super().__init__(window)
            self.window = window
            window.list_panel.view.viewport().installEventFilter(self)

        def eventFilter(self, watched, event):
            if event.type() == QEvent.Type.Paint and self.window.list_model.rowCount():
                QTimer.singleShot(0, lambda: mark("listed"))  # after the paint itself
            return False

    def watch(window):
        ListPaint(window)
        poll = QTimer(window, interval=5)
        if hasattr(window, "views_ready"):
            window.views_ready.connect(lambda: mark("views"))
        else:  # code from before: every view is built with the window
            mark("views")

        def check():
            if window.session.loaded:
                mark("scanned")
            if window.session.index_ready:
                mark("ready")
            if {{"listed", "views", "scanned", "ready"}} <= seen.keys():
                poll.stop()
                with open({out!r}, "w") as f:
                    json.dump(seen, f)
                QApplication.instance().quit()

        poll.timeout.connect(check)
        poll.start()

    real_open = app_module.AppController.open

    def open_(self, vault, **kwargs):
        ok = real_open(self, vault, **kwargs)
        mark("shown")
        watch(self.window)
        return ok

    app_module.AppController.open = open_
    from pixelmem.cli import main
    sys.exit(main(["--vault", {vault!r}]))
    """
)
LAUNCH_MARKS = ("shown", "listed", "views", "scanned", "ready", "listed_cpu")


def launch_in_fresh_process(source: Path, vault: Path, config: Path) -> tuple[float, ...] | str:
    """Seconds from the process's start to the window shown, the list painted, the other views
    built, the scan done and the index ready, and the CPU seconds to the list; with pixelmem
    from ``source``; or the child's output if it failed."""
    env = dict(
        os.environ,
        PYTHONPATH=str(source),
        QT_QPA_PLATFORM="offscreen",
        PIXELMEM_CONFIG_DIR=str(config),
    )
    # A person's pixelmem runs from compiled bytecode (pip writes it at install, Python on the
    # first run); with PYTHONDONTWRITEBYTECODE set (as in some sandboxes) every launch would
    # compile ~80 modules from source again, 0.2-0.4 s that no user pays.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    marks = config / "launch-marks.json"
    marks.unlink(missing_ok=True)
    script = LAUNCH_PROBE.format(vault=str(vault), out=str(marks))
    started = time.time()
    out = subprocess.run(  # run from the vault's folder: "" on sys.path must not be a checkout
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=900,
        env=env,
        cwd=vault.parent,
    )
    try:
        seen = json.loads(marks.read_text())
    except (OSError, ValueError):
        return out.stdout + out.stderr
    return tuple(
        seen[name] if name == "listed_cpu" else seen[name] - started for name in LAUNCH_MARKS
    )


def old_checkout(ref: str, into: Path) -> Path:
    tree = into / "old-checkout"
    subprocess.run(
        ["git", "worktree", "add", "--detach", "--quiet", str(tree), ref], cwd=ROOT, check=True
    )
    return tree


def compare_fresh_launches(vault: Path, tmp: Path, old_ref: str | None, rounds: int) -> None:
    """Fresh-process launches of this checkout (and of ``old_ref``), alternating, same vault."""
    sources = {"this checkout": ROOT}
    if old_ref:
        sources[f"old {old_ref}"] = old_checkout(old_ref, tmp)
    # Each code gets its own copy of the vault: the scan cache is keyed by the code that reads
    # files, so sharing one would make every launch re-parse the vault written by the other.
    vaults = {name: vault for name in sources}
    for name in list(sources)[1:]:
        vaults[name] = tmp / f"{vault.name}-old"
        shutil.copytree(vault, vaults[name], symlinks=True)
    results: dict[str, list[tuple[float, ...]]] = {name: [] for name in sources}
    try:
        for name, source in sources.items():  # warm-up: each code settles its own caches
            launch_in_fresh_process(source, vaults[name], tmp / "config")
        for _ in range(rounds):
            for name, source in sources.items():
                result = launch_in_fresh_process(source, vaults[name], tmp / "config")
                if isinstance(result, str):
                    print(f"fresh-process launch ({name}) failed:\n{result}")
                    return
                results[name].append(result)
    finally:
        if old_ref:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(sources[f"old {old_ref}"])],
                cwd=ROOT,
                check=False,
            )
    print(
        f"fresh process (imports included), {rounds} launches each, alternating; "
        "min / median / max:"
    )
    for name, runs in results.items():
        runs = [(*r[:5], r[4] - r[1], r[5]) for r in runs]  # + ready after the list painted
        cols = list(zip(*runs, strict=True))
        labels = ("window shown", "list painted", "all views", "scan done", "index ready",
                  "ready after the list", "CPU to list")  # fmt: skip
        spans = [
            f"{label} {min(c) * 1e3:.0f} / {statistics.median(c) * 1e3:.0f} / {max(c) * 1e3:.0f} ms"
            for label, c in zip(labels, cols, strict=True)
        ]
        print(f"  {name:<22} " + ", ".join(spans))
    if old_ref:
        new, old = (statistics.median(r[1] for r in results[n]) for n in sources)
        print(f"  list filled, median new / old: {new / old:.2f}")
        new, old = (statistics.median(r[4] - r[1] for r in results[n]) for n in sources)
        print(f"  index ready after the list, median new / old: {new / old:.2f}")
        new, old = (statistics.median(r[5] for r in results[n]) for n in sources)
        print(f"  CPU time to the filled list, median new / old: {new / old:.2f}")


def bench_launch(tmp: Path, memories: int, old_ref: str | None, rounds: int) -> None:
    print(f"\n== 3. launch to a filled list, {memories:,} memories, warm cache ==")
    vault = tmp / f"launch{memories}"
    start = time.perf_counter()
    generate_vault(vault, memories, seed=2)
    fake = model_id_fake(vault)
    warm = Engine(vault, Settings(), embedder=fake)
    report = warm.open()
    print(
        f"(vault generated and cache warmed in {time.perf_counter() - start:.1f} s: "
        f"{report.chunks} chunks; hashed vectors under {fake.model_id!r}, the default model's "
        "id, so nothing is embedded and no model load is timed)"
    )
    from pixelmem.gui import workers

    settings = Settings()
    begin = time.perf_counter()
    engine = Engine(vault, settings, embedder=fake)
    window = make_window(engine, settings)
    shown = time.perf_counter() - begin
    window.start()
    wait_until(lambda: window.list_model.rowCount() > 0, 60)
    listed = time.perf_counter() - begin
    wait_until(lambda: window.session.index_ready, 600)
    ready = time.perf_counter() - begin  # a fresh engine: in this process, nothing is loaded
    rows = window.list_model.rowCount()
    embedded = engine.last_report.embedded
    close(window)
    workers.wait_for_all()
    verdict = "OK" if listed <= 1.0 else "OVER"
    print(
        f"in-process: window shown {shown * 1000:.0f} ms, list filled ({rows:,} rows) "
        f"{listed * 1000:.0f} ms (target ≤ 1000 ms, {verdict}), index ready {ready * 1000:.0f} ms "
        f"({(ready - listed) * 1000:.0f} ms after the list), re-embedded {embedded} chunks"
    )
    compare_fresh_launches(vault, tmp, old_ref, rounds)


def compare_in_children(args: argparse.Namespace, tmp: Path) -> None:
    """Run this benchmark's ``--only`` part on this checkout and on ``--old``, each in its own
    process (alternating, ``--rounds`` each), and print the stalls side by side."""
    sources = {"this checkout": ROOT, f"old {args.old}": old_checkout(args.old, tmp)}
    results: dict[str, dict[str, list[dict[str, float]]]] = {}
    forwarded = (
        [
            f"--only={args.only}",
            f"--embedder={args.embedder}",
            f"--index-memories={args.index_memories}",
            f"--search-chunks={args.search_chunks}",
            f"--keystrokes={args.keystrokes}",
        ]
        + (["--why"] if args.why else [])
        + (["--native"] if args.native else [])
        + (["--blas-pool"] if args.blas_pool else [])
    )
    try:
        for round_ in range(args.rounds):
            for number, (name, source) in enumerate(sources.items()):
                out = tmp / f"result-{number}-{round_}.json"
                print(f"\n---- {name}, round {round_ + 1} of {args.rounds} ----", flush=True)
                env = dict(
                    os.environ, PIXELMEM_BENCH_SOURCE=str(source), PIXELMEM_BENCH_RESULT=str(out)
                )
                subprocess.run([sys.executable, __file__, *forwarded], env=env, check=False)
                if out.exists():
                    for label, runs in json.loads(out.read_text()).items():
                        results.setdefault(name, {}).setdefault(label, []).extend(runs)
    finally:
        subprocess.run(
            ["git", "worktree", "remove", "--force", str(sources[f"old {args.old}"])],
            cwd=ROOT,
            check=False,
        )
    print(f"\n== before/after, {args.rounds} alternating rounds, load {os.getloadavg()} ==")
    for name, labels in results.items():
        for label, runs in labels.items():
            worst = ", ".join(f"{r['worst']:.1f}" for r in runs)
            over16 = ", ".join(str(int(r["over16"])) for r in runs)
            over50 = ", ".join(str(int(r["over50"])) for r in runs)
            p99 = ", ".join(f"{r['p99']:.1f}" for r in runs)
            print(
                f"  {name:<22} {label}: longest stall {worst} ms; > {FRAME_MS} ms: {over16}; "
                f"> 50 ms: {over50}; p99 {p99} ms"
            )
            if all("own_worst" in r for r in runs):  # the same without the GUI's CPU waits
                own = ", ".join(f"{r['own_worst']:.1f}" for r in runs)
                own16 = ", ".join(str(int(r["own_over16"])) for r in runs)
                print(f"  {'':<22} without CPU waits: longest {own} ms; > {FRAME_MS} ms: {own16}")
            if all("after_start_worst" in r for r in runs):  # the old code may not say
                after = ", ".join(f"{r['after_start_worst']:.1f}" for r in runs)
                print(f"  {'':<22} after the first {START_S:.0f} s: longest {after} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--embedder", choices=("local", "e5", "fake"), default="local")
    parser.add_argument("--index-memories", type=int, default=2000)
    parser.add_argument("--search-chunks", type=int, default=100_000)
    parser.add_argument("--keystrokes", type=int, default=120)
    parser.add_argument("--launch-memories", type=int, default=10_000)
    parser.add_argument("--only", choices=("index", "search", "launch"), default=None)
    parser.add_argument(
        "--old",
        help="git ref to measure too, from a temporary worktree (before/after, same run); "
        "with --only index or search, each code runs in its own process, alternating",
    )
    parser.add_argument("--rounds", type=int, default=5, help="runs of each code with --old")
    parser.add_argument(
        "--why",
        action="store_true",
        help="sample the stacks while the GUI thread is late "
        "and name a cause for every stall over a frame (benchmarks/_stalls.py)",
    )
    parser.add_argument(
        "--native",
        action="store_true",
        help="--why with native stacks: perf record on every thread, and for each cause's "
        "longest stall what the GUI thread ran in C/C++, where it blocked, who woke it "
        "(benchmarks/_native_stacks.py; needs perf)",
    )
    parser.add_argument(
        "--blas-pool",
        action="store_true",
        help="keep OpenBLAS's thread pool (the app runs with one BLAS thread, as this "
        "benchmark does by default; earlier rounds measured with the pool)",
    )
    args = parser.parse_args()
    if args.old and args.only in ("index", "search"):
        with tempfile.TemporaryDirectory(prefix="pixelmem-bench-ui-") as folder:
            compare_in_children(args, Path(folder))
        return
    from pixelmem.gui.app import create_application

    app = create_application()
    print(
        f"python {sys.version.split()[0]}, cpus {os.cpu_count()}, load {os.getloadavg()}, "
        f"pixelmem from {SOURCE}"
    )
    with tempfile.TemporaryDirectory(prefix="pixelmem-bench-ui-") as folder:
        os.environ["PIXELMEM_CONFIG_DIR"] = str(Path(folder) / "config")
        tmp = Path(folder)
        if args.only in (None, "index"):
            bench_indexing(tmp, args.index_memories, args.embedder, args.why, args.native)
        if args.only in (None, "search"):
            bench_search(tmp, args.search_chunks, args.keystrokes, args.why, args.native)
        if args.only in (None, "launch"):
            bench_launch(tmp, args.launch_memories, args.old, args.rounds)
    del app


if __name__ == "__main__":
    main()
