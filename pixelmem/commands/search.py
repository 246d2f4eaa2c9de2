"""``pixelmem index | search | status | eval``: the search engine from the terminal."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

from pixelmem.commands.common import ProgressBar, open_engine
from pixelmem.core.errors import PixelmemError
from pixelmem.core.search_mode import SearchMode, uses_meaning

MODES = tuple(SearchMode)
SCORED_MODES = tuple(m for m in SearchMode if m != SearchMode.EXACT)  # what eval compares
WEAKER = 3  # results below the floor that --weaker prints


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser("index", parents=[common], help="embed new or changed memories")
    p.add_argument("--full", action="store_true", help="drop the cache and re-embed everything")
    p.set_defaults(handler=cmd_index)

    p = subparsers.add_parser("search", parents=[common], help="search memories")
    p.add_argument("query", nargs="+", help="what to look for")
    p.add_argument("--k", type=int, default=None, help="number of memories (default 5)")
    p.add_argument(
        "--mode",
        choices=MODES,
        default=None,
        help="default: hybrid; exact: only memories holding the query as typed",
    )
    p.add_argument(
        "--min-relevance",
        type=float,
        default=None,
        help="hide results below this relevance, 0-1 (default: search.min_relevance, 0.5)",
    )
    p.add_argument(
        "--weaker",
        action="store_true",
        help=f"also print the next {WEAKER} results below the relevance floor, marked weaker",
    )
    p.add_argument(
        "--explain",
        action="store_true",
        help="print each result's evidence: cosine and background, keyword match, the score",
    )
    p.add_argument(
        "--since",
        metavar="WHEN",
        default=None,
        help="only memories from this time on: a date (2024-03-05, 2024-03) or 'last week'",
    )
    p.add_argument(
        "--until",
        metavar="WHEN",
        default=None,
        help="only memories from before the end of this date or range",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_search)

    p = subparsers.add_parser("status", parents=[common], help="vault, model and index state")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_status)

    p = subparsers.add_parser("eval", parents=[common], help="nDCG@10 / Recall@100 on a BEIR dir")
    p.add_argument("folder", type=Path, help="folder with corpus.jsonl, queries.jsonl, qrels/")
    p.add_argument(
        "--mode", choices=MODES, default=None, help="default: hybrid, semantic and keyword"
    )
    p.add_argument(
        "--min-relevance", type=float, default=0.0, help="relevance floor (default 0: rank all)"
    )
    p.add_argument("--work", type=Path, default=None, help="keep the scratch vault here (reuse)")
    p.set_defaults(handler=cmd_eval)


def cmd_index(args: argparse.Namespace) -> int:
    engine = open_engine(args)
    engine.store.scan()
    report = engine.reindex(progress=ProgressBar("embedding"), full=args.full)
    skipped = len(engine.store.skipped)
    print(
        f"{report.memories:,} memories · {report.chunks:,} chunks · "
        f"{report.embedded:,} embedded · {report.reused:,} from cache · {skipped:,} skipped"
    )
    for warning in report.warnings:
        print(f"warning: {warning}")
    if report.semantic_error:
        print(f"semantic search unavailable: {report.semantic_error} (keyword search works)")
    if report.chunks and not engine.status().indexed_chunks:
        # A script running `pixelmem index` must see the failure, not a green exit.
        print("pixelmem: nothing could be embedded", file=sys.stderr)
        return 1
    return 0


def cmd_search(args: argparse.Namespace) -> int:
    from pixelmem.core.index.time_search import time_search

    since, until = time_arguments(args)
    engine = open_engine(args)
    engine.open(progress=ProgressBar("embedding"))
    query = " ".join(args.query)
    found = time_search(
        engine,
        query,
        mode=args.mode,
        k=args.k,
        min_relevance=args.min_relevance,
        since=since,
        until=until,
        weaker=WEAKER if args.weaker else 0,
        explain=args.explain,
    )
    hits = found.hits
    if args.json:
        print(json.dumps([_hit_json(engine, h) for h in hits], ensure_ascii=False, indent=2))
        return 0
    if engine.semantic_error and uses_meaning(args.mode):
        print(f"note: semantic search unavailable ({engine.semantic_error}); keyword results only")
    if found.note():
        print(found.note())
    floor = args.min_relevance
    if floor is None:
        floor = engine.settings.search.min_relevance
    if not any(not h.weaker for h in hits):
        print(f"nothing relevant found (no memory reached relevance {floor:g})")
    for rank, hit in enumerate(hits, 1):
        if hit.weaker and (rank == 1 or not hits[rank - 2].weaker):
            print(f"weaker matches, below relevance {floor:g}:")
        copies = f"  ({len(hit.copies) + 1} copies)" if hit.copies else ""
        mark = "  (weaker)" if hit.weaker else ""
        print(f"{rank}. {hit.title}  [{hit.score:.2f}]{mark}  {hit.memory_id}{copies}")
        print(f"   {_one_line(hit.snippet)}")
        if hit.evidence is not None:
            for line in hit.evidence.lines():
                print(f"     {line}")
    return 0


def time_arguments(args: argparse.Namespace) -> tuple:
    """``--since``/``--until`` as moments (the start of the first, the end of the second)."""
    from pixelmem.core.index.time_search import range_argument

    try:
        since = range_argument(args.since).start if args.since else None
        until = range_argument(args.until).end if args.until else None
    except ValueError as exc:
        raise PixelmemError(str(exc)) from None
    return since, until


def _hit_json(engine, hit) -> dict:
    path = engine.store.path_for(hit.memory_id)
    return {
        "id": hit.memory_id,
        "title": hit.title,
        "score": round(hit.score, 4),  # calibrated relevance, 0-1
        "semantic_score": hit.semantic_score,
        "keyword_score": hit.keyword_score,
        "snippet": hit.snippet,
        "chunk": hit.chunk_index,
        "span": [hit.start, hit.end],
        "path": str(path),
        "copies": list(hit.copies),
        "weaker": hit.weaker,
        **({"evidence": _evidence_json(hit.evidence)} if hit.evidence is not None else {}),
    }


def _evidence_json(evidence) -> dict:
    return {k: v for k, v in dataclasses.asdict(evidence).items() if v is not None}


def _one_line(text: str, width: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def cmd_status(args: argparse.Namespace) -> int:
    engine = open_engine(args)
    engine.open(progress=ProgressBar("embedding"))
    status = engine.status()
    data = {
        "vault": str(status.vault),
        "model": status.model_id or "(none)",
        "memories": status.memories,
        "chunks": status.chunks,
        "chunks_with_vectors": status.indexed_chunks,
        "stale_cache_entries": status.stale_cache_entries,
        "skipped": len(status.skipped),
        "semantic_search": status.semantic_error or "ok",
        "search_backend": status.backend,
    }
    if status.backend_error:
        data["search_backend_error"] = status.backend_error
    if status.model_reason:
        data["model_chosen_because"] = status.model_reason
    if status.model_suggestion:
        data["suggestion"] = (
            f"{status.model_suggestion}: pixelmem config set embedding.provider local-multilingual"
        )
    if args.json:
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    width = max(len(k) for k in data)
    for key, value in data.items():
        shown = f"{value:,}" if isinstance(value, int) else value
        print(f"{key.replace('_', ' '):<{width}}  {shown}")
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    from pixelmem.core.index.evaluate import evaluate
    from pixelmem.core.settings import Settings

    if not args.folder.is_dir():
        raise PixelmemError(f"{args.folder} is not a folder")
    results = evaluate(
        args.folder,
        modes=[args.mode] if args.mode else SCORED_MODES,
        settings=Settings.load(),
        work=args.work,
        min_relevance=args.min_relevance,
        progress=ProgressBar("embedding"),
    )
    for result in results:
        print(result.line())
    return 0
