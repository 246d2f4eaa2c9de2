"""Build the cross-lingual retrieval sets from XQuAD's parallel English and Chinese sets.

    python benchmarks/make_crosslingual.py [--eval ../shared/eval] [--out benchmarks/data]

XQuAD is parallel: the questions and passages of ``xquad_en`` and ``xquad_zh`` have the same
ids and the same judgements. This writes, in the BEIR layout:

* ``xquad_zh2en``: the Chinese questions over the English passages;
* ``xquad_en2zh``: the English questions over the Chinese passages;
* ``xquad_mixed``: a bilingual vault: passages alternate between English and Chinese (so an
  article's passages are in both), questions alternate too, so about half of them are asked in
  the other language than their passage while same-language distractors hold their words;
* ``kw_zh2en`` and ``kw_en2zh``: what people type to look a topic up in a vault of the other
  language (同步 over an English vault): each question cut to its one or two rarest content
  words. Two vaults each (``even``/``odd``): the passages of every other article (XQuAD has
  five per article, in order); a look-up from an article in the vault (``kw-…``) is answered
  by any of its five passages, one from an article left out (``u-kw-…``) by nothing.

Source: google-deepmind/xquad (CC BY-SA 4.0), through ``shared/eval`` (see its README).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import shutil
import zlib
from collections import Counter
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


KEYWORDS_README = """# {name}

Topic look-ups in `{qlang}` over passages in `{clang}`, in the BEIR layout, one vault per
subfolder. Built by `benchmarks/make_crosslingual.py` from XQuAD's parallel sets
(google-deepmind/xquad, CC BY-SA 4.0): each XQuAD question cut to its one or two rarest
content words; `even/` holds the passages of XQuAD's even articles and `odd/` the odd ones.
`kw-…`: a look-up from an article in the vault, judged to all five of its passages; `u-kw-…`:
one from an article not in the vault (nothing answers it).
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


PASSAGES_PER_ARTICLE = 5  # XQuAD: 240 passages of 48 articles, in order
LOOKUPS_PER_VAULT = 300  # of each kind (answered, nothing answers), sampled by a hash of the id
# Question words and fillers a look-up leaves out (besides pixelmem's English stopwords).
_ZH_ASKING_WORDS = (
    "什么 哪个 哪些 哪里 哪儿 哪位 哪一 哪一年 哪年 多少 多久 几个 为什么 为何 如何 怎样 "
    "怎么 是否 谁 是 的 了 在 有 和 与 被 将 对 于 以 及 其 这 那 个 们 一个 什么样"
)
_ZH_ASKING = frozenset(_ZH_ASKING_WORDS.split())
_EN_ASKING = frozenset(
    "who whom whose what when where which why how did does do many much".split()  # noqa: SIM905
)


