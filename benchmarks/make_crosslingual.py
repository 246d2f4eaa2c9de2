"""Build the cross-lingual retrieval sets from XQuAD's parallel English and Chinese sets.

    python benchmarks/make_crosslingual.py [--eval ../shared/eval] [--out benchmarks/data]

XQuAD is parallel: the questions and passages of ``xquad_en`` and ``xquad_zh`` have the same
ids and the same judgements. This writes, in the BEIR layout:

* ``xquad_zh2en``: the Chinese questions over the English passages;
* ``xquad_en2zh``: the English questions over the Chinese passages;
* ``xquad_mixed``: a bilingual vault: passages alternate between English and Chinese (so an
  article's passages are in both), questions alternate too, so about half of them are asked in
  the other language than their passage while same-language distractors hold their words.

Source: google-deepmind/xquad (CC BY-SA 4.0), through ``shared/eval`` (see its README).
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_EVAL = HERE.parents[1] / "shared" / "eval"
README = """# {name}

{queries} questions over {corpus} passages, in the BEIR layout (`corpus.jsonl`,
`queries.jsonl`, `qrels/test.tsv`). Built by `benchmarks/make_crosslingual.py` from XQuAD's
parallel `xquad_en` and `xquad_zh` sets (google-deepmind/xquad, CC BY-SA 4.0): the questions
of `{qset}` over the passages of `{cset}`, with their shared judgements.
"""

MIXED_README = """# xquad_mixed

{queries} questions over {corpus} passages, in the BEIR layout. Built by
`benchmarks/make_crosslingual.py` from XQuAD's parallel `xquad_en` and `xquad_zh` sets
(google-deepmind/xquad, CC BY-SA 4.0): passage and question *i* are taken from `xquad_zh` when
*i* is odd and from `xquad_en` when it is even, with their shared judgements; about half of the
questions are in the other language than their passage.
"""


def build(eval_dir: Path, out_dir: Path, query_lang: str, corpus_lang: str) -> Path:
    queries, corpus = eval_dir / f"xquad_{query_lang}", eval_dir / f"xquad_{corpus_lang}"
    if (queries / "qrels" / "test.tsv").read_bytes() != (
        corpus / "qrels" / "test.tsv"
    ).read_bytes():
        raise SystemExit("the two XQuAD sets do not share their judgements: not parallel")
    target = out_dir / f"xquad_{query_lang}2{corpus_lang}"
    (target / "qrels").mkdir(parents=True, exist_ok=True)
    shutil.copyfile(corpus / "corpus.jsonl", target / "corpus.jsonl")
    shutil.copyfile(queries / "queries.jsonl", target / "queries.jsonl")
    shutil.copyfile(queries / "qrels" / "test.tsv", target / "qrels" / "test.tsv")
    (target / "README.md").write_text(
        README.format(
            name=target.name,
            queries=sum(1 for _ in (queries / "queries.jsonl").open(encoding="utf-8")),
            corpus=sum(1 for _ in (corpus / "corpus.jsonl").open(encoding="utf-8")),
            qset=queries.name,
            cset=corpus.name,
        ),
        encoding="utf-8",
    )
    return target


def build_mixed(eval_dir: Path, out_dir: Path) -> Path:
    """``xquad_mixed`` (see the module docstring): every other passage and question in Chinese."""
    rows = {lang: _jsonl(eval_dir / f"xquad_{lang}" / "corpus.jsonl") for lang in ("en", "zh")}
    asks = {lang: _jsonl(eval_dir / f"xquad_{lang}" / "queries.jsonl") for lang in ("en", "zh")}
    target = out_dir / "xquad_mixed"
    (target / "qrels").mkdir(parents=True, exist_ok=True)
    _write_jsonl(
        target / "corpus.jsonl", [rows["zh" if i % 2 else "en"][i] for i in range(len(rows["en"]))]
    )
    _write_jsonl(
        target / "queries.jsonl", [asks["zh" if i % 2 else "en"][i] for i in range(len(asks["en"]))]
    )
    shutil.copyfile(eval_dir / "xquad_en" / "qrels" / "test.tsv", target / "qrels" / "test.tsv")
    (target / "README.md").write_text(
        MIXED_README.format(queries=len(asks["en"]), corpus=len(rows["en"])), encoding="utf-8"
    )
    return target


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()]


def _write_jsonl(path: Path, rows: list[dict]) -> None:
    with path.open("w", encoding="utf-8") as handle:
        handle.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--eval", type=Path, default=DEFAULT_EVAL)
    parser.add_argument("--out", type=Path, default=HERE / "data")
    args = parser.parse_args()
    for query_lang, corpus_lang in (("zh", "en"), ("en", "zh")):
        print("wrote", build(args.eval, args.out, query_lang, corpus_lang))
    print("wrote", build_mixed(args.eval, args.out))


if __name__ == "__main__":
    main()
