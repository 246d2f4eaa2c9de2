"""``pixelmem search`` and ``pixelmem status`` as commands, before/after in one run (issue 29).

    .venv/bin/python benchmarks/bench_cli.py [--memories 10000] [--old main] [--rounds 7]

Prints figures and same-run ratios; asserts nothing.

* A warm vault (benchmarks/_vaultgen.py, 10,000 memories, ~31k chunks): its embedding cache
  holds a vector for every chunk under the id of the model ``auto`` picks (hashed vectors:
  embedding 31k chunks with the real model takes ~10 minutes on 2 cores and is not what is
  measured; the real model does load, for each query). Each code gets its own copy (the scan
  cache is keyed by the code that reads the files), warmed by one ``pixelmem index``.
* Timed, each command a fresh process through the real entry point (``python -m pixelmem``,
  interpreter start-up included, bytecode compiled as after an install), the codes
  alternating: ``pixelmem search Q --json`` (hybrid, the default), ``--mode keyword`` and
  ``pixelmem status --json``; min / median / max of ``--rounds`` (a new query each round).
* This code again with ``pixelmem serve`` running on the vault: the CLI asks it over the
  local channel (the other code's CLI never does).
* Where the time goes: one search of each code under cProfile (cumulative seconds of the
  steps; the profiler slows Python code down, so they add up to more than the plain run).
* ``pixelmem status`` on a vault never indexed (``--fresh-notes`` notes, 173 by default as
  in the issue): the code before embedded the whole vault (with the real model) first.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

from _old_code import old_checkout  # noqa: E402
from _vaultgen import SENTENCES_ZH, WORDS_EN, generate_vault  # noqa: E402

from pixelmem.core.index.engine import Engine  # noqa: E402
from pixelmem.core.settings import Settings  # noqa: E402

# What cProfile's cumulative times are read for, per code: (label, file suffix, function).
STEPS = [
    ("scan the vault", "vault/store.py", "scan"),
    ("load the embedding cache", "index/cache.py", "load"),
    ("chunk every memory", "index/indexer.py", "_chunk_all"),
    ("build the index", "index/search.py", "build"),
    ("load the saved index", "index/engine.py", "load_saved_index"),
    ("  of which: compare the files", "index/vault_state.py", "unchanged"),
    ("load the model (tokenizers + session)", "embeddings/e5_onnx.py", "_load"),
    ("load the model (query path)", "embeddings/e5_onnx.py", "_parts"),
    ("embed the relevance anchors", "index/engine.py", "anchor_vectors"),
    ("embed the query (a model load included)", "embeddings/e5_onnx.py", "embed_query"),
    ("search", "index/search.py", "search"),
    ("ask the open vault", "runtime/local_channel.py", "ask"),
]


class Hashed:
    """Hashed bag-of-words vectors under another model's id: a cache a real index leaves."""

    def __init__(self, model_id: str, dim: int) -> None:
        self.model_id, self.dim = model_id, dim

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), np.float32)
        for row, text in enumerate(texts):
            for word in text.lower().split():
                out[row, hash(word) % self.dim] += 1.0
        out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)
        return out

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_documents([text])[0]


def warm_vault(vault: Path, memories: int) -> int:
    generate_vault(vault, memories, seed=0)
    real = Engine(vault, Settings()).embedder  # "auto": records the model for the vault
    assert real is not None
    return Engine(vault, Settings(), embedder=Hashed(real.model_id, real.dim)).open().chunks


def queries(n: int) -> list[str]:
    rng = np.random.default_rng(7)
    found = []
    for i in range(n):
        if i % 4 == 3:
            found.append(str(rng.choice(SENTENCES_ZH))[:8])
        else:
            found.append(" ".join(rng.choice(WORDS_EN, 3)))
    return found


def env_for(source: Path, config: Path) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(source), PIXELMEM_CONFIG_DIR=str(config))
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # a person's pixelmem runs from bytecode
    env.pop("PIXELMEM_VAULT", None)
    return env


def run(source: Path, config: Path, words: list[str], timeout: float = 1800) -> float:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pixelmem", *words],
        env=env_for(source, config),
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=config,
    )
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(words)} failed:\n{done.stdout}\n{done.stderr}")
    return took


def spread(times: list[float]) -> str:
    return (
        f"{min(times) * 1e3:.0f} / {statistics.median(times) * 1e3:.0f} / {max(times) * 1e3:.0f} ms"
    )


PROFILE = """
import cProfile, io, json, pstats, sys
from pixelmem.cli import main
profile = cProfile.Profile()
code = profile.runcall(main, {words!r})
found = {{}}
for (path, _line, name), row in pstats.Stats(profile).stats.items():
    found.setdefault(f"{{path}}:{{name}}", 0.0)
    found[f"{{path}}:{{name}}"] = max(found[f"{{path}}:{{name}}"], row[3])
print("@@" + json.dumps(found))
"""


def profiled(source: Path, config: Path, words: list[str]) -> tuple[float, dict[str, float]]:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", PROFILE.format(words=words)],
        env=env_for(source, config),
        capture_output=True,
        text=True,
        timeout=1800,
        cwd=config,
    )
    took = time.perf_counter() - start
    line = next((x for x in done.stdout.splitlines() if x.startswith("@@")), "@@{}")
    return took, json.loads(line[2:])


def steps_of(found: dict[str, float]) -> list[tuple[str, float]]:
    out = []
    for label, suffix, name in STEPS:
        hits = [t for key, t in found.items() if key.endswith(f"{suffix}:{name}")]
        if hits and max(hits) >= 0.0005:
            out.append((label, max(hits)))
    return out


