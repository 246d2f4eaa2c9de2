"""Run the app under uvicorn until SIGTERM or SIGINT, then shut down cleanly.

uvicorn handles both signals: it stops accepting connections, lets requests in flight finish
(a write that started is completed and answered), then runs the app's lifespan shutdown (the
watcher stops, an index run is cancelled with its vectors saved). Long-lived MCP streams are
closed after :data:`GRACE_SECONDS` so they cannot hold the process open.
"""

from __future__ import annotations

import logging

import uvicorn

from pixelmem.core.runtime.tools import PixelmemService
from pixelmem.service.app import AppOptions, create_app
from pixelmem.service.limits import (
    BoundedH11Protocol,
    RepeatLimiter,
    connection_cap,
    raise_file_limit,
)

log = logging.getLogger(__name__)

GRACE_SECONDS = 10


def serve(tools: PixelmemService, options: AppOptions, host: str, port: int) -> None:
    app = create_app(tools, options)
    BoundedH11Protocol.max_connections = connection_cap(raise_file_limit())
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        http=BoundedH11Protocol,
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=GRACE_SECONDS,
        server_header=False,
        proxy_headers=False,
        lifespan="on",
    )
    limit_repeated_log_lines()  # after uvicorn set up its loggers
    uvicorn.Server(config).run()


def limit_repeated_log_lines() -> None:
    """One line per repeated message (e.g. asyncio's failed accept() under a flood)."""
    limiter = RepeatLimiter()
    for handler in logging.getLogger().handlers:
        handler.addFilter(limiter)
    for name in ("asyncio", "uvicorn", "uvicorn.error"):
        logger = logging.getLogger(name)
        logger.addFilter(limiter)
        for handler in logger.handlers:
            handler.addFilter(limiter)
