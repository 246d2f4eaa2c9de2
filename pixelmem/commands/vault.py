"""``pixelmem add | list | show | delete | import | doctor``: the vault from the command line."""

from __future__ import annotations

import argparse
import json
import os
import sys
import unicodedata
from pathlib import Path
from typing import Any

from pixelmem.commands.common import vault_from_args
from pixelmem.core.errors import ImportSkipped, NoteNotWritable, PixelmemError
from pixelmem.core.paths import VAULT_ENV
from pixelmem.core.settings import Settings
from pixelmem.core.vault.ids import printable_name
from pixelmem.core.vault.memory import IMPORTANCE_LEVELS, Memory
from pixelmem.core.vault.memory_json import memory_json
from pixelmem.core.vault.store import MemoryStore
from pixelmem.core.wording import counted
from pixelmem.core.writes import MemoryWrites


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    add = subparsers.add_parser("add", parents=[common], help="add a memory")
    add.add_argument("--title", required=True)
    add.add_argument("--body", help="Markdown text (default: read from stdin when piped)")
    add.add_argument("--topics", default="", help="comma-separated, e.g. rust,databases")
    add.add_argument("--importance", choices=IMPORTANCE_LEVELS, default="medium")
    add.set_defaults(handler=cmd_add)

    listing = subparsers.add_parser("list", parents=[common], help="list memories")
    listing.add_argument("--json", action="store_true", help="print JSON")
    listing.set_defaults(handler=cmd_list)

    show = subparsers.add_parser("show", parents=[common], help="print one memory")
    show.add_argument("id")
    show.add_argument("--json", action="store_true", help="print JSON")
    show.set_defaults(handler=cmd_show)

    delete = subparsers.add_parser("delete", parents=[common], help="move a memory to the trash")
    delete.add_argument("id")
    delete.add_argument(
        "--force",
        action="store_true",
        help="also a read-only note, or one you may not write (it is moved, not erased)",
    )
    delete.set_defaults(handler=cmd_delete)

    imp = subparsers.add_parser(
        "import", parents=[common], help="import .md, .txt, .pdf, .docx, .html files or folders"
    )
    imp.add_argument("paths", nargs="+", metavar="PATH")
    imp.set_defaults(handler=cmd_import)

    doctor = subparsers.add_parser("doctor", parents=[common], help="report unreadable files")
    doctor.set_defaults(handler=cmd_doctor)


def open_store(args: argparse.Namespace, *, writing: bool = False) -> MemoryStore:
    """The vault from ``--vault`` / ``$PIXELMEM_VAULT`` / the app's last vault; the default one
    is created on first use.

    A folder named explicitly is only created by commands that write, so a mistyped path
    gives an error instead of an empty new vault.
    """
    settings = Settings.load()
    named = bool(args.vault or os.environ.get(VAULT_ENV) or settings.vault)
    return MemoryStore(vault_from_args(args, settings), create=writing or not named)


def _find(store: MemoryStore, memory_id: str) -> Memory:
    """Exact id, else a unique prefix (:meth:`MemoryStore.find`)."""
    return store.find(memory_id)


