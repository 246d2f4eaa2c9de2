"""Build the name-lookup retrieval set from XQuAD's parallel English and Chinese passages.

    python benchmarks/make_names.py [--eval ../shared/eval] [--out benchmarks/data]

People search their notes for names: a person, a product, a code, a Chinese name. Such a query
is a word or two: the embedding knows little about it and the keyword evidence is what tells.
This writes ``names_bilingual`` in the BEIR layout:

* the corpus: the first half of XQuAD's passages, in English and in Chinese (one memory each);
* answerable queries: names that occur in exactly one passage of the corpus: English
  capitalised phrases (``Kawann Short``), codes and numbers with digits (``B-52``, ``1,190``),
  Chinese transliterated names (``卡万·肖特``) and titles in 《》;
* unanswerable queries: names of the same kinds taken from the *other* half of the passages
  that occur in no corpus passage; many share a word with one (``Mario Short``-like partial
  matches are the distractors a relevance floor must keep out).

Deterministic: the same input gives the same set. Source: google-deepmind/xquad (CC BY-SA 4.0),
through ``shared/eval`` (see its README).
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

from _heldout_sets import write_beir  # this folder: the script is run as a file

HERE = Path(__file__).resolve().parent
DEFAULT_EVAL = HERE.parents[1] / "shared" / "eval"
PER_KIND = 60  # answerable queries per kind (and as many unanswerable at most)

_EN_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b([A-Z][a-z]{2,}(?:\s+[A-Z][a-z]{2,}){1,2})\b")
_CODE = re.compile(r"\b(?=[A-Za-z\-]*\d)[A-Za-z0-9]+(?:[-,.][A-Za-z0-9]+)*\b")
# Two characters either side of the dot: without a segmenter the name's own ends are unknown,
# and a two-character given name and surname is the common case (卡万·肖特).
_ZH_NAME = re.compile(r"[\u4e00-\u9fff]{2}·[\u4e00-\u9fff]{2}")
_ZH_TITLE = re.compile(r"《([^》]{2,12})》")
_NOT_CODE = re.compile(r"1\d{3}s?|20\d\ds?|\d+(?:st|nd|rd|th|s)|\d+-\w+")  # years, ordinals, 5-time
KINDS = {"en_name": ("en", _EN_NAME), "code": ("en", _CODE), "zh_name": ("zh", _ZH_NAME)}
README = """# names_bilingual

{queries} name queries ({answerable} answerable, {unanswerable} with no passage that holds
them) over {corpus} passages (English and Chinese), in the BEIR layout. Built by
`benchmarks/make_names.py` from XQuAD's parallel `xquad_en` and `xquad_zh` sets
(google-deepmind/xquad, CC BY-SA 4.0); see that script for how names are picked.
"""


def _passages(eval_dir: Path, lang: str) -> list[dict]:
    path = eval_dir / f"xquad_{lang}" / "corpus.jsonl"
    return [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()]


def _names(kind: str, text: str) -> list[str]:
    if kind == "zh_name":
        return _ZH_NAME.findall(text) + _ZH_TITLE.findall(text)
    found = KINDS[kind][1].findall(text)
    if kind == "code":  # a plain year or small number is no code
        found = [c for c in found if len(c) >= 4 and not _NOT_CODE.fullmatch(c)]
    return found


def _holders(name: str, texts: list[str]) -> list[int]:
    needle = name.casefold()
    return [i for i, text in enumerate(texts) if needle in text.casefold()]


def _pick(candidates: list[str], n: int) -> list[str]:
    """``n`` of ``candidates`` spread evenly over them (deterministic)."""
    unique = list(dict.fromkeys(candidates))
    if len(unique) <= n:
        return unique
    step = len(unique) / n
    return [unique[int(i * step)] for i in range(n)]


def build(eval_dir: Path, out_dir: Path) -> Path:
    langs = {lang: _passages(eval_dir, lang) for lang in ("en", "zh")}
    half = len(langs["en"]) // 2
    corpus = [
        {"_id": f"{lang}-{row['_id']}", "text": row["text"]}
        for lang in ("en", "zh")
        for row in langs[lang][:half]
    ]
    texts = [row["text"] for row in corpus]
    queries: list[dict] = []
    qrels: list[tuple[str, str]] = []
    for kind, (lang, _) in KINDS.items():
        inside = [n for row in langs[lang][:half] for n in _names(kind, row["text"])]
        outside = [n for row in langs[lang][half:] for n in _names(kind, row["text"])]
        answerable = [n for n in inside if len(_holders(n, texts)) == 1]
        unanswerable = [n for n in outside if not _holders(n, texts)]
        for i, name in enumerate(_pick(answerable, PER_KIND)):
            query_id = f"{kind}-a{i:03d}"
            queries.append({"_id": query_id, "text": name})
            qrels.append((query_id, corpus[_holders(name, texts)[0]]["_id"]))
        for i, name in enumerate(_pick(unanswerable, PER_KIND)):
            queries.append({"_id": f"{kind}-u{i:03d}", "text": name})
    target = out_dir / "names_bilingual"
    write_beir(target, corpus, queries, qrels)
    (target / "README.md").write_text(
        README.format(
            queries=len(queries),
            answerable=len(qrels),
            unanswerable=len(queries) - len(qrels),
            corpus=len(corpus),
        ),
        encoding="utf-8",
    )
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--eval", type=Path, default=DEFAULT_EVAL)
    parser.add_argument("--out", type=Path, default=HERE / "data")
    args = parser.parse_args()
    print("wrote", build(args.eval, args.out))


if __name__ == "__main__":
    main()
