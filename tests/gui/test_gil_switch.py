"""The app hands the GIL over within 0.2 ms (see gui.app.create_application)."""

from __future__ import annotations

import sys

import pytest

from pixelmem.gui.app import GIL_SWITCH_SECONDS, create_application


def test_the_app_switches_the_gil_every_fifth_of_a_millisecond(qapp) -> None:
    before = sys.getswitchinterval()
    try:
        create_application()
        # Python keeps the interval in whole microseconds: 0.0002 reads back as 0.000199…
        assert sys.getswitchinterval() == pytest.approx(GIL_SWITCH_SECONDS, abs=1e-6)
        assert GIL_SWITCH_SECONDS <= 0.0002
    finally:
        sys.setswitchinterval(before)
