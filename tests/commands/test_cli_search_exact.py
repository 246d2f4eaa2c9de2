"""``pixelmem search QUERY --mode exact``: only memories holding the query as typed."""

from __future__ import annotations

from pathlib import Path

import pytest

from pixelmem.cli import main
from pixelmem.core.vault.store import MemoryStore


def test_search_mode_exact_prints_only_the_phrase_holders(vault: Path, capsys) -> None:
    store = MemoryStore(vault)
    store.create("Deploy", "Run the smoke tests before the release train leaves.")
    store.create("Timetable", "The release of the new train timetable is in May.")
    assert main(["search", "--vault", str(vault), "release train", "--mode", "exact"]) == 0
    out = capsys.readouterr().out
    assert "Deploy" in out and "Timetable" not in out
    assert main(["search", "--vault", str(vault), "train release", "--mode", "exact"]) == 0
    assert "nothing relevant found" in capsys.readouterr().out


def test_help_names_the_exact_mode(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["search", "--help"])
    assert "exact: only memories holding the query as" in " ".join(capsys.readouterr().out.split())
