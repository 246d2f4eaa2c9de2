"""``pixelmem duplicates | map``: what the vectors say about the vault as a whole."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from pixelmem.commands.common import ProgressBar, open_engine
from pixelmem.core.errors import PixelmemError


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "duplicates", parents=[common], help="list groups of memories that say the same thing"
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_duplicates)

    p = subparsers.add_parser("map", parents=[common], help="the semantic map of the vault")
    p.add_argument("--png", type=Path, metavar="FILE", help="render the map to a PNG image")
    p.add_argument("--size", default="1600x1000", help="image size, WIDTHxHEIGHT")
    p.add_argument("--json", action="store_true", help="print points and clusters as JSON")
    p.set_defaults(handler=cmd_map)


def _opened(args: argparse.Namespace):
    engine = open_engine(args)
    engine.open(progress=ProgressBar("embedding"))
    if not engine.index.has_vectors:
        reason = engine.semantic_error or "no memories with vectors yet"
        raise PixelmemError(f"the map and duplicates need embeddings: {reason}")
    return engine


def cmd_duplicates(args: argparse.Namespace) -> int:
    from pixelmem.core.insight.duplicates import duplicate_groups
    from pixelmem.core.insight.memory_vectors import memory_vectors

    engine = _opened(args)
    vectors = memory_vectors(engine.index)
    memories = {m.id: m for m in engine.store.list()}
    texts = [memories[mid].text if mid in memories else "" for mid in vectors.ids]
    groups = duplicate_groups(vectors, texts)
    if args.json:
        data = [
            {
                "score": g.score,
                "memories": [
                    {"id": mid, "title": memories[mid].title, "path": str(memories[mid].path)}
                    for mid in g.ids
                ],
            }
            for g in groups
        ]
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    if not groups:
        print("no near-duplicates found")
        return 0
    for number, group in enumerate(groups, 1):
        print(f"{number}. {len(group.ids)} memories, similarity {group.score:.2f}")
        for mid in group.ids:
            print(f"   {memories[mid].title}  {mid}")
    return 0


def cmd_map(args: argparse.Namespace) -> int:
    from pixelmem.core.insight.semantic_map import engine_map

    engine = _opened(args)
    semantic_map = engine_map(engine)
    if semantic_map is None:
        raise PixelmemError("no map: the vault has no embedded memories")
    if args.png:
        width, height = _size(args.size)
        _render_png(semantic_map, args.png, width, height, engine.vault.name)
        print(f"{len(semantic_map):,} memories in {len(semantic_map.cluster_info)} clusters")
        print(f"wrote {args.png}")
    if args.json or not args.png:
        data = {
            "clusters": [
                {"number": c.number, "label": c.label, "size": c.size, "x": c.x, "y": c.y}
                for c in semantic_map.cluster_info
            ],
            "points": [
                {"id": mid, "x": round(x, 3), "y": round(y, 3), "cluster": int(c)}
                for mid, (x, y), c in zip(
                    semantic_map.ids,
                    semantic_map.xy.tolist(),
                    semantic_map.clusters.tolist(),
                    strict=True,
                )
            ],
        }
        print(json.dumps(data, ensure_ascii=False, indent=2))
    return 0


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise PixelmemError(f"--size must look like 1600x1000, not {text!r}") from None
    if not (100 <= w <= 10000 and 100 <= h <= 10000):
        raise PixelmemError("--size must be between 100 and 10000 pixels each way")
    return w, h


def _render_png(semantic_map, path: Path, width: int, height: int, title: str) -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # headless: no display needed
    from PySide6.QtGui import QGuiApplication

    from pixelmem.gui.map.map_paint import render_image

    _app = QGuiApplication.instance() or QGuiApplication([])
    image = render_image(semantic_map, width, height, title)
    if not image.save(str(path), "PNG"):  # type: ignore[call-overload]  # stub wants bytes
        raise PixelmemError(f"could not write {path}")
