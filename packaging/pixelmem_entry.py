"""Entry point for the frozen app: the same ``pixelmem`` command line as the pip install."""

import sys

from pixelmem.cli import main

if __name__ == "__main__":
    sys.exit(main())
