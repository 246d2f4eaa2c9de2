"""``pixelmem search --weaker`` and ``--explain``: the hits below the floor, marked, and why
each hit scored what it did (keyword search: no model needed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pixelmem.cli import main
from pixelmem.core.settings import Settings
from pixelmem.core.vault.store import MemoryStore


@pytest.fixture
def notes(vault: Path) -> Path:
    store = MemoryStore(vault)
    store.create("Espresso ratio", "Use 18 g of coffee for 36 g of espresso, in 28 seconds.")
    store.create("Grinder", "The grinder burrs were cleaned in March; coffee tastes better.")
    store.create("Bike chain", "Lube the chain every 300 km.")
    settings = Settings()
    settings.search.mode = "keyword"
    settings.save()
    return vault


def search(vault: Path, *args: str) -> int:
    return main(["search", "--vault", str(vault), *args])


def test_weaker_prints_the_hits_below_the_floor_marked(notes: Path, capsys) -> None:
    assert search(notes, "espresso coffee", "--min-relevance", "0.99") == 0
    plain = capsys.readouterr().out
    assert "nothing relevant found" in plain and "Espresso ratio" not in plain
    assert search(notes, "espresso coffee", "--min-relevance", "0.99", "--weaker") == 0
    out = capsys.readouterr().out
    assert "nothing relevant found" in out
    assert "weaker matches, below relevance 0.99:" in out
    line = next(row for row in out.splitlines() if "Espresso ratio" in row)
    assert "(weaker)" in line
    assert "Bike chain" not in out


def test_explain_prints_the_evidence_of_each_hit(notes: Path, capsys) -> None:
    assert search(notes, "espresso", "--explain") == 0
    out = capsys.readouterr().out
    assert "Espresso ratio" in out
    assert "words: BM25" in out and "keyword evidence" in out
    assert "relevance" in out


def test_json_carries_the_mark_and_the_evidence(notes: Path, capsys) -> None:
    args = ("espresso coffee", "--min-relevance", "0.99", "--weaker", "--explain", "--json")
    assert search(notes, *args) == 0
    hits = json.loads(capsys.readouterr().out)
    assert hits and all(h["weaker"] for h in hits)
    assert hits[0]["evidence"]["bm25"] > 0 and "parts" in hits[0]["evidence"]
