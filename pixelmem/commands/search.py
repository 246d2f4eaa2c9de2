"""``pixelmem index | search | status | eval``: the search engine from the terminal."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from pixelmem.commands.common import ProgressBar, open_engine, vault_from_args
from pixelmem.core.errors import PixelmemError
from pixelmem.core.search_mode import SearchMode, uses_meaning
from pixelmem.core.settings import Settings

MODES = tuple(SearchMode)
SCORED_MODES = tuple(m for m in SearchMode if m != SearchMode.EXACT)  # what eval compares
WEAKER = 3  # results below the floor that --weaker prints


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser("index", parents=[common], help="embed new or changed memories")
    p.add_argument("--full", action="store_true", help="drop the cache and re-embed everything")
    p.set_defaults(handler=cmd_index)

    p = subparsers.add_parser(
        "search",
        parents=[common],
        help="search memories",
        description="Search the vault. When the app, `pixelmem serve` or `pixelmem mcp` has it "
        "open, that process answers (over a private local socket); else this one searches the "
        "saved index (.pixelmem/search-index-*.pxm), brought up to date if files changed.",
    )
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

    p = subparsers.add_parser(
        "status",
        parents=[common],
        help="vault, model and index state",
        description="What is indexed and what is waiting. Read-only: nothing is embedded "
        "(`pixelmem index` embeds the waiting chunks).",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
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
    request = {
        "query": " ".join(args.query),
        "mode": args.mode,
        "k": args.k,
        "min_relevance": args.min_relevance,
        "since": args.since,
        "until": args.until,
        "weaker": WEAKER if args.weaker else 0,
        "explain": args.explain,
    }
    # The app, `pixelmem serve` or `pixelmem mcp` answers when it has the vault open (its
    # index loaded, its model warm); else this process does the same work itself.
    answer = _asked_of_open_vault(args, request) or _searched_here(args, request)
    _print_answer(answer, args)
    return 0


def _asked_of_open_vault(args: argparse.Namespace, request: dict) -> dict | None:
    from pixelmem.core.runtime import local_channel

    vault = vault_from_args(args, Settings.load())
    return local_channel.ask(vault, {"command": "search", "args": request})


def _searched_here(args: argparse.Namespace, request: dict) -> dict:
    from pixelmem.core.runtime.search_records import search_records, time_arguments

    time_arguments(request["since"], request["until"])  # a bad date: said before any work
    engine = open_engine(args)
    # The index another process saved, if every file is as it was then: no scan, no build.
    if not (engine.load_saved_index(check_files=True) and engine.index_ready):
        engine.open(progress=ProgressBar("embedding"))  # brings a loaded one up to date
    return search_records(engine, **request)


def _print_answer(answer: dict, args: argparse.Namespace) -> None:
    hits = answer["hits"]
    if args.json:
        print(json.dumps([_json_of(hit) for hit in hits], ensure_ascii=False, indent=2))
        return
    if answer["semantic_error"] and uses_meaning(args.mode):
        error = answer["semantic_error"]
        print(f"note: semantic search unavailable ({error}); keyword results only")
    if not answer["index_ready"]:
        print("note: the index is still loading; recent changes may be missing from these")
    if answer["note"]:
        print(answer["note"])
    floor = answer["floor"]
    if not any(not h["weaker"] for h in hits):
        print(f"nothing relevant found (no memory reached relevance {floor:g})")
    for rank, hit in enumerate(hits, 1):
        if hit["weaker"] and (rank == 1 or not hits[rank - 2]["weaker"]):
            print(f"weaker matches, below relevance {floor:g}:")
        copies = f"  ({len(hit['copies']) + 1} copies)" if hit["copies"] else ""
        mark = "  (weaker)" if hit["weaker"] else ""
        print(f"{rank}. {hit['title']}  [{hit['score']:.2f}]{mark}  {hit['id']}{copies}")
        print(f"   {_one_line(hit['snippet'])}")
        for line in hit.get("evidence_lines", ()):
            print(f"     {line}")


def _json_of(hit: dict) -> dict:
    """A hit as ``--json`` prints it: the score rounded, without the --explain lines."""
    shown = {k: v for k, v in hit.items() if k != "evidence_lines"}
    shown["score"] = round(hit["score"], 4)  # calibrated relevance, 0-1
    return shown


def _one_line(text: str, width: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def cmd_status(args: argparse.Namespace) -> int:
    """What is indexed and what waits to be; read-only: nothing is embedded (``pixelmem index``
    does that)."""
    engine = open_engine(args)
    status = engine.survey()
    data = {
        "vault": str(status.vault),
        "model": status.model_id or "(none)",
        "memories": status.memories,
        "chunks": status.chunks,
        "chunks_with_vectors": status.indexed_chunks,
        "chunks_waiting": status.waiting_chunks,
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
    if status.waiting_chunks:
        data["to_index"] = f"pixelmem index embeds the {status.waiting_chunks:,} waiting chunks"
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
