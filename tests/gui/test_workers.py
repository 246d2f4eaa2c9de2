"""run_in_pool, the lanes and LatestOnly deliver on the GUI thread, in order, or not at all."""

from __future__ import annotations

import threading
import time
from collections import Counter

from PySide6.QtCore import QObject, QThreadPool

from pixelmem.gui import workers
from pixelmem.gui.workers import LatestOnly, SerialLane, run_in_pool


def test_result_arrives_on_the_gui_thread(qtbot) -> None:
    gui = threading.get_ident()
    got: list[tuple[bool, bool]] = []
    run_in_pool(
        lambda: threading.get_ident(),
        lambda t: got.append((t != gui, threading.get_ident() == gui)),
    )
    qtbot.waitUntil(lambda: got == [(True, True)])


def test_errors_go_to_on_error(qtbot) -> None:
    errors: list[BaseException] = []
    run_in_pool(lambda: 1 / 0, None, errors.append)
    qtbot.waitUntil(lambda: len(errors) == 1)
    assert isinstance(errors[0], ZeroDivisionError)


def test_lane_runs_in_submission_order(qtbot) -> None:
    lane = SerialLane()
    seen: list[int] = []
    for i in range(20):
        lane.submit(lambda i=i: i, seen.append)
    qtbot.waitUntil(lambda: len(seen) == 20)
    assert seen == list(range(20))


def test_latest_only_drops_a_superseded_answer(qtbot) -> None:
    latest = LatestOnly()
    gate = threading.Event()
    shown: list[str] = []
    latest.submit(lambda: (gate.wait(5), "old")[1], shown.append)
    latest.submit(lambda: "new", shown.append)
    qtbot.waitUntil(lambda: shown == ["new"])
    gate.set()
    qtbot.waitUntil(lambda: not workers._live)  # the old answer was delivered... and dropped
    assert shown == ["new"]


def test_latest_only_never_runs_a_request_replaced_before_it_started(qtbot) -> None:
    pool = QThreadPool()
    pool.setMaxThreadCount(1)  # the second request waits behind the first
    latest = LatestOnly(pool)
    started, gate = threading.Event(), threading.Event()
    ran: list[str] = []
    shown: list[str] = []
    latest.submit(lambda: (started.set(), gate.wait(5), ran.append("first"))[1], shown.append)
    assert started.wait(5)
    latest.submit(lambda: ran.append("second"), shown.append)
    latest.submit(lambda: (ran.append("third"), "third")[1], shown.append)
    gate.set()
    qtbot.waitUntil(lambda: shown == ["third"])
    assert pool.waitForDone(5000)
    assert ran == ["first", "third"]


def test_nothing_is_delivered_to_a_deleted_context(qtbot) -> None:
    context = QObject()
    gate = threading.Event()
    got: list[int] = []
    handle = run_in_pool(lambda: (gate.wait(5), 1)[1], got.append, context=context)
    context.deleteLater()
    qtbot.waitUntil(lambda: not _alive(context))
    gate.set()
    qtbot.waitUntil(lambda: handle.done)
    assert got == []


def _alive(obj: QObject) -> bool:
    import shiboken6

    return shiboken6.isValid(obj)


