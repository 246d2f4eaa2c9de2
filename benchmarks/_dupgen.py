"""A vault with planted near-duplicates: paraphrases and exact copies among distinct notes.

    from benchmarks._dupgen import generate_notes
    notes, truth = generate_notes(300, seed=0)

Distinct notes share subjects (two meeting notes, two recipes) and sentence shapes, so they
are hard negatives, not random text. A paraphrase of a note swaps words for synonyms,
reorders its sentences and adds or drops one; an exact copy repeats the body under a new
title. ``truth`` is the set of index pairs that are duplicates (both directions counted once).
Deterministic for ``(n, seed)``; English and Chinese notes.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

# Sentences are built from parts (who, does what, to what, when), so two notes on one subject
# share vocabulary but rarely a whole sentence: like two real meeting notes.
GRAMMAR_EN = {
    "meeting": (
        ["The design team", "Alice", "Our manager", "The sales group", "Chen", "The board"],
        ["moved", "agreed to cut", "asked to review", "postponed", "approved", "questioned"],
        ["the quarterly budget", "the hiring plan", "the launch date", "the billing project",
         "the office move", "the support rota", "the pricing page"],
        ["until Friday", "by ten percent", "after the holidays", "for the third time",
         "without a vote", "before the audit", "next sprint"],
    ),
    "recipe": (
        ["Soak", "Fry", "Roast", "Simmer", "Season", "Blend", "Steam"],
        ["the lentils", "two onions", "the mushrooms", "a tray of tomatoes", "the rice",
         "the chickpeas", "sweet potatoes"],
        ["with garlic", "in olive oil", "with smoked paprika", "in a cast iron pan",
         "with lemon zest", "in vegetable stock", "with fresh thyme"],
        ["for twenty minutes", "overnight", "until golden", "on low heat", "before serving",
         "until soft", "for an hour"],
    ),
    "travel": (
        ["The night train to Vienna", "Our flight to Kyoto", "The ferry to Hydra",
         "The bus to Porto", "A rented car in Iceland", "The hostel in Hanoi"],
        ["leaves", "was delayed", "costs less", "fills up", "needs booking", "stops"],
        ["from platform four", "in the high season", "near the old harbour",
         "at the mountain pass", "on public holidays", "beside the cathedral"],
        ["at dawn", "twice a week", "every summer", "after midnight", "in winter",
         "during the festival"],
    ),
    "programming": (
        ["The Rust service", "Our Go worker", "The Python importer", "The Java gateway",
         "The Kotlin app", "The cron job"],
        ["leaks memory", "times out", "crashes", "slows down", "drops requests", "deadlocks"],
        ["when the cache grows", "under heavy load", "after a schema change",
         "on large uploads", "with TLS enabled", "when the disk is full"],
        ["since the last release", "on Mondays", "in staging only", "every few hours",
         "after the upgrade", "behind the proxy"],
    ),
    "health": (
        ["Morning runs", "Yoga sessions", "Cold showers", "Late dinners", "Afternoon naps",
         "Long walks", "Strength training"],
        ["improve", "ruin", "help", "shorten", "disturb", "boost"],
        ["my sleep", "the back pain", "focus at work", "my mood", "knee recovery",
         "energy levels"],
        ["within a week", "on rest days", "in winter", "after travel", "most evenings",
         "when stressed"],
    ),
    "finance": (
        ["The electricity bill", "Our rent", "The car insurance", "The index fund",
         "The phone plan", "The gym membership"],
        ["went up", "is due", "dropped", "renews", "was charged twice", "needs cancelling"],
        ["by forty euros", "at the end of March", "after the audit", "every quarter",
         "without notice", "this month"],
        ["again", "as expected", "despite the complaint", "for the second year",
         "according to the bank", "per the contract"],
    ),
}  # fmt: skip
SYNONYMS = {
    "moved": "shifted", "agreed to cut": "decided to reduce", "asked to review": "wants a check of",
    "postponed": "delayed", "approved": "signed off", "questioned": "doubted", "budget": "spending",
    "hiring plan": "recruiting plan", "launch date": "release date", "office move": "relocation",
    "until Friday": "to Friday", "next sprint": "the following sprint", "Soak": "Steep",
    "Fry": "Pan-fry", "Roast": "Bake", "Simmer": "Cook gently", "Season": "Spice",
    "two onions": "a couple of onions", "until golden": "until browned", "overnight":
    "for the night", "on low heat": "over a gentle flame", "until soft": "until tender",
    "for an hour": "for sixty minutes", "leaves": "departs", "was delayed": "ran late",
    "costs less": "is cheaper", "fills up": "gets full", "needs booking": "must be reserved",
    "at dawn": "at sunrise", "twice a week": "two times weekly", "every summer": "each summer",
    "leaks memory": "loses memory", "times out": "hits its timeout", "crashes": "falls over",
    "slows down": "gets slow", "drops requests": "loses requests", "under heavy load":
    "when busy", "since the last release": "since the previous release", "improve": "better",
    "ruin": "wreck", "help": "aid", "disturb": "upset", "boost": "raise", "my sleep": "my rest",
    "the back pain": "my back ache", "most evenings": "on most nights", "went up": "rose",
    "is due": "must be paid", "dropped": "fell", "renews": "is renewed", "was charged twice":
    "got billed twice", "needs cancelling": "should be cancelled", "again": "once more",
    "this month": "in the current month", "as expected": "as predicted",
}  # fmt: skip
EXTRA_EN = ["Remember this.", "Noted on the way home.", "See the earlier note too."]

GRAMMAR_ZH = {
    "会议": (
        ["设计组", "小王", "我们经理", "销售部", "李娜", "董事会"],
        ["推迟了", "同意削减", "要求复查", "批准了", "质疑了", "调整了"],
        ["季度预算", "招聘计划", "上线日期", "计费项目", "搬家安排", "值班表"],
        ["到周五", "百分之十", "节后再议", "第三次", "没有投票", "审计之前"],
    ),
    "烹饪": (
        ["黄豆", "红烧肉", "蘑菇", "番茄", "排骨", "土豆", "鲫鱼"],
        ["先焯水", "用小火炖", "加冰糖炒", "放姜片蒸", "用高压锅煮", "切块腌"],
        ["配上葱花", "加一点生抽", "放少许盐", "倒入料酒", "撒上胡椒", "加八角桂皮"],
        ["二十分钟", "一个晚上", "直到软烂", "出锅前", "两个小时", "收汁为止"],
    ),
    "旅行": (
        ["去杭州的火车", "飞成都的航班", "去厦门的轮渡", "西安的大巴", "青岛的民宿", "大理的客栈"],
        ["晚点了", "很便宜", "需要提前预订", "经常满员", "停运了", "改了时间"],
        ["在旺季", "节假日", "靠近古城", "山路上", "在雨季", "周末"],
        ["清晨出发", "每周两班", "每年夏天", "半夜到达", "冬天", "音乐节期间"],
    ),
}  # fmt: skip
SYNONYMS_ZH = {
    "推迟了": "延后了", "同意削减": "决定减少", "要求复查": "希望复核", "批准了": "通过了",
    "质疑了": "怀疑了", "调整了": "改了", "季度预算": "本季预算", "到周五": "到星期五",
    "节后再议": "过完节再说", "先焯水": "先汆水", "用小火炖": "慢火炖", "放少许盐": "加点盐",
    "直到软烂": "炖到软烂", "两个小时": "两小时", "晚点了": "延误了", "很便宜": "不贵",
    "需要提前预订": "得提前订", "经常满员": "常常客满", "停运了": "不开了", "在旺季": "旺季时",
    "清晨出发": "一早出发", "每年夏天": "每个夏天", "半夜到达": "深夜到",
}  # fmt: skip


@dataclass
class Truth:
    """Index pairs ``(i, j)``, ``i < j``, that are duplicates of each other."""

    pairs: set[tuple[int, int]] = field(default_factory=set)

    def add(self, i: int, j: int) -> None:
        self.pairs.add((min(i, j), max(i, j)))


def generate_notes(
    n: int, seed: int = 0, *, duplicate_share: float = 0.2, chinese_share: float = 0.2
) -> tuple[list[tuple[str, str]], Truth]:
    """``n`` (title, body) notes; about ``duplicate_share`` of them are planted duplicates."""
    rng = random.Random(seed)
    notes: list[tuple[str, str]] = []
    sentences: list[list[str]] = []
    chinese: list[bool] = []
    truth = Truth()
    originals: list[int] = []
    while len(notes) < n:
        if originals and rng.random() < duplicate_share:
            src = rng.choice(originals)  # each duplicate is one edit away from its original
            if rng.random() < 0.3:
                title, body = notes[src]
                notes.append((f"{title} (copy)", body))
            else:
                zh = chinese[src]
                parts = _paraphrase(sentences[src], rng, zh)
                title = _paraphrase([notes[src][0]], rng, zh)[0]  # reworded, like the body
                notes.append((title, ("" if zh else " ").join(parts)))
                sentences.append(parts)
                chinese.append(zh)
                truth.add(src, len(notes) - 1)
                continue
            sentences.append(sentences[src])
            chinese.append(chinese[src])
            truth.add(src, len(notes) - 1)
            continue
        zh = rng.random() < chinese_share
        parts = _original(rng, zh)
        originals.append(len(notes))
        notes.append((_title(parts, zh), ("" if zh else " ").join(parts)))
        sentences.append(parts)
        chinese.append(zh)
    # Copies of copies and paraphrases of one source are duplicates of each other too.
    return notes, _closed(truth, len(notes))


NAMES = [
    "Alice",
    "Bruno",
    "Chen",
    "Dana",
    "Emeka",
    "Farah",
    "Goran",
    "Hana",
    "Ivan",
    "Jonas",
    "Keiko",
    "Lars",
    "Mona",
    "Nadia",
    "Omar",
    "Priya",
    "Quentin",
    "Rosa",
    "Sven",
    "Tariq",
    "Uma",
    "Viktor",
    "Wen",
    "Xavier",
    "Yara",
    "Zoltan",
]
DETAILS_EN = [
    "ticket {n}",
    "ask {name}",
    "{n} euros",
    "room {n}",
    "order {n}",
    "{name} knows more",
    "see {name}'s mail",
    "invoice {n}",
    "{n} km",
    "ref {n}",
]
DETAILS_ZH = ["{n}号", "找{name}", "{n}元", "{n}房间", "订单{n}", "问{name}"]


def _original(rng: random.Random, zh: bool) -> list[str]:
    """Sentences on one subject; real notes carry specifics (names, numbers), so do these."""
    grammar = GRAMMAR_ZH if zh else GRAMMAR_EN
    parts = grammar[rng.choice(sorted(grammar))]
    details = DETAILS_ZH if zh else DETAILS_EN
    sentences = []
    for _ in range(rng.randint(3, 5)):
        words = [rng.choice(options) for options in parts]
        detail = rng.choice(details).format(n=rng.randint(10, 9999), name=rng.choice(NAMES))
        if zh:
            sentences.append("".join(words) + f"（{detail}）。")
        else:
            sentences.append(" ".join(words) + f" ({detail}).")
    return sentences


def _paraphrase(parts: list[str], rng: random.Random, zh: bool) -> list[str]:
    table = SYNONYMS_ZH if zh else SYNONYMS
    out = []
    for sentence in parts:
        for word, other in table.items():
            if rng.random() < 0.7:
                sentence = _swap(sentence, word, other, zh)
        out.append(sentence)
    if len(out) == 1:
        return out
    rng.shuffle(out)
    roll = rng.random()
    if roll < 0.3 and len(out) > 4:
        out.pop(rng.randrange(len(out)))
    elif roll < 0.6 and not zh:
        out.append(rng.choice(EXTRA_EN))
    return out


def _swap(sentence: str, word: str, other: str, zh: bool) -> str:
    if zh:
        return sentence.replace(word, other)
    return re.sub(rf"\b{re.escape(word)}\b", other, sentence)


def _title(parts: list[str], zh: bool) -> str:
    first = parts[0].rstrip(".。")
    return first[:16] if zh else " ".join(first.split()[:6])


def _closed(truth: Truth, n: int) -> Truth:
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in truth.pairs:
        parent[root(i)] = root(j)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    closed = Truth()
    for members in groups.values():
        for a in range(len(members)):
            for b in range(a + 1, len(members)):
                closed.add(members[a], members[b])
    return closed
