"""benchmarks/_native_stacks.py reads perf's events into what each thread did in a stall."""

from __future__ import annotations

from benchmarks import _native_stacks as native

# perf script -F pid,tid,time,event,trace,ip,sym,dso (shortened): the GUI thread (100) blocks
# on the GIL, a pool thread (102) releases it, an OpenBLAS thread (101) spins, a child runs.
PERF_SCRIPT = """\
100/100 10.000000: sched:sched_switch: prev_comm=python prev_pid=100 prev_state=S ==> next_pid=101
\tffffffff821f8b58 __schedule ([kernel.kallsyms])
\tffffffff8143f416 futex_do_wait ([kernel.kallsyms])
\t          8612b futex_wait (inlined)
\t          1a2b3 take_gil (/usr/lib/libpython3.11.so.1.0)
\t          1a2b4 PyEval_RestoreThread (/usr/lib/libpython3.11.so.1.0)

100/101 10.004000: cpu-clock:
\t          5f70c4 blas_thread_server (/x/numpy.libs/libscipy_openblas64_.so)
\t           891f4 start_thread (/usr/lib/libc.so.6)

100/102 10.019000: sched:sched_waking: comm=python pid=100 prio=120 target_cpu=000
\tffffffff813a89c4 try_to_wake_up ([kernel.kallsyms])
\tffffffff8143f000 futex_wake ([kernel.kallsyms])
\t           3c2d1 drop_gil (/usr/lib/libpython3.11.so.1.0)
\t           fd9c2 _PyEval_EvalFrameDefault (/usr/lib/libpython3.11.so.1.0)

100/100 10.020000: cpu-clock:
\t           a1b2c QTextLine::layout_helper (/x/libQt6Gui.so.6)

200/200 10.010000: cpu-clock:
\t           2a2b2 r_object (/usr/lib/libpython3.11.so.1.0)
"""


def test_a_stall_reads_as_who_ran_where_who_blocked_and_who_woke_whom() -> None:
    view = native.NativeView(None, None)  # type: ignore[arg-type]
    view.events = list(native._parse(PERF_SCRIPT))
    view._children = {200: 200}
    view.names = {100: "GUI", 102: "Dummy-1"}
    lines = view.describe(9.999, 10.021, gui=100)
    assert lines[0] == "GUI ran 1 samples, most at: QTextLine::layout_helper (libQt6Gui.so.6) (1)"
    assert lines[1].startswith("GUI off CPU at +1.0 ms for 20.0 ms (S): futex_do_wait")
    assert "take_gil (libpython3.11.so.1.0)" in lines[1]
    assert lines[2].startswith("GUI woken at +20.0 ms by Dummy-1 [102]: drop_gil")
    assert "thread [101] ran 1 samples, most at: blas_thread_server" in "\n".join(lines)
    assert "child process 200 [200] ran 1 samples, most at: r_object" in "\n".join(lines)
    assert view.describe(20.0, 21.0, gui=100) == ["no native event in the stall"]
