"""Build the statement development sets: a pasted claim or sentence, answered or not (issue 30).

    python benchmarks/make_statement_sets.py --climate-fever corpus.jsonl --squad-train train.json
                                             --drcd DRCD_dev.json [--check-covid DIR] [--out DIR]

A statement (no question mark, no question word: :func:`pixelmem.core.index.query.asks`) is
decided by its own rule; whether a statement nothing answers stays empty cannot be measured on
a vault that holds every statement's answer. So each set here is a *pair of vaults* that split
one source's articles in two (by a hash of the article's name): a statement whose articles are
in one vault is asked of both — answered in the vault that holds them (ids ``a-…``, judged
against them), answered by nothing in the other (ids ``u-…``, no judgement). Each vault is a
BEIR folder (``corpus.jsonl``, ``queries.jsonl``, ``qrels/test.tsv``) under ``<set>/<vault>/``
(:data:`VAULTS`), the layout benchmarks/eval_calibration.py reads as one set of several vaults
(PIXELMEM_STATEMENT_SETS names ``--out``). Data never goes into the repository: ``--out``
defaults to ``../statement-data`` beside it. Deterministic for the same inputs. The sets:

* ``claims_split`` — Climate-FEVER claims (Diggelmann et al. 2020) over Wikipedia articles, one
  memory per article (its evidence sentences in order, as make_rank_sets.py's ``climate``). A
  claim is answered by the articles of its SUPPORTS / REFUTES sentences; it is one nothing in
  a vault answers when *every* article any of its evidence sentences came from (NOT_ENOUGH_INFO
  ones too) is in the other vault. A claim some of whose articles are in each vault is asked,
  as answerable, of each vault holding one of its SUPPORTS / REFUTES articles; one whose
  answering articles are all absent while a NOT_ENOUGH_INFO one is present is not asked there
  (on its subject, answer absent: neither class). Claims with no SUPPORTS / REFUTES sentence
  are left out.
* ``claims_bio`` — Check-COVID's news claims about COVID-19 (Wang et al. 2023, MIT; the folder
  ``Check-COVID/`` of github.com/posuer/Check-COVID) over scientific abstracts (CORD-19), one
  memory per abstract (its title, its sentences in order): the 347 abstracts claims were
  written from, split by a hash of their CORD id, and the abstracts its retriever returned for
  the test claims (``variants_for_experiments/abstracts/*.jsonl``) as distractors, each in the
  vault of the claim it was retrieved for (so a claim asked of the other vault meets none of
  its own near misses, only other COVID-19 science). A SUPPORT / REFUTE claim is answered by its
  abstract; NOTENOUGHINFO claims are left out. Short claims naming a treatment, a measure and a
  population against abstracts: the class SciFact's held-out claims fall in, from another
  source.
* ``sentences_en`` — a sentence of a SQuAD 2.0 *train* paragraph (its first ten articles, the
  part of the file at hand), pasted as the query: answered by its paragraph in the vault
  holding its article's paragraphs, by nothing in the other (other articles).
* ``sentences_zh`` — the same with a sentence of a DRCD dev paragraph (Traditional Chinese,
  converted to Simplified with OpenCC ``t2s``, as make_qa_sets.py does); DRCD's articles of one
  title are one article. CJK statements are not under the statement rule today: measured.

Sentences: English split after ``. ! ?`` followed by a space and a capital, kept at 8-40 words;
Chinese split after ``。！？``, kept at 15-80 characters; no question mark in either. At most
``--per-vault`` sentences from each vault's articles, in a seeded order.

SciFact, LoCoMo, SQuAD dev and CMRC 2018 are held out and never read here.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import zlib
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path

from _heldout_sets import write_beir  # this folder: the script is run as a file
from make_rank_sets import climate_articles, json_objects

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE.parents[1] / "statement-data"
# The two vaults of a pair. Their names hash to different halves in fit_decision.half_of (a
# set of several vaults is cross-validated by vault): fitted on one vault, measured on the other.
VAULTS = ("one", "two")
_EN_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[\"'(]?[A-Z])")
_ZH_SPLIT = re.compile(r"(?<=[。！？])")
EN_WORDS = (8, 40)
ZH_CHARS = (15, 80)


def vault_of(article: str) -> str:
    """Which vault of the pair holds ``article`` (by a hash of its name: stable, even)."""
    return VAULTS[zlib.crc32(article.encode("utf-8")) % 2]


def english_sentences(text: str) -> list[str]:
    """The sentences of an English paragraph a person would paste (:data:`EN_WORDS` words)."""
    out = []
    for sentence in _EN_SPLIT.split(text.strip()):
        sentence = sentence.strip()
        if "?" not in sentence and EN_WORDS[0] <= len(sentence.split()) <= EN_WORDS[1]:
            out.append(sentence)
    return out


def chinese_sentences(text: str) -> list[str]:
    """The sentences of a Chinese paragraph (:data:`ZH_CHARS` characters, no question mark)."""
    out = []
    for sentence in _ZH_SPLIT.split(text.strip()):
        sentence = sentence.strip()
        asking = "？" in sentence or "?" in sentence
        if not asking and ZH_CHARS[0] <= len(sentence) <= ZH_CHARS[1]:
            out.append(sentence)
    return out


def write_pair(
    target: Path,
    corpus: list[dict],
    home: dict[str, str],
    asked: Iterable[tuple[str, str, set[str], set[str]]],
) -> dict[str, tuple[int, int]]:
    """The two vaults of a pair in ``target``: ``corpus`` rows split by ``home`` (doc id →
    vault); each of ``asked`` (id, text, answering doc ids, every doc id it came from) asked of
    each vault — answerable where an answering doc is held, nothing-answers where none of the
    docs it came from is. Returns {vault: (answerable, nothing)}."""
    asked = list(asked)
    counts = {}
    for vault in VAULTS:
        docs = [row for row in corpus if home[row["_id"]] == vault]
        held = {row["_id"] for row in docs}
        queries, qrels, answerable, nothing = [], [], 0, 0
        for qid, text, right, sources in asked:
            if right & held:
                queries.append({"_id": f"a-{qid}", "text": text})
                qrels.extend((f"a-{qid}", doc) for doc in sorted(right & held))
                answerable += 1
            elif not sources & held:
                queries.append({"_id": f"u-{qid}", "text": text})
                nothing += 1
        write_beir(target / vault, docs, queries, qrels)
        counts[vault] = (answerable, nothing)
    return counts


def claims_split(source: Path, target: Path) -> dict[str, tuple[int, int]]:
    """``claims_split`` in ``target`` from Climate-FEVER's claims (JSON objects)."""
    claims = json_objects(source.read_text(encoding="utf-8"))
    doc_of, corpus = climate_articles(claims)
    home = {doc_id: vault_of(name) for name, doc_id in doc_of.items()}
    asked = []
    for claim in claims:
        evidences = claim["metadata"]["evidences"]
        right = {doc_of[e["article"]] for e in evidences
                 if e["evidence_label"] in ("SUPPORTS", "REFUTES")}  # fmt: skip
        if right:
            sources = {doc_of[e["article"]] for e in evidences}
            asked.append((str(claim["_id"]), str(claim["text"]).strip(), right, sources))
    return write_pair(target, corpus, home, asked)


