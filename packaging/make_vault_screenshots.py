"""Render docs/screenshot-vault-<screen>[-zh].png: pixelmem opened on an Obsidian vault at first
start (no saved layout) on a screen of that size, the window as the app sizes it (issue 28):
the Folders pane with a folder chosen, a note with a callout, an image embed (``![[…]]`` from
the attachments folder) and a note embed in the preview.

    xvfb-run -a -s "-screen 0 800x600x24" .venv/bin/python packaging/make_vault_screenshots.py
    SCREENSHOT_LANGUAGE=zh_CN xvfb-run -a -s "-screen 0 1366x768x24" \\
        .venv/bin/python packaging/make_vault_screenshots.py

The file is named after the screen Xvfb gives (``800x600``, ``1366x768``; ``full`` for a
bigger one). A throw-away vault and config folder; the user's data is never touched.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "packaging"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from screenshot_window import application, save_grab, throwaway_folder  # noqa: E402

LANGUAGE = os.environ.get("SCREENSHOT_LANGUAGE", "en")
CHINESE = LANGUAGE.startswith("zh")

NOTES_EN = {
    "Garden/Tomatoes.md": (
        "---\ntags: [garden/tomato]\naliases: [Tomato plan]\n---\n"
        "Sown on the windowsill in March, planted out after the last frost.\n\n"
        "> [!tip] Watering\n> Deeply, twice a week; never on the leaves.\n\n"
        "![[seedlings.png]]\n\n"
        "![[Compost#Recipe]]\n\n"
        "See also [[Pests]]. ^plan\n"
    ),
    "Garden/Compost.md": (
        "---\ntags: [garden]\n---\n## Recipe\n\nTwo parts brown, one part green; turn weekly.\n"
    ),
    "Garden/Pests.md": "---\ntags: [garden/pests]\n---\nSlugs on the lettuce after rain.\n",
    "Garden/Herbs/Basil.md": "---\ntags: [garden/herbs]\n---\nBasil hates the cold.\n",
    "Coffee/Pour-over ratio.md": "---\ntags: [coffee]\n---\n15 g to 250 g, 94 °C.\n",
    "Coffee/Grinder.md": "---\ntags: [coffee/gear]\n---\nClean the burrs monthly.\n",
    "Travel/Night train.md": "---\ntags: [travel]\n---\nVienna at 6:40; breakfast at 7.\n",
    "Home.md": "Start here: [[Tomatoes]], [[Pour-over ratio]].\n",
}
NOTES_ZH = {
    "花园/番茄.md": (
        "---\ntags: [花园/番茄]\naliases: [番茄计划]\n---\n"
        "三月在窗台育苗，最后一次霜冻后移栽到室外。\n\n"
        "> [!tip] 浇水\n> 每周两次浇透，不要浇到叶子上。\n\n"
        "![[seedlings.png]]\n\n"
        "![[堆肥#配方]]\n\n"
        "另见 [[虫害]]。 ^plan\n"
    ),
    "花园/堆肥.md": "---\ntags: [花园]\n---\n## 配方\n\n两份褐色材料，一份绿色材料；每周翻一次。\n",
    "花园/虫害.md": "---\ntags: [花园/虫害]\n---\n下雨后生菜上有蜗牛。\n",
    "花园/香草/罗勒.md": "---\ntags: [花园/香草]\n---\n罗勒怕冷。\n",
    "咖啡/手冲比例.md": "---\ntags: [咖啡]\n---\n15 克粉配 250 克水，94 °C。\n",
    "咖啡/磨豆机.md": "---\ntags: [咖啡/器具]\n---\n每月清洗一次磨盘。\n",
    "旅行/夜车.md": "---\ntags: [旅行]\n---\n六点四十到维也纳，餐车七点开门。\n",
    "首页.md": "从这里开始：[[番茄]]、[[手冲比例]]。\n",
}


def fill_vault(root: Path) -> None:
    from PySide6.QtCore import QRectF, Qt
    from PySide6.QtGui import QColor, QImage, QPainter

    (root / ".obsidian").mkdir(parents=True)
    (root / ".obsidian" / "app.json").write_text('{"attachmentFolderPath": "Attachments"}\n')
    for name, text in (NOTES_ZH if CHINESE else NOTES_EN).items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    image = QImage(360, 120, QImage.Format.Format_RGB32)
    image.fill(QColor("#eef5e9"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    for i in range(6):  # a row of seedlings
        x = 30 + i * 55
        painter.setBrush(QColor("#8d6e63"))
        painter.drawRect(QRectF(x - 14, 80, 28, 30))
        painter.setBrush(QColor("#43a047"))
        painter.drawEllipse(QRectF(x - 12, 40 - i * 3, 24, 36 + i * 3))
    painter.setPen(Qt.GlobalColor.darkGreen)
    painter.end()
    (root / "Attachments").mkdir()
    image.save(str(root / "Attachments" / "seedlings.png"))


def screen_name() -> str:
    from PySide6.QtGui import QGuiApplication

    size = QGuiApplication.primaryScreen().size()
    name = f"{size.width()}x{size.height()}"
    return name if name in ("800x600", "1366x768") else "full"


def main() -> int:
    folder = throwaway_folder("pixelmem-vault-shot-")
    from bench_ui import wait_until

    from pixelmem.core.index.engine import Engine
    from pixelmem.core.settings import Settings
    from pixelmem.gui.panels.registry import Stage
    from pixelmem.gui.window.main_window import MainWindow

    vault = folder / "Vault"
    app = application(LANGUAGE)
    fill_vault(vault)
    settings = Settings()
    settings.language = LANGUAGE
    window = MainWindow(Engine(vault, settings), settings)
    window._closing_ok = True
    window.show()  # sized by the app, as at a first start on this screen
    window.start()
    wait_until(lambda: window.session.loaded and window.panels.is_built(Stage.AFTER_SCAN), 60)
    pane = window.panels.widget("folders")
    shown: list[int] = []
    pane.rows_shown.connect(shown.append)
    window.panels.reveal("folders")
    wait_until(lambda: bool(shown), 30)
    chosen = "花园" if CHINESE else "Garden"
    pane.choose(chosen.casefold())  # the pane keys folders folded
    title = "番茄" if CHINESE else "Tomatoes"
    note = next(m for m in window.session.store.list() if m.title == title)
    window.open_memory(note.id)
    window.editor.form.preview_button.setChecked(True)
    wait_until(lambda: False, 1.5)  # the preview rendered on its worker, laid out, painted
    out = ROOT / "docs" / f"screenshot-vault-{screen_name()}{'-zh' if CHINESE else ''}.png"
    save_grab(window, out)
    print(out, window.geometry().getRect())
    window.session.shutdown(30_000)
    window.close()
    del app
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
