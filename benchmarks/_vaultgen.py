"""Generate realistic vaults for benchmarks: English and Chinese memories, topics, sub-folders,
a few foreign (Obsidian-style) files and some long multi-paragraph notes.

    from benchmarks._vaultgen import generate_vault
    generate_vault(Path("/tmp/vault10k"), 10_000, seed=0)

Deterministic for a given ``(n, seed)``. Files are written directly (no MemoryStore) so the
generator is fast and does not depend on the code being measured.
"""

from __future__ import annotations

import random
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

TOPICS_EN = [
    "rust", "python", "databases", "gardening", "cooking", "travel", "finance", "health",
    "machine-learning", "music", "reading", "work", "family", "linux", "photography",
]  # fmt: skip
TOPICS_ZH = ["数据库", "机器学习", "旅行", "烹饪", "读书", "健康", "理财", "工作", "摄影", "音乐"]

WORDS_EN = [
    "index", "query", "latency", "memory", "cache", "vector", "embedding", "garden", "tomato",
    "recipe", "budget", "invoice", "meeting", "deadline", "train", "ticket", "museum", "chapter",
    "author", "guitar", "chord", "kernel", "process", "thread", "backup", "archive", "schedule",
    "review", "summary", "insight", "pattern", "habit", "sleep", "exercise", "coffee", "compiler",
    "borrow", "lifetime", "trait", "async", "runtime", "socket", "protocol", "sensor", "camera",
    "lens", "light",
]  # fmt: skip
SENTENCES_ZH = [
    "今天整理了数据库索引的设计思路，重点是减少随机读。",
    "向量检索的召回率和延迟之间需要权衡。",
    "周末去了杭州，西湖边的茶馆很安静。",
    "红烧肉要先焯水，再用冰糖炒出糖色。",
    "这本书讲的是习惯的形成，核心是提示、渴望、反应和奖励。",
    "每天睡够七个小时，白天的专注力明显更好。",
    "基金定投需要长期坚持，不要因为短期波动而停止。",
    "会议纪要：下周三之前完成接口评审。",
    "用长焦镜头拍鸟，快门速度至少要一千分之一秒。",
    "学习吉他时，先练好和弦转换再追求速度。",
]
FOLDERS = ["", "", "", "work", "personal", "reading/notes", "archive/2024"]


def _sentence_en(rng: random.Random) -> str:
    words = rng.choices(WORDS_EN, k=rng.randint(6, 16))
    return " ".join(words).capitalize() + "."


def _paragraph(rng: random.Random, chinese: bool) -> str:
    if chinese:
        return "".join(rng.choices(SENTENCES_ZH, k=rng.randint(2, 6)))
    return " ".join(_sentence_en(rng) for _ in range(rng.randint(2, 6)))


def _body(rng: random.Random, chinese: bool) -> str:
    long_note = rng.random() < 0.1
    paragraphs = rng.randint(12, 40) if long_note else rng.randint(1, 5)
    parts = []
    for index in range(paragraphs):
        if long_note and index % 6 == 0:
            number = index // 6 + 1
            parts.append(f"## 第{number}节" if chinese else f"## Part {number}")
        parts.append(_paragraph(rng, chinese))
    if rng.random() < 0.3:
        parts.append(f"See also [[{rng.choice(WORDS_EN)} notes]].")
    return "\n\n".join(parts) + "\n"


def _title(rng: random.Random, chinese: bool) -> str:
    if chinese:
        return rng.choice(SENTENCES_ZH)[: rng.randint(6, 14)].rstrip("，。")
    return " ".join(rng.choices(WORDS_EN, k=rng.randint(2, 6))).capitalize()


def _pixelmem_file(
    rng: random.Random, index: int, chinese: bool, when: datetime
) -> tuple[str, str]:
    memory_id = uuid.UUID(int=rng.getrandbits(128), version=4).hex
    topics = rng.sample(TOPICS_ZH if chinese else TOPICS_EN, k=rng.randint(0, 3))
    title = _title(rng, chinese)
    stamp = when.strftime("%Y-%m-%dT%H:%M:%SZ")
    lines = ["---", f"id: {memory_id}", f"title: '{title}'"]
    lines += [f"created: {stamp}", f"updated: {stamp}"]
    lines.append("topics:" + ("".join(f"\n- {t}" for t in topics) if topics else " []"))
    lines.append(f"importance: {rng.choice(['low', 'medium', 'medium', 'high'])}")
    if rng.random() < 0.1:
        lines.append(f"source: https://example.com/article/{index}")
    lines.append("---")
    slug = (topics[0] if topics else f"note{index}").replace(" ", "-")
    name = f"memory_{when:%Y-%m-%d}_{slug}_{memory_id[:8]}.md"
    return name, "\n".join(lines) + "\n" + _body(rng, chinese)


def _foreign_file(rng: random.Random, index: int, chinese: bool) -> tuple[str, str]:
    title = _title(rng, chinese)
    body = f"# {title}\n\n{_body(rng, chinese)}"
    if rng.random() < 0.5:
        return f"note {index}.md", body
    tags = ", ".join(rng.sample(TOPICS_EN, k=2))
    head = f"---\naliases: [{rng.choice(WORDS_EN)}]\ntags: [{tags}]\ncssclass: wide\n---\n"
    return f"note {index}.md", head + body


def generate_vault(root: Path, n: int, seed: int = 0) -> None:
    """Write ``n`` memory files under ``root`` (about 30 % Chinese, 10 % foreign files)."""
    rng = random.Random(seed)
    root = Path(root)
    start = datetime(2024, 1, 1, tzinfo=UTC)
    for index in range(n):
        chinese = rng.random() < 0.3
        when = start + timedelta(minutes=rng.randint(0, 60 * 24 * 700))
        if rng.random() < 0.1:
            name, text = _foreign_file(rng, index, chinese)
        else:
            name, text = _pixelmem_file(rng, index, chinese, when)
        folder = root / rng.choice(FOLDERS)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
