"""``pixelmem search`` asks the process that has the vault open over a private local channel,
and answers exactly as it would in-process; anything wrong and it searches in-process."""

from __future__ import annotations

import json
import os
import socket
import stat
import struct
from collections.abc import Iterator
from pathlib import Path

import pytest
from fakes import HashEmbedder

from pixelmem.cli import main
from pixelmem.core.index.engine import Engine
from pixelmem.core.providers.embeddings import factory
from pixelmem.core.runtime import local_channel
from pixelmem.core.runtime.access_token import token_path
from pixelmem.core.runtime.freshness import SERVICE
from pixelmem.core.runtime.local_channel import ChannelServer, ask, channel_path
from pixelmem.core.runtime.vault_runtime import VaultRuntime
from pixelmem.core.settings import Settings, settings_path
from pixelmem.core.vault.store import MemoryStore

pytestmark = pytest.mark.skipif(not local_channel.available(), reason="no AF_UNIX here")

QUERIES = ["espresso ratio", "probe launch", "数据库 索引", "notes topic3", "last week coffee"]


@pytest.fixture(autouse=True)
def hashed_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every engine (the CLI's too) embeds with the hashed fake model; every match shown."""
    monkeypatch.setattr(factory, "create_embedder", lambda _settings: HashEmbedder())
    settings = Settings()
    settings.search.min_relevance = 0.0
    settings.embedding.provider = "openai"  # not "auto": no model choice is recorded
    settings.save(settings_path())


@pytest.fixture
def notes(vault: Path) -> Path:
    store = MemoryStore(vault)
    store.create("Espresso ratio", "Use 18 g of coffee for 36 g of espresso.", topics=["coffee"])
    store.create("Zorblax-7 launch", "The Zorblax-7 probe launched from Kourou.")
    store.create("数据库索引", "今天整理了数据库索引的设计思路，重点是减少随机读。")
    for i in range(12):
        store.create(f"Note {i}", f"Paragraph about topic{i % 7} and notes. " * 12)
    return vault


@pytest.fixture
def served(notes: Path) -> Iterator[VaultRuntime]:
    """The vault open in this process as ``pixelmem serve`` opens it."""
    runtime = VaultRuntime(Engine(notes, Settings.load()), SERVICE)
    runtime.start(watch=False)
    runtime.reindex_now()
    assert runtime.channel.path is not None
    yield runtime
    runtime.stop()


def _cli(vault: Path, *words: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["search", *words, "--vault", str(vault)]) == 0
    return capsys.readouterr().out


def _never_in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_args: object, **_kwargs: object) -> bool:
        raise AssertionError("searched in-process although the vault is open")

    monkeypatch.setattr(Engine, "load_saved_index", refuse)


