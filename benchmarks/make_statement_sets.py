"""Build the statement development sets: a pasted claim or sentence, answered or not (issue 30).

    python benchmarks/make_statement_sets.py --climate-fever corpus.jsonl --squad-train train.json
                                             --drcd DRCD_dev.json [--out DIR]

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
    parser.add_argument("--squad-train", type=Path, help="SQuAD 2.0 train JSON (or a part)")
    parser.add_argument("--drcd", type=Path, help="DRCD dev JSON")
    parser.add_argument("--drcd-paragraphs", type=int, default=400)
    parser.add_argument("--per-vault", type=int, default=150)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    if args.climate_fever:
        print("claims_split:", claims_split(args.climate_fever, args.out / "claims_split"))
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
