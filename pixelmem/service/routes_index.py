"""``/v1/index`` (start a reindex, follow its job), ``/v1/status``, ``/v1/health``."""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from typing import Any

from pixelmem import __version__
from pixelmem.core.index.engine import IndexReport
from pixelmem.core.runtime.answers import index_state
from pixelmem.core.runtime.vault_runtime import VaultRuntime
from pixelmem.core.vault.memory_json import display_path, iso_utc
from pixelmem.service import openapi as oa
from pixelmem.service.endpoint import Answer, Call, endpoint
from pixelmem.service.errors import ApiError

MAX_JOBS = 100


class IndexJobs:
    """Job ids handed to clients, each naming one lane ticket (the newest MAX_JOBS kept)."""

    def __init__(self, runtime: VaultRuntime) -> None:
        self.runtime = runtime
        self.lane = runtime.lane
        self._jobs: OrderedDict[str, int] = OrderedDict()
        self._lock = threading.Lock()

    def start(self) -> str:
        ticket = self.runtime.request_index(rescan=True)
        job = secrets.token_hex(8)
        with self._lock:
            self._jobs[job] = ticket
            while len(self._jobs) > MAX_JOBS:
                self._jobs.popitem(last=False)
        return job

    def describe(self, job: str) -> dict[str, Any]:
        with self._lock:
            ticket = self._jobs.get(job)
        if ticket is None:
            raise ApiError(404, "not_found", f"no index job {job!r} (jobs are kept in memory)")
        state, done, total = self.lane.state_of(ticket)
        answer: dict[str, Any] = {"job": job, "state": state, "done": done, "total": total}
        run = self.lane.run_for(ticket) if state == "done" else None
        if run is not None:
            answer["finished"] = iso_utc(run.finished)
            if run.report is None:
                answer["state"], answer["error"] = "failed", run.error
            else:
                answer["report"] = report_json(run.report)
        return answer


def report_json(report: IndexReport) -> dict[str, Any]:
    return {
        "memories": report.memories,
        "chunks": report.chunks,
        "embedded": report.embedded,
        "from_cache": report.reused,
        "semantic_error": report.semantic_error,
        "warnings": list(report.warnings),
    }


@endpoint(
    "/v1/index",
    "POST",
    summary="Re-read the vault and index what is new or changed (incremental)",
    responses={"202": oa.answer("the job is queued", "IndexJobStarted")},
)
def start_index(call: Call) -> Answer:
    job = call.state.jobs.start()
    return 202, {"job": job, "state": "queued", "url": f"/v1/index/{job}"}


@endpoint(
    "/v1/index/{job}",
    "GET",
    summary="Progress of an index job: queued, running, done (with its report) or failed",
    parameters=[oa.path_param("job", "the id POST /v1/index answered")],
    responses={"200": oa.answer("the job's state", "IndexJob"), **oa.errors(404)},
)
def index_job(call: Call) -> Answer:
    return 200, call.state.jobs.describe(call.path("job"))


@endpoint(
    "/v1/status",
    "GET",
    summary="Memories, chunks, vectors, skipped files, provider, model, last index time",
    responses={"200": oa.answer("the vault's and the index's state", "Status")},
)
def status(call: Call) -> Answer:
    runtime, tools = call.state.runtime, call.state.tools
    engine = tools.current_engine()
    state = engine.status()
    last = runtime.lane.last_run
    return 200, {
        "vault": str(state.vault),
        "memories": state.memories,
        "chunks": state.chunks,
        "vectors": state.indexed_chunks,
        "skipped": [{"path": display_path(s.path), "reason": s.reason} for s in state.skipped],
        "provider": engine.settings.embedding.provider,
        "model": state.model_id,
        "model_reason": state.model_reason,
        "semantic_search": f"unavailable: {state.semantic_error}" if state.semantic_error else "ok",
        "index": index_state(engine),
        "indexing": runtime.lane.busy,
        "watching": runtime.watcher.mode,
        "last_indexed": iso_utc(last.finished) if last is not None else None,
        "pending_drafts": tools.inbox.count(),
        "mcp_writes": engine.settings.mcp_writes,
    }


@endpoint(
    "/v1/health",
    "GET",
    summary="Liveness (no token needed)",
    responses={"200": oa.answer("alive", "Health")},
)
def health(call: Call) -> Answer:
    return 200, {"status": "ok", "version": __version__}


@endpoint(
    "/v1/openapi.json",
    "GET",
    summary="This document",
    responses={"200": oa.answer("OpenAPI 3.1", "OpenApiDocument")},
)
def openapi_document(call: Call) -> Answer:
    return 200, call.state.openapi


ENDPOINTS = [start_index, index_job, status, health, openapi_document]
