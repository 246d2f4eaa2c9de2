"""The held-out sets in the BEIR layout, converted from their published files.

Rules (the setups issue 30 leaves open, decided here once):

* **SciFact** (BEIR's ``scifact``, test split: the 300 claims of SciFact's dev file): every
  abstract one memory, its title the memory's title and its sentences joined by spaces the
  body. Read from a BEIR folder as is, or from the allenai/scifact export in CSV
  (``corpus_train.csv``, ``claims_validation.csv``); the judgements are each claim's
  ``cited_doc_ids`` — the pairs of BEIR's ``qrels/test.tsv`` (339 for 300 claims).
* **LoCoMo** (snap-research/locomo, ``locomo10``): one vault per conversation, one memory per
  session (title "Session N, <date>", body one line per turn, "Speaker: text", a shared photo
  as "[shares a photo: caption]"). Questions of categories 1–4 with evidence; a question's
  right notes are the sessions of its evidence turns (``D3:7`` → session 3). Category 5
  (adversarial: no answer in the conversation) is left out. Query ids carry the category
  (``c1-``…``c4-``) so figures can be split by it.
* **SQuAD dev** (v1.1 format, e.g. ExpMRC's ``expmrc-squad-dev.json``, a published sample of
  12 dev articles, or the full ``dev-v1.1.json``): every paragraph one memory titled with its
  article, all articles pooled in one vault; with more questions than ``max_questions``,
  whole articles in a seeded order until it is reached. A question XQuAD holds (XQuAD is
  SQuAD dev translated, and a development set of this project) is left out, and so is every
  question about an XQuAD passage: only questions never seen in development are judged.

Nothing here is tuned on: these sets only measure. Data stays outside the repository.
"""

from __future__ import annotations

import csv
import io
import json
import random
import re
import tokenize
from collections.abc import Iterable
from pathlib import Path

_TURN_SESSION = re.compile(r"D(\d+):")


def write_beir(
    target: Path, corpus: list[dict], queries: list[dict], qrels: Iterable[tuple[str, str]]
) -> None:
    """``corpus.jsonl``, ``queries.jsonl`` and ``qrels/test.tsv`` (with a header) in ``target``."""
    (target / "qrels").mkdir(parents=True, exist_ok=True)
    with (target / "corpus.jsonl").open("w", encoding="utf-8") as handle:
        handle.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in corpus)
    with (target / "queries.jsonl").open("w", encoding="utf-8") as handle:
        handle.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in queries)
    with (target / "qrels" / "test.tsv").open("w", encoding="utf-8") as handle:
        handle.write("query-id\tcorpus-id\tscore\n")
        handle.writelines(f"{q}\t{d}\t1\n" for q, d in qrels)


# -- SciFact ------------------------------------------------------------------------------


def scifact(source: Path, target: Path) -> int:
    """SciFact's test split in ``target``; ``source`` a BEIR folder or the CSV export."""
    if (source / "corpus.jsonl").is_file():
        corpus = [json.loads(line) for line in (source / "corpus.jsonl").open(encoding="utf-8")]
        queries_all = {
            row["_id"]: row for row in map(json.loads, (source / "queries.jsonl").open())
        }
        pairs = _tsv_pairs(source / "qrels" / "test.tsv")
    else:
        corpus = list(_scifact_csv_corpus(source / "corpus_train.csv"))
        queries_all, pairs = _scifact_csv_claims(source / "claims_validation.csv")
    judged = sorted({q for q, _ in pairs}, key=int)
    queries = [{"_id": q, "text": queries_all[q]["text"]} for q in judged]
    write_beir(target, corpus, queries, sorted(pairs, key=lambda p: (int(p[0]), p[1])))
    return len(queries)


def _tsv_pairs(path: Path) -> set[tuple[str, str]]:
    pairs = set()
    for row in csv.reader(path.open(encoding="utf-8"), delimiter="\t"):
        if len(row) >= 3 and row[2].strip().isdigit() and int(row[2]) > 0:
            pairs.add((row[0].strip(), row[1].strip()))
    return pairs


def _scifact_csv_corpus(path: Path) -> Iterable[dict]:
    csv.field_size_limit(1 << 30)
    for row in csv.DictReader(path.open(encoding="utf-8", newline="")):
        sentences = _string_literals(row["abstract"])
        text = " ".join(s.strip() for s in sentences)
        yield {"_id": row["doc_id"], "title": row["title"].strip(), "text": text}


def _string_literals(printed: str) -> list[str]:
    """The strings of a printed array (``['a.'\\n 'b.']``: numpy prints no commas)."""
    tokens = tokenize.generate_tokens(io.StringIO(printed).readline)
    return [_literal(t.string) for t in tokens if t.type == tokenize.STRING]


def _literal(token: str) -> str:
    import ast

    return str(ast.literal_eval(token))


