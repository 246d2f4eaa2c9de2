"""Entry point for the frozen app: the same ``pixelmem`` command line as the pip install."""

import multiprocessing
import sys

from pixelmem.cli import main

if __name__ == "__main__":
    # A big map is laid out in a child process (core/insight/apart): in the frozen app the
    # child is this executable again, and this call makes it that worker, not a second app.
    multiprocessing.freeze_support()
    sys.exit(main())
