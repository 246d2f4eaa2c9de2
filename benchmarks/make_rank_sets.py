"""Build the ranking development sets (issue 30: "ranking should rise") from published files.

    python benchmarks/make_rank_sets.py --climate-fever corpus.jsonl --squad-train train.json
                                        [--leaderboard DIR] [--out DIR]

Each set is a BEIR folder (``corpus.jsonl``, ``queries.jsonl``, ``qrels/test.tsv``) under
``--out`` (default ``../rank-data`` beside the repository: data never goes into it), measured
by ``benchmarks/eval_ranking.py``. Deterministic for the same inputs. The sets, and why each:

* ``climate`` — claims → Wikipedia articles (Climate-FEVER, Diggelmann et al. 2020: 1,535
  real-world climate claims, each with five evidence sentences from Wikipedia, each sentence
  labelled SUPPORTS / REFUTES / NOT_ENOUGH_INFO by annotators). A claim is a full sentence
  that states something; the right note is the article that supports or refutes it: the
  kind of question a claims set asks. Every article becomes one memory, titled with the
  article's name, its body the evidence sentences the dataset holds of it in their order in
  the article (a few sentences for most articles, 230 for "Global warming": notes of one
  chunk and of many). A claim's judged notes are the articles of its SUPPORTS and REFUTES
  sentences; a claim with none is left out. Read from the BEIR-like export of
  memekhant/climate-fever-data (``dataset/corpus.jsonl``: one JSON object per claim, one
  after another).
* ``squad_train`` — questions → the paragraph that answers them among every paragraph of the
  same articles (SQuAD 2.0 *train*, its first ten articles, the part of the file at hand:
  694 paragraphs); each paragraph one memory titled with its article, answerable questions
  only, at most ``--squad-questions`` of them in a seeded order. Siblings of one article
  compete, as in the held-out SQuAD set; the train split is ours to develop on.
* ``dbpedia_s``, ``msmarco_s``, ``business`` — three sets from
  agentset-ai/embedding-leaderboard (``datasets/``: 50 queries each over a sample of BEIR
  DBpedia-Entity — entity names and questions → Wikipedia abstracts with titles, graded —, of
  MS MARCO — web questions → passages, graded — and of consulting reports split in parts,
  "Title (Part 3/23)", one memory per part: only 11 of its queries are judged). The two
  samples are cut again to 2,000 documents (every one judged relevant, then others at random)
  so that embedding them stays short; ``business`` is copied as it is.

SciFact, LoCoMo, SQuAD dev and CMRC 2018 are held out and never read here.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
from collections import defaultdict
from pathlib import Path

from _heldout_sets import write_beir  # this folder: the script is run as a file

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE.parents[1] / "rank-data"
# name here: (name there, most documents kept: every judged-relevant one, then others at random)
LEADERBOARD_SETS = {
    "dbpedia_s": ("dbpedia", 2000),
    "msmarco_s": ("msmarco", 2000),
    "business": ("business-reports", None),
}
_SENTENCE_NUMBER = re.compile(r":(\d+)$")


def json_objects(text: str) -> list[dict]:
    """Every JSON object in ``text``, whether one per line or written one after another."""
    decoder, at, rows = json.JSONDecoder(), 0, []
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at >= len(text):
            return rows
        row, at = decoder.raw_decode(text, at)
        rows.append(row)


def climate_articles(claims: list[dict]) -> tuple[dict[str, str], list[dict[str, str]]]:
    """Climate-FEVER's articles as notes, built from the evidence sentences its claims cite
    (in their order in the article): ({article name: doc id}, corpus rows)."""
    sentences: dict[str, dict[int, str]] = defaultdict(dict)
    for claim in claims:
        for evidence in claim["metadata"]["evidences"]:
            found = _SENTENCE_NUMBER.search(str(evidence["evidence_id"]))
            number = int(found.group(1)) if found else len(sentences[evidence["article"]])
            sentences[evidence["article"]][number] = str(evidence["evidence"]).strip()
    names = sorted(sentences)
    doc_of = {name: f"w{i}" for i, name in enumerate(names)}
    corpus = [
        {"_id": doc_of[name], "title": name,
         "text": " ".join(s for _, s in sorted(sentences[name].items()))}
        for name in names
    ]  # fmt: skip
    return doc_of, corpus


def climate_fever(source: Path, target: Path) -> tuple[int, int]:
    """The ``climate`` set in ``target`` from Climate-FEVER's claims: (claims, articles)."""
    claims = json_objects(source.read_text(encoding="utf-8"))
    doc_of, corpus = climate_articles(claims)
    queries, qrels = [], []
    for claim in claims:
        right = sorted(
            {
                doc_of[e["article"]]
                for e in claim["metadata"]["evidences"]
                if e["evidence_label"] in ("SUPPORTS", "REFUTES")
            }
        )
        if not right:
            continue
        queries.append({"_id": str(claim["_id"]), "text": str(claim["text"]).strip()})
        qrels.extend((str(claim["_id"]), doc) for doc in right)
    write_beir(target, corpus, queries, qrels)
    return len(queries), len(corpus)


