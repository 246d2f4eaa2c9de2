"""Load benchmark of ``pixelmem serve`` (issue 11): 8 clients, 2,000 hybrid searches over HTTP.

Run: ``./dev.sh bench serve`` (or ``.venv/bin/python benchmarks/bench_serve.py [--quick]``).
Prints figures; asserts nothing.

- A generated vault of 10,000 memories (benchmarks/_vaultgen.py, ~28k chunks). The vectors
  come from the tests' fake OpenAI-compatible server on 127.0.0.1 (384 dimensions, like the
  built-in models): the model is not what is measured, and the built-in one would take 15+
  minutes to embed 28k chunks on the 2-core VM. ``--model local`` uses the real MiniLM.
  With ``--model local`` the cache is kept in --work, so a second run starts warm.
- Latency is measured by the clients (which share the 2 cores with the server) and, from the
  ``Server-Timing`` header, inside the server (handler time, thread-pool wait included).
- The query embedding is excluded the way a long-running service excludes it in practice: each
  of the 100 distinct queries is searched once before the clock starts, which puts its vector in
  the engine's query cache (128 entries), so the timed searches are cosine + BM25 + fusion +
  HTTP. Two same-run references bracket it: keyword mode (no vector at all) and a cold round of
  new queries (embedding included).
- The same searches in-process (Engine.search, no HTTP) show what HTTP and JSON add.
- ``pixelmem search`` run as one process per query, for comparison (fewer: it is slow).
- The server's RSS at the start and end of the run (memory flat).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests" / "service"), str(ROOT / "tests"), str(ROOT / "benchmarks")]

from _vaultgen import SENTENCES_ZH, WORDS_EN, generate_vault  # noqa: E402
from fake_servers import FakeServer  # noqa: E402
from serve_helpers import Server, write_settings  # noqa: E402

CLIENTS = 8
DISTINCT = 100  # fewer than the engine's query cache (128): every timed query is cached


def queries(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    found: list[str] = []
    while len(found) < n:
        if rng.random() < 0.2:
            q = rng.choice(SENTENCES_ZH)[: rng.randint(4, 10)]
        else:
            q = " ".join(rng.sample(WORDS_EN, rng.randint(2, 4)))
        if q not in found:
            found.append(q)
    return found


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def load(server: Server, plan: list[str], mode: str, clients: int = CLIENTS) -> dict[str, float]:
    """``plan`` split over ``clients`` threads, each with its own keep-alive connection."""
    latencies: list[float] = []
    server_side: list[float] = []
    errors = 0
    lock = threading.Lock()
    shares = [plan[i::clients] for i in range(clients)]

    def client(share: list[str]) -> None:
        nonlocal errors
        mine, theirs, bad = [], [], 0
        with server.client() as http:
            for q in share:
                t = time.perf_counter()
                answer = http.get("/v1/search", params={"q": q, "mode": mode, "top_k": 10})
                mine.append(time.perf_counter() - t)
                bad += answer.status_code != 200
                timing = answer.headers.get("server-timing", "app;dur=nan")
                theirs.append(float(timing.split("dur=")[1]) / 1e3)
        with lock:
            latencies.extend(mine)
            server_side.extend(theirs)
            errors += bad

    threads = [threading.Thread(target=client, args=(s,)) for s in shares]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - start
    result = summary(latencies, wall, errors)
    inside = summary(server_side, wall)
    result["server_p50"], result["server_p99"] = inside["p50"], inside["p99"]
    return result


def summary(latencies: list[float], wall: float, errors: int = 0) -> dict[str, float]:
    ms = sorted(x * 1e3 for x in latencies)
    return {
        "n": len(ms),
        "p50": statistics.median(ms),
        "p99": ms[min(len(ms) - 1, int(len(ms) * 0.99))],
        "qps": len(ms) / wall,
        "errors": errors,
    }


def show(label: str, s: dict[str, float]) -> None:
    inside = ""
    if "server_p50" in s:
        inside = f"  (in the server: p50 {s['server_p50']:.1f}, p99 {s['server_p99']:.1f} ms)"
    print(
        f"  {label:<42} n={s['n']:>5.0f}  p50 {s['p50']:6.1f} ms  p99 {s['p99']:6.1f} ms  "
        f"{s['qps']:6.1f} q/s  errors {s['errors']:.0f}{inside}"
    )


def in_process(vault: Path, plan: list[str]) -> dict[str, float]:
    from pixelmem.core.index.engine import Engine
    from pixelmem.core.settings import Settings

    engine = Engine(vault, Settings.load())
    engine.open()
    for q in set(plan):
        engine.search(q, mode="hybrid", k=10)
    times = []
    start = time.perf_counter()
    for q in plan:
        t = time.perf_counter()
        engine.search(q, mode="hybrid", k=10)
        times.append(time.perf_counter() - t)
    return summary(times, time.perf_counter() - start)


def cli_per_query(vault: Path, config: Path, plan: list[str]) -> dict[str, float]:
    env = dict(os.environ, PIXELMEM_CONFIG_DIR=str(config))
    v = str(vault)
    times = []
    start = time.perf_counter()
    errors = 0
    for q in plan:
        t = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "pixelmem", "search", q, "--json", "--k", "10", "--vault", v],
            env=env,
            capture_output=True,
            text=True,
        )
        times.append(time.perf_counter() - t)
        errors += done.returncode != 0
    return summary(times, time.perf_counter() - start, errors)


def timed(label: str, fn: Callable[[], object]) -> None:
    t = time.perf_counter()
    fn()
    print(f"  {label}: {time.perf_counter() - t:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="1,000 memories, 400 searches")
    parser.add_argument("--work", type=Path, default=None, help="keep the vault + cache here")
    parser.add_argument("--model", choices=("fake", "local"), default="fake")
    args = parser.parse_args()
    if args.model == "fake":
        with FakeServer(dim=384) as fake:
            run(args, {"embedding__provider": "openai", "embedding__base_url": fake.openai_url,
                       "embedding__model": "fake-384"})  # fmt: skip
    else:
        run(args, {"embedding__provider": "local"})


def run(args: argparse.Namespace, embedding: dict[str, str]) -> None:
    n, total, cli_n = (1_000, 400, 5) if args.quick else (10_000, 2_000, 20)
    work = args.work or Path(tempfile.gettempdir()) / f"pixelmem-bench-serve-{n}-{args.model}"
    vault, config = work / "vault", work / "config"
    print(f"cpus {os.cpu_count()}, load average {os.getloadavg()} (other processes skew these)")
    if not vault.exists():
        timed(f"generated {n:,} memories", lambda: generate_vault(vault, n, seed=0))
    write_settings(config, **embedding)
    os.environ["PIXELMEM_CONFIG_DIR"] = str(config)
    env = dict(os.environ)
    index = [sys.executable, "-m", "pixelmem", "index", "--vault", str(vault)]
    timed("pixelmem index (cached after the first run)", lambda: subprocess.run(index, env=env))

    distinct = queries(DISTINCT, seed=1)
    plan = [distinct[i % DISTINCT] for i in range(total)]
    random.Random(2).shuffle(plan)
    server = Server(vault, config, work / "server.log")
    try:
        status = server.wait_idle(600)
        print(f"  server: {status['memories']:,} memories, {status['chunks']:,} chunks, "
              f"{status['vectors']:,} vectors, model {status['model']}")  # fmt: skip
        for q in distinct:  # embed each query once: the timed runs exclude the embedding
            server.http.get("/v1/search", params={"q": q, "top_k": 10})
        pid = server.process.pid
        rss = [rss_mb(pid)]
        print(f"\n{CLIENTS} concurrent clients over HTTP (keep-alive), top_k 10:")
        hybrid = load(server, plan, "hybrid")
        rss.append(rss_mb(pid))
        show(f"hybrid, {DISTINCT} warm queries (the target)", hybrid)
        show("keyword (no vector: same-run reference)", load(server, plan, "keyword"))
        rss.append(rss_mb(pid))
        show("hybrid again (drift / memory check)", load(server, plan, "hybrid"))
        rss.append(rss_mb(pid))
        cold = queries(DISTINCT * 2, seed=3)[DISTINCT:]
        show("hybrid, new queries (embedding included)", load(server, cold, "hybrid"))
        show("hybrid, 1 client (no queueing)", load(server, plan[: total // 8], "hybrid", 1))
        rss.append(rss_mb(pid))
        rounds = ", ".join(f"{r:.0f}" for r in rss)
        print(f"  server RSS (MB) after warm-up and after each round: {rounds}")
    finally:
        server.stop()

    print("\nsame searches without HTTP (Engine.search in this process, one thread):")
    show("hybrid, warm queries", in_process(vault, plan[: total // 4]))
    print("\n`pixelmem search` as one process per query:")
    show(f"{cli_n} queries, one after another", cli_per_query(vault, config, distinct[:cli_n]))


if __name__ == "__main__":
    main()
