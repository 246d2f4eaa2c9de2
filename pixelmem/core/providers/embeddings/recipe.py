"""How a child process builds the same embedder as this one (see embeddings/apart).

A module of its own, light to import: the built-in embedders name their recipe without
importing the child-process machinery (the commands never start a child).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from pixelmem.core.providers.embeddings.base import Embedder


@dataclass(frozen=True)
class Recipe:
    """How a child process builds the same embedder: a class by name and its options."""

    module: str
    name: str
    options: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, kind: type, **options: Any) -> Recipe:
        return cls(kind.__module__, kind.__qualname__, tuple(sorted(options.items())))

    def build(self) -> Embedder:
        kind = getattr(importlib.import_module(self.module), self.name)
        return kind(**dict(self.options))
