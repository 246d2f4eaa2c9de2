"""Render docs/screenshot-tags.png (and -zh, -800x600, -1366x768): the Tags pane below the
memory list, a nested tag chosen, the list showing only its memories.

    xvfb-run -a -s "-screen 0 1600x1000x24" .venv/bin/python packaging/make_tags_screenshot.py
    SCREENSHOT_LANGUAGE=zh_CN SCREENSHOT_SIZE=800x600 xvfb-run -a -s "-screen 0 1600x1000x24" \\
        .venv/bin/python packaging/make_tags_screenshot.py

The vault: notes tagged the way an Obsidian vault is (nested tags such as ``garden/tomato``,
written ``#Garden`` in one note and ``garden`` in another). A throw-away vault and config
folder; the user's data is never touched.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "packaging"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from screenshot_window import application, open_window, save_grab, throwaway_folder  # noqa: E402

LANGUAGE = os.environ.get("SCREENSHOT_LANGUAGE", "en")
CHINESE = LANGUAGE.startswith("zh")
DEFAULT_SIZE = "1280x800"
SIZE = os.environ.get("SCREENSHOT_SIZE", DEFAULT_SIZE)
NAME = "screenshot-tags" + (f"-{SIZE}" if SIZE != DEFAULT_SIZE else "") + ("-zh" if CHINESE else "")
OUT = Path(os.environ.get("SCREENSHOT_OUT", ROOT / "docs" / f"{NAME}.png"))
# (title, tags) — nested tags, a tag in two spellings, one note in several
NOTES_EN = [
    ("Tomato seedlings", ["garden/tomato", "spring"]),
    ("Cherry tomatoes in pots", ["garden/tomato"]),
    ("Basil and mint", ["Garden/herbs"]),
    ("Compost turned", ["garden"]),
    ("Slugs on the lettuce", ["garden/pests", "spring"]),
    ("Pour-over ratio", ["coffee/brewing"]),
    ("Grinder cleaning", ["coffee/gear"]),
    ("New beans from Kenya", ["coffee/beans", "travel/kenya"]),
    ("Night train to Vienna", ["travel/austria"]),
    ("Ferry times", ["travel"]),
    ("Lifetimes again", ["programming/rust"]),
    ("Async cancellation", ["programming/rust", "programming/async"]),
    ("Type hints for Qt", ["programming/python"]),
    ("Tax return", ["finance"]),
]
NOTES_ZH = [
    ("番茄育苗", ["花园/番茄", "春天"]),
    ("盆栽小番茄", ["花园/番茄"]),
    ("罗勒和薄荷", ["花园/香草"]),
    ("翻堆肥", ["花园"]),
    ("生菜上的蜗牛", ["花园/虫害", "春天"]),
    ("手冲比例", ["咖啡/冲煮"]),
    ("清洗磨豆机", ["咖啡/器具"]),
    ("肯尼亚新豆", ["咖啡/豆子", "旅行/肯尼亚"]),
    ("去杭州的火车", ["旅行/浙江"]),
    ("轮渡时刻", ["旅行"]),
    ("生命周期", ["编程/rust"]),
    ("异步取消", ["编程/rust", "编程/异步"]),
    ("Qt 的类型标注", ["编程/python"]),
    ("报税", ["理财"]),
]


def fill_vault(root: Path) -> None:
    from pixelmem.core.vault.store import MemoryStore

    store = MemoryStore(root)
    for title, tags in NOTES_ZH if CHINESE else NOTES_EN:
        store.create(title, f"{title}.", topics=tags)


def main() -> int:
    folder = throwaway_folder("pixelmem-tags-shot-")
    from bench_ui import wait_until
    from PySide6.QtCore import QModelIndex

    from pixelmem.core.settings import Settings
    from pixelmem.gui.panels.registry import Stage
    from pixelmem.gui.panels.tag_pane import PATH_ROLE

    vault = folder / "Notes"
    fill_vault(vault)
    app = application(LANGUAGE)
    settings = Settings()
    settings.language = LANGUAGE
    width, height = (int(n) for n in SIZE.split("x"))
    window = open_window(vault, settings, (width, height))
    window.start()
    wait_until(lambda: window.session.loaded and window.panels.is_built(Stage.AFTER_SCAN), 30)
    pane = window.panels.widget("tags")
    shown: list[int] = []
    pane.tags_shown.connect(shown.append)
    window.panels.reveal("tags")
    wait_until(lambda: bool(shown), 30)
    garden = "花园" if CHINESE else "garden"
    model = pane.model
    for row in range(model.rowCount()):
        index = model.index(row, 0, QModelIndex())
        if index.data(PATH_ROLE) == garden:
            pane.tree.expand(index)
            pane.tree.setCurrentIndex(index)
    pane.choose(garden)
    wait_until(lambda: False, 0.5)  # laid out and painted
    save_grab(window, OUT)
    window.session.shutdown(30_000)
    window.close()
    del app
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
