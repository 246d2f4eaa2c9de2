"""The app and the service ask BLAS for one thread before numpy loads (searches run on workers
beside the UI thread, an index build or other requests: OpenBLAS's pool oversubscribes)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

from pixelmem.core.blas_threads import use_one_blas_thread

# Runs `pixelmem app` with the GUI module replaced by a probe that reports what it found.
PROBE = textwrap.dedent(
    """
    import os, sys, types
    probe = types.ModuleType("pixelmem.gui.app")
    def run_app(vault=None):
        import numpy  # as the real app does, after the CLI set up the process
        print(os.environ.get("OPENBLAS_NUM_THREADS"), numpy.__name__)
        return 0
    probe.run_app = run_app
    sys.modules["pixelmem.gui.app"] = probe
    from pixelmem import cli
    sys.exit(cli.main(["app"]))
    """
)


def _run_probe(env: dict[str, str]) -> str:
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, env=env, timeout=120
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.split()[0]


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    return {**env, "QT_QPA_PLATFORM": "offscreen", **extra}


def test_the_app_starts_with_one_blas_thread() -> None:
    assert _run_probe(_env()) == "1"


def test_a_users_own_thread_count_is_kept() -> None:
    assert _run_probe(_env(OPENBLAS_NUM_THREADS="4")) == "4"


def test_use_one_blas_thread_keeps_what_is_set(monkeypatch) -> None:
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    monkeypatch.setenv("MKL_NUM_THREADS", "3")
    use_one_blas_thread()
    assert os.environ["OPENBLAS_NUM_THREADS"] == "1"
    assert os.environ["MKL_NUM_THREADS"] == "3"
