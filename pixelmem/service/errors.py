"""Every error answer is ``{"error": {"code", "message"}}`` with the status that fits."""

from __future__ import annotations

from starlette.responses import JSONResponse

from pixelmem.core.archive.inbox import DraftNotFound
from pixelmem.core.errors import (
    ConflictError,
    InvalidIdError,
    InvalidMemoryError,
    MemoryNotFound,
    NoteNotWritable,
    PixelmemError,
    ProviderError,
)
from pixelmem.core.runtime.tools import InvalidArgument


class ApiError(Exception):
    """An error answer: HTTP status, a short machine code and a sentence for a person."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def error_response(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


# The core's errors, most specific first: (class, status, code).
_CORE_ERRORS: tuple[tuple[type[PixelmemError], int, str], ...] = (
    (MemoryNotFound, 404, "not_found"),
    (DraftNotFound, 404, "not_found"),
    (InvalidIdError, 400, "bad_id"),
    (InvalidArgument, 400, "bad_argument"),
    (ConflictError, 409, "conflict"),
    (NoteNotWritable, 403, "not_writable"),
    (InvalidMemoryError, 422, "invalid_memory"),
    (ProviderError, 503, "provider_unavailable"),
)


def api_error_for(exc: PixelmemError) -> ApiError:
    """The answer for an error the core raised; an unexpected kind is a 500 with its text."""
    for kind, status, code in _CORE_ERRORS:
        if isinstance(exc, kind):
            return ApiError(status, code, str(exc))
    return ApiError(500, "vault_error", str(exc))