def build_keywords(eval_dir: Path, out_dir: Path, query_lang: str, corpus_lang: str) -> Path:
    """``kw_<q>2<c>`` (module docstring): two vaults of alternate articles, look-ups from
    inside and outside each."""
    passages = _jsonl(eval_dir / f"xquad_{corpus_lang}" / "corpus.jsonl")
    questions = _jsonl(eval_dir / f"xquad_{query_lang}" / "queries.jsonl")
    article_of = _articles_of(eval_dir / f"xquad_{query_lang}" / "qrels" / "test.tsv")
    words_of = _chinese_words if query_lang == "zh" else _english_words
    own = _jsonl(eval_dir / f"xquad_{query_lang}" / "corpus.jsonl")
    weight = _topic_weights([words_of(row["text"]) for row in own])
    target = out_dir / f"kw_{query_lang}2{corpus_lang}"
    for side, parity in (("even", 0), ("odd", 1)):
        inside = {i for i in range(len(passages)) if (i // PASSAGES_PER_ARTICLE) % 2 == parity}
        folder = target / side
        (folder / "qrels").mkdir(parents=True, exist_ok=True)
        _write_jsonl(folder / "corpus.jsonl", [passages[i] for i in sorted(inside)])
        lookups, judged = _lookups(questions, article_of, inside, words_of, weight, query_lang)
        _write_jsonl(folder / "queries.jsonl", lookups)
        with (folder / "qrels" / "test.tsv").open("w", encoding="utf-8") as handle:
            handle.write("query-id\tcorpus-id\tscore\n")
            handle.writelines(f"{q}\t{d}\t1\n" for q, d in judged)
    (target / "README.md").write_text(
        KEYWORDS_README.format(name=target.name, qlang=query_lang, clang=corpus_lang),
        encoding="utf-8",
    )
    return target


def _lookups(questions, article_of, inside, words_of, weight, lang):
    """The look-ups of one vault: (queries, judgements)."""
    passage_ids = {f"p{i}" for i in inside}
    answered, unanswered, judged = [], [], []
    for row in questions:
        article = article_of.get(row["_id"])
        if article is None:
            continue
        count = 1 + zlib.crc32(row["_id"].encode()) % 2
        words = _topical(words_of(row["text"]), weight[article], count)
        if not words:
            continue
        joiner = "" if lang == "zh" and zlib.crc32(row["_id"].encode()) % 3 == 0 else " "
        text = joiner.join(words)
        members = [f"p{article * PASSAGES_PER_ARTICLE + k}" for k in range(PASSAGES_PER_ARTICLE)]
        if members[0] in passage_ids:
            answered.append({"_id": f"kw-{row['_id']}", "text": text})
            judged += [(f"kw-{row['_id']}", member) for member in members]
        else:
            unanswered.append({"_id": f"u-kw-{row['_id']}", "text": text})
    answered, unanswered = _sample(answered), _sample(unanswered)
    kept = {row["_id"] for row in answered}
    return answered + unanswered, [(q, d) for q, d in judged if q in kept]


def _sample(rows: list[dict]) -> list[dict]:
    return sorted(rows, key=lambda row: zlib.crc32(row["_id"].encode()))[:LOOKUPS_PER_VAULT]


def _articles_of(qrels: Path) -> dict[str, int]:
    found = {}
    for line in qrels.read_text(encoding="utf-8").splitlines()[1:]:
        query, passage, _ = line.split("\t")
        found[query] = int(passage.removeprefix("p")) // PASSAGES_PER_ARTICLE
    return found


def _topical(words: list[str], weight: dict[str, float], count: int) -> list[str]:
    """The ``count`` words of the question its article is most about, in the question's order
    (a word its article never uses is no look-up of that article)."""
    held = [w for w in dict.fromkeys(words) if weight.get(w.lower(), 0.0) > 0]
    top = set(sorted(held, key=lambda w: -weight[w.lower()])[:count])
    return [w for w in held if w in top]


def _topic_weights(passages: list[list[str]]) -> list[dict[str, float]]:
    """Per article, each word's tf-idf over the articles (in the question's language)."""
    articles = [
        Counter(w.lower() for words in passages[i : i + PASSAGES_PER_ARTICLE] for w in words)
        for i in range(0, len(passages), PASSAGES_PER_ARTICLE)
    ]
    df = Counter(w for counts in articles for w in counts)
    return [
        {w: math.log(1 + n) * math.log(len(articles) / df[w]) for w, n in counts.items()}
        for counts in articles
    ]


def _chinese_words(text: str) -> list[str]:
    import rjieba

    return [
        w
        for w in rjieba.cut(text)
        if len(w) >= 2 and re.search(r"[\u4e00-\u9fff]", w) and w not in _ZH_ASKING
    ]


def _english_words(text: str) -> list[str]:
    from pixelmem.core.index.text_tokens import STOPWORDS

    words = re.findall(r"[A-Za-z][A-Za-z'-]+|\d{3,4}", text)
    return [w for w in words if w.lower() not in STOPWORDS and w.lower() not in _EN_ASKING]


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
    for query_lang, corpus_lang in (("zh", "en"), ("en", "zh")):
        print("wrote", build_keywords(args.eval, args.out, query_lang, corpus_lang))


if __name__ == "__main__":
    main()
