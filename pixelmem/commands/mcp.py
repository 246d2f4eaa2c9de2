"""``pixelmem mcp``: serve the vault to AI tools (Claude Code, Claude Desktop, …) over stdio."""

from __future__ import annotations

import argparse
import os
from typing import Any

from pixelmem.commands.common import require_vault_folder, vault_from_args
from pixelmem.core.paths import VAULT_ENV
from pixelmem.core.settings import Settings


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    parser = subparsers.add_parser(
        "mcp",
        parents=[common],
        help="run the MCP server over stdio (for Claude Code, Claude Desktop, …)",
        description="Serve the vault over the Model Context Protocol on stdin/stdout. "
        "Logs go to stderr. Writes land in the review inbox unless `mcp_writes` is `direct`.",
    )
    parser.set_defaults(handler=cmd_mcp)


def cmd_mcp(args: argparse.Namespace) -> int:
    from pixelmem.mcp_server import run  # the SDK takes a while to import

    vault = vault_from_args(args, Settings.load())
    if args.vault or os.environ.get(VAULT_ENV):
        # A typo in a client's config must not silently start an empty new vault.
        require_vault_folder(vault)
    run(vault)
    return 0