def _scifact_csv_claims(path: Path) -> tuple[dict[str, dict], set[tuple[str, str]]]:
    claims: dict[str, dict] = {}
    pairs: set[tuple[str, str]] = set()
    for row in csv.DictReader(path.open(encoding="utf-8", newline="")):
        claims[row["id"]] = {"text": row["claim"].strip()}
        pairs.update((row["id"], doc) for doc in re.findall(r"\d+", row["cited_doc_ids"]))
    return claims, pairs


# -- LoCoMo -------------------------------------------------------------------------------


def locomo(source: Path, target: Path) -> int:
    """One BEIR folder per conversation under ``target`` (``conv-<id>``); the question count.

    ``source``: ``locomo10.json`` (a list of samples) or a folder of one JSON per conversation
    (the zip's ``locomo10_v2``)."""
    if source.is_dir():
        samples = [(p.stem, json.loads(p.read_text())) for p in sorted(source.glob("*.json"))]
    else:
        rows = json.loads(source.read_text())  # [{sample_id, conversation: {...}, qa: [...]}]
        samples = [
            (str(row.get("sample_id", i)), {**row["conversation"], "qa": row["qa"]})
            for i, row in enumerate(rows)
        ]
    total = 0
    for name, conversation in samples:
        corpus, sessions = _locomo_sessions(conversation)
        queries, qrels = [], []
        for number, qa in enumerate(conversation["qa"]):
            category = int(qa.get("category", 0))
            right = {s for e in qa.get("evidence") or [] for s in _TURN_SESSION.findall(str(e))}
            right &= sessions
            if category not in (1, 2, 3, 4) or not right:
                continue
            query_id = f"c{category}-{number}"
            queries.append({"_id": query_id, "text": str(qa["question"]).strip()})
            qrels.extend((query_id, f"s{s}") for s in sorted(right, key=int))
        folder = name if name.startswith("conv-") else f"conv-{name}"
        write_beir(target / folder, corpus, queries, qrels)
        total += len(queries)
    return total


def _locomo_sessions(conversation: dict, text: str = "text") -> tuple[list[dict], set[str]]:
    """A conversation's sessions as BEIR documents, and their numbers; ``text``: the turn's
    field that holds what was said (REALTALK, in the same layout, keeps it in ``clean_text``)."""
    corpus, sessions = [], set()
    keys = [k for k in conversation if re.fullmatch(r"session_\d+", k) and conversation[k]]
    for key in sorted(keys, key=lambda k: int(k.split("_")[1])):
        number = key.split("_")[1]
        when = str(conversation.get(f"{key}_date_time", "")).strip()
        lines = []
        for turn in conversation[key]:
            line = f"{turn['speaker']}: {str(turn.get(text, '')).strip()}"
            if turn.get("blip_caption"):
                line += f" [shares a photo: {turn['blip_caption']}]"
            lines.append(line)
        title = f"Session {number}, {when}" if when else f"Session {number}"
        corpus.append({"_id": f"s{number}", "title": title, "text": "\n".join(lines)})
        sessions.add(number)
    return corpus, sessions


# -- SQuAD dev ----------------------------------------------------------------------------


def squad_dev(
    source: Path, target: Path, xquad: Path | None, max_questions: int = 800, seed: int = 30
) -> tuple[int, int]:
    """A pooled vault of SQuAD dev paragraphs in ``target``: (questions, questions left out
    because XQuAD holds them or their passage)."""
    articles = json.loads(source.read_text(encoding="utf-8"))["data"]
    seen_passages, seen_questions = _xquad_texts(xquad)
    order = list(range(len(articles)))
    random.Random(seed).shuffle(order)
    corpus: list[dict] = []
    queries: list[dict] = []
    qrels: list[tuple[str, str]] = []
    left_out = 0
    for index in order:
        if len(queries) >= max_questions:
            break
        article = articles[index]
        title = str(article.get("title", "")).replace("_", " ").strip()
        for number, paragraph in enumerate(article["paragraphs"]):
            context = paragraph["context"].strip()
            doc_id = f"a{index}-p{number}"
            corpus.append({"_id": doc_id, "title": title, "text": context})
            for qa in paragraph["qas"]:
                question = str(qa["question"]).strip()
                if context in seen_passages or question in seen_questions:
                    left_out += 1
                    continue
                if qa.get("is_impossible"):
                    continue
                queries.append({"_id": str(qa["id"]), "text": question})
                qrels.append((str(qa["id"]), doc_id))
    write_beir(target, corpus, queries, qrels)
    return len(queries), left_out


def _xquad_texts(folder: Path | None) -> tuple[set[str], set[str]]:
    if folder is None or not (folder / "corpus.jsonl").is_file():
        return set(), set()
    passages = {json.loads(line)["text"].strip() for line in (folder / "corpus.jsonl").open()}
    questions = {json.loads(line)["text"].strip() for line in (folder / "queries.jsonl").open()}
    return passages, questions
