"""One REST endpoint = a handler plus its OpenAPI operation, declared side by side.

:func:`endpoint` turns a plain handler ``(request) -> (status, body[, headers])`` that may
raise :class:`ApiError` or a core error into a Starlette endpoint that answers JSON, and
remembers the OpenAPI description so ``/v1/openapi.json`` lists exactly the routes that exist.
The handlers are synchronous (the core is): Starlette runs them on its thread pool.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from pixelmem.core.errors import PixelmemError
from pixelmem.service.errors import ApiError, api_error_for, error_response

log = logging.getLogger(__name__)

Answer = tuple[int, Any] | tuple[int, Any, Mapping[str, str]]
Handler = Callable[["Call"], Answer]


@dataclass(frozen=True)
class Call:
    """What a handler gets: the request's parts, already read (no awaiting in a handler)."""

    request: Request
    body: bytes

    @property
    def state(self) -> Any:
        return self.request.app.state

    def path(self, name: str) -> str:
        return str(self.request.path_params[name])

    def header(self, name: str) -> str | None:
        return self.request.headers.get(name)

    def text(self, name: str, default: str | None = None) -> str | None:
        return self.request.query_params.get(name, default)

    def integer(self, name: str, default: int, low: int, high: int) -> int:
        raw = self.request.query_params.get(name)
        if raw is None or raw == "":
            return default
        try:
            value = int(raw)
        except ValueError:
            value = low - 1
        if not low <= value <= high:
            raise ApiError(400, "bad_argument", f"{name} must be a whole number {low}-{high}")
        return value

    def json(self) -> dict[str, Any]:
        """The body as a JSON object (400 if it is not JSON, 422 if it is not an object)."""
        try:
            data = json.loads(self.body or b"null")
        except (ValueError, UnicodeDecodeError) as exc:
            raise ApiError(400, "bad_json", f"the body is not valid JSON: {exc}") from None
        except RecursionError:  # json recurses per nesting level: ``[[[[…`` would be a 500
            raise ApiError(400, "bad_json", "the body's JSON is nested too deeply") from None
        if not isinstance(data, dict):
            raise ApiError(422, "invalid_body", "the body must be a JSON object")
        return data


@dataclass(frozen=True)
class Endpoint:
    path: str
    method: str
    handler: Handler
    operation: dict[str, Any] = field(default_factory=dict)  # the OpenAPI operation object

    async def __call__(self, request: Request) -> Response:
        call = Call(request, await request.body())
        started = time.perf_counter()
        response = await self._answer(call)
        # How long the handler took (thread-pool wait included), for clients and benchmarks;
        # an error answer too, so a client can time every call the same way.
        response.headers["Server-Timing"] = f"app;dur={(time.perf_counter() - started) * 1e3:.2f}"
        return response

    async def _answer(self, call: Call) -> Response:
        try:
            answer = await run_in_threadpool(self.handler, call)
        except ApiError as exc:
            return error_response(exc.status, exc.code, exc.message)
        except PixelmemError as exc:
            error = api_error_for(exc)
            return error_response(error.status, error.code, error.message)
        except Exception:
            log.exception("%s %s failed", self.method, self.path)
            return error_response(500, "internal", "the service failed; see its log")
        status, data = answer[0], answer[1]
        headers = dict(answer[2]) if len(answer) > 2 else {}
        return JSONResponse(data, status_code=status, headers=headers)


def endpoint(path: str, method: str, **operation: Any) -> Callable[[Handler], Endpoint]:
    """Decorator: ``@endpoint("/v1/x", "GET", summary=..., parameters=[...], responses=...)``."""

    def wrap(handler: Handler) -> Endpoint:
        return Endpoint(path, method, handler, operation)

    return wrap
