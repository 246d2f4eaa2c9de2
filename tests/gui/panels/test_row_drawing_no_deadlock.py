"""Result rows drawn on workers never deadlock the GUI thread (search_results.row_picture).

A ``QTextDocument`` made its layout on the worker and connected the layout's signals under
Qt's signal lock while the worker held Python's GIL; the GUI thread, disconnecting a signal of
a Python-subclassed QObject under that lock, waited for the GIL: both waited for good. The
stress below hung within 4 s every time with that code; it runs in a child process so a
deadlock fails the test instead of hanging the suite."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def test_rows_drawn_on_workers_while_the_gui_thread_connects_and_disconnects() -> None:
    script = Path(__file__).with_name("row_drawing_stress.py")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    try:
        done = subprocess.run(
            [sys.executable, str(script), "4"], capture_output=True, text=True, timeout=60, env=env
        )
    except subprocess.TimeoutExpired:
        raise AssertionError("drawing rows deadlocked with the GUI thread's signal lock") from None
    assert done.returncode == 0, done.stderr[-2000:]
    ok, pairs, drawn = done.stdout.split()
    assert ok == "ok" and int(pairs) > 1000 and int(drawn) > 100
