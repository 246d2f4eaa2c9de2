"""Work in a child process of its own (no GIL shared with the window): results and errors as in
the calling thread, a lower priority, stopped when idle, and given up — loudly, once — when no
child can start."""

from __future__ import annotations

import logging
import os
import time

import pytest

from pixelmem.core import child_process
from pixelmem.core.child_process import ChildProcess, ChildUnavailable


def where_and_priority() -> tuple[int, int]:
    return os.getpid(), os.getpriority(os.PRIO_PROCESS, 0)


def fails(message: str) -> None:
    raise ValueError(message)


@pytest.fixture
def child():
    process = ChildProcess("testing")
    yield process
    process.shutdown()


def test_the_work_runs_in_one_child_kept_for_the_next_calls_at_a_lower_priority(child):
    pid, priority = child.run(where_and_priority)
    assert pid != os.getpid() and child.pids() == [pid]
    assert priority == min(19, os.getpriority(os.PRIO_PROCESS, 0) + child_process.NICE)
    assert child.run(where_and_priority)[0] == pid  # the same child serves the next call


def test_an_error_of_the_work_itself_is_raised_as_it_would_be_and_the_child_kept(child):
    with pytest.raises(ValueError, match="bad input"):
        child.run(fails, "bad input")
    with pytest.raises(FileNotFoundError):  # an OSError of the work is not the child failing
        child.run(os.stat, "/nonexistent/file")
    assert child.usable
    assert child.run(where_and_priority)[0] != os.getpid()


def test_an_idle_child_stops_and_a_later_call_starts_another():
    process = ChildProcess("testing", idle_stop_s=0.2)
    try:
        first = process.run(where_and_priority)[0]
        deadline = time.monotonic() + 10
        while process.running and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not process.running
        assert process.run(where_and_priority)[0] != first
    finally:
        process.shutdown()


def test_no_child_can_start_the_caller_is_told_once_and_for_all(monkeypatch, caplog, child):
    def no_processes(*args, **kwargs):
        raise OSError("processes are not allowed here")

    monkeypatch.setattr(child_process, "ProcessPoolExecutor", no_processes)
    with caplog.at_level(logging.WARNING), pytest.raises(ChildUnavailable):
        child.run(where_and_priority)
    assert not child.usable and "processes are not allowed here" in (child.broken or "")
    with pytest.raises(ChildUnavailable):
        child.run(where_and_priority)  # not tried again
    warnings = [r for r in caplog.records if "no child process" in r.getMessage()]
    assert len(warnings) == 1 and "testing" in warnings[0].getMessage()


def test_a_child_that_dies_is_given_up_and_the_caller_told(child):
    pid = child.run(where_and_priority)[0]
    with pytest.raises(ChildUnavailable):
        child.run(os.kill, pid, 9)  # the child kills itself mid-call
    assert not child.usable and child.pids() == []


PARENT_SCRIPT = """
import os, sys, time
from pixelmem.core.child_process import ChildProcess

if __name__ == "__main__":
    child = ChildProcess("testing")
    print(child.run(os.getpid), flush=True)
    time.sleep(60)  # killed before this ends
"""


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="reads /proc")
def test_a_child_ends_when_its_parent_is_killed(tmp_path):
    """A parent killed (no atexit, no shutdown) leaves no child behind holding its memory."""
    import signal
    import subprocess
    import sys

    script = tmp_path / "parent.py"
    script.write_text(PARENT_SCRIPT, encoding="utf-8")
    parent = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    child_pid = 0
    try:
        assert parent.stdout is not None
        child_pid = int(parent.stdout.readline())
        assert _alive(child_pid)
        parent.send_signal(signal.SIGKILL)
        parent.wait(10)
        deadline = time.monotonic() + 15
        while _alive(child_pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(child_pid)
    finally:
        parent.kill()
        if child_pid and _alive(child_pid):
            os.kill(child_pid, signal.SIGKILL)  # not left behind by a failing run


def _alive(pid: int) -> bool:
    """Running (a zombie — ended, not yet reaped by init — counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
