"""Questions about time: does a time expression put the memory from then first, and do queries
without one rank exactly as before?

    .venv/bin/python benchmarks/eval_time_queries.py            # both parts
    .venv/bin/python benchmarks/eval_time_queries.py dated      # the dated dev vault only
    .venv/bin/python benchmarks/eval_time_queries.py devsets    # nDCG on the dev sets only

Part 1, a dated dev vault built here (EN and ZH): 16 topics, each with six memories about the
same thing at six times (last week, yesterday, last month, March 2024, May 2023, Q2 2025), plus
unrelated notes spread over the same years. A query names a topic and one time, bare or in a
question ("team sync notes last week", "what did I write about bike maintenance in March
2024?", "周报 2023年5月", "上个月的健身记录写了什么"); it is right when that topic's memory from
then ranks first.
The same query through the plain search (time words as ordinary words) is the reference. Dates
are relative to a fixed "now" (Wednesday 2026-11-25).

Part 2, the dev sets (xquad_en, xquad_zh in /work/shared/eval, and benchmarks/data's
names_bilingual and floor_bilingual): nDCG@10 of the plain search and of the time-aware one,
with every memory dated at random over 2015–2026 (so a year in a question, "in 2016", does find
memories from then), and how many queries the parser read a time in.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from pixelmem.core.index.engine import Engine  # noqa: E402
from pixelmem.core.index.evaluate import load_beir, ndcg_at  # noqa: E402
from pixelmem.core.index.time_query import parse_time_query  # noqa: E402
from pixelmem.core.index.time_search import time_search  # noqa: E402
from pixelmem.core.settings import Settings  # noqa: E402

NOW = datetime(2026, 11, 25, 10, 0, tzinfo=UTC)
# (date, English expression, Chinese expression) — each names one of a topic's six dates.
TIMES = [
    (NOW - timedelta(days=8), "last week", "上周"),
    (NOW - timedelta(days=1), "yesterday", "昨天"),
    (datetime(2026, 10, 14, 9, tzinfo=UTC), "last month", "上个月"),
    (datetime(2024, 3, 15, 9, tzinfo=UTC), "in March 2024", "2024年3月"),
    (datetime(2023, 5, 20, 9, tzinfo=UTC), "May 2023", "2023年5月"),
    (datetime(2025, 5, 12, 9, tzinfo=UTC), "Q2 2025", "2025年5月"),
]
EN_TOPICS = {
    "team sync notes": ["we agreed to ship the beta", "the release slipped by a week",
                        "hiring a designer was approved", "the API freeze moved to Friday",
                        "on-call rotation changed", "budget review postponed"],
    "espresso dial-in": ["18 g in, 36 g out", "grind one step finer", "new beans from Kenya",
                         "descaled the machine", "switched to a bottomless portafilter",
                         "pre-infusion of 5 seconds"],
    "bike maintenance": ["replaced the chain", "trued the rear wheel", "new brake pads",
                         "cleaned the cassette", "fixed a flat tyre", "adjusted the derailleur"],
    "reading list": ["finished Dune", "started SPQR", "gave up on Ulysses", "reread Meditations",
                     "bought The Power Broker", "borrowed Middlemarch"],
    "garden log": ["planted tomatoes", "pruned the roses", "harvested zucchini",
                   "mulched the beds", "sowed radishes", "repotted the fig"],
    "database decision": ["chose Postgres", "added read replicas", "moved to managed backups",
                          "upgraded to version 16", "dropped the legacy MySQL", "tuned autovacuum"],
    "running diary": ["ran 10 km in 52 minutes", "long run of 21 km", "interval session 6x800",
                      "easy recovery jog", "hill repeats", "tempo run at 4:45"],
    "doctor visit": ["blood test was fine", "got the flu shot", "knee checkup",
                     "new glasses prescription", "dentist cleaning", "allergy test"],
    "home network": ["new Wi-Fi router", "set up a VLAN for IoT", "replaced the switch",
                     "moved the NAS", "renewed the domain", "installed Pi-hole"],
    "travel plans": ["booked Lisbon", "visited Kyoto", "weekend in Berlin", "trip to Oslo",
                     "flight to Seoul", "train to Vienna"],
}  # fmt: skip
ZH_TOPICS = {
    "周报": [
        "完成了登录模块",
        "修复了支付问题",
        "上线了新版首页",
        "重构了订单服务",
        "优化了搜索速度",
        "整理了测试用例",
    ],
    "读书笔记": [
        "读完了三体",
        "开始读红楼梦",
        "重读了论语",
        "读了人类简史",
        "读了活着",
        "读了围城",
    ],
    "家庭开支": ["买了新冰箱", "交了物业费", "孩子的学费", "修了热水器", "换了沙发", "买了保险"],
    "健身记录": ["跑了五公里", "练了腿", "游泳一千米", "做了瑜伽", "骑车二十公里", "爬了山"],
    "项目决策": [
        "决定用 React",
        "决定上云",
        "决定外包设计",
        "决定延期发布",
        "决定换数据库",
        "决定加测试",
    ],
    "旅行计划": ["去了杭州", "订了去成都的票", "去了厦门", "计划去西安", "去了青岛", "去了桂林"],
}
FILLER_WORDS = ["recipe for lentil soup", "notes on Rust lifetimes", "piano practice",
                "tax documents", "birthday ideas", "猫的疫苗", "装修预算", "学习日语"]  # fmt: skip


def write(vault: Path, memory_id: str, title: str, body: str, when: datetime) -> None:
    stamp = when.strftime("%Y-%m-%dT%H:%M:%SZ")
    text = (
        f"---\nid: {memory_id}\ntitle: {title}\ncreated: {stamp}\nupdated: {stamp}\n---\n\n{body}\n"
    )
    (vault / f"{memory_id}.md").write_text(text, encoding="utf-8")


def build_dated_vault(vault: Path) -> list[tuple[str, str]]:
    """The vault, and its queries with the memory each should find first."""
    queries = []
    rng = random.Random(7)
    for lang, topics in (("en", EN_TOPICS), ("zh", ZH_TOPICS)):
        for t, (topic, details) in enumerate(topics.items()):
            for i, ((when, en, zh), detail) in enumerate(zip(TIMES, details, strict=True)):
                memory_id = f"{lang}{t:02d}t{i}"
                body = f"{topic}: {detail}." if lang == "en" else f"{topic}：{detail}。"
                write(vault, memory_id, f"{topic} {when.date()}", body, when)
                if lang == "en":
                    queries.append((f"{topic} {en}", memory_id))
                    queries.append((f"what did I write about {topic} {en}?", memory_id))
                else:
                    queries.append((f"{topic} {zh}", memory_id))
                    queries.append((f"{zh}的{topic}写了什么", memory_id))
    for n in range(80):
        when = NOW - timedelta(days=rng.randrange(0, 4 * 365))
        words = FILLER_WORDS[n % len(FILLER_WORDS)]
        write(vault, f"filler{n:03d}", f"{words} {n}", f"{words}, entry {n}.", when)
    return queries


def dated_part(settings: Settings) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        vault = Path(tmp) / "vault"
        vault.mkdir()
        queries = build_dated_vault(vault)
        engine = Engine(vault, settings)
        engine.open()
        timed_first = plain_first = 0
        unchanged = 0
        start = time.perf_counter()
        for query, wanted in queries:
            found = time_search(engine, query, k=10, now=NOW)
            timed_first += bool(found.hits) and found.hits[0].memory_id == wanted
            plain = engine.search(query, k=10)
            plain_first += bool(plain) and plain[0].memory_id == wanted
        elapsed = time.perf_counter() - start
        topics = list(EN_TOPICS) + list(ZH_TOPICS)
        for topic in topics:  # without a time: exactly as before
            timed = [h.memory_id for h in time_search(engine, topic, k=10, now=NOW).hits]
            unchanged += timed == [h.memory_id for h in engine.search(topic, k=10)]
    n = len(queries)
    en, zh = len(EN_TOPICS) * 12, len(ZH_TOPICS) * 12
    print(f"dated dev vault: {n} time queries ({en} EN, {zh} ZH), two phrasings each")
    timed_share, plain_share = timed_first / n, plain_first / n
    print(
        f"  memory from then ranked first: time-aware {timed_first}/{n} ({timed_share:.1%}), "
        f"plain search {plain_first}/{n} ({plain_share:.1%})"
    )
    print(f"  queries without a time ranked as before: {unchanged}/{len(topics)}")
    print(f"  {elapsed / n * 1000 / 2:.0f} ms per query (mean of time-aware and plain)")


DEV_SETS = [
    Path("/work/shared/eval/xquad_en"),
    Path("/work/shared/eval/xquad_zh"),
    ROOT / "benchmarks" / "data" / "names_bilingual",
    ROOT / "benchmarks" / "data" / "floor_bilingual",
]


def devsets_part(settings: Settings) -> None:
    rng = random.Random(11)
    for folder in DEV_SETS:
        if not folder.is_dir():
            print(f"{folder.name}: not found, skipped")
            continue
        corpus, queries, qrels = load_beir(folder)
        with tempfile.TemporaryDirectory() as tmp:
            vault = Path(tmp) / "vault"
            vault.mkdir()
            doc_of = {}
            for n, (doc_id, row) in enumerate(corpus.items()):
                when = datetime(2015, 1, 1, tzinfo=UTC) + timedelta(days=rng.randrange(0, 4300))
                title = " ".join(str(row.get("title") or doc_id).split()) or doc_id
                write(vault, f"doc{n:05d}", title.replace(":", " "), str(row.get("text", "")), when)
                doc_of[f"doc{n:05d}"] = doc_id
            engine = Engine(vault, settings)
            engine.open()
            judged = [q for q in queries if qrels.get(q)]
            plain = timed = 0.0
            with_time = changed = 0
            for query_id in judged:
                text = queries[query_id]
                base = [doc_of[h.memory_id] for h in engine.search(text, k=100, min_relevance=0)]
                found = time_search(engine, text, k=100, min_relevance=0, now=NOW)
                ranked = [doc_of[h.memory_id] for h in found.hits]
                with_time += parse_time_query(text, NOW).range is not None
                changed += ranked[:10] != base[:10]
                plain += ndcg_at(base, qrels[query_id])
                timed += ndcg_at(ranked, qrels[query_id])
        n = max(1, len(judged))
        print(f"{folder.name}: {n} queries, {with_time} with a time read, {changed} top-10 changed;"
              f" nDCG@10 plain {plain / n:.4f}, time-aware {timed / n:.4f} "
              f"(ratio {timed / plain if plain else 1:.4f})")  # fmt: skip


def main() -> int:
    parts = sys.argv[1:] or ["dated", "devsets"]
    settings = Settings()
    if "dated" in parts:
        dated_part(settings)
    if "devsets" in parts:
        devsets_part(settings)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
