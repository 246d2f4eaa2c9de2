"""Import benchmark (issue 17): importing N Markdown files in the app, this checkout vs an old one.

Run: ``./dev.sh bench import`` (or ``.venv/bin/python benchmarks/bench_import.py [--files N]
[--old REF]``). The old code is checked out into a temporary git worktree (default: the commit
before the one write gateway landed) and measured in a child process with the same files, in
the same run, so the ratio compares like with like. Measured: time from ``import_files`` to the
list showing every new row, and how many ``memory_updated`` emissions it took. Asserts nothing.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def measure(files: int, workdir: Path) -> dict[str, float]:
    """In this process (whichever pixelmem is on sys.path): import ``files`` notes, timed."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ["PIXELMEM_CONFIG_DIR"] = str(workdir / "config")
    from PySide6.QtWidgets import QApplication

    from pixelmem.core.settings import Settings
    from pixelmem.gui.window.main_window import MainWindow

    sys.path.insert(0, str(ROOT / "tests"))
    from fakes import HashEmbedder

    Engine = _engine_class()
    app = QApplication.instance() or QApplication([])
    vault, notes = workdir / "vault", workdir / "notes"
    vault.mkdir()
    notes.mkdir()
    for i in range(files):
        (notes / f"note {i}.md").write_text(f"# Note {i}\n\nBody of note {i}.\n", "utf-8")
    settings = Settings()
    window = MainWindow(Engine(vault, settings, embedder=HashEmbedder()), settings)
    window._closing_ok = True
    window.start()
    _wait(app, lambda: window.session.loaded and not window.session.busy_indexing)
    emitted: list[float] = []  # when each memory_updated reached the last listener
    window.bus.memory_updated.connect(lambda *_: emitted.append(time.perf_counter()))
    first_change: list[float] = []  # when the list model first started to change
    for signal in (window.list_model.rowsAboutToBeInserted, window.list_model.modelAboutToBeReset):
        signal.connect(lambda *_: first_change or first_change.append(time.perf_counter()))
    before = window.list_model.rowCount()
    started = time.perf_counter()
    window.session.import_files([notes])
    _wait(app, lambda: window.list_model.rowCount() == before + files)
    ended = time.perf_counter()
    window.session.shutdown()
    return {
        "seconds": ended - started,
        # GUI-thread time spent announcing the batch: from the list's first change to the last
        # emission delivered to every view.
        "announce_seconds": emitted[-1] - first_change[0] if emitted and first_change else 0.0,
        "emissions": len(emitted),
        "files": files,
    }


def _engine_class() -> type:
    """``Engine`` from this checkout's layout or an older, flat one (names built at run time so
    tools/move_modules.py leaves them alone)."""
    for where in ("index.engine", "engine"):
        try:
            return importlib.import_module(f"pixelmem.core.{where}").Engine
        except ImportError:
            continue
    raise ImportError("no pixelmem Engine found")


def _wait(app: object, done: object, timeout: float = 300.0) -> None:
    deadline = time.monotonic() + timeout
    while not done():  # type: ignore[operator]
        app.processEvents()  # type: ignore[attr-defined]
        time.sleep(0.001)
        if time.monotonic() > deadline:
            raise TimeoutError("the import did not finish")


def default_old_ref() -> str:
    """The commit before core/writes.py (the one write gateway) was added."""
    flat = "pixelmem/core/" + "writes.py"  # its first home, before the package layout
    added = subprocess.run(
        ["git", "log", "--diff-filter=A", "--format=%H", "--", flat],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return f"{added[-1]}^" if added else "HEAD"


def run_child(source: Path, files: int) -> dict[str, float]:
    """Measure the pixelmem found in ``source`` in a fresh process (nothing shared)."""
    env = dict(os.environ, PYTHONPATH=str(source), QT_QPA_PLATFORM="offscreen")
    with tempfile.TemporaryDirectory() as work:
        out = subprocess.run(
            [sys.executable, __file__, "--child", "--files", str(files), "--work", work],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--old", help="git ref of the code to compare with")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--work", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        import pixelmem

        assert args.work is not None
        result = measure(args.files, Path(args.work))
        result["source"] = str(Path(pixelmem.__file__).parent)  # type: ignore[assignment]
        print(json.dumps(result))
        return
    old_ref = args.old or default_old_ref()
    with tempfile.TemporaryDirectory() as tmp:
        old_tree = Path(tmp) / "old"
        subprocess.run(
            ["git", "worktree", "add", "--detach", "--quiet", str(old_tree), old_ref],
            cwd=ROOT,
            check=True,
        )
        try:
            old = run_child(old_tree, args.files)
            new = run_child(ROOT, args.files)
        finally:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(old_tree)], cwd=ROOT, check=False
            )
    print(f"import of {args.files} Markdown files into an open app (offscreen):")
    for name, result in (("old " + old_ref, old), ("new", new)):
        print(
            f"  {name:<50} total {result['seconds'] * 1000:7.0f} ms  announcing "
            f"{result['announce_seconds'] * 1000:7.1f} ms  "
            f"{result['emissions']:5.0f} memory_updated emission(s)  [{result['source']}]"
        )
    print(f"  new / old total time: {new['seconds'] / old['seconds']:.2f}")


if __name__ == "__main__":
    main()
