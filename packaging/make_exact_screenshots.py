"""Render docs/screenshot-exact-*.png: the search panel in its *Exact phrase* mode, the mode list
open (English or Chinese, 800x600 or 1366x768).

    xvfb-run -a -s "-screen 0 1600x1000x24" .venv/bin/python packaging/make_exact_screenshots.py
    SCREENSHOT_LANGUAGE=zh_CN SCREENSHOT_SIZE=800x600 xvfb-run -a -s "-screen 0 1600x1000x24" \\
        .venv/bin/python packaging/make_exact_screenshots.py

The screenshot vault (packaging/screenshot_vault.py) (the default model indexes it),
in a throw-away vault and config folder; the user's data is never touched.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "packaging"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from screenshot_window import (  # noqa: E402
    application,
    open_window,
    scene_from_environment,
    throwaway_folder,
)

SCENE = scene_from_environment()
QUERY = os.environ.get("SCREENSHOT_QUERY", "小火炖" if SCENE.chinese else "a finer grind")
DOCS = ROOT / "docs"


def main() -> int:
    folder = throwaway_folder("pixelmem-exact-")
    from bench_ui import wait_until
    from screenshot_vault import build_vault

    from pixelmem.core.settings import Settings
    from pixelmem.gui import workers

    _app = application(SCENE.language)  # held to the end of main()
    vault = folder / "Knowledge"
    build_vault(vault)
    settings = Settings()
    settings.search.mode = "keyword"  # the exact mode asks no model: none is loaded
    window = open_window(vault, settings, SCENE.size)
    window.start()
    wait_until(lambda: window.session.index_ready, 300)

    panel = window.search_panel
    shown: list[int] = []
    panel.results_shown.connect(lambda _q, n: shown.append(n))
    window.commands.focus_search()
    panel.set_mode("exact")
    panel.search_box.setText(QUERY)
    panel.run_search()
    wait_until(lambda: bool(shown), 60)
    panel.mode_combo.showPopup()
    wait_until(lambda: False, 0.8)
    screen = window.screen().grabWindow(0)  # the open list is a window of its own
    out = DOCS / f"screenshot-exact{SCENE.suffix}.png"
    screen.copy(window.frameGeometry()).save(str(out))
    panel.mode_combo.hidePopup()
    print("wrote", out, "with", shown[-1], "results")
    window.session.shutdown()
    workers.wait_for_all()
    return 0


if __name__ == "__main__":
    sys.exit(main())