def squad_train(source: Path, target: Path, max_questions: int = 800, seed: int = 30) -> int:
    """The ``squad_train`` set in ``target``: every paragraph one memory; the question count."""
    articles = json.loads(source.read_text(encoding="utf-8"))["data"]
    corpus, asked = [], []
    for a, article in enumerate(articles):
        title = str(article.get("title", "")).replace("_", " ").strip()
        for p, paragraph in enumerate(article["paragraphs"]):
            doc_id = f"a{a}-p{p}"
            corpus.append({"_id": doc_id, "title": title, "text": paragraph["context"].strip()})
            asked.extend(
                (str(qa["id"]), str(qa["question"]).strip(), doc_id)
                for qa in paragraph["qas"]
                if not qa.get("is_impossible") and str(qa["question"]).strip()
            )
    random.Random(seed).shuffle(asked)
    asked = sorted(asked[:max_questions])
    queries = [{"_id": q, "text": text} for q, text, _ in asked]
    write_beir(target, corpus, queries, [(q, doc) for q, _, doc in asked])
    return len(queries)


def leaderboard_set(git_dir: Path, name: str, target: Path, most: int | None) -> int:
    """One of agentset-ai/embedding-leaderboard's ``datasets/`` from a git directory (a bare
    snapshot) into ``target``, at most ``most`` documents: the query count."""

    def show(path: str) -> str:
        out = subprocess.run(
            ["git", "--git-dir", str(git_dir), "show", f"HEAD:datasets/{name}/{path}"],
            check=True, capture_output=True,
        )  # fmt: skip
        return out.stdout.decode("utf-8")

    corpus = [
        {"_id": str(r["_id"]), "title": str(r.get("title") or ""), "text": str(r["text"])}
        for r in json_objects(show("corpus.jsonl"))
    ]
    queries = [
        {"_id": str(r["_id"]), "text": str(r["text"])} for r in json_objects(show("queries.jsonl"))
    ]
    rows = [line.split("\t") for line in show("qrels/test.tsv").splitlines()[1:] if line]
    if most is not None and len(corpus) > most:
        relevant = {doc for _, doc, grade in rows if int(grade) > 0}
        others = [row["_id"] for row in corpus if row["_id"] not in relevant]
        random.Random(30).shuffle(others)
        kept = relevant | set(others[: max(0, most - len(relevant))])
        corpus = [row for row in corpus if row["_id"] in kept]
        rows = [row for row in rows if row[1] in kept]
    write_beir(target, corpus, queries, [])
    graded = "".join(f"{q}\t{doc}\t{int(grade)}\n" for q, doc, grade in rows)
    (target / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n" + graded)
    return len(queries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--climate-fever", type=Path, help="Climate-FEVER claims (JSON objects)")
    parser.add_argument("--squad-train", type=Path, help="SQuAD 2.0 train JSON (or a part)")
    parser.add_argument("--squad-questions", type=int, default=800)
    parser.add_argument("--leaderboard", type=Path, help="embedding-leaderboard git directory")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    if args.climate_fever:
        claims, articles = climate_fever(args.climate_fever, args.out / "climate")
        print(f"climate: {claims} claims over {articles} articles")
    if args.squad_train:
        asked = squad_train(args.squad_train, args.out / "squad_train", args.squad_questions)
        print(f"squad_train: {asked} questions")
    if args.leaderboard:
        for name, (source, most) in LEADERBOARD_SETS.items():
            asked = leaderboard_set(args.leaderboard, source, args.out / name, most)
            print(f"{name}: {asked} queries")


if __name__ == "__main__":
    main()
