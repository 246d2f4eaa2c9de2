"""Render docs/screenshot-timeline.png (and -zh, and 800×600): the timeline above the list.

    xvfb-run -a -s "-screen 0 1600x1000x24" .venv/bin/python packaging/make_timeline_screenshot.py
    SCREENSHOT_LANGUAGE=zh_CN SCREENSHOT_SIZE=800x600 xvfb-run -a -s "-screen 0 1600x1000x24" \\
        .venv/bin/python packaging/make_timeline_screenshot.py

The vault: the screenshot vault's memories plus half a year of short notes whose topics shift
over time (a garden in spring, travel in summer), written a few a week; two weeks are chosen,
so the list shows only theirs. A throw-away vault and config folder; the user's data is never
touched.
"""

from __future__ import annotations

import os
import random
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "packaging"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from screenshot_window import application, open_window, save_grab, throwaway_folder  # noqa: E402

LANGUAGE = os.environ.get("SCREENSHOT_LANGUAGE", "en")
CHINESE = LANGUAGE.startswith("zh")
SIZE = os.environ.get("SCREENSHOT_SIZE", "1280x800")
SMALL = "-800x600" if SIZE == "800x600" else ""
NAME = f"screenshot-timeline{SMALL}{'-zh' if CHINESE else ''}"
OUT = Path(os.environ.get("SCREENSHOT_OUT", ROOT / "docs" / f"{NAME}.png"))
WEEKS = 26
# (topic, the weeks it is written about most, a few titles)
SUBJECTS_EN = [
    ("coffee", range(0, 26), ["Pour-over ratio", "Grinder cleaning", "New beans from Kenya"]),
    ("garden", range(4, 14), ["Tomato seedlings", "Compost turned", "Slugs on the lettuce"]),
    ("travel", range(14, 22), ["Night train to Vienna", "Hostel in Porto", "Ferry times"]),
    ("rust", range(8, 26), ["Lifetimes again", "Async cancellation", "Cargo features"]),
    ("health", range(0, 8), ["Knee exercises", "Sleep log", "Morning runs"]),
    ("finance", range(18, 26), ["Tax return", "Insurance renewal", "Budget review"]),
]
SUBJECTS_ZH = [
    ("咖啡", range(0, 26), ["手冲比例", "清洗磨豆机", "肯尼亚新豆"]),
    ("花园", range(4, 14), ["番茄育苗", "翻堆肥", "生菜上的蜗牛"]),
    ("旅行", range(14, 22), ["去杭州的火车", "厦门的民宿", "轮渡时刻"]),
    ("编程", range(8, 26), ["生命周期", "异步取消", "依赖特性"]),
    ("健康", range(0, 8), ["膝盖锻炼", "睡眠记录", "晨跑"]),
    ("理财", range(18, 26), ["报税", "保险续保", "预算复盘"]),
]


def fill_vault(root: Path, now: datetime) -> None:
    from screenshot_vault import build_vault

    store = build_vault(root, now)
    rng = random.Random(0)
    start = now - timedelta(weeks=WEEKS)
    for week in range(WEEKS):
        for topic, busy, titles in SUBJECTS_ZH if CHINESE else SUBJECTS_EN:
            for _ in range(rng.choice((2, 3, 4)) if week in busy else rng.choice((0, 0, 1))):
                when = start + timedelta(weeks=week, days=rng.random() * 7)
                title = rng.choice(titles)
                topics = [] if rng.random() < 0.12 else [topic]
                store.create(title, title, topics=topics, created=when, updated=when)


def main() -> int:
    folder = throwaway_folder("pixelmem-timeline-")
    from bench_ui import wait_until

    from pixelmem.core.settings import Settings

    _app = application(LANGUAGE)  # held to the end of main()
    fill_vault(folder / "Knowledge", datetime.now(UTC))
    settings = Settings()
    settings.embedding.provider = "local-multilingual" if CHINESE else "local"
    width, height = (int(x) for x in SIZE.split("x"))
    window = open_window(folder / "Knowledge", settings, (width, height))
    shown: list[int] = []
    window.timeline.timeline_shown.connect(shown.append)
    window.start()
    wait_until(lambda: bool(shown), 60)
    wait_until(lambda: window.session.index_ready, 600)
    bars = window.timeline.bars
    weeks = len(bars.timeline)
    bars.choose((weeks - 12, weeks - 11))  # two weeks of the summer's travel
    first = window.list_panel.visible_memories()[0]
    window.open_memory(first.id)
    wait_until(lambda: False, 0.5)
    save_grab(window, OUT)
    print(f"wrote {OUT}: {weeks} weeks, {len(window.list_panel.visible_memories())} shown")
    window.session.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
