"""The app's dialogs: settings, first run, skipped files, import report, duplicates.

Each opens on request and imports its heavy parts (providers, httpx) only then. May import
widgets and the foundation only.
"""
