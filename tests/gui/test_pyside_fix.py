"""The PySide6 6.12.0 reference leak on None cannot crash the app (see gui/_pyside_fix.py)."""

from __future__ import annotations

import sys

from PySide6.QtWidgets import QWidget

from pixelmem.gui import _pyside_fix


class _Painted(QWidget):
    def paintEvent(self, event) -> None:  # a Python override C++ calls: the leaking path
        pass


def test_many_paints_never_exhaust_none(qtbot) -> None:
    widget = _Painted()
    qtbot.addWidget(widget)
    widget.show()
    for _ in range(3000):
        widget.repaint()
    if _pyside_fix.needed():
        assert _pyside_fix.apply()
        assert sys.getrefcount(None) > _pyside_fix.HEADROOM // 2
