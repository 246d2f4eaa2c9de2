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

log = logging.getLogger(__name__)

GRACE_SECONDS = 10


def serve(tools: PixelmemService, options: AppOptions, host: str, port: int) -> None:
    app = create_app(tools, options)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=GRACE_SECONDS,
        server_header=False,
        proxy_headers=False,
        lifespan="on",
    )
    uvicorn.Server(config).run()
