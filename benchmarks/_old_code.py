"""Another git ref's code beside this checkout's, for before/after figures in one run."""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parent.parent
T = TypeVar("T")


def old_checkout(ref: str, into: Path) -> Path:
    """REF's tracked files in a folder of their own (``git archive``: no worktree to clean up)."""
    tree = into / "old-checkout"
    tree.mkdir()
    tracked = subprocess.run(
        ["git", "archive", "--format=tar", ref], cwd=ROOT, check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(tree)], input=tracked, check=True)
    return tree


def alternate_rounds(
    old_ref: str | None, rounds: int, run: Callable[[str, Path], T | None], prefix: str
) -> dict[str, list[T]]:
    """``run(name, source)`` for this checkout and, with ``old_ref``, that ref's code, taking
    turns ``rounds`` times (load changes hit both alike): {name: the figures of each run that
    gave some}."""
    with tempfile.TemporaryDirectory(prefix=prefix) as folder:
        sources = {"this checkout": ROOT}
        if old_ref:
            sources[f"old {old_ref}"] = old_checkout(old_ref, Path(folder))
        results: dict[str, list[T]] = {name: [] for name in sources}
        for _ in range(rounds):
            for name, source in sources.items():
                figures = run(name, source)
                if figures is not None:
                    results[name].append(figures)
    return results
