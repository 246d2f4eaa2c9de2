"""The English-only model ranks by what it can read (issue 30, round 3).

In ``benchmarks/data/personal_bilingual`` (a 24-note English and Chinese vault; development
data) MiniLM ranked paraphrases below notes it cannot read and below notes sharing one weak
word: a Chinese note's cosine with an English question is noise to it, and a paraphrase that
shares no word with its note is ranked by its meaning (less what that silence costs), not by a
two-sided model that reads the silence as evidence against.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pixelmem.core.index.engine import Engine
from pixelmem.core.index.evaluate import load_beir
from pixelmem.core.settings import Settings
from pixelmem.core.vault.store import MemoryStore

VAULT = Path(__file__).resolve().parents[3] / "benchmarks" / "data" / "personal_bilingual"


@pytest.fixture(scope="module")
def english_engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    corpus, _, _ = load_beir(VAULT)
    store = MemoryStore(tmp_path_factory.mktemp("personal"))
    for row in corpus.values():
        store.create(row["title"], row["text"])
    settings = Settings()
    settings.embedding.provider = "local"
    engine = Engine(settings=settings, store=store)
    engine.open()
    assert engine.semantic_error == ""
    return engine


@pytest.mark.parametrize(
    ("question", "note"),
    [
        ("when do I need new trainers", "Running shoes"),  # was under seven Chinese notes
        ("goals for this quarter at the company", "Priorities for Q3"),  # was under "Chess"
        ("fermenting gherkins at home", "Pickled cucumbers"),  # was under "Home Wi-Fi"
    ],
)
def test_an_english_paraphrase_ranks_its_note_first(
    english_engine: Engine, question: str, note: str
) -> None:
    hits = english_engine.search(question, k=3, min_relevance=0.0)
    assert hits[0].title == note, [(h.title, round(h.score, 2)) for h in hits]
