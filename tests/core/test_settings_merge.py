"""Merged settings saves: each writer saves only the keys it changed (issue 17)."""

from __future__ import annotations

import json
import multiprocessing as mp
from pathlib import Path

import pytest

from pixelmem.cli import main
from pixelmem.core.errors import SettingsError
from pixelmem.core.settings import Settings, changed_keys, settings_path, update_settings


def test_changed_keys_lists_only_differences() -> None:
    old = Settings()
    new = old.copy()
    new.chat.model = "llama3.2"
    new.search.top_k = 7
    assert changed_keys(old, new) == {"chat.model": "llama3.2", "search.top_k": 7}
    assert changed_keys(old, old.copy()) == {}


def test_a_stale_snapshot_does_not_revert_a_key_saved_meanwhile() -> None:
    snapshot = Settings.load()  # e.g. the app at start-up
    other = Settings.load()  # another process
    other.chat.api_key = "sk-from-the-cli"
    other.save_changes(Settings())

    edited = snapshot.copy()
    edited.search.mode = "keyword"
    merged = edited.save_changes(snapshot)
    on_disk = Settings.load()
    assert on_disk.chat.api_key == "sk-from-the-cli" == merged.chat.api_key
    assert on_disk.search.mode == "keyword"


def test_update_settings_validates_and_checks_the_chunk_pair_together() -> None:
    update_settings({"chunk.size": 1000, "chunk.overlap": 900})
    assert (Settings.load().chunk.size, Settings.load().chunk.overlap) == (1000, 900)
    update_settings({"chunk.size": 200, "chunk.overlap": 20})  # one order would fail alone
    assert (Settings.load().chunk.size, Settings.load().chunk.overlap) == (200, 20)
    with pytest.raises(SettingsError):
        update_settings({"chunk.overlap": 500})
    with pytest.raises(SettingsError):
        update_settings({"search.mode": "fuzzy"})
    with pytest.raises(SettingsError):
        update_settings({"no.such": 1})
    assert Settings.load().chunk.overlap == 20


def test_unknown_keys_in_the_file_survive_nothing_else_is_touched() -> None:
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"chat": {"model": "m1"}, "search": {"top_k": 9}}))
    update_settings({"chat.model": "m2"})
    data = json.loads(path.read_text())
    assert data["chat"]["model"] == "m2" and data["search"]["top_k"] == 9
    assert path.stat().st_mode & 0o777 == 0o600


def test_cli_config_set_merges(capsys: pytest.CaptureFixture[str]) -> None:
    update_settings({"search.top_k": 11})
    assert main(["config", "set", "chat.api_key", "sk-1"]) == 0
    settings = Settings.load()
    assert settings.chat.api_key == "sk-1" and settings.search.top_k == 11
    assert main(["config", "set", "chat.api_key", "***"]) == 0  # the mask keeps the key
    assert Settings.load().chat.api_key == "sk-1"


def _set_many(config: str, key: str, values: list[str]) -> None:
    import os

    os.environ["PIXELMEM_CONFIG_DIR"] = config
    for value in values:
        before = Settings.load()
        after = before.copy()
        after.set_key(key, value)
        after.save_changes(before)


def test_two_processes_saving_different_keys_lose_nothing(tmp_path: Path) -> None:
    config = str(settings_path().parent)
    ctx = mp.get_context("fork")
    keys = [("chat.model", "chat"), ("embedding.model", "embed")]
    workers = [
        ctx.Process(target=_set_many, args=(config, key, [f"{p}-{i}" for i in range(40)]))
        for key, p in keys
    ]
    for w in workers:
        w.start()
    for w in workers:
        w.join(60)
        assert w.exitcode == 0
    settings = Settings.load()
    assert (settings.chat.model, settings.embedding.model) == ("chat-39", "embed-39")
