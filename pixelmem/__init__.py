"""pixelmem: local-first knowledge memory."""

import os

__version__ = "0.1.0"  # the only place: pyproject.toml, the CLI and the MCP server read it

# PySide 6.11 makes a Qt class's Python type at its first use, on whichever thread meets it
# first, and that is not safe against another thread's use of the same module: launches
# crashed (round 10: 4 of 120 under load, types made on a worker) and so did the test suite,
# in Qt's event processing (round 12: 2 of ~7 full runs). With this every type is made when
# its module is imported (~60-90 ms more at PySide's import, measured), so no thread ever
# makes one. It must be set before PySide6 is first imported: here, in the package every
# entry point (the app, the CLI's `map --png`, the frozen build, the tests) imports first.
os.environ.setdefault("PYSIDE6_OPTION_LAZY", "0")
