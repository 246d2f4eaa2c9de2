"""What every screenshot script does before it arranges its scene.

A throw-away folder (its ``config/`` is the run's config dir, so the user's settings are never
read or written), the application with the screenshot font and translations, and the main
window over a vault, sized and shown. Import it after ``sys.path`` has the repo root.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Scene:
    """What the environment asks of a screenshot: ``SCREENSHOT_LANGUAGE`` (en) and
    ``SCREENSHOT_SIZE`` (1366x768)."""

    language: str
    size: tuple[int, int]

    @property
    def chinese(self) -> bool:
        return self.language.startswith("zh")

    @property
    def suffix(self) -> str:
        """``-800x600`` and, in Chinese, ``-zh``: the end of the file's name."""
        return f"-{self.size[0]}x{self.size[1]}" + ("-zh" if self.chinese else "")


def scene_from_environment() -> Scene:
    width, height = os.environ.get("SCREENSHOT_SIZE", "1366x768").split("x")
    return Scene(os.environ.get("SCREENSHOT_LANGUAGE", "en"), (int(width), int(height)))


def throwaway_folder(prefix: str) -> Path:
    """A new temporary folder for the vault and config; X11 when a display is given (Xvfb)."""
    if os.environ.get("DISPLAY"):
        os.environ["QT_QPA_PLATFORM"] = "xcb"
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    os.environ["PIXELMEM_CONFIG_DIR"] = str(folder / "config")
    return folder


def application(language: str | None = None) -> Any:
    """The QApplication; with ``language``, in the screenshot font (CJK-capable, or
    ``SCREENSHOT_FONT``) and that language's translations."""
    from PySide6.QtGui import QFont

    from pixelmem.gui import i18n
    from pixelmem.gui.app import create_application

    app = create_application()
    if language is not None:
        app.setFont(QFont(os.environ.get("SCREENSHOT_FONT", "Noto Sans CJK SC"), 10))
        i18n.install_translator(language)
    return app


def open_window(vault: Path, settings: Any, size: tuple[int, int], embedder: Any = None) -> Any:
    """The main window over ``vault``, resized and shown (not started: connect first)."""
    from pixelmem.core.index.engine import Engine
    from pixelmem.gui.window.main_window import MainWindow

    window = MainWindow(Engine(vault, settings, embedder=embedder), settings)
    window._closing_ok = True  # no "quit while indexing?" question at the end
    window.resize(*size)
    window.show()
    return window


def save_grab(widget: Any, out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    widget.grab().save(str(out))
