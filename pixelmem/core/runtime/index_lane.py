"""One thread that brings the index up to date whenever asked; searches never wait for it.

Anyone may :meth:`IndexLane.request` a run (a changed file, a write, new settings, ``POST
/v1/index``) and gets a ticket; requests that arrive while a run goes on are served together by
the next run, so a burst of changes costs one or two runs, not one each. :meth:`wait` blocks
until a run that started after the ticket has finished; :meth:`wait_searchable` only until that
run has published a snapshot searches can use (keyword answers before a long embedding ends).
A bounded history of finished runs lets an index job find the report of the run that served
it. :meth:`cancel` stops the run in progress (the vectors so far are saved to the cache); with
``requeue`` its tickets are served again by the next run (new settings made it moot).
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from pixelmem.core.errors import IndexCancelled, PixelmemError

if TYPE_CHECKING:
    from pixelmem.core.index.indexer import IndexReport, Progress

log = logging.getLogger(__name__)

HISTORY = 64
# run(rescan, progress, cancel, published) -> report; published() says a snapshot is searchable
RunIndex = Callable[[bool, "Progress", threading.Event, Callable[[], None]], "IndexReport"]


@dataclass(frozen=True)
class FinishedRun:
    served_up_to: int  # every ticket up to this one was served by this run
    report: IndexReport | None  # None: the run failed (error says why)
    error: str
    finished: datetime
    failure: BaseException | None = None  # what the failed run raised
    progress: tuple[int, int] = (0, 0)  # (done, total) when it finished

    @property
    def cancelled(self) -> bool:
        return isinstance(self.failure, IndexCancelled)


class LaneListener:
    """What the lane tells its owner, on the lane's thread (return quickly)."""

    def index_started(self) -> None: ...

    def index_progress(self, done: int, total: int) -> None: ...

    def index_finished(self, run: FinishedRun) -> None: ...


