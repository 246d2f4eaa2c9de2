"""``pixelmem duplicates`` and ``pixelmem map`` with the built-in model on a small vault."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pixelmem.cli import main
from pixelmem.core.vault.store import MemoryStore

NOTES = [
    ("Espresso ratio", "Use 18 g of coffee for 36 g of espresso in 28 seconds.", ["coffee"]),
    ("Espresso recipe", "For espresso use 18 g of coffee to get 36 g in 28 seconds.", []),
    ("Sourdough starter", "Feed the starter with equal flour and water every day.", ["baking"]),
    ("Rust lifetimes", "A borrow cannot outlive the value it points to.", ["rust"]),
    ("Tomato garden", "Water tomatoes deeply twice a week; mulch keeps soil moist.", []),
    ("Tomato garden", "Water tomatoes deeply twice a week; mulch keeps soil moist.", []),
]


@pytest.fixture
def filled(vault: Path) -> Path:
    store = MemoryStore(vault)
    for title, body, topics in NOTES:
        store.create(title, body, topics=topics)
    return vault


def test_duplicates_json(filled: Path, capsys: pytest.CaptureFixture[str]):
    assert main(["duplicates", "--vault", str(filled), "--json"]) == 0
    groups = json.loads(capsys.readouterr().out)
    titles = sorted(sorted(m["title"] for m in g["memories"]) for g in groups)
    assert titles == [["Espresso ratio", "Espresso recipe"], ["Tomato garden", "Tomato garden"]]


def test_duplicates_text(filled: Path, capsys: pytest.CaptureFixture[str]):
    assert main(["duplicates", "--vault", str(filled)]) == 0
    out = capsys.readouterr().out
    assert "2 memories" in out and "Tomato garden" in out


def test_map_png_and_json(
    filled: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], qapp
) -> None:
    # The command makes a QGuiApplication when there is none; in this process the tests' own
    # QApplication must be the one (the app's widgets, tested later, need it).
    png = tmp_path / "map.png"
    assert main(["map", "--vault", str(filled), "--png", str(png), "--size", "400x300"]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (filled / ".pixelmem" / "map.json").exists()
    capsys.readouterr()
    assert main(["map", "--vault", str(filled)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["points"]) == len(NOTES)
    assert sum(c["size"] for c in data["clusters"]) == len(NOTES)


def test_map_bad_size(filled: Path, capsys: pytest.CaptureFixture[str]):
    assert main(["map", "--vault", str(filled), "--png", "x.png", "--size", "big"]) == 1
    assert "--size" in capsys.readouterr().err
