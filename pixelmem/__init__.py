"""pixelmem: local-first knowledge memory."""

__version__ = "0.1.0"
