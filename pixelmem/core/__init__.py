"""The Qt-free engine, in floors; the app, the CLI and the servers share it.

From the top: runtime (one vault kept current: watcher, index lane, freshness, the tools),
insight | assist, index (search, the Engine), writes (the one write gateway), archive |
providers, vault | settings, files (file primitives), and the shared leaves (errors, paths,
search_mode, wording, render_limits, blas_threads). A floor imports only the floors below it;
nothing here imports PySide6, pixelmem.gui or an entry point. pyproject.toml states it as
import-linter contracts and tests/test_architecture.py runs them (docs/ARCHITECTURE.md).
"""
