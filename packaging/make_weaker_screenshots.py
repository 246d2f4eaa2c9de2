"""Render docs/screenshot-weaker-*.png: search with its weaker matches unfolded and the evidence
tooltip, and Related with its weaker neighbours marked (English or Chinese, 800x600 or 1366x768).

    xvfb-run -a -s "-screen 0 1600x1000x24" .venv/bin/python packaging/make_weaker_screenshots.py
    SCREENSHOT_LANGUAGE=zh_CN SCREENSHOT_SIZE=800x600 xvfb-run -a -s "-screen 0 1600x1000x24" \\
        .venv/bin/python packaging/make_weaker_screenshots.py

The multilingual model on the screenshot vault (packaging/screenshot_vault.py), in a
throw-away vault and config folder; the user's data is never touched.
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
SIZE = os.environ.get("SCREENSHOT_SIZE", "1366x768")
QUERY = os.environ.get("SCREENSHOT_QUERY", "咖啡太酸怎么办" if CHINESE else "coffee tastes sour")
DOCS = ROOT / "docs"


def main() -> int:
    folder = throwaway_folder("pixelmem-weaker-")
    from bench_ui import wait_until
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtWidgets import QToolTip
    from screenshot_vault import build_vault

    from pixelmem.core.settings import Settings
    from pixelmem.gui import workers

    _app = application(LANGUAGE)  # held to the end of main()
    vault = folder / "Knowledge"
    build_vault(vault)
    settings = Settings()
    settings.embedding.provider = "local-multilingual"
    width, height = (int(x) for x in SIZE.split("x"))
    window = open_window(vault, settings, (width, height))
    window.start()
    wait_until(lambda: window.session.index_ready and window.engine.index.has_vectors, 900)
    suffix = f"-{SIZE}" + ("-zh" if CHINESE else "")

    panel = window.search_panel
    shown: list[int] = []
    panel.results_shown.connect(lambda _q, n: shown.append(n))
    window.commands.focus_search()
    panel.search_box.setText(QUERY)
    panel.run_search()
    wait_until(lambda: bool(shown), 60)
    if panel.weaker_button.isVisible():
        panel.weaker_button.click()
    wait_until(lambda: False, 0.5)
    rows = panel.model.rowCount()
    if rows:
        index = panel.model.index(rows - 1)
        rect = panel.view.visualRect(index)
        QToolTip.showText(
            panel.view.viewport().mapToGlobal(rect.center() + QPoint(0, rect.height() // 4)),
            index.data(Qt.ItemDataRole.ToolTipRole),
            panel.view,
        )
    wait_until(lambda: False, 0.8)
    screen = window.screen().grabWindow(0)  # the tooltip is a window of its own
    geometry = window.frameGeometry()
    out = DOCS / f"screenshot-weaker-search{suffix}.png"
    screen.copy(geometry).save(str(out))
    QToolTip.hideText()

    title = "意式浓缩萃取" if CHINESE else "Espresso dial-in notes"
    memory = next(
        (m for m in window.session.store.list() if m.title == title), window.session.store.list()[0]
    )
    related = window.related_panel
    refreshed: list[int] = []
    related.refreshed.connect(lambda _m, n: refreshed.append(n))
    window.open_memory(memory.id)
    window.related_dock.show()
    window.related_dock.raise_()
    wait_until(lambda: bool(refreshed), 60)
    wait_until(lambda: False, 0.5)
    save_grab(window, DOCS / f"screenshot-weaker-related{suffix}.png")
    print("wrote", out, "and", DOCS / f"screenshot-weaker-related{suffix}.png")
    window.session.shutdown()
    workers.wait_for_all()
    return 0


if __name__ == "__main__":
    sys.exit(main())