@pytest.mark.parametrize("form", [[], ["--json"], ["--explain", "--weaker"], ["--mode=keyword"]])
def test_the_same_answer_from_the_open_vault_and_in_process(
    notes: Path, form: list[str], capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    runtime = VaultRuntime(Engine(notes, Settings.load()), SERVICE)
    runtime.start(watch=False)
    runtime.reindex_now()
    with monkeypatch.context() as patched:
        _never_in_process(patched)
        asked = [_cli(notes, query, *form, capsys=capsys) for query in QUERIES]
    runtime.stop()
    assert channel_path(notes) is not None and not channel_path(notes).exists()  # type: ignore[union-attr]
    here = [_cli(notes, query, *form, capsys=capsys) for query in QUERIES]
    assert asked == here
    assert all("1. " in answer or '"id"' in answer for answer in asked)
    if "--json" in form:
        assert all(json.loads(answer) for answer in asked[:2])


def test_a_file_changed_an_instant_ago_is_found(
    served: VaultRuntime, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    notes = served.vault
    _never_in_process(monkeypatch)
    _cli(notes, "kettle", capsys=capsys)  # the first check takes the baseline
    (notes / "kettle.md").write_text("---\ntitle: Kettle\n---\nDescale the kettle monthly.\n")
    answer = json.loads(_cli(notes, "descale kettle", "--json", capsys=capsys))
    assert answer[0]["title"] == "Kettle"


def test_the_channel_is_private(served: VaultRuntime) -> None:
    path = served.channel.path
    assert path is not None
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(path.parent).st_mode) == 0o700


def test_a_wrong_or_missing_token_is_refused(served: VaultRuntime) -> None:
    request = {"command": "search", "args": {"query": "espresso"}}
    assert ask(served.vault, request) is not None
    path = served.channel.path
    assert path is not None
    for token in ("x" * 43, "", None):
        with socket.socket(socket.AF_UNIX) as conn:
            conn.connect(str(path))
            data = json.dumps({**request, **({"token": token} if token is not None else {})})
            conn.sendall(struct.pack(">I", len(data)) + data.encode())
            answer = local_channel._receive(conn, 1 << 20)
        assert answer == {"ok": False, "error": "refused"}
    token_path().unlink()  # no token file: the client does not even ask
    assert ask(served.vault, request) is None


def test_an_exposed_token_is_not_sent(served: VaultRuntime) -> None:
    os.chmod(token_path(), 0o644)
    assert ask(served.vault, {"command": "search", "args": {"query": "espresso"}}) is None


def test_an_oversized_request_is_dropped(served: VaultRuntime) -> None:
    path = served.channel.path
    assert path is not None
    with socket.socket(socket.AF_UNIX) as conn:
        conn.connect(str(path))
        conn.sendall(struct.pack(">I", local_channel.MAX_REQUEST + 1))
        assert conn.recv(16) == b""  # closed without an answer


def test_a_request_the_server_cannot_answer_falls_back(served: VaultRuntime) -> None:
    assert ask(served.vault, {"command": "delete everything"}) is None
    bad_date = {"query": "x", "since": "never"}
    assert ask(served.vault, {"command": "search", "args": bad_date}) is None


def test_a_folder_others_can_enter_is_not_used(
    notes: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared = tmp_path / "shared-run"
    (shared / "pixelmem").mkdir(parents=True)
    os.chmod(shared / "pixelmem", 0o755)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(shared))
    monkeypatch.setattr(local_channel.tempfile, "gettempdir", lambda: str(tmp_path / "tmp"))
    path = channel_path(notes)
    assert path is not None and path.parent == tmp_path / "tmp" / f"pixelmem-{os.getuid()}"
    os.chmod(path.parent, 0o711)
    assert channel_path(notes) is None  # no private folder at all: no channel, in-process


def test_one_server_per_vault_and_a_dead_one_replaced(
    served: VaultRuntime, capsys: pytest.CaptureFixture[str]
) -> None:
    second = ChannelServer(served.vault, lambda request: {"hits": []})
    assert not second.start()  # the live one keeps serving
    path = served.channel.path
    assert path is not None
    served.channel.stop()
    dead = socket.socket(socket.AF_UNIX)  # a socket file nobody listens on any more
    dead.bind(str(path))
    dead.close()
    assert path.exists() and ask(served.vault, {"command": "search", "args": {}}) is None
    third = ChannelServer(served.vault, lambda request: {"hits": [], "third": True})
    assert third.start()
    assert ask(served.vault, {"command": "search"}) == {"ok": True, "hits": [], "third": True}
    third.stop()
    assert not path.exists()


def test_exact_mode_the_same_from_the_open_vault_and_from_the_saved_index(
    notes: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Exact mode reads the memories' texts, which the saved index alone does not hold: the
    command scans for them, in the open vault as in-process."""
    runtime = VaultRuntime(Engine(notes, Settings.load()), SERVICE)
    runtime.start(watch=False)
    runtime.reindex_now()
    words = ["probe launched", "--mode", "exact", "--json"]
    with monkeypatch.context() as patched:
        _never_in_process(patched)
        asked = _cli(notes, *words, capsys=capsys)
    runtime.stop()
    here = _cli(notes, *words, capsys=capsys)
    assert asked == here
    assert [hit["title"] for hit in json.loads(here)] == ["Zorblax-7 launch"]
    reversed_words = _cli(notes, "launched probe", "--mode", "exact", "--json", capsys=capsys)
    assert json.loads(reversed_words) == []
