"""The ASGI app: REST routes under ``/v1``, MCP over Streamable HTTP at ``/mcp``, one guard.

The lifespan starts the vault's runtime (its watcher, then its index lane with a first
incremental index) and the MCP session manager, and on shutdown stops them in reverse: no new
changes are taken, a run in progress is cancelled with its vectors saved to the cache.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass

import anyio
from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from pixelmem.core.runtime.tools import PixelmemService
from pixelmem.mcp_server import build_server
from pixelmem.service import openapi, routes_index, routes_memories, routes_search
from pixelmem.service.endpoint import Endpoint
from pixelmem.service.errors import error_response
from pixelmem.service.guard import Guard, GuardSettings
from pixelmem.service.memory_writes import RestWrites
from pixelmem.service.routes_index import IndexJobs

log = logging.getLogger(__name__)

ENDPOINTS: list[Endpoint] = [
    *routes_search.ENDPOINTS,
    *routes_memories.ENDPOINTS,
    *routes_index.ENDPOINTS,
]
MCP_PATH = "/mcp"


@dataclass(frozen=True)
class AppOptions:
    guard: GuardSettings
    cors_origins: tuple[str, ...] = ()
    watch: bool = True


def create_app(tools: PixelmemService, options: AppOptions) -> Starlette:
    runtime = tools.runtime
    mcp = build_server(tools)
    mcp_app = mcp.streamable_http_app(
        streamable_http_path=MCP_PATH,
        transport_security=_mcp_security(options.guard),
        max_request_body_size=options.guard.max_body,
    )
    routes: list[BaseRoute] = [*_rest_routes(), *mcp_app.routes]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # The watch first, then a first run that re-reads the vault: nothing written in
        # between is missed.
        await anyio.to_thread.run_sync(lambda: runtime.start(watch=options.watch))
        try:
            async with mcp.session_manager.run():
                yield
        finally:
            await anyio.to_thread.run_sync(runtime.stop)
            log.info("pixelmem service stopped; the index cache is saved")

    middleware = [Middleware(Guard, settings=options.guard)]
    if options.cors_origins:
        middleware.append(
            Middleware(
                CORSMiddleware,
                allow_origins=list(options.cors_origins),
                allow_methods=["GET", "POST", "PATCH", "DELETE"],
                allow_headers=["Authorization", "Content-Type", "If-Match", "Mcp-Session-Id"],
                expose_headers=["ETag", "Location", "Mcp-Session-Id"],
            )
        )
    app = Starlette(
        routes=routes,
        middleware=middleware,
        lifespan=lifespan,
        exception_handlers={404: _not_found, 405: _not_allowed},
    )
    app.state.tools = tools
    app.state.runtime = runtime
    app.state.writes = RestWrites(tools)
    app.state.watching = options.watch
    app.state.jobs = IndexJobs(runtime)
    app.state.openapi = openapi.document(ENDPOINTS)
    return app


def _rest_routes() -> list[Route]:
    by_path: dict[str, list[Endpoint]] = {}
    for ep in ENDPOINTS:
        by_path.setdefault(ep.path, []).append(ep)
    return [_route(path, eps) for path, eps in by_path.items()]


def _route(path: str, endpoints: list[Endpoint]) -> Route:
    handlers = {ep.method: ep for ep in endpoints}
    if "GET" in handlers:  # HEAD: what GET answers, headers only (uptime checks use it)
        handlers["HEAD"] = handlers["GET"]

    async def dispatch(request: Request) -> Response:
        response = await handlers[request.method](request)
        if request.method == "HEAD":
            return _headers_only(response)
        return response

    return Route(path, dispatch, methods=list(handlers))


def _headers_only(response: Response) -> Response:
    """The same status and headers (Content-Length included), no body."""
    empty = Response(status_code=response.status_code)
    empty.raw_headers = list(response.raw_headers)
    return empty


def _mcp_security(guard: GuardSettings) -> TransportSecuritySettings:
    """The SDK's own Host/Origin check, with the same names as :class:`Guard` (both run)."""
    hosts = [f"[{h}]" if ":" in h else h for h in sorted(guard.allowed_hosts)]
    origins = [f"{s}://{h}{port}" for s in ("http", "https") for h in hosts for port in ("", ":*")]
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[*hosts, *(f"{h}:*" for h in hosts)],
        allowed_origins=[*origins, *sorted(guard.cors_origins)],
    )


async def _not_found(request: Request, exc: Exception) -> Response:
    return error_response(404, "not_found", f"no such endpoint: {request.url.path}")


async def _not_allowed(request: Request, exc: Exception) -> Response:
    return error_response(405, "method_not_allowed", f"{request.method} is not allowed here")
