"""The first-run window's optional chat step, against real HTTP servers on 127.0.0.1: a running
Ollama is found and its models listed, or an OpenAI-compatible URL (and key) is asked for;
the person picks a model or skips, and the choice is saved with the settings."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from fake_servers import FakeServer, free_port
from PySide6.QtCore import Qt
from run_app import run_app_and_close

import pixelmem.gui.app as app_module
from pixelmem.core.index.engine import Engine
from pixelmem.core.providers.chat_setup import ChatChoice, ChatServer, find_ollama
from pixelmem.core.providers.servers import OLLAMA_BASE_URL
from pixelmem.core.settings import Settings
from pixelmem.gui.dialogs.first_run import FirstRunDialog, VaultChoice


@pytest.fixture
def ollama() -> FakeServer:
    with FakeServer(models={"llama3.2", "qwen2.5:7b"}) as fake:
        yield fake


@pytest.fixture
def api() -> FakeServer:
    with FakeServer(models={"gpt-local", "mistral-small"}, api_key="sekrit") as fake:
        yield fake


def nothing_listening() -> str:
    return f"http://127.0.0.1:{free_port()}"


def to_chat_step(qtbot, tmp_path: Path, ollama_url: str) -> FirstRunDialog:
    dialog = FirstRunDialog(tmp_path / "memories", ollama_url=ollama_url)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.mouseClick(dialog.new_button, Qt.MouseButton.LeftButton)
    assert dialog.chat_step.isVisible() and not dialog.vault_page.isVisible()
    assert dialog.isVisible()  # the vault is chosen, the window stays for the chat step
    return dialog


def test_a_running_ollama_is_found_and_a_model_picked(
    qtbot, tmp_path: Path, ollama: FakeServer
) -> None:
    dialog = to_chat_step(qtbot, tmp_path, ollama.url)
    step = dialog.chat_step
    qtbot.waitUntil(lambda: step.model.count() == 2, timeout=5000)
    assert step.ollama_found and step.ollama_radio.isChecked()
    assert "2 models" in step.status.text()
    assert [step.model.itemText(i) for i in range(2)] == ["llama3.2", "qwen2.5:7b"]
    assert any(r.path == "/api/tags" for r in ollama.requests)

    step.model.setCurrentText("qwen2.5:7b")
    qtbot.mouseClick(step.use_button, Qt.MouseButton.LeftButton)

    assert dialog.result() == FirstRunDialog.DialogCode.Accepted
    assert dialog.choice is not None and dialog.choice.new
    assert dialog.chat == ChatChoice(ChatServer("ollama", ollama.url), "qwen2.5:7b")


def test_without_ollama_an_openai_compatible_server_is_asked_for(
    qtbot, tmp_path: Path, api: FakeServer
) -> None:
    started = time.monotonic()
    dialog = to_chat_step(qtbot, tmp_path, nothing_listening())
    step = dialog.chat_step
    qtbot.waitUntil(lambda: step.ollama_found is False, timeout=5000)
    assert time.monotonic() - started < 3  # a refused connection is an answer at once
    assert "No Ollama" in step.status.text() and step.openai_radio.isChecked()
    assert not step.use_button.isEnabled()

    step.url.setText(api.openai_url)
    step.key.setText("wrong")
    qtbot.mouseClick(step.list_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: step.status.text().startswith("✗"), timeout=5000)
    assert step.model.count() == 0 and not step.use_button.isEnabled()

    step.key.setText("sekrit")
    qtbot.mouseClick(step.list_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: step.model.count() == 2, timeout=5000)
    step.model.setCurrentText("mistral-small")
    qtbot.mouseClick(step.use_button, Qt.MouseButton.LeftButton)

    assert dialog.chat == ChatChoice(
        ChatServer("openai", api.openai_url, "sekrit"), "mistral-small"
    )


def test_an_edited_url_drops_the_models_of_the_old_one(
    qtbot, tmp_path: Path, api: FakeServer
) -> None:
    dialog = to_chat_step(qtbot, tmp_path, nothing_listening())
    step = dialog.chat_step
    qtbot.waitUntil(lambda: step.ollama_found is False, timeout=5000)
    step.url.setText(api.openai_url)
    step.key.setText("sekrit")
    step.list_server_models()
    qtbot.waitUntil(lambda: step.model.count() == 2, timeout=5000)
    qtbot.keyClicks(step.url, "x")  # now another server: its models are not known
    assert step.model.count() == 0 and not step.use_button.isEnabled()


@pytest.mark.parametrize("how", ["skip", "escape"])
def test_skipping_keeps_the_vault_and_sets_no_chat(
    qtbot, tmp_path: Path, ollama: FakeServer, how: str
) -> None:
    dialog = to_chat_step(qtbot, tmp_path, ollama.url)
    step = dialog.chat_step
    qtbot.waitUntil(lambda: step.model.count() == 2, timeout=5000)
    if how == "skip":
        qtbot.mouseClick(step.skip_button, Qt.MouseButton.LeftButton)
    else:
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert dialog.result() == FirstRunDialog.DialogCode.Accepted
    assert dialog.choice is not None and dialog.chat is None


def test_escape_before_a_vault_is_chosen_still_cancels(qtbot, tmp_path: Path) -> None:
    dialog = FirstRunDialog(tmp_path / "memories", ollama_url=nothing_listening())
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert dialog.result() == FirstRunDialog.DialogCode.Rejected and dialog.choice is None


def test_no_chat_step_when_a_chat_model_is_set_already(qtbot, tmp_path: Path) -> None:
    dialog = FirstRunDialog(tmp_path / "memories", ask_chat=False, ollama_url=nothing_listening())
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.mouseClick(dialog.new_button, Qt.MouseButton.LeftButton)
    assert dialog.result() == FirstRunDialog.DialogCode.Accepted
    assert dialog.choice is not None and dialog.chat is None


def test_find_ollama_answers_none_where_nothing_listens() -> None:
    started = time.monotonic()
    assert find_ollama(nothing_listening()) is None
    assert time.monotonic() - started < 2


def test_ollama_at_its_default_address_is_saved_as_the_default() -> None:
    changes = ChatChoice(ChatServer("ollama", OLLAMA_BASE_URL + "/"), "llama3.2").settings_changes()
    assert changes["chat.base_url"] == "" and changes["chat.model"] == "llama3.2"


def test_the_chosen_model_is_saved_and_used_by_the_window(
    qtbot, tmp_path: Path, monkeypatch, embedder, api: FakeServer
) -> None:
    monkeypatch.delenv("PIXELMEM_VAULT", raising=False)
    monkeypatch.setattr(
        app_module, "Engine", lambda vault, settings: Engine(vault, settings, embedder=embedder)
    )
    chosen = ChatChoice(ChatServer("openai", api.openai_url, "sekrit"), "gpt-local")

    def answer(dialog: FirstRunDialog) -> int:
        dialog.choice = VaultChoice(tmp_path / "fresh", new=True)
        dialog.chat = chosen
        return FirstRunDialog.DialogCode.Accepted

    monkeypatch.setattr(FirstRunDialog, "exec", answer)
    (window,) = run_app_and_close(monkeypatch, qtbot)

    saved = Settings.load().chat
    assert (saved.provider, saved.base_url, saved.model) == ("openai", api.openai_url, "gpt-local")
    assert saved.api_key == "sekrit"
    assert window.settings.chat.model == "gpt-local"
