"""Render docs/screenshot-main.png: the real window on a realistic vault, a search in progress.

    xvfb-run -s "-screen 0 1600x1000x24" .venv/bin/python packaging/make_screenshot.py

Uses the default embedding model (SCREENSHOT_EMBEDDER=local|fake for others) and a throw-away
vault and config folder, so the user's own data is never touched; SCREENSHOT_VAULT=DIR shows a
copy of a real vault instead (SCREENSHOT_OPEN names the note to open, SCREENSHOT_QUERY the
search).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "packaging"))
sys.path.insert(0, str(ROOT / "benchmarks"))

QUERY = os.environ.get("SCREENSHOT_QUERY", "espresso tastes sour")
LANGUAGE = os.environ.get("SCREENSHOT_LANGUAGE", "en")  # zh_CN for docs/screenshot-zh.png
OUT = Path(os.environ.get("SCREENSHOT_OUT", ROOT / "docs" / "screenshot-main.png"))
SIZE = os.environ.get("SCREENSHOT_SIZE", "1480x900")  # 800x600: the smallest supported window


def dark_palette():  # -> QPalette (Qt is imported after the platform is chosen)
    from PySide6.QtGui import QColor, QPalette

    palette = QPalette()
    roles = {
        QPalette.ColorRole.Window: "#2b2d31",
        QPalette.ColorRole.WindowText: "#e6e6e6",
        QPalette.ColorRole.Base: "#1e1f22",
        QPalette.ColorRole.AlternateBase: "#26282c",
        QPalette.ColorRole.Text: "#e6e6e6",
        QPalette.ColorRole.Button: "#34363b",
        QPalette.ColorRole.ButtonText: "#e6e6e6",
        QPalette.ColorRole.Highlight: "#3d6fd8",
        QPalette.ColorRole.HighlightedText: "#ffffff",
        QPalette.ColorRole.PlaceholderText: "#8a8d93",
        QPalette.ColorRole.Link: "#7aa7ff",
        QPalette.ColorRole.ToolTipBase: "#34363b",
        QPalette.ColorRole.ToolTipText: "#e6e6e6",
    }
    for role, color in roles.items():
        palette.setColor(role, QColor(color))
    palette.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text, QColor("#7c7f86"))
    palette.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.WindowText, QColor("#7c7f86"))
    palette.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.ButtonText, QColor("#7c7f86"))
    return palette


def main() -> int:
    if os.environ.get("DISPLAY"):
        os.environ["QT_QPA_PLATFORM"] = "xcb"  # the real window system, not offscreen
    folder = Path(tempfile.mkdtemp(prefix="pixelmem-shot-"))
    os.environ["PIXELMEM_CONFIG_DIR"] = str(folder / "config")
    from bench_ui import pick_embedder, wait_until
    from screenshot_vault import build_vault

    from pixelmem.core.index.engine import Engine
    from pixelmem.core.settings import Settings
    from pixelmem.gui.app import create_application
    from pixelmem.gui.window.main_window import MainWindow

    app = create_application()
    font = os.environ.get("SCREENSHOT_FONT", "Noto Sans CJK SC")  # Xvfb's default is DejaVu
    if font:
        from PySide6.QtGui import QFont

        app.setFont(QFont(font, 10))
    if os.environ.get("SCREENSHOT_DARK"):
        app.setStyle("Fusion")
        app.setPalette(dark_palette())  # what a dark desktop theme hands the app
    from pixelmem.gui import i18n

    i18n.install_translator(LANGUAGE)
    own = os.environ.get("SCREENSHOT_VAULT")  # a real vault, copied: the copy is shown
    if own:
        shutil.copytree(own, folder / "Knowledge")
    else:
        build_vault(folder / "Knowledge")
    kind = os.environ.get("SCREENSHOT_EMBEDDER", "auto")  # auto: what a new vault gets
    embedder, name = (None, "the vault's default (auto)") if kind == "auto" else pick_embedder(kind)
    print(f"embedder: {name}")
    settings = Settings()
    window = MainWindow(Engine(folder / "Knowledge", settings, embedder=embedder), settings)
    window._closing_ok = True
    width, height = (int(n) for n in SIZE.split("x"))
    window.resize(width, height)
    window.show()
    window.start()
    wait_until(lambda: window.session.index_ready, 300)
    title = os.environ.get("SCREENSHOT_OPEN", "Espresso dial-in notes")
    first = next(m for m in window.list_model.memories() if m.title == title)
    window.open_memory(first.id)
    panel = window.search_panel
    shown: list[int] = []
    panel.results_shown.connect(lambda _query, count: shown.append(count))
    panel.search_box.setText(QUERY)
    panel.run_search()
    if os.environ.get("SCREENSHOT_EXPECT_NOTHING"):  # a query with nothing relevant
        wait_until(lambda: bool(shown), 30)
        return _save(window, app)
    wait_until(lambda: panel.model.rowCount() > 0, 30)
    hits = [panel.model.hit_at(r) for r in range(panel.model.rowCount())]
    hit = next((h for h in hits if h.title == title), hits[0])
    panel.view.setCurrentIndex(panel.model.index(hits.index(hit)))
    window.search_panel.hit_activated.emit(hit)  # the passage is selected, the query's words marked
    wait_until(lambda: window.related_panel.model.rowCount() > 0, 30)
    window.commands.focus_search()
    panel.search_box.deselect()
    panel.search_box.setCursorPosition(len(QUERY))
    return _save(window, app)


def _save(window, app) -> int:
    from bench_ui import wait_until

    wait_until(lambda: False, 0.5)  # let the last paint settle
    OUT.parent.mkdir(parents=True, exist_ok=True)
    window.grab().save(str(OUT))
    print(f"wrote {OUT}")
    window.session.shutdown()
    window.close()
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
