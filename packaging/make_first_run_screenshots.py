"""Render the first-run window: the vault question and the optional chat step, in English and
Chinese.

    xvfb-run -a -s "-screen 0 1600x1000x24" .venv/bin/python packaging/make_first_run_screenshots.py

The chat step talks to the tests' loopback fake Ollama (``tests/fake_servers.py``) with a few
model names, so no model or network is needed. Writes docs/screenshot-first-run[-zh].png and
docs/screenshot-first-run-chat[-zh].png.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))
DOCS = ROOT / "docs"
MODELS = {"llama3.2", "qwen2.5:7b", "mistral-small", "gemma3:4b"}


def main() -> int:
    if os.environ.get("DISPLAY"):
        os.environ["QT_QPA_PLATFORM"] = "xcb"
    folder = Path(tempfile.mkdtemp(prefix="pixelmem-first-run-shot-"))
    os.environ["PIXELMEM_CONFIG_DIR"] = str(folder / "config")
    from fake_servers import FakeServer
    from PySide6.QtCore import QEventLoop, QTimer

    from pixelmem.gui import i18n
    from pixelmem.gui.app import create_application
    from pixelmem.gui.dialogs.first_run import FirstRunDialog

    app = create_application()

    def settle(condition=lambda: True, seconds: float = 5.0) -> None:
        loop = QEventLoop()
        QTimer.singleShot(int(seconds * 1000), loop.quit)
        poll = QTimer(interval=20)
        poll.timeout.connect(lambda: condition() and loop.quit())
        poll.start()
        loop.exec()
        poll.stop()

    with FakeServer(models=MODELS) as ollama:
        for language, suffix in (("en", ""), ("zh_CN", "-zh")):
            i18n.install_translator(language)
            dialog = FirstRunDialog(Path.home() / "Documents" / "pixelmem", ollama_url=ollama.url)
            dialog.show()
            settle(seconds=0.3)
            dialog.grab().save(str(DOCS / f"screenshot-first-run{suffix}.png"))
            dialog.new_button.click()  # on to the chat step
            step = dialog.chat_step
            settle(lambda s=step: s.model.count() == len(MODELS))
            step.model.setCurrentText("qwen2.5:7b")
            settle(seconds=0.3)
            dialog.grab().save(str(DOCS / f"screenshot-first-run-chat{suffix}.png"))
            dialog.done(0)
            dialog.deleteLater()
            print(f"{language}: {step.status.text()}")
    del app
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
