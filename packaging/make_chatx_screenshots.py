"""Render the screenshots of thinking models, proposals and questions about time.

    SCREENSHOT_LANGUAGE=zh_CN SCREENSHOT_SIZE=1366x768 xvfb-run -a -s "-screen 0 1600x1000x24" \\
        .venv/bin/python packaging/make_chatx_screenshots.py

Three scenes in one window: the chat focused, with a thinking model's answer (its reasoning
opened above the answer) and the Propose memories button; the review inbox with a proposed
update and its diff; the search panel with a time read from the query. The answers come from
the tests' loopback fake server, so no model is needed. Files: docs/screenshot-chatx-*-SIZE[-zh].png
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
LANGUAGE = os.environ.get("SCREENSHOT_LANGUAGE", "en")
SIZE = os.environ.get("SCREENSHOT_SIZE", "1366x768")
REPLY = "Your notes say **18 g in, 36 g out** in 25–30 s [Espresso dial-in notes]."
THINKING = (
    "The user asks about a double shot. The note 'Espresso dial-in notes' gives the dose and "
    "the yield; answer with those numbers and cite it."
)


def main() -> int:
    folder = throwaway_folder("pixelmem-chatx-shot-")
    from bench_ui import pick_embedder, wait_until
    from fake_servers import FakeServer
    from screenshot_vault import build_vault

    from pixelmem.core.archive.inbox import Inbox
    from pixelmem.core.archive.proposals import UPDATE, proposal_extra
    from pixelmem.core.settings import Settings

    app = application(LANGUAGE)
    build_vault(folder / "Knowledge")
    embedder, _name = pick_embedder(os.environ.get("SCREENSHOT_EMBEDDER", "local"))
    width, height = (int(n) for n in SIZE.split("x"))
    suffix = f"-{SIZE}" + ("-zh" if LANGUAGE.startswith("zh") else "")
    with FakeServer(chat_reply=REPLY, thinking=THINKING) as server:
        settings = Settings()
        settings.language = LANGUAGE
        settings.chat.provider, settings.chat.base_url = "ollama", server.url
        settings.chat.model, settings.chat.think = "qwen3", "on"
        window = open_window(folder / "Knowledge", settings, (width, height), embedder)
        window.start()
        wait_until(lambda: window.session.index_ready, 300)

        pane = window.chat_dock
        pane.show()
        done: list[str] = []
        pane.answer_finished.connect(done.append)
        pane.input.setPlainText("How do I pull a double espresso?")
        pane.send()
        wait_until(lambda: bool(done), 30)
        pane.message_widgets()[-1].reasoning.toggle.click()
        window.commands.focus_chat()
        wait_until(lambda: False, 0.5)
        window.grab().save(str(DOCS / f"screenshot-chatx-thinking{suffix}.png"))
        window.commands.focus_chat()  # back to the normal layout

        store = window.engine.store
        target = next(m for m in store.list() if "espresso" in m.title.lower())
        new_body = target.body.rstrip() + "\n\n- A 1:2.5 ratio suits light roasts.\n"
        extra = dict(proposal_extra(UPDATE, target), kind="fact")
        Inbox(window.engine.vault).add(target.title, new_body, source="chat", extra=extra)
        inbox = window.inbox
        window.inbox_dock.show()
        window.inbox_dock.raise_()
        inbox.refresh()
        wait_until(lambda: bool(inbox.drafts), 10)
        wait_until(lambda: False, 0.5)
        window.grab().save(str(DOCS / f"screenshot-chatx-inbox{suffix}.png"))

        panel = window.search_panel
        window.commands.focus_search()
        query = "上个月的笔记 espresso" if LANGUAGE.startswith("zh") else "espresso this year"
        panel.search_box.setText(query)
        shown: list[object] = []
        panel.results_shown.connect(lambda *a: shown.append(a))
        panel.run_search()
        wait_until(lambda: bool(shown), 10)
        wait_until(lambda: False, 0.5)
        window.grab().save(str(DOCS / f"screenshot-chatx-search{suffix}.png"))
        print(f"wrote docs/screenshot-chatx-{{thinking,inbox,search}}{suffix}.png")
        pane.shutdown()
        window.session.shutdown()
        window.close()
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
