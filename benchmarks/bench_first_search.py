"""CPU time of the app's first search after a snapshot is published, and of the searches after it.

    .venv/bin/python benchmarks/bench_first_search.py [--embedder fake|e5] [--old main --rounds 3]

The search panel's worker runs every search while the window waits for the GIL whenever that
worker holds it; what the first search does once (embed the relevance anchors, damp the hub
chunks, import numpy.ma) is paid at the first keystroke. Measured as the searching thread's CPU
time (``time.thread_time``): unlike a wall-clock stall it does not grow with the machine's load.

* ``fake``: bench_ui's synthetic index (``--chunks``, 100k by default as bench_ui's typing run)
  with its Python query embedder, the snapshot prepared as the engine prepares one it publishes
  and as the app's worker prepares it once it is ready (``Engine.prepare_first_search``).
* ``e5``: a small generated vault indexed by the app's engine with multilingual-e5-small (the
  documents embedded in the embedding child, as the app does), then searched in this process.

``--old REF`` runs REF's code too (``git archive``), each round in fresh processes, alternating.
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = Path(os.environ.get("PIXELMEM_BENCH_SOURCE", ROOT))
SEARCHES = 30


def measure(embedder: str, chunks: int) -> dict[str, float]:
    """In this process, with the pixelmem of ``SOURCE``: CPU ms of preparing the snapshot as
    the app does once it is ready (this thread's share: e5's anchors are embedded in the
    child), of the first search and the median of the next ones."""
    sys.path.insert(0, str(SOURCE))
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from pixelmem.core.blas_threads import use_one_blas_thread

    use_one_blas_thread()
    from pixelmem.core.index.engine import Engine
    from pixelmem.core.index.time_search import time_search
    from pixelmem.core.settings import Settings

    folder = Path(tempfile.mkdtemp(prefix="pixelmem-bench-first-"))
    if embedder == "fake":
        import bench_ui

        index, words = bench_ui.synthetic_index(chunks)
        engine = Engine(folder, Settings(), embedder=bench_ui.RandomQueryEmbedder())
        engine.embed_apart = engine.explains = True  # what the window's session sets
        engine._snapshot = (index, engine.embedder)
        start = time.thread_time()
        bench_ui.prepare_as_published(engine, index)
        prepared = time.thread_time() - start
        queries = [" ".join(words[i : i + 3]) for i in range(SEARCHES + 1)]
    else:
        from _vaultgen import generate_vault

        from pixelmem.core.providers.embeddings.e5_onnx import E5OnnxEmbedder

        vault = folder / "vault"
        generate_vault(vault, 40, seed=1)
        model = E5OnnxEmbedder()
        engine = Engine(vault, Settings(), embedder=model)
        engine.embed_apart = engine.explains = True
        engine.store.scan()
        engine.reindex()
        start = time.thread_time()
        if hasattr(engine, "prepare_first_search"):  # the app's worker, once the index is ready
            engine.prepare_first_search()
        prepared = time.thread_time() - start
        queries = [f"how to plan the garden budget {i}" for i in range(SEARCHES + 1)]
        for query in queries:  # the query vectors are not what is measured
            engine.query_vector(query, model)
    cpu = []
    for query in queries:
        start = time.thread_time()
        time_search(engine, query, mode="hybrid", k=20, weaker=3, explain=True)
        cpu.append(time.thread_time() - start)
    if embedder == "e5":
        from pixelmem.core.providers.embeddings import apart

        apart.shutdown()
    return {
        "prepare": prepared * 1000,
        "first": cpu[0] * 1000,
        "next": statistics.median(cpu[1:]) * 1000,
    }


def run_code(name: str, source: Path, args: argparse.Namespace) -> dict[str, float] | None:
    env = dict(os.environ, PIXELMEM_BENCH_SOURCE=str(source))
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed app imports compiled modules
    command = [sys.executable, __file__, "--child", f"--embedder={args.embedder}"]
    out = subprocess.run(
        [*command, f"--chunks={args.chunks}"], env=env, capture_output=True, text=True
    )
    lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
    if not lines:
        print(f"{name} failed:\n{out.stdout[-2000:]}{out.stderr[-2000:]}")
        return None
    return json.loads(lines[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--embedder", choices=("fake", "e5"), default="fake")
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--old", help="git ref to measure too (before/after, same run)")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.embedder, args.chunks)), flush=True)
        return
    from _old_code import alternate_rounds

    results = alternate_rounds(
        args.old,
        args.rounds,
        lambda name, source: run_code(name, source, args),
        "pixelmem-bench-first-",
    )
    what = f"{args.chunks:,} chunks, bench_ui's model" if args.embedder == "fake" else "e5"
    print(f"CPU of the searching thread, {what}, {args.rounds} round(s), load {os.getloadavg()}")
    for name, runs in results.items():
        for key, label in (("prepare", "prepared"), ("first", "first search"), ("next", "next")):
            values = ", ".join(f"{r[key]:.1f}" for r in runs)
            print(f"  {name:<20} {label:<13} {values} ms")
    if args.old and all(results.values()):
        new, old = (statistics.median(r["first"] for r in runs) for runs in results.values())
        print(f"  first search, median new / old: {new / old:.2f}")


if __name__ == "__main__":
    main()
