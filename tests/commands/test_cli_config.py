"""``pixelmem config show|set|test`` through the real CLI entry point."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from fake_servers import FakeServer, free_port

from pixelmem.cli import main
from pixelmem.core.settings import Settings, settings_path

SECRET = "sk-cli-DO-NOT-LEAK-99"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["config", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_show_lists_every_key_with_the_key_masked(capsys: pytest.CaptureFixture[str]) -> None:
    settings = Settings()
    settings.set_key("embedding.api_key", SECRET)
    settings.save()
    code, out, _ = run(capsys, "show")
    assert code == 0
    assert out.splitlines()[0] == f"# {settings_path()}"
    lines = {line.split(" = ")[0].strip(): line.split(" = ")[1] for line in out.splitlines()[1:]}
    assert list(lines) == Settings.valid_keys()
    assert lines["embedding.provider"] == "auto"
    assert lines["embedding.api_key"] == "***"
    assert lines["chat.api_key"] == '""'
    assert SECRET not in out


def test_config_alone_shows(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config"]) == 0
    assert "search.mode" in capsys.readouterr().out


def test_show_json(capsys: pytest.CaptureFixture[str]) -> None:
    Settings(language="zh_CN").save()
    code, out, _ = run(capsys, "show", "--json")
    shown = json.loads(out)
    assert code == 0
    assert shown["language"] == "zh_CN"
    assert shown["embedding"]["batch_size"] == 256


def test_set_validates_saves_and_masks(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "set", "embedding.provider", "ollama") == (
        0,
        "embedding.provider = ollama\n",
        "",
    )
    assert run(capsys, "set", "chat.api_key", SECRET) == (0, "chat.api_key = ***\n", "")
    loaded = Settings.load()
    assert loaded.embedding.provider == "ollama"
    assert loaded.chat.api_key == SECRET


def test_set_reads_a_key_from_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(SECRET + "\n"))
    code, out, _ = run(capsys, "set", "embedding.api_key", "-")
    assert code == 0 and SECRET not in out
    assert Settings.load().embedding.api_key == SECRET


def test_set_refuses_an_unknown_key_with_the_valid_list(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "set", "embedding.colour", "blue")
    assert code == 1 and out == ""
    assert err.count("\n") == 1
    assert err.startswith("pixelmem: error: unknown setting 'embedding.colour'; valid keys: ")
    assert "embedding.provider" in err and "mcp_writes" in err
    assert not settings_path().exists()


def test_set_refuses_a_bad_value_with_the_valid_values(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run(capsys, "set", "search.mode", "fuzzy")
    assert code == 1
    assert err == (
        "pixelmem: error: bad value 'fuzzy' for search.mode "
        "(valid values: hybrid, semantic, keyword, exact)\n"
    )


def test_test_prints_dimension_and_latency(capsys: pytest.CaptureFixture[str]) -> None:
    with FakeServer(dim=12) as server:
        settings = Settings()
        settings.set_key("embedding.provider", "openai")
        settings.set_key("embedding.base_url", server.openai_url)
        settings.set_key("embedding.api_key", SECRET)
        settings.set_key("rerank.url", server.rerank_url)
        settings.save()
        code, out, err = run(capsys, "test")
    assert code == 0, err
    first, second, chat = out.splitlines()
    assert chat == "chat: not configured (chat.provider)"
    port = server.url.rsplit(":", 1)[1]
    assert first.startswith(f"openai:127.0.0.1:{port}:text-embedding-3-small: dimension 12, ")
    assert first.endswith(" ms")
    assert second.startswith(f"reranker {server.rerank_url}: ok, ")
    assert SECRET not in out + err


def test_test_shows_the_readable_error(capsys: pytest.CaptureFixture[str]) -> None:
    base = f"http://127.0.0.1:{free_port()}"
    settings = Settings()
    settings.set_key("embedding.provider", "ollama")
    settings.set_key("embedding.base_url", base)
    settings.save()
    code, out, err = run(capsys, "test")
    assert code == 1 and out == ""
    assert err == (
        f"pixelmem: error: Ollama is not running at {base} — start it with `ollama serve`\n"
    )


def test_a_password_in_a_base_url_is_never_shown(
    capsys: pytest.CaptureFixture[str], vault: Path
) -> None:
    from pixelmem.core.runtime.tools import PixelmemService

    port = free_port()
    code, _, _ = run(capsys, "set", "embedding.provider", "ollama")
    run(capsys, "set", "embedding.base_url", f"http://bob:hunter2-url@127.0.0.1:{port}")
    run(capsys, "set", "chat.base_url", "https://carol:chat-pass-9@example.invalid/v1")
    code, out, err = run(capsys, "show")
    assert code == 0 and "bob:***@127.0.0.1" in out and "carol:***@example.invalid" in out
    code, out, err = run(capsys, "test")
    assert code == 1 and f"bob:***@127.0.0.1:{port}" in err
    service = PixelmemService(vault)
    try:
        config = service.get_rag_config()
    finally:
        service.close()
    seen = out + err + json.dumps(config) + repr(Settings.load())
    assert "hunter2-url" not in seen and "chat-pass-9" not in seen
    # The shown value typed back (the settings dialog, `config set`) keeps the password.
    run(capsys, "set", "embedding.base_url", f"http://bob:***@127.0.0.1:{port}")
    assert Settings.load().embedding.base_url == f"http://bob:hunter2-url@127.0.0.1:{port}"


def configure_chat(server: FakeServer, provider: str, model: str = "chat-model") -> None:
    settings = Settings()
    settings.set_key("embedding.provider", "ollama")
    settings.set_key("embedding.base_url", server.url)
    settings.set_key("chat.provider", provider)
    settings.set_key("chat.base_url", server.url if provider == "ollama" else server.openai_url)
    settings.set_key("chat.model", model)
    settings.save()


@pytest.mark.parametrize("provider", ["ollama", "openai"])
def test_test_asks_the_chat_model_for_one_token(
    capsys: pytest.CaptureFixture[str], provider: str
) -> None:
    with FakeServer(dim=8, models={"chat-model", "nomic-embed-text", "other"}) as server:
        configure_chat(server, provider)
        code, out, err = run(capsys, "test")
        path = "/api/chat" if provider == "ollama" else "/v1/chat/completions"
        (body,) = server.bodies(path)
    assert code == 0, err
    label = "Ollama" if provider == "ollama" else "OpenAI-compatible"
    lines = [line for line in out.splitlines() if line.startswith("chat chat-model")]
    assert lines[0].startswith(f"chat chat-model ({label}): ok, one token in ")
    if provider == "ollama":  # the window the chat is planned for, as Ollama says it
        assert "chat context window: 4,096 tokens (sent as num_ctx)" in out
    assert body["stream"] is False
    assert body.get("max_tokens") == 1 or body["options"]["num_predict"] == 1


@pytest.mark.parametrize("provider", ["ollama", "openai"])
def test_test_reports_a_server_that_answers_as_another_model(
    capsys: pytest.CaptureFixture[str], provider: str
) -> None:
    with FakeServer(dim=8, served_model="default-model") as server:
        configure_chat(server, provider, "my-model")
        code, _out, err = run(capsys, "test")
    assert code == 1
    assert "asked for model 'my-model' but " in err
    assert "answered as 'default-model'" in err and "check chat.model" in err


def test_test_notes_a_model_the_server_does_not_list(capsys: pytest.CaptureFixture[str]) -> None:
    with FakeServer(dim=8) as server:  # every model answers; only "chat-model" is listed
        configure_chat(server, "openai", "unlisted")
        code, out, _err = run(capsys, "test")
    assert code == 0
    assert "note: 'unlisted' is not among the listed models: chat-model" in out


def test_an_unknown_chat_model_fails_the_test(capsys: pytest.CaptureFixture[str]) -> None:
    with FakeServer(dim=8, models={"nomic-embed-text"}) as server:
        configure_chat(server, "ollama", "missing-llm")
        code, _out, err = run(capsys, "test")
    assert code == 1
    assert "model 'missing-llm' not found" in err and "ollama pull missing-llm" in err


def test_test_under_auto_tests_the_model_the_vault_uses(
    capsys: pytest.CaptureFixture[str], tmp_path
) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    for n in range(6):
        (vault / f"n{n}.md").write_text(f"# 笔记 {n}\n\n今天学习了中文检索和向量模型。\n", "utf-8")
    code, out, err = run(capsys, "test", "--vault", str(vault))
    assert code == 0, err
    first, second = out.splitlines()[:2]
    assert first.startswith("embedding.provider auto: local-multilingual for ")
    assert "e5" in second.split(":")[0] + second  # the multilingual model, not MiniLM
