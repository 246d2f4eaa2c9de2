"""Render the chat screenshots: the pane docked at 320 px, and View → Focus Chat.

    xvfb-run -s "-screen 0 1600x1000x24" .venv/bin/python packaging/make_chat_screenshots.py

A throw-away vault and config folder; the answers come from the tests' loopback fake server
(``tests/fake_servers.py``), so no model or network is needed and the text is the same each run.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for extra in ("packaging", "benchmarks", "tests"):
    sys.path.insert(0, str(ROOT / extra))
sys.path.insert(0, str(ROOT))

from screenshot_window import application, open_window, throwaway_folder  # noqa: E402

DOCS = ROOT / "docs"
REPLY = (
    "For a **double shot** your notes say **18 g in, 36 g out** in 25–30 s [Espresso dial-in "
    "notes]. If it tastes sour, grind finer first.\n\n```text\ndose 18 g → yield 36 g\n```"
)


def main() -> int:
    folder = throwaway_folder("pixelmem-chat-shot-")
    from bench_ui import pick_embedder, wait_until
    from fake_servers import FakeServer
    from PySide6.QtCore import Qt
    from screenshot_vault import build_vault

    from pixelmem.core.settings import Settings

    app = application()
    build_vault(folder / "Knowledge")
    embedder, name = pick_embedder(os.environ.get("SCREENSHOT_EMBEDDER", "local"))
    print(f"embedder: {name}")
    with FakeServer(chat_reply=REPLY) as server:
        settings = Settings()
        settings.chat.provider, settings.chat.base_url = "ollama", server.url
        settings.chat.model = "llama3.2"
        window = open_window(folder / "Knowledge", settings, (1480, 900), embedder)
        window.start()
        wait_until(lambda: window.session.index_ready, 300)
        pane = window.chat_dock
        pane.show()
        pane.raise_()
        window.resizeDocks([pane], [320], Qt.Orientation.Horizontal)
        for question in ("How do I pull a double espresso?", "And if it tastes sour?"):
            done: list[str] = []
            pane.answer_finished.connect(done.append)
            pane.input.setPlainText(question)
            pane.send()
            wait_until(lambda d=done: bool(d), 30)
        wait_until(lambda: False, 0.5)
        pane.grab().save(str(DOCS / "screenshot-chat-narrow.png"))
        window.commands.focus_chat()
        wait_until(lambda: False, 0.5)
        window.grab().save(str(DOCS / "screenshot-chat-focus.png"))
        print(f"chat dock {pane.width()} px; wrote docs/screenshot-chat-narrow.png, -focus.png")
        pane.shutdown()
        window.session.shutdown()
        window.close()
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
