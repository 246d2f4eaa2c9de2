"""A short query: a name or code is looked up; a word the vault is full of is its subject."""

from __future__ import annotations

import numpy as np
import pytest

from pixelmem.core.index.engine import Engine
from pixelmem.core.index.relevance import KEYWORD_CAP, calibration_for, combined
from pixelmem.core.settings import Settings
from pixelmem.core.vault.store import MemoryStore

# Notes of an app's help vault in index order: short ones that mention a vault in passing
# first (BM25's length norm gives a short chunk the most for one word), the one about vaults
# after them.
IN_PASSING = [
    ("File functions", "Functions you can use with a file in the vault."),
    ("Target a vault", "If the current folder is a vault, that vault is used."),
    ("Open URI", "The link opens the vault named in it, then the note."),
    ("Config folder", "The settings of a vault are kept in its config folder."),
    ("Plugins", "Plugins are turned on for each vault separately."),
    ("Sync setup", "Pick the remote vault to sync with and sign in."),
    ("Hotkeys", "Hotkeys are kept per vault in the settings."),
    ("Trash", "Deleted files go to the vault's trash folder."),
]
ABOUT_VAULTS = (
    "Vaults",
    "A vault is a folder on your computer where the app keeps your notes, attachments and "
    "settings. You can keep all your notes in one vault, or create several vaults for "
    "different parts of your life, and switch between them.",
)
TAGGING = [
    ("Tag function", "`file.hasTag(tag)`: true if the file has the tag, a tag name without #."),
    ("Anchor styles", "The interface tag adds a box shadow: one tag per image, after its link."),
    (
        "Tags",
        "Tags help you find notes. To tag a note, type # and a word: a tag like #meeting. "
        "A nested tag uses a slash, #project/alpha; rename a tag everywhere from the tag pane.",
    ),
]
OTHERS = [
    ("Grant meeting", "Met Dr. Okonkwo-Ferreira to review the XK-4471 budget lines."),
    ("Sourdough", "Feed the starter with equal weights of flour and water daily."),
    ("Bicycle", "To fix a flat, find the puncture with water and patch the tube."),
    ("Houseplants", "Water the fig when the top soil is dry; bright indirect light."),
]


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    vault = tmp_path_factory.mktemp("short")
    store = MemoryStore(vault)
    for title, body in [*IN_PASSING, ABOUT_VAULTS, *TAGGING, *OTHERS]:
        store.create(title, body)
    engine = Engine(vault, Settings(), store=store)
    engine.open()
    assert engine.semantic_error == ""
    return engine


def _titles(engine: Engine, query: str) -> list[str]:
    return [hit.title for hit in engine.search(query, k=3)]


@pytest.mark.parametrize("query", ["what is a vault", "vaults"])
def test_a_word_the_vault_is_full_of_is_its_subject_not_a_look_up(engine: Engine, query) -> None:
    """Before: every short note holding "vault" sat at the words-alone floor, tied, in index
    order (File functions, Target a vault, Open URI), above the note about vaults."""
    assert _titles(engine, query)[0] == "Vaults"


def test_the_holders_of_a_looked_up_word_are_ordered_by_all_their_evidence(engine) -> None:
    """Notes holding a looked-up word, each with all the keyword evidence one word gives, meet
    at the words' floor: they were tied there, in index order (memory ids: any of them first);
    now the one the meaning reads closest leads."""
    models = calibration_for("multilingual-e5-small")
    capped = np.full(3, KEYWORD_CAP)
    meaning = np.array([0.26, 0.40, 0.21])  # the tag function, the note on tagging, a style
    logits = combined(models, meaning, capped, short=np.ones(3))
    assert int(np.argmax(logits)) == 1
    assert logits[1] - logits[0] < 0.1  # an order, not a new score: the floor still speaks
    assert _titles(engine, "how do I tag a note")[0] == "Tags"


def test_a_name_or_code_is_still_looked_up(engine: Engine) -> None:
    assert _titles(engine, "Okonkwo-Ferreira") == ["Grant meeting"]
    assert _titles(engine, "XK-4471")[0] == "Grant meeting"
