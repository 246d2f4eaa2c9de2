"""Render docs/screenshot-map.png (and -zh): the Map pane on a vault of a few hundred notes.

    xvfb-run -a -s "-screen 0 1600x1000x24" .venv/bin/python packaging/make_map_screenshot.py
    SCREENSHOT_LANGUAGE=zh_CN xvfb-run -a -s "-screen 0 1600x1000x24" \\
        .venv/bin/python packaging/make_map_screenshot.py

The vault: the screenshot vault's memories, the bilingual relevance set's notes and generated
notes (``benchmarks/_dupgen.py``) in English, or in Chinese with the multilingual model. A
throw-away vault and config folder; the user's data is never touched.
"""

from __future__ import annotations

import json
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
SUFFIX = "-zh" if CHINESE else ""
OUT = Path(os.environ.get("SCREENSHOT_OUT", ROOT / "docs" / f"screenshot-map{SUFFIX}.png"))
QUERY = os.environ.get("SCREENSHOT_QUERY", "火车" if CHINESE else "espresso")
BANNER_SOURCE = "Espresso dial-in notes"
GENERATED = int(os.environ.get("SCREENSHOT_GENERATED", "160"))


def fill_vault(root: Path) -> None:
    from _dupgen import generate_notes
    from screenshot_vault import build_vault

    store = build_vault(root)
    corpus = ROOT / "benchmarks" / "data" / "floor_bilingual" / "corpus.jsonl"
    for line in corpus.read_text(encoding="utf-8").splitlines():
        doc = json.loads(line)
        if doc["_id"].startswith("zh") == CHINESE:
            store.create(doc["title"], doc["text"])
    notes, _ = generate_notes(GENERATED, 7, chinese_share=1.0 if CHINESE else 0.0)
    for title, body in notes:
        store.create(title, body)


def _save_near_copy(window, wait_until) -> None:
    """Save a reworded copy of a memory, as a person might, and wait for the banner."""
    from pixelmem.core.vault.memory import Memory

    original = next(m for m in window.session.store.list() if m.title == BANNER_SOURCE)
    body = original.body.replace("change one thing at a time", "only change one variable")
    draft = Memory(id="", title="Espresso recipe", body=body, topics=["coffee"])
    created: list = []
    window.session.create(draft, on_done=created.append)
    wait_until(lambda: window.duplicate_banner.isVisible(), 60)
    window.open_memory(created[0].id)


def main() -> int:
    folder = throwaway_folder("pixelmem-map-")
    from bench_ui import wait_until
    from PySide6.QtCore import Qt

    from pixelmem.core.settings import Settings

    _app = application(LANGUAGE)  # held to the end of main()
    fill_vault(folder / "Knowledge")
    settings = Settings()
    settings.embedding.provider = "local-multilingual" if CHINESE else "local"
    window = open_window(folder / "Knowledge", settings, (1560, 940))
    window.start()
    wait_until(lambda: window.session.index_ready, 600)
    shown: list[int] = []
    window.map_view.map_shown.connect(shown.append)
    # The editor needs ~770 px; the map gets the rest of the window and the whole column.
    for dock in (window.related_dock, window.list_dock, window.inbox_dock):
        if dock is not None:
            dock.hide()
    window.panels.reveal("map")
    wait_until(lambda: False, 0.2)
    window.resizeDocks([window.map_dock], [760], Qt.Orientation.Horizontal)
    wait_until(lambda: bool(shown), 120)
    first = next(m for m in window.list_model.memories())
    window.open_memory(first.id)
    if os.environ.get("SCREENSHOT_BANNER"):
        _save_near_copy(window, wait_until)
    window.map_view.query.setText(QUERY)
    wait_until(lambda: window.map_view.highlighted_count() > 0, 30)
    wait_until(lambda: False, 0.5)
    save_grab(window, OUT)
    print(f"wrote {OUT}: {shown[-1]} points")
    window.session.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
