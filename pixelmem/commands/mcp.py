"""``pixelmem mcp``: serve the vault to AI tools (Claude Code, Claude Desktop, …) over stdio."""

from __future__ import annotations

import argparse
import os
from typing import Any

from pixelmem.commands.common import vault_from_args
from pixelmem.core.errors import VaultError
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
    named = bool(args.vault or os.environ.get(VAULT_ENV))
    if named and not vault.is_dir():
        # A typo in a client's config must not silently start an empty new vault.
        raise VaultError(f"the vault folder {vault} does not exist")
    run(vault)
    return 0
