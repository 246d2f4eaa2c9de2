"""One thread that brings the index up to date whenever asked; searches never wait for it.

Anyone may :meth:`IndexLane.request` a run (a changed file, a write, ``POST /v1/index``) and
gets a ticket; requests that arrive while a run goes on are served together by the next run.
:meth:`wait` blocks until a run that started after the ticket has finished. A bounded history
of finished runs lets an index job find the report of the run that served it.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from pixelmem.core.errors import PixelmemError
from pixelmem.core.index.engine import Engine, IndexReport

log = logging.getLogger(__name__)

HISTORY = 64


@dataclass(frozen=True)
class FinishedRun:
    served_up_to: int  # every ticket up to this one was served by this run
    report: IndexReport | None  # None: the run failed (error says why)
    error: str
    finished: datetime
    failure: BaseException | None = None  # what the failed run raised
    progress: tuple[int, int] = (0, 0)  # (done, total) when it finished


class IndexLane:
    """Runs ``engine.reindex()`` on its own thread, once per batch of requests."""

    def __init__(self, engine: Engine, before_run: Callable[[bool], None] | None = None) -> None:
        self.engine = engine
        self._before_run = before_run  # called with rescan=True/False before each run
        self._cond = threading.Condition()
        self._requested = 0
        self._served = 0
        self._rescan_wanted = False
        self._running_up_to = 0  # tickets the current run serves (0: idle)
        self._progress = (0, 0)
        self._history: deque[FinishedRun] = deque(maxlen=HISTORY)
        self._stopping = False
        self._cancel = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="pixelmem-index", daemon=True)

    def start(self) -> None:
        self._thread.start()

    # -- asking ----------------------------------------------------------------------------

    def request(self, *, rescan: bool = False) -> int:
        """Ask for a run (``rescan``: re-read the whole vault first); return the ticket."""
        with self._cond:
            self._requested += 1
            self._rescan_wanted = self._rescan_wanted or rescan
            self._cond.notify_all()
            return self._requested

    def wait(self, ticket: int, timeout: float | None = None) -> bool:
        """Whether the run serving ``ticket`` finished within ``timeout`` seconds."""
        with self._cond:
            return self._cond.wait_for(lambda: self._served >= ticket or self._stopping, timeout)

    def run_and_wait(self, *, rescan: bool = False) -> IndexReport:
        """Ask for a run and wait for its report; raise what made it fail (a tool call that
        asked for a reindex must not read a failure as an empty vault)."""
        ticket = self.request(rescan=rescan)
        self.wait(ticket)
        run = self.run_for(ticket)
        if run is None:
            raise PixelmemError("the service is stopping: indexing did not finish")
        if run.report is None:
            if isinstance(run.failure, PixelmemError):
                raise run.failure
            raise PixelmemError(f"indexing failed: {run.error}") from run.failure
        return run.report

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
    def last_run(self) -> FinishedRun | None:
        with self._cond:
            return self._history[-1] if self._history else None

    # -- running ---------------------------------------------------------------------------

    def _loop(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._requested > self._served or self._stopping)
                if self._stopping:
                    return
                target, rescan = self._requested, self._rescan_wanted
                self._running_up_to, self._rescan_wanted = target, False
                self._progress = (0, 0)
            report, failure = self._run_once(rescan)
            error = "" if failure is None else str(failure) or type(failure).__name__
            with self._cond:
                self._served, self._running_up_to = target, 0
                finished = datetime.now(UTC)
                run = FinishedRun(target, report, error, finished, failure, self._progress)
                self._history.append(run)
                self._cond.notify_all()

    def _run_once(self, rescan: bool) -> tuple[IndexReport | None, Exception | None]:
        try:
            if self._before_run is not None:
                self._before_run(rescan)
            return self.engine.reindex(progress=self._on_progress, cancel=self._cancel), None
        except Exception as exc:
            if not self._stopping:
                log.exception("indexing failed")
            return None, exc

    def _on_progress(self, done: int, total: int) -> None:
        with self._cond:
            self._progress = (done, total)

    def stop(self, timeout: float = 60.0) -> None:
        """Cancel a run in progress (the vectors so far are saved to the cache) and end."""
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        self._cancel.set()
        if self._thread.is_alive():
            self._thread.join(timeout)