def cmd_add(args: argparse.Namespace) -> int:
    body = args.body
    if body is None and sys.stdin is not None and not sys.stdin.isatty():
        body = sys.stdin.read()
    topics = [t.strip() for t in args.topics.split(",") if t.strip()]
    store = open_store(args, writing=True)
    writes = MemoryWrites(store)
    memory = writes.create(args.title, body or "", topics=topics, importance=args.importance).value
    print(memory.id)
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    store = open_store(args)
    memories = sorted(store.list(), key=_recency, reverse=True)
    if args.json:
        print(json.dumps([memory_json(m, with_body=False) for m in memories], ensure_ascii=False))
        return 0
    if not memories:
        print(f"no memories in {store.root}")
        return 0
    rows = [("ID", "TITLE", "TOPICS", "IMPORTANCE", "UPDATED")]
    rows += [
        (
            m.id,
            _clip(m.title, 48),
            _clip(", ".join(m.topics), 30),
            m.importance,
            f"{m.updated:%Y-%m-%d %H:%M}" if m.updated else "",
        )
        for m in memories
    ]
    widths = [max(_width(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(_pad(cell, w) for cell, w in zip(row, widths, strict=True)).rstrip())
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    memory = _find(open_store(args), args.id)
    if args.json:
        print(json.dumps(memory_json(memory, with_body=True), ensure_ascii=False, indent=2))
        return 0
    fields = memory_json(memory, with_body=False) | memory_json(memory, with_body=True)["extra"]
    for key, value in fields.items():
        if value not in (None, [], {}, ""):
            print(f"{key}: {', '.join(map(str, value)) if isinstance(value, list) else value}")
    print()
    print(memory.body, end="" if memory.body.endswith("\n") else "\n")
    return 0


def cmd_delete(args: argparse.Namespace) -> int:
    store = open_store(args)
    memory = _find(store, args.id)
    try:
        record = MemoryWrites(store).delete(memory.id, force=args.force).value
    except NoteNotWritable as exc:
        raise NoteNotWritable(
            exc.path, f"{exc.why} (--force moves it anyway)", exc.action
        ) from None
    print(f"moved {memory.title!r} to the trash: {record.trashed}")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    store = open_store(args, writing=True)

    def report(path: Path, outcome: Memory | PixelmemError) -> None:
        if isinstance(outcome, Memory):
            print(f"{outcome.id}  {path}")
        elif isinstance(outcome, ImportSkipped):  # on purpose: already there, unsupported
            print(f"pixelmem: skipped {outcome}", file=sys.stderr)
        else:
            print(f"pixelmem: failed {outcome}", file=sys.stderr)

    paths = (Path(p).expanduser() for p in args.paths)
    result = MemoryWrites(store).import_files(paths, report).value
    imported, failed, skipped = len(result.created), len(result.failed), len(result.skipped)
    print(
        f"imported {counted(imported, 'file')}, {skipped} skipped, {failed} failed", file=sys.stderr
    )
    return 1 if failed else 0


def cmd_doctor(args: argparse.Namespace) -> int:
    store = open_store(args)
    result = store.scan()
    print(f"vault: {store.root}")
    print(
        f"{counted(len(result.memories), 'memory', 'memories')}, "
        f"{counted(len(result.skipped), 'skipped file')}"
    )
    for item in result.skipped:
        print(f"  {_relative(item.path, store.root)}: {item.reason}")
    _print_drawings(store.root, list(result.memories))
    _print_other_files(store.root)
    return 0 if _search_backend_ok() else 1


OTHER_KINDS = {  # what pixelmem does with the files it does not read as memories
    "canvas": "Obsidian canvases (not read; shown as a link where a note embeds one)",
    "base": "Obsidian bases (not read; shown as a link where a note embeds one)",
    "image": "images (shown where a note embeds or links them)",
    "pdf": "PDFs (shown as a link where a note embeds one)",
    "audio": "recordings (shown as a link where a note embeds one)",
    "video": "videos (shown as a link where a note embeds one)",
    "other": "other files (not read)",
}


def _print_drawings(root: Path, memories: list[Memory], shown: int = 5) -> None:
    """The Excalidraw drawings among the memories: read by their words alone."""
    from pixelmem.core.vault.drawings import is_drawing

    found = [m for m in memories if is_drawing(m.extra, m.body)]
    if not found:
        return
    names = ", ".join(_relative(m.path, root) if m.path else m.title for m in found[:shown])
    more = f", … {len(found) - shown} more" if len(found) > shown else ""
    print(
        f"{counted(len(found), 'Excalidraw drawing')} (memories searched by the words on "
        f"them, not by the drawing's data): {names}{more}"
    )


def _print_other_files(root: Path, shown: int = 5) -> None:
    """The files pixelmem does not read as memories, by kind, a few of each named."""
    from pixelmem.core.vault.attachments import AttachmentIndex

    others = AttachmentIndex(root).others()
    print(f"{counted(len(others), 'other file')} (not memories)")
    for kind, meaning in OTHER_KINDS.items():
        of_kind = [f.rel for f in others if f.kind == kind]
        if not of_kind:
            continue
        names = ", ".join(printable_name(rel) for rel in of_kind[:shown])
        more = f", … {len(of_kind) - shown} more" if len(of_kind) > shown else ""
        print(f"  {len(of_kind)} {meaning}: {names}{more}")


def _search_backend_ok() -> bool:
    """Print the search backend's checks; False when one fails."""
    from pixelmem.core.settings import Settings

    search = Settings.load().search
    if search.backend != "postgres":
        print("search backend: local (in memory)")
        return True
    from pixelmem.core.index.postgres_store import Check, describe_url, health

    print(f"search backend: postgres ({describe_url(search.postgres_url)})")
    try:
        checks = health(search.postgres_url)
    except PixelmemError as exc:  # psycopg missing
        checks = [Check("client", str(exc), False)]
    for check in checks:
        print(f"  {'ok ' if check.ok else 'BAD'} {check.name}: {check.found}")
    return all(check.ok for check in checks)


# ---------------------------------------------------------------- formatting


def _recency(memory: Memory) -> str:
    return memory.updated.isoformat() if memory.updated else ""


def _relative(path: Path, root: Path) -> str:
    try:
        return printable_name(path.relative_to(root).as_posix())
    except ValueError:
        return printable_name(str(path))


def _width(text: str) -> int:
    """Terminal columns: CJK characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * (width - _width(text))


def _clip(text: str, width: int) -> str:
    text = " ".join(text.split())
    if _width(text) <= width:
        return text
    out = ""
    for ch in text:
        if _width(out + ch) > width - 1:
            break
        out += ch
    return out + "…"
