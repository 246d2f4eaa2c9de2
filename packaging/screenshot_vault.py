"""A realistic little vault (English and Chinese, ~30 memories) for screenshots and demos."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from pixelmem.core.vault.store import MemoryStore

# (title, topics, importance, hours ago, body)
MEMORIES = [
    (
        "Espresso dial-in notes",
        ["coffee"],
        "high",
        3,
        "## Recipe\n\n18 g in, 36 g out, 27–30 seconds. Start from a medium-fine grind and "
        "change one thing at a time.\n\n## Taste\n\nSour and thin means under-extracted: grind "
        "finer or raise the temperature to 94 °C. Bitter and dry means over-extracted: "
        "grind coarser.\n\n"
        "## Beans\n\nRest light roasts 10–14 days after roasting; the espresso is much sweeter.",
    ),
    (
        "Pour-over V60 ratio",
        ["coffee", "recipes"],
        "medium",
        30,
        "15 g coffee to 250 g water at 93 °C. Bloom with 40 g for 45 seconds, then pour in slow "
        "circles. Total time around 3 minutes; a finer grind slows the drawdown.",
    ),
    (
        "Cold brew for summer",
        ["coffee"],
        "low",
        24 * 9,
        "Coarse grind, 1:8 with cold water, 16 hours in the fridge. Filter twice and dilute 1:1. "
        "Keeps a week.",
    ),
    (
        "Rust: borrowing rules",
        ["rust", "programming"],
        "high",
        26,
        "One mutable reference *or* any number of shared ones. A reference never outlives its "
        "value. When the borrow checker complains, shorten the borrow with a block or clone "
        "something cheap.",
    ),
    (
        "Async Rust with Tokio",
        ["rust", "programming"],
        "medium",
        24 * 4,
        "Never block inside an async task: use `spawn_blocking` for CPU work and file I/O. "
        "`select!` cancels the branches that lose, so keep them cancel-safe.",
    ),
    (
        "Python packaging cheatsheet",
        ["python", "programming"],
        "medium",
        24 * 12,
        "`pyproject.toml` with PEP 621 metadata, `pip install -e .` for development, build wheels "
        "with `python -m build`. Pin tools in an extra, not the runtime dependencies.",
    ),
    (
        "Postgres index tuning",
        ["databases", "work"],
        "high",
        5,
        "Check `EXPLAIN (ANALYZE, BUFFERS)` first. A partial index on `status = 'open'` cut the "
        "dashboard query from 800 ms to 12 ms. Remember to `ANALYZE` after big imports.",
    ),
    (
        "数据库索引设计",
        ["数据库", "工作"],
        "high",
        8,
        "索引的核心是减少随机读。联合索引遵循最左前缀原则，区分度高的列放在前面。\n\n"
        "覆盖索引可以避免回表，但会增加写入成本。上线前用 EXPLAIN 检查执行计划。",
    ),
    (
        "向量检索的召回与延迟",
        ["机器学习", "数据库"],
        "medium",
        24 * 2,
        "精确检索在十万条以内很快，矩阵乘法只要几毫秒。数据再大可以考虑 HNSW，"
        "但要在召回率和延迟之间权衡，并定期用标注集评估。",
    ),
    (
        "Embedding models compared",
        ["machine-learning"],
        "medium",
        24 * 6,
        "all-MiniLM-L6-v2: small and fast, English only. multilingual-e5-small handles Chinese "
        "well. Normalise vectors and use cosine; mixing two models in one index is meaningless.",
    ),
    (
        "Sleep routine that works",
        ["health", "habits"],
        "high",
        24 * 1 + 2,
        "Same wake-up time every day, even on weekends. No coffee after 2 pm. Twenty minutes of "
        "daylight in the morning. Screens off at 10:30, a paper book instead.",
    ),
    (
        "每周跑步计划",
        ["健康"],
        "medium",
        24 * 3,
        "周二和周四轻松跑五公里，周六长距离十二公里。心率保持在二区，"
        "配速慢一点没关系，关键是坚持。",
    ),
    (
        "Sourdough starter care",
        ["cooking", "baking"],
        "low",
        24 * 20,
        "Feed 1:1:1 (starter, flour, water) every 12 hours at room temperature. It is ready when "
        "it doubles in 4–6 hours and smells sweet and yeasty.",
    ),
    (
        "红烧肉做法",
        ["烹饪"],
        "low",
        24 * 15,
        "五花肉切块焯水，冰糖小火炒出糖色，加入肉块翻炒上色。"
        "放生抽、老抽、料酒和八角，加热水没过肉，小火炖一小时，最后大火收汁。",
    ),
    (
        "Tomatoes: watering and mulch",
        ["gardening"],
        "medium",
        24 * 11,
        "Water deeply twice a week rather than a little every day. Straw mulch keeps the soil "
        "moist and stops splash-borne blight. Pinch side shoots on cordon varieties.",
    ),
    (
        "Kyoto trip ideas",
        ["travel"],
        "medium",
        24 * 40,
        "Fushimi Inari at 7 am before the crowds. Philosopher's Path in the afternoon. Book the "
        "moss temple (Saihō-ji) weeks ahead by postcard.",
    ),
    (
        "杭州周末",
        ["旅行"],
        "low",
        24 * 33,
        "西湖边的茶馆很安静，适合早上去。龙井村可以买新茶，清明前的最好。",
    ),
    (
        "Index fund rules",
        ["finance"],
        "high",
        24 * 25,
        "Automate the monthly transfer. Rebalance once a year, not when the news is loud. "
        "Keep six months of expenses in cash before investing more.",
    ),
    (
        "基金定投笔记",
        ["理财"],
        "medium",
        24 * 18,
        "定投需要长期坚持，不要因为短期波动而停止。每年检查一次资产配置，"
        "股债比例偏离超过五个百分点再调整。",
    ),
    (
        "Weekly review checklist",
        ["work", "habits"],
        "high",
        12,
        "Empty the inboxes, review the calendar two weeks ahead, pick three outcomes for next "
        "week, and write down what went well.",
    ),
    (
        "1:1 meeting notes with Mira",
        ["work"],
        "medium",
        24 * 2 + 5,
        "Wants more ownership of the search service. Agreed: she leads the ranking evaluation "
        "next quarter. Follow up on the conference budget.",
    ),
    (
        "Linux: find what holds a port",
        ["linux"],
        "low",
        24 * 7,
        "`ss -ltnp | grep 8080` shows the process. `fuser -k 8080/tcp` kills it. For files, "
        "`lsof +D /path`.",
    ),
    (
        "Backups: 3-2-1",
        ["linux", "habits"],
        "high",
        24 * 50,
        "Three copies, two media, one off-site. Restic to a USB disk nightly and to object "
        "storage weekly. Test a restore every quarter — an untested backup is a wish.",
    ),
    (
        "Street photography settings",
        ["photography"],
        "low",
        24 * 28,
        "Zone focus at 3 m, f/8, shutter 1/500 s, auto ISO. Shoot from the hip near "
        "intersections; the light is best an hour before sunset.",
    ),
    (
        "用长焦拍鸟",
        ["摄影"],
        "low",
        24 * 45,
        "快门速度至少一千分之一秒，连拍模式，对焦在眼睛上。清晨的光线最柔和，鸟也最活跃。",
    ),
    (
        "Guitar practice plan",
        ["music"],
        "medium",
        24 * 5,
        "Ten minutes of chord changes with a metronome at 60 bpm, then one song slowly. Speed "
        "comes from clean changes, not from playing faster.",
    ),
    (
        "Atomic Habits — key ideas",
        ["reading", "habits"],
        "medium",
        24 * 60,
        "Habits follow cue, craving, response, reward. Make it obvious, attractive, easy and "
        'satisfying. Identity first: "I am a runner" beats "I want to run".',
    ),
    (
        "《深度工作》读书笔记",
        ["读书"],
        "medium",
        24 * 22,
        "深度工作需要整块时间和明确的规则。每天安排固定的专注时段，关掉通知，把浅层工作集中处理。",
    ),
    (
        "Gift ideas for Dad",
        ["family"],
        "low",
        24 * 9 + 4,
        "A good espresso tamper, the new biography of Darwin, a day of fishing together.",
    ),
    (
        "Grind size and extraction",
        ["coffee"],
        "medium",
        24 * 3 + 6,
        "Finer grind means more surface and faster extraction. If a shot runs under 20 seconds "
        "the grind is too coarse; channeling also makes espresso taste sour and bitter at once.",
    ),
]


def build_vault(root: Path, now: datetime | None = None) -> MemoryStore:
    now = now or datetime.now(UTC)
    store = MemoryStore(root)
    for title, topics, importance, hours, body in MEMORIES:
        when = now - timedelta(hours=hours)
        store.create(title, body, topics=topics, importance=importance, created=when, updated=when)
    return store
