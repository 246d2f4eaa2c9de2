"""Render docs/screenshot-launch-first-paint.png and docs/screenshot-launch-ready.png: the window
of a warm vault at its first paint (the list from the scan cache, the other views not built yet)
and once its views have come.

    xvfb-run -a -s "-screen 0 1600x1000x24" .venv/bin/python packaging/make_launch_screenshots.py

SCREENSHOT_LANGUAGE=zh_CN and SCREENSHOT_SIZE=800x600 as for the other screenshots; the files
get ``-zh`` / ``-800x600`` in their names. A throw-away vault (2,000 generated memories, its
scan cache warmed first) and config folder.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "packaging"))
sys.path.insert(0, str(ROOT / "benchmarks"))

LANGUAGE = os.environ.get("SCREENSHOT_LANGUAGE", "en")
DEFAULT_SIZE = "1480x900"
SIZE = os.environ.get("SCREENSHOT_SIZE", DEFAULT_SIZE)


def suffix() -> str:
    parts = [f"-{SIZE}" if SIZE != DEFAULT_SIZE else "", "-zh" if LANGUAGE.startswith("zh") else ""]
    return "".join(parts)


def main() -> int:
    from screenshot_window import application, open_window, save_grab, throwaway_folder

    folder = throwaway_folder("pixelmem-launch-shot-")
    from _vaultgen import generate_vault

    from pixelmem.core.settings import Settings
    from pixelmem.core.vault.store import MemoryStore

    vault = folder / "Notes"
    generate_vault(vault, 2000, seed=4)
    MemoryStore(vault).scan()  # the scan cache a previous run left
    app = application(LANGUAGE)
    settings = Settings()
    settings.language = LANGUAGE
    width, height = (int(n) for n in SIZE.split("x"))
    window = open_window(vault, settings, (width, height))
    shots: dict[str, object] = {}

    def first_paint() -> None:  # before the views are built: the queued build runs after this
        save_grab(window, ROOT / "docs" / f"screenshot-launch-first-paint{suffix()}.png")
        shots["first"] = True

    window.list_panel.view.rows_painted.connect(first_paint)
    window.start()
    from bench_ui import wait_until

    wait_until(lambda: "first" in shots, 30)
    from pixelmem.gui.panels.registry import Stage

    # Ready: the editor and panels built after the first paint, and the docks after the scan.
    wait_until(lambda: window.session.loaded and window.panels.is_built(Stage.AFTER_SCAN), 30)
    wait_until(lambda: False, 0.5)  # the docks' panels laid out and painted
    save_grab(window, ROOT / "docs" / f"screenshot-launch-ready{suffix()}.png")
    window.session.shutdown(30_000)
    window.close()
    del app
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
