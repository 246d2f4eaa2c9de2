"""Build the calibration development sets from public reading-comprehension data.

    python benchmarks/make_qa_sets.py --squad train-v2.0.json --drcd DRCD_dev.json DRCD_test.json
                                      [--xquad ../shared/eval] [--out benchmarks/data]
    python benchmarks/make_qa_sets.py --korquad KorQuAD_v1.0_dev.json --jsquad valid-v1.3.json
                                      --out ../cjk-sets

Each set is a vault (one memory per passage) with questions in the BEIR layout; a question
without a judgement is one that no note of that vault answers. Written, deterministic for the
same inputs:

* ``unans_en_40``, ``unans_en_700`` (English) and ``unans_zh_40``, ``unans_zh_750`` (Chinese):
  100 answerable questions about the vault's passages and 100 that nothing answers. English:
  the vault holds SQuAD 2.0 *train* passages; the unanswerable questions are XQuAD's English
  questions (other articles, nothing shared), and ``impossible`` ones are SQuAD 2.0's own
  unanswerable questions written against passages of the vault (on the subject, the answer
  absent: ids ``imp-…``, reported apart). Chinese: DRCD passages (Traditional Chinese,
  converted to Simplified with OpenCC ``t2s``); the unanswerable questions are DRCD questions
  about articles not in the vault, none of the title of an article in it (:func:`_off_subject`).
* ``names_q_en``, ``names_q_zh``: questions that *contain* a name (a person, a place, a work):
  the source's own questions that name one, and questions in the forms people ask about a
  name ("Which notes mention …?", "关于…的笔记"); names that no note holds, in the same forms,
  are the unanswerable ones.

Sources and licences: SQuAD 2.0 train (rajpurkar, CC BY-SA 4.0; its first ten articles, the
part of the file at hand), DRCD dev and test (Delta Research Center, CC BY-SA 3.0), XQuAD
(google-deepmind, CC BY-SA 4.0). Never SQuAD's dev split (XQuAD's questions are translated
from it and are a development set of this project already; they are used here only as
questions that nothing in a SQuAD-train vault answers).
"""

from __future__ import annotations

import argparse
import json
import random
import re
from pathlib import Path

from _heldout_sets import write_beir  # this folder: the script is run as a file

HERE = Path(__file__).resolve().parent
DEFAULT_XQUAD = HERE.parents[1] / "shared" / "eval"
PER_CLASS = 100

_EN_NAME = re.compile(
    r"(?<!^)(?<![.?!] )\b([A-Z][a-zé]+(?:\s+(?:de |van |von )?[A-Z][a-zé]+){0,2})\b"
)
_EN_FORMS = (
    "Which notes mention {}?",
    "What did I write about {}?",
    "notes on {}",
    "Tell me what I know about {}",
    "anything about {}",
)
_ZH_FORMS = (
    "哪些笔记提到了{}？",
    "关于{}的笔记",
    "我记过{}的什么？",
    "{}的资料",
    "有没有写{}的内容",
)
_NOT_NAMES = {
    "The", "What", "Which", "When", "Where", "Who", "How", "Why", "In", "On", "At", "For",
    "During", "After", "Before", "January", "February", "March", "April", "May", "June", "July",
    "August", "September", "October", "November", "December", "English", "American", "French",
    "German", "British", "Chinese",
}  # fmt: skip


def _write(
    target: Path, corpus: list[dict], queries: list[dict], qrels: list[tuple], readme: str
) -> None:
    write_beir(target, corpus, queries, qrels)
    (target / "README.md").write_text(readme, encoding="utf-8")


def _articles(path: Path, convert=None) -> list[dict]:
    """[{title, paragraphs: [{id, text, questions: [(id, text, impossible)]}]}]"""
    data = json.loads(path.read_text(encoding="utf-8"))["data"]
    conv = convert or (lambda s: s)
    out = []
    for a, article in enumerate(data):
        paragraphs = []
        for p, para in enumerate(article["paragraphs"]):
            questions = [
                (str(q["id"]), conv(q["question"].strip()), bool(q.get("is_impossible")))
                for q in para["qas"]
            ]
            paragraphs.append({"id": f"{path.stem}-{a}-{p}", "text": conv(para["context"]),
                               "questions": questions})  # fmt: skip
        title = conv(article["title"].replace("_", " "))
        out.append({"title": title, "paragraphs": paragraphs})
    return out


