"""Helpers shared by the command groups: which vault, a terminal progress bar."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import TextIO

from pixelmem.core.errors import VaultError
from pixelmem.core.paths import VAULT_ENV, resolve_vault
from pixelmem.core.settings import Settings


def vault_from_args(args: argparse.Namespace, settings: Settings | None = None) -> Path:
    """``--vault``, else ``$PIXELMEM_VAULT``, else the app's last vault, else the default."""
    explicit = getattr(args, "vault", None)
    if not explicit and settings is not None and not os.environ.get(VAULT_ENV):
        explicit = settings.vault or None
    return resolve_vault(explicit)


def require_vault_folder(vault: Path) -> None:
    """A named vault must be an existing folder: a typo must not start an empty new vault,
    and a file given by mistake is named as a file, not as missing."""
    if vault.is_dir():
        return
    if vault.exists():
        raise VaultError(f"the vault {vault} is not a folder")
    raise VaultError(f"the vault folder {vault} does not exist")


def open_engine(args: argparse.Namespace):  # -> Engine (imported lazily: numpy/onnx are slow)
    from pixelmem.core.index.engine import Engine

    settings = Settings.load()
    return Engine(vault_from_args(args, settings), settings)


class ProgressBar:
    """``label  42% [####    ] 420/1000``, redrawn in place on a terminal; sparse lines else."""

    WIDTH = 30

    def __init__(self, label: str, stream: TextIO | None = None) -> None:
        self.label = label
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self._last_draw = 0.0
        self._last_pct = -1
        self._drawn = False

    def __call__(self, done: int, total: int) -> None:
        if total <= 0:
            return
        pct = int(100 * done / total)
        now = time.monotonic()
        final = done >= total
        if self.tty:
            if not final and now - self._last_draw < 0.1:
                return
            filled = int(self.WIDTH * done / total)
            bar = "#" * filled + " " * (self.WIDTH - filled)
            self.stream.write(f"\r{self.label} {pct:3d}% [{bar}] {done:,}/{total:,}")
            if final:
                self.stream.write("\n")
        elif final or pct >= self._last_pct + 10:
            self.stream.write(f"{self.label} {pct}% ({done:,}/{total:,})\n")
            self._last_pct = pct
        self._last_draw = now
        self._drawn = True
        self.stream.flush()
