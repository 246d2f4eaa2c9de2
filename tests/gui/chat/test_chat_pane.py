"""The chat pane against a real streaming server on 127.0.0.1 (offscreen, no sleeps).

The vault is small and the engine uses the deterministic hash embedder, so no model loads.
The gated server holds an answer back after its first token until the test releases it.
"""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path

import pytest
from chat_fakes import GatedServer
from fake_servers import free_port
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent, QPixmap, QTextDocument
from PySide6.QtWidgets import QMainWindow, QWidget

from pixelmem.core.index.engine import Engine
from pixelmem.core.settings import Settings
from pixelmem.gui import workers
from pixelmem.gui.bus import ChangeSet, MemoryBus
from pixelmem.gui.chat.dialogs import PromptDialog, SaveMemoryDialog, title_from_text
from pixelmem.gui.chat.pane import ChatPane
from pixelmem.gui.chat.widgets import MEMORY_ID_MIME, MemoriesPanel, MessageWidget, link_citations

pytestmark = pytest.mark.gui  # conftest.py also ignores the offscreen platform's size warning

CHAT_PATHS = {"ollama": "/api/chat", "openai": "/v1/chat/completions"}
REPLY = "Use **18 g** of coffee for 36 g out, as in [Espresso ratio]."
FIRST_TOKEN = "Use "
TIMEOUT = 5000


@pytest.fixture
def server():
    with GatedServer(chat_reply=REPLY) as fake:
        yield fake


@pytest.fixture
def settings() -> Settings:
    """The app's defaults: the chat must work with the engine's real similarity threshold."""
    return Settings()


@pytest.fixture
def indexed(engine: Engine) -> Engine:
    """``tests/gui/conftest.py``'s engine (small vault, hash embedder), indexed."""
    engine.open()
    return engine


def ids_by_title(engine: Engine) -> dict[str, str]:
    return {m.title: m.id for m in engine.store.list()}


def chat_settings(server: GatedServer | None, provider: str = "ollama") -> Settings:
    settings = Settings()
    settings.chat.provider = provider
    if server is not None:
        settings.chat.base_url = server.url
    settings.chat.model = "fake-llm" if provider else ""
    return settings


@pytest.fixture
def make_pane(qtbot, indexed: Engine):
    panes: list[ChatPane] = []
    windows: list[QMainWindow] = []

    def make(settings: Settings, bus: MemoryBus | None = None) -> ChatPane:
        window = QMainWindow()  # docked, as in the app
        qtbot.addWidget(window)
        pane = ChatPane(indexed, bus or MemoryBus(), settings, window)
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, pane)
        window.setCentralWidget(QWidget())
        window.resize(800, 700)
        window.show()
        windows.append(window)
        panes.append(pane)
        qtbot.waitUntil(lambda: pane.conversations_read, timeout=TIMEOUT)
        return pane

    yield make
    for pane in panes:
        assert pane.shutdown(TIMEOUT)
    assert workers.wait_for_all(TIMEOUT)


@pytest.fixture
def pane(make_pane, server: GatedServer) -> ChatPane:
    return make_pane(chat_settings(server))


def ask(qtbot, pane: ChatPane, text: str) -> MessageWidget:
    """Type ``text`` and press Enter; the assistant's message widget."""
    pane.input.setFocus()
    qtbot.keyClicks(pane.input, text)
    qtbot.keyClick(pane.input, Qt.Key.Key_Return)
    return pane.message_widgets()[-1]


def ask_and_finish(qtbot, pane: ChatPane, server: GatedServer, text: str) -> MessageWidget:
    server.release()
    with qtbot.waitSignal(pane.answer_finished, timeout=TIMEOUT) as finished:
        message = ask(qtbot, pane, text)
    assert finished.args == ["done"]
    return message


def panel_of(message: MessageWidget) -> MemoriesPanel:
    panel = message.findChild(MemoriesPanel)
    assert panel is not None
    return panel


def system_prompts(server: GatedServer) -> list[str]:
    return [body["messages"][0]["content"] for body in server.bodies("/api/chat")]


# -- streaming ---------------------------------------------------------------------------------


def test_an_answer_streams_in_token_by_token(qtbot, pane: ChatPane, server: GatedServer) -> None:
    message = ask(qtbot, pane, "espresso ratio?")
    assert pane.input.toPlainText() == ""
    qtbot.waitUntil(lambda: message.text == FIRST_TOKEN, timeout=TIMEOUT)
    assert server.held.is_set()  # the rest of the answer has not been sent yet
    assert not pane.body.send_button.isEnabled() and pane.body.stop_button.isEnabled()
    with qtbot.waitSignal(pane.answer_finished, timeout=TIMEOUT) as finished:
        server.release()
    assert finished.args == ["done"]
    assert message.text == REPLY
    assert "18 g" in message.view.toPlainText() and "**" not in message.view.toPlainText()
    assert pane.body.send_button.isEnabled() and not pane.body.stop_button.isEnabled()
    user, answer = pane.message_widgets()
    assert (user.role, user.text) == ("user", "espresso ratio?")
    assert answer is message


