"""Render docs/screenshot-backlinks.png and docs/screenshot-quick-switcher.png (and -zh):
pixelmem on an Obsidian-style vault (tags, aliases, [[wiki links]]).

    xvfb-run -a -s "-screen 0 1600x1000x24" .venv/bin/python packaging/make_obsidian_screenshots.py
    SCREENSHOT_LANGUAGE=zh_CN xvfb-run -a -s "-screen 0 1600x1000x24" \\
        .venv/bin/python packaging/make_obsidian_screenshots.py

A throw-away vault and config folder; the user's data is never touched.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from screenshot_window import application, open_window, save_grab, throwaway_folder  # noqa: E402

LANGUAGE = os.environ.get("SCREENSHOT_LANGUAGE", "en")
CHINESE = LANGUAGE.startswith("zh")
SUFFIX = "-zh" if CHINESE else ""
DOCS = ROOT / "docs"

NOTES_EN = {
    "Reading list.md": (
        "---\naliases: [Book list, Books to read]\ntags: [reading, books]\ndate: 2026-09-02\n---\n"
        "# Reading list\n\nNext up, after the [[Coffee brewing#Ratios|ratio notes]]:\n\n"
        "- *The Design of Everyday Things*\n- *Thinking, Fast and Slow*\n- *The Overstory*\n\n"
        "![[cover.png]]\n"
    ),
    "Coffee brewing.md": (
        "---\naliases: Espresso notes\ntags: coffee, kitchen\n---\n"
        "Everything about brewing at home. Two books on my reading list are about coffee.\n\n"
        "## Ratios\n\n18 g in, 36 g out, 25–30 s.\n"
    ),
    "Daily/2026-11-20.md": (
        '---\ntags: "#journal #daily"\n---\n'
        "Finished a chapter from the [[Reading list]], then pulled two shots "
        "([[Espresso notes|espresso]]).\n"
    ),
    "Daily/2026-11-21.md": (
        "---\ntags: [journal]\n---\nLibrary visit: borrowed two titles from the [[book list]].\n"
    ),
    "Book club.md": (
        "---\ntags: [reading, friends]\n---\n# Book club\n\nWe pick from everyone's "
        "[[Reading list#Next up|lists]]. Next meeting: *The Overstory*.\n"
    ),
    "Gift ideas.md": (
        "---\ntags: [family]\n---\n# Gift ideas\n\nA hand grinder for Sam; something from my "
        "reading list for Alex.\n"
    ),
    "Garden plan.md": (
        "# Garden plan\n\nTomatoes by the south wall; coffee grounds in the compost.\n"
    ),
    "Hugo post.md": (
        '+++\ntitle = "Notes on notes"\ndate = 2026-10-01T08:00:00Z\ntags = ["writing"]\n+++\n'
        "How I keep notes: a [[Reading list]], daily pages, and links between them.\n"
    ),
}
NOTES_ZH = {
    "读书清单.md": (
        "---\naliases: [书单, 想读的书]\ntags: [读书]\ndate: 2026-09-02\n---\n"
        "# 读书清单\n\n读完 [[咖啡冲煮#比例|比例笔记]] 之后：\n\n"
        "- 《设计心理学》\n- 《思考，快与慢》\n- 《树语》\n\n![[cover.png]]\n"
    ),
    "咖啡冲煮.md": (
        "---\naliases: 意式浓缩笔记\ntags: 咖啡, 厨房\n---\n"
        "在家冲咖啡的一切。读书清单里有两本讲咖啡的书。\n\n"
        "## 比例\n\n18 克粉，36 克液，25–30 秒。\n"
    ),
    "日记/2026-11-20.md": (
        '---\ntags: "#日记"\n---\n'
        "读完了 [[读书清单]] 里的一章，又做了两杯 [[意式浓缩笔记|浓缩]]。\n"
    ),
    "日记/2026-11-21.md": "---\ntags: [日记]\n---\n去图书馆，从 [[书单]] 里借了两本。\n",
    "读书会.md": (
        "---\ntags: [读书, 朋友]\n---\n# 读书会\n\n从每个人的 [[读书清单#下一本|清单]] 里挑书。"
        "下次读《树语》。\n"
    ),
    "礼物清单.md": (
        "---\ntags: [家人]\n---\n# 礼物清单\n\n给小山一个手摇磨豆机；从读书清单里挑一本给阿莉。\n"
    ),
    "花园计划.md": "# 花园计划\n\n番茄种在南墙边，咖啡渣放进堆肥。\n",
}


def write_vault(root: Path) -> None:
    for name, text in (NOTES_ZH if CHINESE else NOTES_EN).items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (root / ".obsidian").mkdir()
    (root / ".obsidian" / "app.json").write_text("{}\n", encoding="utf-8")


def main() -> int:
    folder = throwaway_folder("pixelmem-obsidian-")
    from bench_ui import wait_until
    from PySide6.QtCore import Qt

    from pixelmem.core.settings import Settings
    from pixelmem.gui import workers

    _app = application(LANGUAGE)  # held to the end of main()
    vault = folder / ("笔记" if CHINESE else "Notes")
    write_vault(vault)
    settings = Settings()
    settings.embedding.provider = "local"
    window = open_window(vault, settings, (1400, 860))
    window.start()
    wait_until(lambda: window.session.index_ready and window.link_index.graph is not None, 600)
    hub = "读书清单" if CHINESE else "Reading list"
    memory = next(m for m in window.session.store.list() if m.title == hub)
    window.open_memory(memory.id)
    window.backlinks_dock.show()
    window.backlinks_dock.raise_()
    window.resizeDocks(
        [window.search_dock, window.backlinks_dock], [300, 520], Qt.Orientation.Vertical
    )
    panel = window.backlinks_panel
    wait_until(lambda: panel.linked_item.childCount() > 0, 30)
    wait_until(lambda: False, 0.5)
    save_grab(window, DOCS / f"screenshot-backlinks{SUFFIX}.png")

    shown: list[int] = []
    window.quick_switcher.results_shown.connect(shown.append)
    window.commands.show_quick_switcher()
    window.quick_switcher.query_edit.insert("书" if CHINESE else "boo")  # as typed
    wait_until(lambda: bool(shown) and window.quick_switcher.query_edit.text() != "", 10)
    wait_until(lambda: False, 0.5)
    save_grab(window, DOCS / f"screenshot-quick-switcher{SUFFIX}.png")
    print("wrote", DOCS / f"screenshot-backlinks{SUFFIX}.png", "and the quick switcher")
    window.session.shutdown()
    workers.wait_for_all()
    return 0


if __name__ == "__main__":
    sys.exit(main())