class IndexLane:
    """Runs ``run(...)`` on its own thread, once per batch of requests."""

    def __init__(self, run: RunIndex, listener: LaneListener | None = None) -> None:
        self._run = run
        self._listener = listener or LaneListener()
        self._cond = threading.Condition()
        self._requested = 0
        self._served = 0
        self._searchable = 0  # tickets covered by a published snapshot
        self._rescan_wanted = False
        self._running_up_to = 0  # tickets the current run serves (0: idle)
        self._requeue = False
        self._progress = (0, 0)
        self._history: deque[FinishedRun] = deque(maxlen=HISTORY)
        self._runs = 0
        self._stopping = False
        self._cancel = threading.Event()
        self._jobs: deque[Callable[[], object]] = deque()  # run before the next run
        self._thread = threading.Thread(target=self._loop, name="pixelmem-index", daemon=True)

    def start(self) -> None:
        if not self._thread.is_alive() and not self._stopping:
            self._thread.start()

    # -- asking ----------------------------------------------------------------------------

    def request(self, *, rescan: bool = False) -> int:
        """Ask for a run (``rescan``: re-read the whole vault first); return the ticket."""
        with self._cond:
            self._requested += 1
            self._rescan_wanted = self._rescan_wanted or rescan
            self._cond.notify_all()
            return self._requested

    def run_first(self, job: Callable[[], object]) -> None:
        """Run ``job`` on the lane's thread before its next run (loading a saved index)."""
        with self._cond:
            self._jobs.append(job)
            self._cond.notify_all()

    def wait(self, ticket: int, timeout: float | None = None) -> bool:
        """Whether the run serving ``ticket`` finished within ``timeout`` seconds."""
        with self._cond:
            return self._cond.wait_for(lambda: self._served >= ticket or self._stopping, timeout)

    def wait_searchable(self, ticket: int, timeout: float | None = None) -> bool:
        """Whether a snapshot covering ``ticket`` (keyword-only at least) was published within
        ``timeout`` seconds."""
        with self._cond:
            return self._cond.wait_for(
                lambda: max(self._served, self._searchable) >= ticket or self._stopping, timeout
            )

    def run_and_wait(self, *, rescan: bool = False) -> IndexReport:
        """Ask for a run and wait for its report; raise what made it fail (a tool call that
        asked for a reindex must not read a failure as an empty vault)."""
        ticket = self.request(rescan=rescan)
        self.wait(ticket)
        run = self.run_for(ticket)
        if run is None:
            raise PixelmemError("the index is stopping: indexing did not finish")
        if run.report is None:
            if isinstance(run.failure, PixelmemError):
                raise run.failure
            raise PixelmemError(f"indexing failed: {run.error}") from run.failure
        return run.report

    def cancel(self, *, requeue: bool = False) -> None:
        """Stop the run in progress; ``requeue``: serve its tickets with the next run."""
        with self._cond:
            if self._running_up_to:
                self._requeue = self._requeue or requeue
                self._cancel.set()

    # -- reading ---------------------------------------------------------------------------

    def run_for(self, ticket: int) -> FinishedRun | None:
        """The finished run that served ``ticket``, if it is still in the history."""
        with self._cond:
            return next((r for r in self._history if r.served_up_to >= ticket), None)

    def state_of(self, ticket: int) -> tuple[str, int, int]:
        """``(queued|running|done, done, total)`` for a ticket."""
        with self._cond:
            if self._served >= ticket:  # that run's figures, not those of a run since
                run = self.run_for(ticket)  # the condition's lock is re-entrant
                return ("done", *(run.progress if run is not None else (0, 0)))
            if self._running_up_to >= ticket:
                return ("running", *self._progress)
            return ("queued", 0, 0)

    @property
    def busy(self) -> bool:
        with self._cond:
            return self._requested > self._served

    @property
    def runs(self) -> int:
        """How many runs have started (a burst of requests is served by few)."""
        with self._cond:
            return self._runs

    @property
    def last_run(self) -> FinishedRun | None:
        with self._cond:
            return self._history[-1] if self._history else None

    # -- running ---------------------------------------------------------------------------

    def _loop(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(
                    lambda: self._requested > self._served or self._stopping or bool(self._jobs)
                )
                if self._stopping:
                    return
                job = self._jobs.popleft() if self._jobs else None
                if job is None:
                    target, rescan = self._requested, self._rescan_wanted
                    self._running_up_to, self._rescan_wanted = target, False
                    self._progress, self._runs = (0, 0), self._runs + 1
                    self._cancel = threading.Event()
            if job is not None:
                self._run_job(job)
                continue
            self._listener.index_started()
            report, failure = self._run_once(rescan)
            with self._cond:
                self._running_up_to = 0
                if isinstance(failure, IndexCancelled) and self._requeue and not self._stopping:
                    self._requeue, self._rescan_wanted = False, self._rescan_wanted or rescan
                    continue  # served again by the next run, with the new settings
                self._requeue = False
                self._served = target
                error = "" if failure is None else str(failure) or type(failure).__name__
                run = FinishedRun(target, report, error, datetime.now(UTC), failure, self._progress)
                self._history.append(run)
                self._cond.notify_all()
            self._listener.index_finished(run)

    def _run_job(self, job: Callable[[], object]) -> None:
        try:
            job()
        except Exception:
            log.exception("a job on the index lane failed")

    def _run_once(self, rescan: bool) -> tuple[IndexReport | None, Exception | None]:
        try:
            report = self._run(rescan, self._on_progress, self._cancel, self._published)
            return report, None
        except Exception as exc:
            if not self._stopping and not isinstance(exc, IndexCancelled):
                log.exception("indexing failed")
            return None, exc

    def _published(self) -> None:
        with self._cond:
            self._searchable = max(self._searchable, self._running_up_to)
            self._cond.notify_all()

    def _on_progress(self, done: int, total: int) -> None:
        with self._cond:
            self._progress = (done, total)
        self._listener.index_progress(done, total)

    def stop(self, timeout: float = 60.0) -> None:
        """Cancel a run in progress (the vectors so far are saved to the cache) and end."""
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        self._cancel.set()
        if self._thread.is_alive():
            self._thread.join(timeout)