def _check_covid_abstracts(folder: Path) -> tuple[dict[str, dict], dict[str, str]]:
    """{CORD id: corpus row} of Check-COVID's abstracts and {distractor id: the claim id it was
    retrieved for} (its first retrieval, in the files' sorted order)."""
    rows, retrieved_for = {}, {}
    for line in (folder / "corpus.json").read_text(encoding="utf-8").splitlines():
        if line.strip():
            doc = json.loads(line)
            rows[doc["cord_id"]] = {"_id": doc["cord_id"], "title": str(doc["title"]).strip(),
                                    "text": " ".join(doc["abstract"]).strip()}  # fmt: skip
    for path in sorted((folder / "abstracts").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            retrieval = json.loads(line) if line.strip() else {}
            for doc_id, sentences in (retrieval.get("abstracts") or {}).items():
                if doc_id in rows or not sentences:
                    continue
                # these lists lead with the title
                rows[doc_id] = {"_id": doc_id, "title": sentences[0].strip(),
                                "text": " ".join(sentences[1:]).strip()}  # fmt: skip
                retrieved_for[doc_id] = retrieval["claim_id"]
    return rows, retrieved_for


def claims_bio(folder: Path, target: Path) -> dict[str, tuple[int, int]]:
    """``claims_bio`` in ``target`` from Check-COVID's ``folder`` (``Check-COVID_all.json``,
    ``corpus.json``, ``abstracts/*.jsonl``)."""
    claims = [
        json.loads(line)
        for line in (folder / "Check-COVID_all.json").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    rows, retrieved_for = _check_covid_abstracts(folder)
    gold_of = {c["id"]: c["cord_id"] for c in claims}
    home = {}
    for doc_id in rows:
        claim = retrieved_for.get(doc_id)
        anchor = gold_of.get(claim, doc_id) if claim else doc_id
        home[doc_id] = vault_of(anchor)
    asked = [
        (c["id"], str(c["claim"]).strip(), {c["cord_id"]}, {c["cord_id"]})
        for c in claims
        if c["label"] in ("SUPPORT", "REFUTE") and c["cord_id"] in rows
    ]
    corpus = [rows[doc_id] for doc_id in sorted(rows)]
    return write_pair(target, corpus, home, asked)


def sentence_pair(
    articles: list[tuple[str, list[str]]],
    target: Path,
    cut: Callable[[str], list[str]],
    per_vault: int,
    seed: int = 30,
) -> dict[str, tuple[int, int]]:
    """A pair of vaults of ``articles`` ((title, paragraphs), one memory per paragraph titled
    with its article), each asked ``per_vault`` pasted sentences (``cut`` from a paragraph)
    of its own articles and as many of the other vault's."""
    corpus, home, pool = [], {}, defaultdict(list)
    for a, (title, paragraphs) in enumerate(articles):
        for p, text in enumerate(paragraphs):
            doc_id = f"a{a}-p{p}"
            corpus.append({"_id": doc_id, "title": title, "text": text.strip()})
            home[doc_id] = vault_of(title)
            pool[home[doc_id]].extend(
                (f"{doc_id}-s{s}", sentence, doc_id) for s, sentence in enumerate(cut(text))
            )
    asked = []
    for vault in VAULTS:
        chosen = list(pool[vault])
        random.Random(f"{seed}/{vault}").shuffle(chosen)
        asked += [(qid, text, {doc}, {doc}) for qid, text, doc in sorted(chosen[:per_vault])]
    return write_pair(target, corpus, home, asked)


def squad_articles(source: Path) -> list[tuple[str, list[str]]]:
    """(title, paragraphs) of a SQuAD-layout file."""
    data = json.loads(source.read_text(encoding="utf-8"))["data"]
    return [
        (str(a.get("title", "")).replace("_", " ").strip(), [p["context"] for p in a["paragraphs"]])
        for a in data
    ]


def drcd_articles(source: Path, most: int) -> list[tuple[str, list[str]]]:
    """(title, paragraphs) of DRCD in Simplified Chinese, an article's parts of one title
    together, at most ``most`` paragraphs (whole articles, in the file's order)."""
    from opencc import OpenCC

    t2s = OpenCC("t2s").convert
    grouped: dict[str, list[str]] = {}
    for title, paragraphs in squad_articles(source):
        grouped.setdefault(t2s(title), []).extend(t2s(p) for p in paragraphs)
    out, total = [], 0
    for title, paragraphs in grouped.items():
        if total + len(paragraphs) > most:
            break
        out.append((title, paragraphs))
        total += len(paragraphs)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--climate-fever", type=Path, help="Climate-FEVER claims (JSON objects)")
    parser.add_argument("--check-covid", type=Path, help="Check-COVID's Check-COVID/ folder")
    parser.add_argument("--squad-train", type=Path, help="SQuAD 2.0 train JSON (or a part)")
    parser.add_argument("--drcd", type=Path, help="DRCD dev JSON")
    parser.add_argument("--drcd-paragraphs", type=int, default=400)
    parser.add_argument("--per-vault", type=int, default=150)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    if args.climate_fever:
        print("claims_split:", claims_split(args.climate_fever, args.out / "claims_split"))
    if args.check_covid:
        print("claims_bio:", claims_bio(args.check_covid, args.out / "claims_bio"))
    if args.squad_train:
        articles = squad_articles(args.squad_train)
        counts = sentence_pair(
            articles, args.out / "sentences_en", english_sentences, args.per_vault
        )
        print("sentences_en:", counts)
    if args.drcd:
        articles = drcd_articles(args.drcd, args.drcd_paragraphs)
        counts = sentence_pair(
            articles, args.out / "sentences_zh", chinese_sentences, args.per_vault
        )
        print("sentences_zh:", counts)


if __name__ == "__main__":
    main()
