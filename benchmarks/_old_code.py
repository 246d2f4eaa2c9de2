"""Another git ref's code beside this checkout's, for before/after figures in one run."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def old_checkout(ref: str, into: Path) -> Path:
    """REF's tracked files in a folder of their own (``git archive``: no worktree to clean up)."""
    tree = into / "old-checkout"
    tree.mkdir()
    tracked = subprocess.run(
        ["git", "archive", "--format=tar", ref], cwd=ROOT, check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(tree)], input=tracked, check=True)
    return tree