def test_shift_enter_makes_a_new_line_and_enter_sends(
    qtbot, pane: ChatPane, server: GatedServer
) -> None:
    server.release()
    qtbot.keyClicks(pane.input, "line one")
    qtbot.keyClick(pane.input, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(pane.input, "line two")
    assert pane.input.toPlainText() == "line one\nline two"
    assert pane.message_widgets() == []
    with qtbot.waitSignal(pane.answer_finished, timeout=TIMEOUT):
        qtbot.keyClick(pane.input, Qt.Key.Key_Enter)
    assert server.bodies("/api/chat")[0]["messages"][-1]["content"] == "line one\nline two"


def test_the_memories_panel_lists_what_was_injected_and_the_server_got_it(
    qtbot, pane: ChatPane, server: GatedServer, engine: Engine
) -> None:
    espresso = ids_by_title(engine)["Espresso ratio"]
    message = ask_and_finish(qtbot, pane, server, "espresso ratio coffee")
    panel = panel_of(message)
    used = {u.id: u for u in panel.prompt.used}
    assert espresso in used and used[espresso].reason == "automatic"
    assert used[espresso].score is not None
    (system,) = system_prompts(server)
    assert f'<memory id="{espresso}" title="Espresso ratio"' in system
    assert "Use 18 g of coffee for 36 g of espresso in 28 seconds." in system
    assert panel.prompt.messages == server.bodies("/api/chat")[0]["messages"]
    with qtbot.waitSignal(pane.open_memory_requested, timeout=TIMEOUT) as opened:
        panel._rows[espresso][0].linkActivated.emit("open")
    assert opened.args == [espresso]


def test_a_citation_in_the_answer_opens_the_memory(
    qtbot, pane: ChatPane, server: GatedServer, engine: Engine
) -> None:
    espresso = ids_by_title(engine)["Espresso ratio"]
    message = ask_and_finish(qtbot, pane, server, "espresso ratio coffee")
    assert "pixelmem-memory:" in message.view.toMarkdown()
    with qtbot.waitSignal(pane.open_memory_requested, timeout=TIMEOUT) as opened:
        message.view.anchorClicked.emit(
            next(iter(_anchors(message))),
        )
    assert opened.args == [espresso]


def _anchors(message: MessageWidget):
    block = message.view.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fmt = it.fragment().charFormat()
            if fmt.isAnchor():
                yield QUrl(fmt.anchorHref())
            it += 1
        block = block.next()


def test_show_prompt_shows_exactly_what_was_sent(
    qtbot, pane: ChatPane, server: GatedServer
) -> None:
    message = ask_and_finish(qtbot, pane, server, "espresso ratio")
    panel_of(message).prompt_button.click()
    dialog = pane.last_dialog
    assert isinstance(dialog, PromptDialog)
    sent = server.bodies("/api/chat")[0]["messages"]
    expected = "\n\n".join(f"── {m['role']} ──\n{m['content']}" for m in sent)
    assert dialog.text_edit.toPlainText() == expected
    dialog.reject()


# -- pins and exclusions -----------------------------------------------------------------------


def test_exclude_and_pin_change_the_next_prompt(
    qtbot, pane: ChatPane, server: GatedServer, engine: Engine
) -> None:
    ids = ids_by_title(engine)
    espresso, sourdough = ids["Espresso ratio"], ids["Sourdough starter"]
    first = ask_and_finish(qtbot, pane, server, "espresso ratio coffee")
    _pin, exclude = panel_of(first).buttons(espresso)
    exclude.click()
    assert pane.excluded == [espresso]
    assert exclude.text() == "Include"
    assert pane.body.excluded_bar.ids() == [espresso]
    pane.pin(sourdough)
    assert pane.body.pinned_bar.ids() == [sourdough]
    assert pane.body.pinned_bar.chip_text(sourdough).endswith("Sourdough starter</a>")

    second = ask_and_finish(qtbot, pane, server, "espresso ratio coffee again")
    system = system_prompts(server)[1]
    assert "Use 18 g of coffee" not in system
    assert f'<memory id="{sourdough}"' in system
    assert panel_of(second).prompt.used[0].id == sourdough
    assert panel_of(second).prompt.used[0].reason == "pinned"
    assert espresso in panel_of(second).prompt.excluded
    history = server.bodies("/api/chat")[1]["messages"][1:-1]
    assert history == [
        {"role": "user", "content": "espresso ratio coffee"},
        {"role": "assistant", "content": REPLY},
    ]

    pane.body.excluded_bar.close_button(espresso).click()  # include it again
    pane.body.pinned_bar.close_button(sourdough).click()  # unpin
    assert pane.excluded == [] and pane.pinned == []
    ask_and_finish(qtbot, pane, server, "espresso ratio coffee once more")
    third = system_prompts(server)[2]
    assert "Use 18 g of coffee" in third and f'id="{sourdough}"' not in third


def test_pin_from_an_answer_row(qtbot, pane: ChatPane, server: GatedServer, engine) -> None:
    espresso = ids_by_title(engine)["Espresso ratio"]
    message = ask_and_finish(qtbot, pane, server, "espresso ratio coffee")
    pin, _exclude = panel_of(message).buttons(espresso)
    pin.click()
    assert pane.pinned == [espresso] and pin.text() == "Unpin"
    ask_and_finish(qtbot, pane, server, "something unrelated entirely")
    assert "Use 18 g of coffee" in system_prompts(server)[1]


def drop_on(widget, mime: QMimeData) -> None:
    event = QDropEvent(
        QPointF(10, 10),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    widget.dropEvent(event)


def test_dropped_memory_ids_are_pinned(qtbot, pane: ChatPane, engine: Engine) -> None:
    ids = ids_by_title(engine)
    mime = QMimeData()
    mime.setData(MEMORY_ID_MIME, f"{ids['Tomato garden']}\n{ids['Sourdough starter']}".encode())
    drop_on(pane.widget(), mime)
    assert pane.pinned == [ids["Tomato garden"], ids["Sourdough starter"]]

    text = QMimeData()
    text.setText(ids["Espresso ratio"])  # a plain-text id of a known memory pins too
    drop_on(pane.widget(), text)
    assert pane.pinned[-1] == ids["Espresso ratio"]

    words = QMimeData()
    words.setText("just some words")
    drop_on(pane.widget(), words)
    assert len(pane.pinned) == 3


def test_the_input_box_pins_dropped_memories_but_keeps_plain_text(
    qtbot, pane: ChatPane, engine: Engine
) -> None:
    tomato = ids_by_title(engine)["Tomato garden"]
    mime = QMimeData()
    mime.setData(MEMORY_ID_MIME, tomato.encode())
    mime.setText(tomato)
    pane.input.insertFromMimeData(mime)
    assert pane.pinned == [tomato] and pane.input.toPlainText() == ""
    text = QMimeData()
    text.setText(tomato)
    pane.input.insertFromMimeData(text)
    assert pane.input.toPlainText() == tomato


def test_the_pinned_list_follows_renames_and_deletions(
    qtbot, make_pane, server: GatedServer, engine: Engine
) -> None:
    bus = MemoryBus()
    pane = make_pane(chat_settings(server), bus)
    ids = ids_by_title(engine)
    pane.pin(ids["Sourdough starter"])
    pane.pin(ids["Tomato garden"])
    memory = engine.store.get(ids["Sourdough starter"])
    memory.title = "Sourdough levain"
    engine.writes.update(memory)
    bus.memory_updated.emit(ChangeSet(updated=(ids["Sourdough starter"],)), None)
    assert "Sourdough levain" in pane.body.pinned_bar.chip_text(ids["Sourdough starter"])
    engine.writes.delete(ids["Tomato garden"])
    bus.memory_updated.emit(ChangeSet(deleted=(ids["Tomato garden"],)), None)
    assert pane.pinned == [ids["Sourdough starter"]]
    assert pane.body.pinned_bar.ids() == [ids["Sourdough starter"]]


def test_pinning_an_unknown_id_reports_it(qtbot, make_pane, server: GatedServer) -> None:
    bus = MemoryBus()
    pane = make_pane(chat_settings(server), bus)
    with qtbot.waitSignal(bus.error_reported, timeout=TIMEOUT) as reported:
        pane.pin("no-such-id")
    assert "no-such-id" in reported.args[0]
    assert pane.pinned == []


# -- stop and errors ---------------------------------------------------------------------------


def test_stop_cancels_the_stream_and_the_chat_goes_on(
    qtbot, pane: ChatPane, server: GatedServer
) -> None:
    message = ask(qtbot, pane, "espresso ratio?")
    qtbot.waitUntil(lambda: message.text == FIRST_TOKEN, timeout=TIMEOUT)
    assert server.held.is_set()
    with qtbot.waitSignal(pane.answer_finished, timeout=TIMEOUT) as finished:
        pane.body.stop_button.click()
    assert finished.args == ["stopped"]
    assert pane._pool.waitForDone(TIMEOUT)  # the worker ended though the server still holds
    assert server.held.is_set()
    assert message.text == FIRST_TOKEN
    assert message.status_label.text() == "stopped"
    assert pane.body.send_button.isEnabled()

    server.rearm(free=100)
    ask_and_finish(qtbot, pane, server, "and now?")
    assert pane.message_widgets()[-1].text == REPLY
    assert message.text == FIRST_TOKEN  # the stopped answer stays as it was


def test_a_server_error_shows_inline_and_the_app_keeps_working(
    qtbot, pane: ChatPane, server: GatedServer
) -> None:
    server.release()
    server.fail(malformed=True, path="/api/chat")
    with qtbot.waitSignal(pane.answer_finished, timeout=TIMEOUT) as finished:
        message = ask(qtbot, pane, "espresso ratio?")
    assert finished.args == ["failed"]
    assert message.error_box.isVisible()
    assert "sent a malformed piece of the answer" in message.error_label.text()
    assert message.text == FIRST_TOKEN  # what arrived before the fault stays
    assert message.findChild(MemoriesPanel) is not None
    ask_and_finish(qtbot, pane, server, "try again")
    assert pane.message_widgets()[-1].text == REPLY


@pytest.mark.parametrize("provider", ["ollama", "openai"])
def test_an_answer_without_a_finish_reason_is_marked_cut_off(
    qtbot, make_pane, server: GatedServer, provider: str
) -> None:
    settings = chat_settings(server, provider)
    if provider == "openai":
        settings.chat.base_url = server.openai_url
    pane = make_pane(settings)
    server.release()
    path = "/api/chat" if provider == "ollama" else "/v1/chat/completions"
    server.fail(ending="bare_done", path=path)
    with qtbot.waitSignal(pane.answer_finished, timeout=TIMEOUT) as finished:
        message = ask(qtbot, pane, "espresso ratio?")
    assert finished.args == ["cutoff"]
    assert message.status_label.text() == "cut off"
    assert "was cut off" in message.error_label.text()
    assert message.text == REPLY  # the text stays, marked


def test_an_answer_at_the_token_limit_says_so(qtbot, pane: ChatPane, server: GatedServer) -> None:
    server.release()
    server.fail(ending="length", path="/api/chat")
    with qtbot.waitSignal(pane.answer_finished, timeout=TIMEOUT) as finished:
        message = ask(qtbot, pane, "espresso ratio?")
    assert finished.args == ["done"]
    assert message.status_label.text() == "stopped at the token limit (chat.max_tokens = 1,024)"
    assert not message.error_box.isVisible()


@pytest.mark.parametrize("provider", ["openai", "ollama"])
def test_a_long_chat_against_a_2048_token_server_stays_inside_its_context(
    qtbot, make_pane, provider: str
) -> None:
    """30 turns with long answers: the oldest turns leave the prompt, no turn is refused.
    Ollama says its model's window (/api/show), so there the setting may be too big."""
    long_reply = " ".join(f"word{i}," for i in range(180))  # 360 fake tokens per answer
    with GatedServer(chat_reply=long_reply, context_limit=2048) as server:
        server.release()
        settings = chat_settings(server, provider)
        settings.chat.context_window, settings.chat.max_tokens = 8192, 400
        if provider == "openai":
            settings.chat.base_url = server.openai_url
            settings.chat.context_window = 2048
        path = CHAT_PATHS[provider]
        pane = make_pane(settings)
        for i in range(30):
            with qtbot.waitSignal(pane.answer_finished, timeout=TIMEOUT) as finished:
                message = ask(qtbot, pane, f"espresso ratio, question {i}?")
            assert finished.args == ["done"], (i, server.prompt_tokens, message.error_label.text())
            assert message.text == long_reply.strip()
        assert max(server.prompt_tokens) + 400 <= 2048
        last = server.bodies(path)[-1]["messages"]
        assert 2 < len(last) < 60  # some history, not all of it
        assert last[-2]["content"] == long_reply.strip()  # the newest answer went back


def test_a_provider_that_is_down_offers_the_settings(qtbot, make_pane) -> None:
    settings = chat_settings(None)
    settings.chat.base_url = f"http://127.0.0.1:{free_port()}"
    pane = make_pane(settings)
    with qtbot.waitSignal(pane.answer_finished, timeout=TIMEOUT) as finished:
        message = ask(qtbot, pane, "espresso ratio?")
    assert finished.args == ["failed"]
    assert "Ollama is not running at" in message.error_label.text()
    assert "ollama serve" in message.error_label.text()
    assert message.settings_button.isVisible()
    with qtbot.waitSignal(pane.settings_requested, timeout=TIMEOUT):
        message.settings_button.click()


def test_without_a_provider_search_and_the_prompt_preview_still_work(
    qtbot, make_pane, engine: Engine
) -> None:
    pane = make_pane(chat_settings(None, provider=""))
    assert pane.body.banner.isVisible()
    assert "No chat model is configured" in pane.body.banner_label.text()
    with qtbot.waitSignal(pane.settings_requested, timeout=TIMEOUT):
        pane.body.banner_button.click()

    qtbot.keyClicks(pane.input, "espresso ratio coffee")
    pane.body.preview_button.click()
    qtbot.waitUntil(lambda: isinstance(pane.last_dialog, PromptDialog), timeout=TIMEOUT)
    assert "Use 18 g of coffee" in pane.last_dialog.text_edit.toPlainText()
    assert "Not sent yet" in pane.last_dialog.heading.text()
    pane.last_dialog.reject()

    with qtbot.waitSignal(pane.answer_finished, timeout=TIMEOUT) as finished:
        qtbot.keyClick(pane.input, Qt.Key.Key_Return)
    assert finished.args == ["unconfigured"]
    message = pane.message_widgets()[-1]
    assert message.error_label.text() == "No chat model is configured — open Settings → Chat"
    assert message.settings_button.isVisible()
    used = panel_of(message).prompt.used
    assert [u.title for u in used][:1] == ["Espresso ratio"]

    pane.set_settings(chat_settings(None, provider="ollama"))
    assert not pane.body.banner.isVisible()


def test_clear_starts_a_new_chat_but_keeps_the_pins(
    qtbot, pane: ChatPane, server: GatedServer, engine: Engine
) -> None:
    ids = ids_by_title(engine)
    pane.pin(ids["Tomato garden"])
    pane.exclude(ids["Sourdough starter"])
    ask_and_finish(qtbot, pane, server, "hello")
    pane.body.clear_button.click()
    qtbot.waitUntil(lambda: pane.message_widgets() == [], timeout=TIMEOUT)
    assert pane.pinned == [ids["Tomato garden"]] and pane.excluded == []
    ask_and_finish(qtbot, pane, server, "hello again")
    assert len(server.bodies("/api/chat")[1]["messages"]) == 2  # system + user: no history


# -- save as memory ----------------------------------------------------------------------------


def test_save_as_memory_writes_only_after_confirmation(
    qtbot, make_pane, server: GatedServer, engine: Engine, vault: Path
) -> None:
    bus = MemoryBus()
    pane = make_pane(chat_settings(server), bus)
    message = ask_and_finish(qtbot, pane, server, "espresso ratio coffee")
    files_before = sorted(vault.glob("*.md"))

    message.save_button.click()
    dialog = pane.last_dialog
    assert isinstance(dialog, SaveMemoryDialog)
    assert dialog.title_edit.text() == "Use 18 g of coffee for 36 g out, as in [Espresso ratio]."
    assert dialog.body_edit.toPlainText() == REPLY
    assert "coffee" in dialog.topics_edit.text()
    assert dialog.source_label.text() == "chat"
    dialog.reject()
    assert workers.wait_for_all(TIMEOUT)
    assert sorted(vault.glob("*.md")) == files_before

    message.view.save_requested.emit("Grind finer for ristretto.\nMore detail here.")
    dialog = pane.last_dialog
    assert isinstance(dialog, SaveMemoryDialog)
    assert dialog.title_edit.text() == "Grind finer for ristretto."
    dialog.title_edit.setText("Ristretto grind")
    dialog.topics_edit.setText("coffee, brewing")
    dialog.importance_combo.setCurrentIndex(2)
    assert sorted(vault.glob("*.md")) == files_before  # still nothing before Save
    with qtbot.waitSignal(bus.memory_updated, timeout=TIMEOUT) as updated:
        dialog.buttons.button(dialog.buttons.StandardButton.Save).click()
    [(action, memory_id)] = updated.args[0].pairs()
    assert action == "created" and updated.args[1] is pane
    saved = engine.store.get(memory_id)
    assert (saved.title, saved.topics, saved.importance) == (
        "Ristretto grind",
        ["coffee", "brewing"],
        "high",
    )
    assert saved.source == "chat"
    assert saved.body.strip() == "Grind finer for ristretto.\nMore detail here."
    assert saved.path is not None and saved.path.exists()


def test_a_draft_needs_a_title(qtbot, pane: ChatPane) -> None:
    pane.save_as_memory("   \n\n")
    dialog = pane.last_dialog
    assert isinstance(dialog, SaveMemoryDialog)
    dialog.accept()
    assert dialog.isVisible() and "needs a title" in dialog.error_label.text()
    dialog.reject()


# -- helpers -----------------------------------------------------------------------------------


def test_answers_never_load_images_remote_or_local(qtbot, make_pane, tmp_path: Path) -> None:
    image = tmp_path / "local.png"
    pixmap = QPixmap(4, 4)
    pixmap.fill(Qt.GlobalColor.red)
    assert pixmap.save(str(image))
    with GatedServer(free=100) as srv:
        local = QUrl.fromLocalFile(str(image)).toString()
        srv.chat_reply = f"![remote]({srv.url}/pixel.png) ![local]({local}) done"
        pane = make_pane(chat_settings(srv))
        message = ask_and_finish(qtbot, pane, srv, "hi")
        assert message.text == srv.chat_reply
        fetched = [r.path for r in srv.requests if r.method == "GET" and r.path != "/api/ps"]
        assert fetched == []  # no image fetched (Ollama's /api/ps is the window, not an image)
    document = message.view.document()
    for url in (f"{srv.url}/pixel.png", local):
        loaded = document.resource(QTextDocument.ResourceType.ImageResource, QUrl(url))
        assert loaded is None or loaded.width() == 1  # a blank placeholder, never the file


def test_titles_from_the_first_line_without_markup() -> None:
    assert title_from_text("## **Espresso** notes\nbody") == "Espresso notes"
    assert title_from_text("\n\n- first item") == "first item"
    long = "word " * 40
    assert len(title_from_text(long)) <= 80 and title_from_text(long).endswith("…")


def test_citations_link_only_known_titles() -> None:
    text = "See [Espresso ratio] and [unknown] and [link](http://x)."
    linked = link_citations(text, {"abc": "Espresso ratio"})
    assert "[Espresso ratio](pixelmem-memory:abc)" in linked
    assert "[unknown] and [link](http://x)" in linked


def test_the_main_window_docks_the_pane_and_opens_what_it_asks_for(qtbot, window) -> None:
    pane = window.chat_dock
    assert isinstance(pane, ChatPane)
    espresso = ids_by_title(window.engine)["Espresso ratio"]
    with qtbot.waitSignal(window.editor.memory_opened, timeout=TIMEOUT):
        pane.open_memory_requested.emit(espresso)
    assert pane.shutdown(TIMEOUT)


def test_focus_chat_gives_the_chat_the_window_and_back(qtbot, window) -> None:
    window.resize(1200, 800)
    window.show()
    qtbot.waitExposed(window)
    before = window.chat_dock.width()
    window.actions_by_name["focus_chat"].trigger()
    assert window.chat_focus.active
    qtbot.waitUntil(lambda: window.chat_dock.width() > 0.9 * window.width(), timeout=TIMEOUT)
    assert not window.list_dock.isVisible() and not window.centralWidget().isVisible()
    window.commands.focus_chat()
    assert not window.chat_focus.active
    assert window.list_dock.isVisible() and window.centralWidget().isVisible()
    qtbot.waitUntil(lambda: window.chat_dock.width() < 0.6 * window.width(), timeout=TIMEOUT)
    assert window.chat_dock.width() <= max(before, 0.6 * window.width())
    assert window.chat_dock.shutdown(TIMEOUT)


# -- conversations that last -------------------------------------------------------------------


def saved_files(engine: Engine) -> list[Path]:
    return sorted((engine.vault / ".pixelmem" / "chats").glob("*.md"))


def test_a_conversation_survives_a_restart(
    qtbot, make_pane, server: GatedServer, indexed: Engine
) -> None:
    settings = chat_settings(server)
    first = make_pane(settings)
    ask_and_finish(qtbot, first, server, "espresso ratio?")
    ask_and_finish(qtbot, first, server, "and for a double?")
    assert first.shutdown(TIMEOUT) and workers.wait_for_all(TIMEOUT)
    assert len(saved_files(indexed)) == 1

    again = make_pane(settings)  # the app opened again on the same vault
    texts = [m.text for m in again.message_widgets()]
    assert texts == ["espresso ratio?", REPLY, "and for a double?", REPLY]
    assert panel_of(again.message_widgets()[1]).prompt.used  # the memories it was given
    ask_and_finish(qtbot, again, server, "thanks")
    sent = server.bodies("/api/chat")[-1]["messages"]
    assert [m["content"] for m in sent[1:]] == [*texts, "thanks"]  # the history went along


def _one_chat_saved_then_opened_again(
    qtbot, monkeypatch, make_pane, server, indexed, listing
) -> tuple[ChatPane, QMainWindow]:
    """A pane that saved one chat, closed; then a new pane on the same vault whose saved
    chats are read by ``listing(store)`` (not waited for), and its window (keep it: the
    pane lives as long as the window)."""
    from pixelmem.core.assist.conversations import ConversationStore

    settings = chat_settings(server)
    first = make_pane(settings)
    ask_and_finish(qtbot, first, server, "espresso ratio?")
    assert first.shutdown(TIMEOUT) and workers.wait_for_all(TIMEOUT)
    real_list = ConversationStore.list
    monkeypatch.setattr(ConversationStore, "list", lambda store: listing(store, real_list))
    window = QMainWindow()
    qtbot.addWidget(window)
    return ChatPane(indexed, MemoryBus(), settings, window), window


def test_the_saved_conversations_are_read_off_the_window_thread(
    qtbot, monkeypatch, make_pane, server: GatedServer, indexed: Engine
) -> None:
    readers: list[bool] = []

    def listing(store, real_list):
        readers.append(threading.current_thread() is threading.main_thread())
        return real_list(store)

    again, _window = _one_chat_saved_then_opened_again(
        qtbot, monkeypatch, make_pane, server, indexed, listing
    )
    assert not again.message_widgets()  # a new chat until the list is read
    with qtbot.waitSignal(again.conversations_listed, timeout=TIMEOUT):
        pass
    assert readers == [False]
    assert [m.text for m in again.message_widgets()] == ["espresso ratio?", REPLY]
    assert again.shutdown(TIMEOUT)


def test_a_question_asked_before_the_list_is_read_keeps_its_chat(
    qtbot, monkeypatch, make_pane, server: GatedServer, indexed: Engine
) -> None:
    gate = threading.Event()
    again, _window = _one_chat_saved_then_opened_again(
        qtbot, monkeypatch, make_pane, server, indexed,
        lambda store, real_list: gate.wait(TIMEOUT / 1000) and real_list(store),
    )  # fmt: skip
    ask_and_finish(qtbot, again, server, "bike chain?")
    with qtbot.waitSignal(again.conversations_listed, timeout=TIMEOUT):
        gate.set()
    assert [m.text for m in again.message_widgets()] == ["bike chain?", REPLY]
    combo = again.body.conversation_bar.combo
    assert [combo.itemText(i) for i in range(combo.count())] == ["bike chain?", "espresso ratio?"]
    assert again.shutdown(TIMEOUT)


def test_clear_starts_a_new_file_and_keeps_the_old_one(
    qtbot, pane: ChatPane, server: GatedServer, indexed: Engine
) -> None:
    ask_and_finish(qtbot, pane, server, "espresso ratio?")
    pane.clear()
    ask_and_finish(qtbot, pane, server, "bike chain?")
    assert workers.wait_for_all(TIMEOUT)
    assert len(saved_files(indexed)) == 2
    assert [c.messages[0].content for c in pane.conversations.list()] == [
        "bike chain?",
        "espresso ratio?",
    ]


def test_regenerate_replaces_the_last_answer(qtbot, pane: ChatPane, server: GatedServer) -> None:
    ask_and_finish(qtbot, pane, server, "espresso ratio?")
    last = ask_and_finish(qtbot, pane, server, "and for a double?")
    first_answer = pane.message_widgets()[1]
    assert last.regenerate_button.isVisible() and not first_answer.regenerate_button.isVisible()
    with qtbot.waitSignal(pane.answer_finished, timeout=TIMEOUT) as finished:
        last.regenerate_button.click()
    assert finished.args == ["done"]
    widgets = pane.message_widgets()
    assert [m.text for m in widgets] == ["espresso ratio?", REPLY, "and for a double?", REPLY]
    assert widgets[-1] is not last
    sent = server.bodies("/api/chat")[-1]["messages"]
    assert [m["content"] for m in sent[1:]] == ["espresso ratio?", REPLY, "and for a double?"]
    assert len(pane.conversation.messages) == 4


def test_copy_puts_the_answer_as_markdown_on_the_clipboard(
    qtbot, pane: ChatPane, server: GatedServer
) -> None:
    from PySide6.QtGui import QGuiApplication

    message = ask_and_finish(qtbot, pane, server, "espresso ratio?")
    message.copy_button.click()
    assert QGuiApplication.clipboard().text() == REPLY  # Markdown source, with the **bold**


def test_the_pane_at_320_px_shows_nothing_clipped(
    qtbot, make_pane, server: GatedServer, indexed: Engine
) -> None:
    long_title = "A memory whose title goes on and on " * 6
    ids = ids_by_title(indexed)
    memory = indexed.store.get(ids["Espresso ratio"])
    memory = indexed.writes.update(dataclasses.replace(memory, title=long_title.strip())).value
    indexed.reindex()
    settings = chat_settings(server)
    settings.chat.model = "hf.co/someone/a-very-long-model-name-GGUF:Q4_K_M"
    pane = make_pane(settings)
    pane.pin(memory.id)
    server.release()
    server.fail(ending="length", path="/api/chat")  # the longest status line
    with qtbot.waitSignal(pane.answer_finished, timeout=TIMEOUT):
        ask(qtbot, pane, "espresso ratio?")
    pane.parent().resizeDocks([pane], [320], Qt.Orientation.Horizontal)
    qtbot.waitUntil(lambda: pane.width() <= 330, timeout=TIMEOUT)
    viewport = pane.body.scroll_area.viewport()
    qtbot.waitUntil(
        lambda: pane.body.scroll_area.widget().width() <= viewport.width(), timeout=TIMEOUT
    )
    for message in pane.message_widgets():
        for widget in message.findChildren(QWidget):
            if not widget.isVisible():
                continue
            left = widget.mapTo(viewport, widget.rect().topLeft()).x()
            right = widget.mapTo(viewport, widget.rect().topRight()).x()
            assert left >= 0 and right < viewport.width(), (type(widget).__name__, right)
    title = panel_of(pane.message_widgets()[-1])._rows[memory.id][0]
    # Elided, not clipped: the start of the title, then "…" (how much of it fits beside the
    # score and "pinned" depends on the score: this memory also answers the question).
    shown, ellipsis, _ = title.plain_title().partition("…")
    assert ellipsis and shown and long_title.startswith(shown)
    assert long_title.strip() in title.toolTip()


def test_the_conversation_list_switches_renames_and_deletes(
    qtbot, pane: ChatPane, server: GatedServer, indexed: Engine
) -> None:
    ask_and_finish(qtbot, pane, server, "espresso ratio?")
    first = pane.conversation.id
    pane.clear()
    ask_and_finish(qtbot, pane, server, "bike chain?")
    combo = pane.body.conversation_bar.combo
    assert [combo.itemText(i) for i in range(combo.count())] == ["bike chain?", "espresso ratio?"]

    pane.body.conversation_bar.chosen.emit(first)
    assert [m.text for m in pane.message_widgets()] == ["espresso ratio?", REPLY]
    assert combo.currentText() == "espresso ratio?"

    pane.rename_conversation("Coffee")
    assert combo.currentText() == "Coffee"
    pane.delete_conversation(confirm=False)
    assert [m.text for m in pane.message_widgets()] == ["bike chain?", REPLY]
    assert workers.wait_for_all(TIMEOUT)
    assert [c.named() for c in pane.conversations.list()] == ["bike chain?"]
    deleted = indexed.vault / ".pixelmem" / "chats" / "deleted" / f"{first}.md"
    assert deleted.is_file()  # set aside, not destroyed


def test_each_code_block_of_an_answer_can_be_copied(qtbot, make_pane) -> None:
    from PySide6.QtGui import QGuiApplication

    reply = "Run:\n\n```bash\npixelmem index --full\n```\n\nthen\n\n```python\nprint(1)\n```"
    with GatedServer(chat_reply=reply, free=100) as srv:
        pane = make_pane(chat_settings(srv))
        message = ask_and_finish(qtbot, pane, srv, "how?")
    assert message.code_button.isVisible()
    actions = message.code_button.menu().actions()
    assert [a.text() for a in actions] == ["1. bash: pixelmem index --full", "2. python: print(1)"]
    actions[1].trigger()
    assert QGuiApplication.clipboard().text() == "print(1)\n"


def test_code_blocks_are_found_with_either_fence() -> None:
    from pixelmem.gui.chat.widgets import code_blocks

    text = "a\n```\nx = 1\n```\nb\n~~~js\nf()\n~~~\n```\nnot closed"
    assert code_blocks(text) == [("", "x = 1\n"), ("js", "f()\n")]


# -- thinking models ---------------------------------------------------------------------------


def test_reasoning_shows_collapsed_above_the_answer_and_stays_out_of_it(
    qtbot, make_pane, server: GatedServer
) -> None:
    server.thinking = "First weigh the dose, then the yield."
    settings = chat_settings(server)
    settings.chat.think = "on"
    pane = make_pane(settings)
    message = ask_and_finish(qtbot, pane, server, "espresso ratio?")
    assert message.text == REPLY  # the answer alone: copy, save and history use it
    box = message.reasoning
    assert box.isVisible() and not box.label.isVisible()  # collapsed
    assert box.text == server.thinking and "Reasoning" in box.toggle.text()
    box.toggle.click()
    assert box.label.isVisible() and box.label.text() == server.thinking
    assert server.bodies("/api/chat")[0]["think"] is True
    saved = pane.conversation.messages[-1]
    assert saved.reasoning == server.thinking and saved.content == REPLY
    assert all("weigh the dose" not in m["content"] for m in pane.conversation.history())


def test_an_answer_spent_on_thinking_says_so(qtbot, make_pane, server: GatedServer) -> None:
    server.thinking = " ".join(["hmm"] * 50)
    server.ignores_think = True
    settings = chat_settings(server)
    settings.chat.max_tokens = 20
    pane = make_pane(settings)
    server.release()
    with qtbot.waitSignal(pane.answer_finished, timeout=TIMEOUT):
        message = ask(qtbot, pane, "espresso ratio?")
    error = message.error_label.text()
    assert "thought anyway" in error and "chat.max_tokens" in error
    assert "context window" not in error


# -- memories from the conversation ------------------------------------------------------------


def test_propose_memories_puts_proposals_in_the_inbox(qtbot, make_pane, indexed: Engine) -> None:
    from extraction_fakes import rule_model_reply

    from pixelmem.core.archive.inbox import Inbox

    with GatedServer(chat_reply="Noted.", free=10_000) as server:
        server.chat_responder = lambda body: (
            rule_model_reply(body) if "Conversation:" in str(body) else "Noted."
        )
        pane = make_pane(chat_settings(server))
        ask_and_finish(qtbot, pane, server, "I prefer oat milk in my flat white.")
        assert pane.body.conversation_bar.propose_button.isEnabled()
        with qtbot.waitSignal(pane.proposals_made, timeout=TIMEOUT) as made:
            pane.body.conversation_bar.propose_button.click()
    assert made.args == [1]
    [draft] = Inbox(indexed.vault).list()
    assert "oat milk" in draft.body and draft.extra["conversation"] == pane.conversation.id


def test_a_new_chat_proposes_on_its_own_with_the_setting(qtbot, make_pane, indexed: Engine) -> None:
    from extraction_fakes import rule_model_reply

    with GatedServer(chat_reply="Noted.", free=10_000) as server:
        server.chat_responder = lambda body: (
            rule_model_reply(body) if "Conversation:" in str(body) else "Noted."
        )
        settings = chat_settings(server)
        settings.chat.extract_on_end = "on"
        pane = make_pane(settings)
        ask_and_finish(qtbot, pane, server, "We decided to repaint the kitchen green.")
        with qtbot.waitSignal(pane.proposals_made, timeout=TIMEOUT) as made:
            pane.clear()
        assert made.args == [1]


def test_a_conversation_is_proposed_from_once_across_sessions(
    qtbot, make_pane, indexed: Engine
) -> None:
    """Proposed on leaving it; shown again in the next session and left again: nothing new,
    nothing proposed; a new answer in it: proposed again."""
    from extraction_fakes import rule_model_reply

    from pixelmem.core.archive.inbox import Inbox
    from pixelmem.core.assist.conversations import ConversationStore

    with GatedServer(chat_reply="Noted.", free=10_000) as server:
        server.chat_responder = lambda body: (
            rule_model_reply(body) if "Conversation:" in str(body) else "Noted."
        )
        settings = chat_settings(server)
        settings.chat.extract_on_end = "on"
        first = make_pane(settings)
        ask_and_finish(qtbot, first, server, "We decided to repaint the kitchen green.")
        talk = first.conversation.id
        with qtbot.waitSignal(first.proposals_made, timeout=TIMEOUT):
            first.clear()
        store = ConversationStore(indexed.vault)
        qtbot.waitUntil(lambda: store.load(talk).proposed == 2, timeout=TIMEOUT)
        assert len(Inbox(indexed.vault).list()) == 1

        second = make_pane(settings)  # the next session shows the latest conversation again
        assert second.conversation.id == talk
        extraction_requests = len(server.bodies("/api/chat"))
        with qtbot.assertNotEmitted(second.proposals_made, wait=500):
            second.clear()
        assert len(server.bodies("/api/chat")) == extraction_requests
        assert len(Inbox(indexed.vault).list()) == 1

        third = make_pane(settings)
        assert third.conversation.id == talk
        ask_and_finish(qtbot, third, server, "We also decided the hallway stays white.")
        with qtbot.waitSignal(third.proposals_made, timeout=TIMEOUT):
            third.clear()
        qtbot.waitUntil(lambda: store.load(talk).proposed == 4, timeout=TIMEOUT)


def test_imported_chats_are_listed_in_the_pane(qtbot, make_pane, server, tmp_path) -> None:
    import json

    from pixelmem.gui.chat.chat_import import import_in_background

    pane = make_pane(chat_settings(server))
    export = tmp_path / "conversations.json"
    chat = {"uuid": "u1", "name": "Imported talk", "created_at": "2024-01-02T03:04:05Z",
            "chat_messages": [{"sender": "human", "text": "hello"},
                              {"sender": "assistant", "text": "hi"}]}  # fmt: skip
    export.write_text(json.dumps([chat]), encoding="utf-8")
    with qtbot.waitSignal(pane.bus.message_reported, timeout=TIMEOUT) as said:
        import_in_background(export, pane.engine.vault, pane.bus, pane)
    assert "Imported 1 conversations" in said.args[0] or "Imported 1" in said.args[0]
    combo = pane.body.conversation_bar.combo
    qtbot.waitUntil(lambda: "Imported talk" in [combo.itemText(i) for i in range(combo.count())],
                    timeout=TIMEOUT)  # fmt: skip
