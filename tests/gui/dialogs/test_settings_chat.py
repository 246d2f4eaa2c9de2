"""The settings dialog's Chat page against a real server on 127.0.0.1: model list and test."""

from __future__ import annotations

import pytest
from fake_servers import FakeServer

from pixelmem.core.settings import Settings
from pixelmem.gui.dialogs.settings_dialog import SettingsDialog

pytestmark = pytest.mark.gui


@pytest.fixture
def server():
    with FakeServer(models={"llama3.2", "qwen2.5:7b", "nomic-embed-text"}) as fake:
        fake.capabilities = {"nomic-embed-text": ["embedding"]}  # Ollama's /api/show
        yield fake


def dialog_for(qtbot, server: FakeServer, provider: str, model: str = "llama3.2"):
    settings = Settings()
    settings.chat.provider = provider
    settings.chat.base_url = server.url if provider == "ollama" else server.openai_url
    settings.chat.model = model
    dialog = SettingsDialog(settings, "/tmp/vault")
    qtbot.addWidget(dialog)
    return dialog, dialog.chat_page


@pytest.mark.parametrize("provider", ["ollama", "openai"])
def test_the_model_list_comes_from_the_server(qtbot, server: FakeServer, provider: str) -> None:
    _dialog, page = dialog_for(qtbot, server, provider)
    page.refresh_button.click()
    qtbot.waitUntil(lambda: page.model.count() == 2, timeout=5000)
    names = [page.model.itemText(i) for i in range(page.model.count())]
    assert names == ["llama3.2", "qwen2.5:7b"]  # the embedding-only model is not offered
    assert page.model.currentText() == "llama3.2"  # the choice is kept
    page.model.setCurrentIndex(1)
    assert page.values()["chat.model"] == "qwen2.5:7b"


def test_the_test_asks_for_one_token_and_names_the_model(qtbot, server: FakeServer) -> None:
    _dialog, page = dialog_for(qtbot, server, "ollama")
    page.test_button.click()
    qtbot.waitUntil(lambda: page.status.text().startswith("✓"), timeout=5000)
    assert page.status.text().startswith("✓ llama3.2 answered in ")
    assert server.bodies("/api/chat")[0]["options"]["num_predict"] == 1


def test_a_server_answering_as_another_model_is_reported(qtbot) -> None:
    with FakeServer(served_model="gpt-3.5-turbo") as server:
        _dialog, page = dialog_for(qtbot, server, "openai", "my-finetune")
        page.test_button.click()
        qtbot.waitUntil(lambda: page.status.text().startswith("⚠"), timeout=5000)
    assert "asked for model 'my-finetune'" in page.status.text()
    assert "'gpt-3.5-turbo'" in page.status.text()


def test_the_token_budget_and_timeout_are_saved(qtbot, server: FakeServer) -> None:
    dialog, page = dialog_for(qtbot, server, "ollama")
    page.context_spin.setValue(2048)
    page.max_tokens_spin.setValue(300)
    page.timeout_spin.setValue(45)
    dialog.accept()
    new = dialog.result_settings()
    assert new is not None
    assert (new.chat.context_window, new.chat.max_tokens, new.chat.timeout) == (2048, 300, 45.0)
    assert new.chat.model == "llama3.2"
