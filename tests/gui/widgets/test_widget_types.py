"""widget_types makes PySide's lazily made types (and their enums) on the thread importing it,
so a paint on the GUI thread that meets a QtGui or QtCore class (or the ``Qt`` namespace's
enums) first makes no enum there."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import enum, threading
made = []
real_new = enum.EnumType.__new__

def counting(*args, **kwargs):
    made.append(threading.current_thread().name)
    return real_new(*args, **kwargs)

enum.EnumType.__new__ = counting
if sys.argv[1] == "ahead":
    worker = threading.Thread(target=__import__, args=("pixelmem.gui.widgets.widget_types",))
    worker.start()
    worker.join()
before = len(made)
from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtGui import QPainterPath, QPalette, QTextOption

QPalette.ColorRole.Base, QTextOption.WrapMode.WordWrap, QPainterPath().fillRule()
QItemSelectionModel.SelectionFlag.Select
Qt.GlobalColor.black, Qt.PenStyle.NoPen, Qt.AlignmentFlag.AlignLeft  # a paint's first use
print(len(made) - before)
"""


def _enums_made_on_first_use(mode: str) -> int:
    script = "import sys\n" + PROBE
    done = subprocess.run(
        [sys.executable, "-c", script, mode], capture_output=True, text=True, check=True
    )
    return int(done.stdout.split()[-1])


def test_qtgui_and_qtcore_types_are_made_ahead_on_the_importing_thread() -> None:
    assert _enums_made_on_first_use("cold") > 0  # the probe sees lazily made enums at all
    assert _enums_made_on_first_use("ahead") == 0
