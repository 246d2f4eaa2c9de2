"""Every Qt type is made when PySide imports its module, never lazily on whichever thread meets it
first (pixelmem/__init__: PySide 6.11's lazy creation is not thread-safe; launches and the test
suite crashed)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


@pytest.mark.parametrize(
    "entry",
    [
        "import pixelmem.gui.app",  # the window
        "import pixelmem.cli",  # the command line (map --png paints with Qt)
        "import pixelmem",  # whatever imports the package first
    ],
)
def test_importing_pixelmem_first_makes_every_qt_type_at_import(entry: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYSIDE6_OPTION_LAZY"}
    code = f"{entry}\nimport PySide6.QtWidgets as w\nprint(len(vars(w)))"
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert int(out.stdout.split()[-1]) > 150  # lazily: ~15 names until types are used


def test_the_tests_run_with_eager_types_too() -> None:
    assert os.environ.get("PYSIDE6_OPTION_LAZY") == "0"
