"""``pixelmem backup ARCHIVE`` and ``pixelmem restore ARCHIVE``: the vault in one .tar.gz."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from pixelmem.commands.common import ProgressBar, require_vault_folder, vault_from_args
from pixelmem.core.archive.backup import create_backup
from pixelmem.core.archive.restore import restore_backup
from pixelmem.core.settings import Settings
from pixelmem.core.vault.store import MemoryStore
from pixelmem.core.wording import counted
from pixelmem.core.writes import MemoryWrites


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    backup = subparsers.add_parser(
        "backup",
        parents=[common],
        help="save the vault, its embedding cache and review inbox in one .tar.gz",
        description="Write the vault's files (hidden folders excepted), the embedding cache and "
        "the review inbox to ARCHIVE, with a manifest of sha256 checksums. An existing ARCHIVE "
        "is never replaced.",
    )
    backup.add_argument("archive", type=Path, metavar="ARCHIVE", help="e.g. vault-2026-11.tar.gz")
    backup.add_argument("--include-trash", action="store_true", help="also back up .pixelmem/trash")
    backup.set_defaults(handler=cmd_backup)

    restore = subparsers.add_parser(
        "restore",
        parents=[common],
        help="restore a backup (never overwrites a file unless --overwrite)",
        description="Verify every checksum of ARCHIVE, then put its files into the vault "
        "(or --to DIR), all or none: a failure or Ctrl-C part-way takes back what was placed. "
        "Files that already exist and differ stop the restore before anything is written, "
        "unless --keep-existing or --overwrite says what to do with them.",
    )
    restore.add_argument("archive", type=Path, metavar="ARCHIVE")
    restore.add_argument("--to", type=Path, metavar="DIR", help="restore here (default: the vault)")
    choice = restore.add_mutually_exclusive_group()
    choice.add_argument(
        "--keep-existing",
        action="store_true",
        help="restore only missing files; leave differing ones as they are",
    )
    choice.add_argument(
        "--overwrite",
        action="store_true",
        help="replace differing files (their current versions go to .pixelmem/trash/restore-*/)",
    )
    restore.add_argument(
        "--dry-run", action="store_true", help="verify and show what would happen; write nothing"
    )
    restore.set_defaults(handler=cmd_restore)


def cmd_backup(args: argparse.Namespace) -> int:
    vault = vault_from_args(args, Settings.load())
    require_vault_folder(vault)
    archive = args.archive.expanduser()
    report = create_backup(
        vault, archive, include_trash=args.include_trash, progress=ProgressBar("backing up")
    )
    for rel, reason in report.skipped:
        print(f"pixelmem: skipped {rel}: {reason}", file=sys.stderr)
    size = archive.stat().st_size
    print(
        f"backed up {counted(len(report.files), 'file')}, {_mb(report.total_bytes)} "
        f"→ {archive} ({_mb(size)})"
    )
    unreadable = [s for s in report.skipped if s[1].startswith("cannot be read")]
    return 1 if unreadable else 0


def cmd_restore(args: argparse.Namespace) -> int:
    dest = (args.to or vault_from_args(args, Settings.load())).expanduser()
    options: dict[str, Any] = dict(
        overwrite=args.overwrite,
        keep_existing=args.keep_existing,
        dry_run=args.dry_run,
        progress=ProgressBar("restoring"),
        verify_progress=ProgressBar("verifying"),
    )
    if args.to:  # a folder of its own: files, not yet a vault anyone has open
        report = restore_backup(args.archive.expanduser(), dest, **options)
    else:  # the vault: its restored memories go through the one write gateway
        store = MemoryStore(dest)
        report = MemoryWrites(store).restore_backup(args.archive.expanduser(), **options).value
    verb = "would restore" if args.dry_run else "restored"
    print(
        f"{verb} {counted(len(report.restored), 'file')} into {dest}; "
        f"{len(report.identical):,} already identical"
    )
    for rel in report.kept:
        print(f"  kept the existing {rel} (differs from the backup)")
    if report.replaced:
        where = report.trash or "the trash"
        word = "would move" if args.dry_run else "moved"
        print(
            f"  {word} the previous versions of {counted(len(report.replaced), 'file')} to {where}"
        )
    return 0


def _mb(size: int) -> str:
    return f"{size / 1_000_000:.1f} MB" if size >= 100_000 else f"{size / 1000:.1f} kB"