class _Receiver(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.got: list[int] = []

    def show(self, value: int) -> None:
        self.got.append(value)


def test_a_method_of_a_deleted_qobject_is_not_called(qtbot) -> None:
    # A widget closed while its worker ran (topic suggestions of a closed window): its method
    # must not be called on a dead C++ object, with or without LatestOnly.
    for submit in (
        lambda fn, cb: run_in_pool(fn, cb),
        lambda fn, cb: LatestOnly().submit(fn, cb),
    ):
        receiver = _Receiver()
        gate = threading.Event()
        submit(lambda g=gate: (g.wait(5), 1)[1], receiver.show)
        got = receiver.got
        receiver.deleteLater()
        qtbot.waitUntil(lambda r=receiver: not _alive(r))
        gate.set()
        qtbot.waitUntil(lambda: not workers._live)
        assert got == []


def test_owner_names_the_qobject_of_a_bound_method() -> None:
    receiver = _Receiver()
    assert workers.owner(receiver.show) is receiver
    assert workers.owner(print) is None
    assert workers.owner(None) is None


def test_a_task_whose_handle_was_destroyed_ends_quietly(qtbot, capfd) -> None:
    """At shutdown Qt may destroy a handle while its task still runs: the answer has nowhere
    to go, and that is not an error to print."""
    import shiboken6

    release = threading.Event()
    handle = run_in_pool(lambda: release.wait(5), lambda _v: None)
    workers._live.discard(handle)
    shiboken6.delete(handle)
    release.set()
    assert workers.wait_for_all(5000)
    assert "Signal source has been deleted" not in capfd.readouterr().err


def test_interactive_requests_make_background_work_step_aside(qtbot) -> None:
    from pixelmem.core.step_aside import interactive_running

    seen: list[bool] = []
    LatestOnly(interactive=True).submit(interactive_running, seen.append)
    qtbot.waitUntil(lambda: len(seen) == 1)
    LatestOnly().submit(interactive_running, seen.append)
    qtbot.waitUntil(lambda: len(seen) == 2)
    assert seen == [True, False] and not interactive_running()


def test_the_window_beats_while_background_work_takes_steps(qtbot, monkeypatch) -> None:
    from PySide6.QtWidgets import QApplication

    from pixelmem.core import step_aside

    monkeypatch.setattr(workers, "IDLE_S", 0.2)
    pulse = workers.install_pulse(QApplication.instance())
    assert workers.install_pulse(QApplication.instance()) is pulse  # one per application
    # An earlier test's window may have taken steps (its scan does) an instant ago.
    qtbot.waitUntil(lambda: not pulse.beating, timeout=3000)
    worker = threading.Thread(target=step_aside.step_aside)  # a background step elsewhere
    worker.start()
    worker.join()
    qtbot.waitUntil(lambda: pulse.beating, timeout=2000)
    qtbot.waitUntil(lambda: not pulse.beating, timeout=3000)  # no step since: it rests
    assert step_aside._beat == 0.0
    pulse.deleteLater()  # the other tests run without a pulse, as before
    qtbot.waitUntil(lambda: step_aside._wake is None, timeout=2000)


def test_idle_workers_are_kept_so_a_later_task_makes_no_thread(qtbot) -> None:
    """A thread made by start() on the GUI thread cost the window 13-45 ms under load: the
    global pool and the lanes keep their idle threads instead of ending them after 30 s."""
    done: list[int] = []
    run_in_pool(lambda: 1, done.append)
    qtbot.waitUntil(lambda: done == [1])
    assert QThreadPool.globalInstance().expiryTimeout() < 0
    lane = SerialLane()
    lane.submit(lambda: 2, done.append)
    qtbot.waitUntil(lambda: done == [1, 2])
    assert lane._pool.expiryTimeout() < 0


ROUNDS = 300


def test_a_tasks_handle_and_callbacks_die_on_the_gui_thread(qtbot) -> None:
    """A QObject destroyed on a worker may be in the middle of an event on the GUI thread
    (Qt forbids it). The handle and whatever its callbacks hold go on the GUI thread, however
    the worker's end and the delivery interleave (~3 % of handles died on a worker before)."""
    from PySide6.QtCore import QEventLoop, Qt
    from PySide6.QtWidgets import QApplication

    died: dict[str, list[str]] = {"handle": [], "callback": []}

    def watch(obj: QObject, kind: str) -> None:
        obj.destroyed.connect(
            lambda *_: died[kind].append(threading.current_thread().name),
            Qt.ConnectionType.DirectConnection,
        )

    for _ in range(ROUNDS):  # one at a time: the GUI thread waits, so either side may be first
        kept = QObject()
        watch(kept, "callback")
        got: list[object] = []
        handle = run_in_pool(
            lambda: time.sleep(0.001), lambda value, k=kept, g=got: g.append((value, k))
        )
        watch(handle, "handle")
        del kept, handle
        while not got:
            QApplication.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
        got.clear()
    assert workers.wait_for_all(5000)
    qtbot.wait(50)  # the last handle's let go by a timer
    for kind, threads in died.items():
        assert threads and set(threads) == {"MainThread"}, (kind, Counter(threads))
    assert len(died["handle"]) == len(died["callback"]) == ROUNDS
