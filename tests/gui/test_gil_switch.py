"""The app hands the GIL over within 1 ms (see gui.app.create_application)."""

from __future__ import annotations

import sys

from pixelmem.gui.app import GIL_SWITCH_SECONDS, create_application


def test_the_app_switches_the_gil_every_millisecond(qapp) -> None:
    before = sys.getswitchinterval()
    try:
        create_application()
        assert sys.getswitchinterval() == GIL_SWITCH_SECONDS <= 0.001
    finally:
        sys.setswitchinterval(before)
