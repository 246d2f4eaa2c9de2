"""``pixelmem serve``: the vault as a local HTTP service (REST under /v1, MCP at /mcp)."""

from __future__ import annotations

import argparse
import errno
import ipaddress
import logging
import os
import socket
import sys
from typing import Any

from pixelmem.commands.common import require_vault_folder, vault_from_args
from pixelmem.core.blas_threads import use_one_blas_thread
from pixelmem.core.errors import PixelmemError
from pixelmem.core.paths import VAULT_ENV
from pixelmem.core.settings import Settings

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8733


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    parser = subparsers.add_parser(
        "serve",
        parents=[common],
        help="run the local HTTP service (REST API + MCP over HTTP)",
        description="Serve the vault over HTTP: a REST API under /v1 (OpenAPI at "
        "/v1/openapi.json) and MCP over Streamable HTTP at /mcp. Every request but "
        "/v1/health needs `Authorization: Bearer <token>` (see --print-token). The index "
        "follows changes to the vault's files by itself. Stop with Ctrl+C or SIGTERM.",
    )
    parser.add_argument("--host", default=DEFAULT_HOST, help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="port (default 8733)")
    parser.add_argument(
        "--allow-remote",
        action="store_true",
        help="allow --host to be an address other machines can reach (prints a warning)",
    )
    parser.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="another Host header name to accept (e.g. this machine's LAN name); repeatable",
    )
    parser.add_argument(
        "--cors-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="let web pages from this origin call the API (CORS); repeatable; default none",
    )
    parser.add_argument(
        "--max-body", type=int, default=1024 * 1024, metavar="BYTES", help="default 1 MB"
    )
    parser.add_argument(
        "--print-token", action="store_true", help="print the bearer token (creating it) and exit"
    )
    parser.set_defaults(handler=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    from pixelmem.core.runtime.access_token import load_or_create_token, token_path

    settings = Settings.load()
    vault = vault_from_args(args, settings)
    token = load_or_create_token()
    if args.print_token:
        print(token)
        return 0
    _check_bind(args)
    if args.vault or os.environ.get(VAULT_ENV):
        require_vault_folder(vault)
    if not 0 < args.port < 65536:
        raise PixelmemError(f"--port must be 1-65535, not {args.port}")
    if args.max_body < 1024:
        raise PixelmemError("--max-body must be at least 1024 bytes")
    _check_port_free(args.host, args.port)

    use_one_blas_thread()  # a service gets its parallelism from requests
    from pixelmem.core.runtime.freshness import SERVICE
    from pixelmem.core.runtime.tools import PixelmemService
    from pixelmem.core.runtime.vault_runtime import VaultRuntime
    from pixelmem.service.app import AppOptions  # starlette, uvicorn, the MCP SDK: slow imports
    from pixelmem.service.guard import GuardSettings
    from pixelmem.service.server import serve

    logging.getLogger("pixelmem").setLevel(logging.INFO)
    guard = GuardSettings.for_bind(
        token,
        args.host,
        extra_hosts=args.allow_host,
        cors_origins=args.cors_origin,
        max_body=args.max_body,
    )
    runtime = VaultRuntime.open(vault, SERVICE)  # scans now; the lifespan starts it
    tools = PixelmemService(vault, SERVICE, runtime=runtime)
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(
        f"pixelmem: serving {vault} on http://{shown}:{args.port} "
        f"(REST /v1, MCP /mcp; token in {token_path()})",
        file=sys.stderr,
        flush=True,
    )
    serve(tools, AppOptions(guard, tuple(args.cors_origin)), args.host, args.port)
    return 0


def _check_bind(args: argparse.Namespace) -> None:
    if _is_loopback(args.host):
        return
    if not args.allow_remote:
        raise PixelmemError(
            f"--host {args.host} is reachable from other machines; add --allow-remote if you "
            "mean it (anyone who has the token can then read and change the vault)"
        )
    print(
        f"pixelmem: warning: serving on {args.host}, reachable from other machines; requests "
        "still need the token, but traffic is not encrypted (plain HTTP)",
        file=sys.stderr,
    )
    if args.host in ("0.0.0.0", "::") and not args.allow_host:
        print(
            "pixelmem: note: other machines must address this one by a name given with "
            "--allow-host (Host header check); only loopback names are accepted now",
            file=sys.stderr,
        )


def _check_port_free(host: str, port: int) -> None:
    """A clear sentence now instead of uvicorn's errno after the model and vault are loaded."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            probe.bind((host.strip("[]"), port))
        except OSError as exc:
            hint = (
                " (is another `pixelmem serve` running? choose another --port)"
                if exc.errno == errno.EADDRINUSE
                else ""
            )
            raise PixelmemError(
                f"cannot listen on {host} port {port}: {exc.strerror or exc}{hint}"
            ) from None


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
