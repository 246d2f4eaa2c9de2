"""The status bar names the search backend and says when the database is unreachable."""

from __future__ import annotations

from pathlib import Path

from pixelmem.core.index.engine import EngineStatus
from pixelmem.gui.window.status_bar import StatusBar


def _status(**changes) -> EngineStatus:
    base = dict(
        vault=Path("/v"), model_id="m", memories=3, chunks=3, indexed_chunks=3,
        stale_cache_entries=0, skipped=(), semantic_error="",
    )  # fmt: skip
    return EngineStatus(**(base | changes))


def test_status_bar_names_the_backend(qtbot) -> None:
    bar = StatusBar()
    qtbot.addWidget(bar)
    bar.show_status(_status())
    assert bar.backend_label.text() == "Local index"
    bar.show_status(_status(backend="postgres (db.example.com:5432/team)"))
    assert bar.backend_label.text() == "PostgreSQL"
    assert "db.example.com:5432/team" in bar.backend_label.toolTip()
    down = "PostgreSQL at db.example.com:5432/team is unavailable: connection refused"
    bar.show_status(_status(backend="postgres (db.example.com:5432/team)", backend_error=down))
    assert bar.backend_label.text() == "⚠ PostgreSQL unreachable"
    assert down in bar.backend_label.toolTip()
    assert "local keyword index" in bar.backend_label.toolTip()
