"""A FIFO, socket or device where pixelmem expects a file is never opened (issue 18, item 6):
every read returns promptly instead of blocking until a writer appears."""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pixelmem.core.archive.importers import read_markdown
from pixelmem.core.files.safe_open import NotRegularFile, open_regular
from pixelmem.core.index import model_choice
from pixelmem.core.index.cache import CACHE_FILENAME, EmbeddingCache
from pixelmem.core.settings import Settings
from pixelmem.core.vault import scan_cache
from pixelmem.core.vault.store import MemoryStore
from pixelmem.core.vault.vault_scan import read_checked

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")


def returns_promptly(call: Callable[[], Any], fifo: Path) -> Any:
    """``call()``'s result; fails (and unblocks the call) if it is still running after 5 s."""
    result: list[Any] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            result.append(call())
        except BaseException as exc:  # handed to the test's thread below
            errors.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(timeout=5)
    if worker.is_alive():
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)  # let the blocked open finish
        os.close(fd)
        worker.join(timeout=5)
        pytest.fail(f"{call} blocked on the FIFO {fifo.name}")
    if errors:
        raise errors[0]
    return result[0] if result else None


@pytest.fixture
def appdata(vault: Path) -> Path:
    folder = vault / ".pixelmem"
    folder.mkdir()
    return folder


def test_open_regular_refuses_a_fifo_and_a_socket(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(NotRegularFile, match="FIFO"):
        returns_promptly(lambda: open_regular(tmp_path / "fifo"), tmp_path / "fifo")
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(tmp_path / "sock"))
    with pytest.raises(NotRegularFile, match="socket"):
        open_regular(tmp_path / "sock")
    sock.close()
    with pytest.raises(NotRegularFile, match="device"):
        open_regular("/dev/zero")


def test_a_fifo_as_the_embedding_cache(vault: Path, appdata: Path) -> None:
    fifo = appdata / CACHE_FILENAME
    os.mkfifo(fifo)
    cache = EmbeddingCache(fifo, "m", 4, {})
    warnings = returns_promptly(cache.load, fifo)
    assert warnings and "FIFO" in warnings[0]
    assert returns_promptly(cache.refresh, fifo) is False


def test_a_fifo_as_the_scan_cache(vault: Path, appdata: Path) -> None:
    fifo = appdata / scan_cache.CACHE_FILENAME
    os.mkfifo(fifo)
    (vault / "a.md").write_text("# a\n")
    result = returns_promptly(MemoryStore(vault).scan, fifo)
    assert [m.title for m in result.memories] == ["a"]


def test_a_fifo_as_settings_json(tmp_path: Path) -> None:
    fifo = tmp_path / "settings.json"
    os.mkfifo(fifo)
    settings = returns_promptly(lambda: Settings.load(fifo), fifo)
    assert settings == Settings()


def test_a_fifo_as_the_model_record(vault: Path, appdata: Path) -> None:
    fifo = appdata / model_choice.CHOICE_FILENAME
    os.mkfifo(fifo)
    assert returns_promptly(lambda: model_choice.recorded(vault), fifo) is None


def test_a_fifo_in_the_vault_is_never_read(vault: Path) -> None:
    fifo = vault / "pipe.md"
    os.mkfifo(fifo)
    (vault / "a.md").write_text("# a\n")
    store = MemoryStore(vault)
    result = returns_promptly(store.scan, fifo)
    assert [m.title for m in result.memories] == ["a"]
    assert returns_promptly(lambda: store.reload_path(fifo), fifo) is None
    with pytest.raises(Exception, match="not a regular file"):
        returns_promptly(lambda: read_checked(fifo), fifo)
    with pytest.raises(OSError, match="not a regular file"):
        returns_promptly(lambda: read_markdown(fifo), fifo)