def _xquad_questions(xquad: Path, lang: str) -> list[str]:
    path = xquad / f"xquad_{lang}" / "queries.jsonl"
    return [json.loads(line)["text"] for line in path.open(encoding="utf-8") if line.strip()]


def _vault(articles: list[dict], size: int, rng: random.Random) -> list[dict]:
    """``size`` passages spread over the articles (every article gives its share)."""
    pool = [(a, p) for a, art in enumerate(articles) for p in range(len(art["paragraphs"]))]
    if size >= len(pool):
        return [articles[a]["paragraphs"][p] for a, p in pool]
    picked = sorted(rng.sample(pool, size))
    return [articles[a]["paragraphs"][p] for a, p in picked]


def _answerable(passages: list[dict], rng: random.Random, n: int) -> list[tuple[str, str, str]]:
    """(query id, text, passage id) of answerable questions, one per passage first."""
    per = [[(q, t, p["id"]) for q, t, imp in p["questions"] if not imp] for p in passages]
    out = []
    while len(out) < n and any(per):
        for options in per:
            if options and len(out) < n:
                out.append(options.pop(rng.randrange(len(options))))
    return out


def unanswerable_sets(squad: Path, drcd: list[Path], xquad: Path, out: Path) -> list[Path]:
    rng = random.Random(30)
    written = []
    en = _articles(squad)
    outside_en = _xquad_questions(xquad, "en")
    for size in (40, 700):
        vault = _vault(en, size, rng)
        answerable = _answerable(vault, rng, PER_CLASS)
        impossible = [(q, t) for p in vault for q, t, imp in p["questions"] if imp]
        impossible = rng.sample(impossible, min(PER_CLASS // 2, len(impossible)))
        nothing = rng.sample(outside_en, PER_CLASS)
        corpus = [{"_id": p["id"], "text": p["text"]} for p in vault]
        queries = [{"_id": f"a-{q}", "text": t} for q, t, _ in answerable]
        queries += [{"_id": f"u-{i:03d}", "text": t} for i, t in enumerate(nothing)]
        queries += [{"_id": f"imp-{q}", "text": t} for q, t in impossible]
        qrels = [(f"a-{q}", d) for q, _, d in answerable]
        target = out / f"unans_en_{size}"
        _write(target, corpus, queries, qrels, README_UNANS.format(
            name=target.name, corpus=len(corpus), lang="English",
            source="SQuAD 2.0 train (its first ten articles; CC BY-SA 4.0)",
            outside="XQuAD's English questions (google-deepmind/xquad, CC BY-SA 4.0): other "
                    "articles, nothing in this vault answers them",
            extra=f" and {len(impossible)} SQuAD 2.0 unanswerable questions written against "
                  "passages of this vault (`imp-…`: on the subject, the answer absent)",
        ))  # fmt: skip
        written.append(target)
    from opencc import OpenCC

    t2s = OpenCC("t2s").convert
    zh = [art for path in drcd for art in _articles(path, t2s)]
    rng.shuffle(zh)
    for size in (40, 750):
        corpus, queries, qrels = _split_by_article(zh, size, rng)
        target = out / f"unans_zh_{size}"
        _write(target, corpus, queries, qrels, README_UNANS.format(
            name=target.name, corpus=len(corpus), lang="Chinese",
            source="DRCD dev and test (Delta Research Center, CC BY-SA 3.0), converted from "
                   "Traditional to Simplified Chinese with OpenCC t2s "
                   "(opencc-python-reimplemented)",
            outside="DRCD questions about articles none of whose passages is in this vault, "
                    "and none of the title of an article in it (DRCD splits one Wikipedia "
                    "article over its dev and test files)",
            extra="",
        ))  # fmt: skip
        written.append(target)
    written += names_sets(en, zh, xquad, out, rng)
    written += cross_sets(out)
    return written


def _split_by_article(
    articles: list[dict], size: int, rng: random.Random
) -> tuple[list[dict], list[dict], list[tuple]]:
    """A vault of ``size`` passages from the first ``articles`` (two of each for a small
    vault), 100 answerable questions on them, and 100 questions on the rest that nothing in
    it answers (:func:`_off_subject`): corpus, queries and judgements in the BEIR layout."""
    inside, count = [], 0
    for art in articles:
        if count >= size:
            break
        inside.append(art)
        count += len(art["paragraphs"]) if size > 100 else min(2, len(art["paragraphs"]))
    if size > 100:
        vault = [p for art in inside for p in art["paragraphs"]][:size]
    else:
        vault = [p for art in inside for p in art["paragraphs"][:2]][:size]
    rest = articles[len(inside) :]
    outside = [(art["title"], t) for art in rest for p in art["paragraphs"]
               for _, t, _ in p["questions"]]  # fmt: skip
    answerable = _answerable(vault, rng, PER_CLASS)
    drawn = rng.sample(outside, PER_CLASS)
    nothing = _off_subject(drawn, outside, {art["title"] for art in inside}, size)
    corpus = [{"_id": p["id"], "text": p["text"]} for p in vault]
    queries = [{"_id": f"a-{q}", "text": t} for q, t, _ in answerable]
    queries += [{"_id": f"u-{i:03d}", "text": t} for i, t in enumerate(nothing)]
    qrels = [(f"a-{q}", d) for q, _, d in answerable]
    return corpus, queries, qrels


# The sources of the sets in CJK scripts the decision was not fitted on (Hangul, Kana): the
# Chinese sets' construction over each, written outside the repository (PIXELMEM_CJK_SETS).
MORE_CJK = {
    "ko": dict(
        lang="Korean",
        source="KorQuAD 1.0 dev (LG CNS, CC BY-ND 2.0 KR: kept out of the repository)",
        shared="KorQuAD's articles share subjects (BTS, Korean presidents), so some of these "
               "are answered by a passage of another article: read the shown ones before "
               "counting them",
    ),
    "ja": dict(
        lang="Japanese",
        source="JSQuAD 1.3 valid (JGLUE, Yahoo Japan; CC BY-SA 4.0), each passage without "
               "its leading `title [SEP]`",
        shared="JSQuAD's articles are Wikipedia's, one subject each",
    ),
}  # fmt: skip
_SEP = re.compile(r"^.*?\[SEP\]\s*")


def more_cjk_sets(source: Path, code: str, out: Path) -> list[Path]:
    """``unans_{code}_40`` and ``unans_{code}_700`` (:data:`MORE_CJK`): a Korean (``ko``,
    KorQuAD) or Japanese (``ja``, JSQuAD) vault of passages with 100 answerable questions and
    100 on articles none of whose passages is in it, as the Chinese sets are built."""
    about = MORE_CJK[code]
    rng = random.Random(30)
    articles = _articles(source)
    for article in articles:
        for passage in article["paragraphs"]:
            passage["text"] = _SEP.sub("", passage["text"])
    rng.shuffle(articles)
    written = []
    for size in (40, 700):
        corpus, queries, qrels = _split_by_article(articles, size, rng)
        target = out / f"unans_{code}_{size}"
        _write(target, corpus, queries, qrels, README_UNANS.format(
            name=target.name, corpus=len(corpus), lang=about["lang"], source=about["source"],
            outside=f"questions about articles none of whose passages is in this vault and "
                    f"none of the title of one in it; {about['shared']}",
            extra="",
        ))  # fmt: skip
        written.append(target)
    return written


def _off_subject(
    drawn: list[tuple[str, str]], pool: list[tuple[str, str]], titles: set[str], seed: int
) -> list[str]:
    """The questions of ``drawn`` ((article title, question) pairs), each one whose article
    has the title of an article in the vault replaced by another of ``pool`` that has not.

    DRCD's dev and test splits hold parts of one Wikipedia article under one title (梅艳芳,
    库页岛, 段祺瑞): a question from the other part is on the vault's subject and often
    answered by it (梅艳芳's first contest win, 1982, is in the vault's 梅艳芳 passage), not a
    question that nothing answers. 25 of the 750-note set's 100 and 2 of the 40-note set's
    were; the rest of every set is as drawn before."""
    taken = set(drawn)
    clean = [q for q in pool if q[0] not in titles and q not in taken]
    spare = iter(random.Random(f"off-subject-{seed}").sample(clean, len(drawn)))
    return [text if title not in titles else next(spare)[1] for title, text in drawn]


def cross_sets(out: Path) -> list[Path]:
    """Questions nothing answers, in the other language than the vault: the Chinese ones of
    ``unans_zh_750`` over the English passages of ``unans_en_700``, and the English ones of
    ``unans_en_700`` over the Chinese passages of ``unans_zh_750``."""
    written = []
    for vault, questions in (("unans_en_700", "unans_zh_750"), ("unans_zh_750", "unans_en_700")):
        corpus = [
            json.loads(line) for line in (out / vault / "corpus.jsonl").open(encoding="utf-8")
        ]
        asked = [
            json.loads(line) for line in (out / questions / "queries.jsonl").open(encoding="utf-8")
        ]
        queries = [q for q in asked if q["_id"].startswith("u-")]
        target = out / f"unans_x_{vault.split('_')[-1]}_{vault.split('_')[1]}"
        _write(target, corpus, queries, [], README_CROSS.format(
            name=target.name, vault=vault, questions=questions, n=len(queries)))  # fmt: skip
        written.append(target)
    return written


def _en_names(text: str) -> list[str]:
    found = []
    for name in _EN_NAME.findall(text):
        words = name.split()
        if words[0] in _NOT_NAMES or len(name) < 5:
            continue
        found.append(name)
    return found


def names_sets(
    en: list[dict], zh: list[dict], xquad: Path, out: Path, rng: random.Random
) -> list[Path]:
    """Questions containing a name, over the big vaults."""
    written = []
    # English: the 700-passage SQuAD vault.
    vault = [p for art in en for p in art["paragraphs"]][:700]
    texts = [p["text"].casefold() for p in vault]

    def holders(name: str) -> list[int]:
        needle = name.casefold()
        return [i for i, t in enumerate(texts) if needle in t]

    queries, qrels = [], []
    natural = []
    for p in vault:
        for q, t, imp in p["questions"]:
            names = [
                n
                for n in _en_names(t)
                if 1 <= len(holders(n)) <= 3 and n.casefold() in p["text"].casefold()
            ]
            if names and not imp:
                natural.append((q, t, p["id"]))
    for q, t, d in rng.sample(natural, min(60, len(natural))):
        queries.append({"_id": f"nat-{q}", "text": t})
        qrels.append((f"nat-{q}", d))
    inside = sorted({n for p in vault for n in _en_names(p["text"]) if len(holders(n)) == 1})
    for i, name in enumerate(rng.sample(inside, min(60, len(inside)))):
        qid = f"form-a{i:03d}"
        queries.append({"_id": qid, "text": rng.choice(_EN_FORMS).format(name)})
        qrels.append((qid, vault[holders(name)[0]]["id"]))
    xq = [
        json.loads(line)["text"]
        for line in (xquad / "xquad_en" / "corpus.jsonl").open(encoding="utf-8")
    ]
    outside = sorted({n for text in xq for n in _en_names(text) if not holders(n)})
    for i, name in enumerate(rng.sample(outside, min(60, len(outside)))):
        queries.append({"_id": f"form-u{i:03d}", "text": rng.choice(_EN_FORMS).format(name)})
    corpus = [{"_id": p["id"], "text": p["text"]} for p in vault]
    target = out / "names_q_en"
    _write(target, corpus, queries, qrels, README_NAMES.format(
        name=target.name, corpus=len(corpus), queries=len(queries), answerable=len(qrels),
        source="SQuAD 2.0 train (first ten articles, CC BY-SA 4.0); names no note holds from "
               "XQuAD's English passages (CC BY-SA 4.0)",
    ))  # fmt: skip
    written.append(target)
    # Chinese: 750 DRCD passages; names are article titles and the《》works of the passages.
    vault = [p for art in zh for p in art["paragraphs"]][:750]
    titles = {p["id"]: art["title"] for art in zh for p in art["paragraphs"]}
    texts = [p["text"] for p in vault]

    def zh_holders(name: str) -> list[int]:
        return [i for i, t in enumerate(texts) if name in t]

    queries, qrels = [], []
    natural = []
    for p in vault:
        title = titles[p["id"]]
        for q, t, _ in p["questions"]:
            if len(title) >= 2 and title in t and 1 <= len(zh_holders(title)) <= 3:
                natural.append((q, t, p["id"]))
    for q, t, d in rng.sample(natural, min(60, len(natural))):
        queries.append({"_id": f"nat-{q}", "text": t})
        qrels.append((f"nat-{q}", d))
    works = sorted(
        {w for t in texts for w in re.findall(r"《([^》]{2,12})》", t) if len(zh_holders(w)) == 1}
    )
    names = (
        sorted({titles[p["id"]] for p in vault if len(zh_holders(titles[p["id"]])) == 1}) + works
    )
    for i, name in enumerate(rng.sample(names, min(60, len(names)))):
        qid = f"form-a{i:03d}"
        queries.append({"_id": qid, "text": rng.choice(_ZH_FORMS).format(name)})
        qrels.append((qid, vault[zh_holders(name)[0]]["id"]))
    later = [
        art["title"] for art in zh[200:] if len(art["title"]) >= 2 and not zh_holders(art["title"])
    ]
    for i, name in enumerate(rng.sample(sorted(set(later)), min(60, len(set(later))))):
        queries.append({"_id": f"form-u{i:03d}", "text": rng.choice(_ZH_FORMS).format(name)})
    corpus = [{"_id": p["id"], "text": p["text"]} for p in vault]
    target = out / "names_q_zh"
    _write(target, corpus, queries, qrels, README_NAMES.format(
        name=target.name, corpus=len(corpus), queries=len(queries), answerable=len(qrels),
        source="DRCD dev and test (CC BY-SA 3.0), converted to Simplified Chinese with OpenCC",
    ))  # fmt: skip
    written.append(target)
    return written


README_UNANS = """# {name}

A {lang} vault of {corpus} passages with questions, in the BEIR layout: 100 answerable questions
about its passages (judged in `qrels/test.tsv`), 100 that nothing in it answers (`u-…`, no
judgement){extra}. Development data for the relevance floor: "a question no note answers gets
nothing", at one vault size.

- Passages and answerable questions: {source}.
- Unanswerable questions: {outside}.
- Built by `benchmarks/make_qa_sets.py` (deterministic; see it for the exact rules).
"""
README_CROSS = """# {name}

The passages of `{vault}` with the {n} questions of `{questions}` that nothing answers
(`u-…`), asked in the other language: a cross-language question no note answers must get
nothing too. Built by `benchmarks/make_qa_sets.py`; sources and licences as those two sets.
"""
README_NAMES = """# {name}

{queries} questions that contain a name ({answerable} answerable, the rest about names no note
holds) over {corpus} passages, in the BEIR layout. `nat-…`: the source's own questions that
name someone or something held by at most three passages; `form-a…`: questions in the forms
people ask about a name ("Which notes mention …?", "关于…的笔记") for a name held by one
passage; `form-u…`: the same forms for names no passage holds.

- Source: {source}.
- Built by `benchmarks/make_qa_sets.py` (deterministic).
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--squad", type=Path, help="SQuAD 2.0 train JSON")
    parser.add_argument("--drcd", type=Path, nargs="+", help="DRCD JSON files")
    parser.add_argument("--xquad", type=Path, default=DEFAULT_XQUAD)
    parser.add_argument("--korquad", type=Path, help="KorQuAD 1.0 dev JSON: the Korean sets")
    parser.add_argument("--jsquad", type=Path, help="JSQuAD valid JSON: the Japanese sets")
    parser.add_argument("--out", type=Path, default=HERE / "data")
    args = parser.parse_args()
    more = {code: path for code, path in (("ko", args.korquad), ("ja", args.jsquad)) if path}
    missing = [p for p in (args.squad, *(args.drcd or ()), *more.values()) if p and not p.is_file()]
    if missing:
        parser.error(f"no such file: {', '.join(map(str, missing))}")
    if more:
        if args.out.resolve() == (HERE / "data").resolve():
            parser.error("--korquad/--jsquad: give --out a folder outside the repository")
        written = [p for code, path in more.items() for p in more_cjk_sets(path, code, args.out)]
    elif args.squad is None or args.drcd is None:
        parser.error("give --squad and --drcd (or --korquad, --jsquad)")
    else:
        written = unanswerable_sets(args.squad, args.drcd, args.xquad, args.out)
    for path in written:
        print("wrote", path)


if __name__ == "__main__":
    main()