def free_port() -> int:
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Serve:
    """``pixelmem serve`` on a vault, until stop(); ready once its index is."""

    def __init__(self, source: Path, config: Path, vault: Path, port: int) -> None:
        words = ["-m", "pixelmem", "serve", "--vault", str(vault), "--port", str(port)]
        self.log = open(config / "serve.log", "w")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(
            [sys.executable, *words], env=env_for(source, config), stdout=self.log,
            stderr=subprocess.STDOUT, cwd=config,
        )  # fmt: skip
        self.url = f"http://127.0.0.1:{port}"
        token = config / "service-token"
        deadline = time.monotonic() + 600
        import httpx

        while time.monotonic() < deadline:
            time.sleep(0.2)
            try:
                headers = {"Authorization": f"Bearer {token.read_text().strip()}"}
                status = httpx.get(f"{self.url}/v1/status", headers=headers, timeout=5).json()
            except (OSError, ValueError, httpx.HTTPError):
                continue
            if status.get("index") == "ready" and not status.get("indexing"):
                return
        raise SystemExit("pixelmem serve did not get ready")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(60)
        self.log.close()


def bench(args: argparse.Namespace, tmp: Path) -> None:
    config = tmp / "config"
    config.mkdir()
    sources = {"this code": ROOT}
    if args.old:
        sources[f"old {args.old}"] = old_checkout(args.old, tmp)
    vault = tmp / f"vault{args.memories}"
    started = time.perf_counter()
    os.environ["PIXELMEM_CONFIG_DIR"] = str(config)
    chunks = warm_vault(vault, args.memories)
    vaults = {name: vault for name in sources}
    for number, name in enumerate(list(sources)[1:]):
        vaults[name] = tmp / f"vault-old-{number}"
        shutil.copytree(vault, vaults[name], symlinks=True)
    for name, source in sources.items():  # each code's own scan cache and (new) saved index
        run(source, config, ["index", "--vault", str(vaults[name])])
    print(
        f"{args.memories:,} memories, {chunks:,} chunks, cache warmed in "
        f"{time.perf_counter() - started:.0f} s; cpus {os.cpu_count()}, load {os.getloadavg()}"
    )
    asked = queries(args.rounds * 2 + 2)
    timed: dict[str, dict[str, list[float]]] = {name: {} for name in sources}
    for name, source in sources.items():  # warm-up: each code's model files, page cache
        run(source, config, ["search", asked[-1], "--vault", str(vaults[name])])
    for round_ in range(args.rounds):
        for name, source in sources.items():
            v = ["--vault", str(vaults[name])]
            forms = {
                "search (hybrid)": ["search", asked[round_], "--json", *v],
                "search --mode keyword": ["search", asked[round_], "--mode", "keyword", *v],
                "status": ["status", "--json", *v],
            }
            for label, words in forms.items():
                timed[name].setdefault(label, []).append(run(source, config, words))
    print(f"\nfresh processes, {args.rounds} rounds, alternating (min / median / max):")
    for label in next(iter(timed.values())):
        for name in sources:
            print(f"  {label:<22} {name:<16} {spread(timed[name][label])}")
        if args.old:
            new, old = (statistics.median(timed[n][label]) for n in sources)
            print(f"  {'':<22} {'new / old':<16} {new / old:.2f}")
    chinese = [i for i in range(args.rounds) if any("\u4e00" <= c <= "\u9fff" for c in asked[i])]
    for name in sources:  # a Chinese query also loads the word segmenter (coverage)
        times = [timed[name]["search (hybrid)"][i] for i in chinese]
        if times:
            print(f"  {'search, Chinese only':<22} {name:<16} {spread(times)}")

    serve = Serve(ROOT, config, vault, free_port())
    try:
        run(ROOT, config, ["search", asked[-1], "--vault", str(vault)])  # the server's model
        via = [
            run(ROOT, config, ["search", q, "--json", "--vault", str(vault)])
            for q in asked[args.rounds : args.rounds * 2]
        ]
        _, found = profiled(ROOT, config, ["search", asked[-2], "--vault", str(vault)])
    finally:
        serve.stop()
    print(f"\nthis code with `pixelmem serve` running on the vault (the local channel), "
          f"{args.rounds} searches: {spread(via)}")  # fmt: skip
    print("  profiled: " + ", ".join(f"{label} {t * 1e3:.0f} ms" for label, t in steps_of(found)))

    print("\nwhere a search's time goes (one profiled run each, hybrid):")
    for name, source in sources.items():
        wall, found = profiled(source, config, ["search", asked[0], "--vault", str(vaults[name])])
        inside = max((t for k, t in found.items() if k.endswith(":cmd_search")), default=0.0)
        print(f"  {name}: {wall * 1e3:.0f} ms in all; interpreter, imports and parsing "
              f"{(wall - inside) * 1e3:.0f} ms")  # fmt: skip
        for label, seconds in steps_of(found):
            print(f"    {label:<40} {seconds * 1e3:7.0f} ms")

    print(f"\n`pixelmem status` on a vault never indexed ({args.fresh_notes} notes, no cache):")
    for name, source in sources.items():
        fresh = tmp / f"fresh-{name.replace(' ', '-')}"
        generate_vault(fresh, args.fresh_notes, seed=3)
        took = run(source, config, ["status", "--json", "--vault", str(fresh)])
        print(f"  {name:<16} {took * 1e3:.0f} ms")
    print(f"\nload at the end {os.getloadavg()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--old", help="git ref to measure too (its files from git archive)")
    parser.add_argument("--fresh-notes", type=int, default=173)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pixelmem-bench-cli-") as folder:
        bench(args, Path(folder))


if __name__ == "__main__":
    main()
