"""Until its index has been compared with the vault, ``pixelmem serve`` answers from the index
saved last time and says it is loading (REST and MCP); then it says ready."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fakes import HashEmbedder
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012
from starlette.testclient import TestClient

from pixelmem.core.index.engine import Engine
from pixelmem.core.providers.embeddings import factory
from pixelmem.core.runtime.freshness import SERVICE
from pixelmem.core.runtime.tools import PixelmemService
from pixelmem.core.runtime.vault_runtime import VaultRuntime
from pixelmem.core.settings import Settings, settings_path
from pixelmem.core.vault.store import MemoryStore
from pixelmem.service.app import AppOptions, create_app
from pixelmem.service.guard import GuardSettings

TOKEN = "t" * 43
AUTH = {"Authorization": f"Bearer {TOKEN}"}


def _schema(document: dict[str, Any], name: str) -> Draft202012Validator:
    resource = Resource.from_contents(document, default_specification=DRAFT202012)
    registry = Registry().with_resource("urn:doc", resource)
    return Draft202012Validator({"$ref": f"urn:doc#/components/schemas/{name}"}, registry=registry)


def _valid(document: dict[str, Any], name: str, answer: dict[str, Any]) -> dict[str, Any]:
    problems = [e.message for e in _schema(document, name).iter_errors(answer)]
    assert problems == [], problems
    return answer


@contextlib.contextmanager
def _released(release: threading.Event) -> Iterator[None]:
    try:
        yield
    finally:
        release.set()  # a failed check must not keep the held run waiting


def test_loading_until_the_first_run_then_ready(
    vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(factory, "create_embedder", lambda _settings: HashEmbedder())
    settings = Settings()
    settings.embedding.provider = "openai"
    settings.search.min_relevance = 0.0
    settings.save(settings_path())
    store = MemoryStore(vault)
    store.create("Espresso ratio", "Use 18 g of coffee for 36 g of espresso.")
    store.create("Bike chain", "Lube the chain every 300 km.")
    Engine(vault, Settings.load()).open()  # a process indexed the vault and saved the index

    held, release = threading.Event(), threading.Event()
    real = Engine.reindex

    def held_reindex(self: Engine, **kwargs: Any) -> Any:
        held.set()
        release.wait(30)
        return real(self, **kwargs)

    monkeypatch.setattr(Engine, "reindex", held_reindex)
    tools = PixelmemService(vault, SERVICE, runtime=VaultRuntime.open(vault, SERVICE))
    app = create_app(tools, AppOptions(GuardSettings.for_bind(TOKEN, "127.0.0.1"), watch=False))
    with TestClient(app, base_url="http://127.0.0.1:8733") as http, _released(release):
        document = http.get("/v1/openapi.json", headers=AUTH).json()
        assert held.wait(30)  # the first run is under way (and held)
        found = _valid(document, "SearchAnswer", http.get("/v1/search", params={"q": "espresso"},
                                                          headers=AUTH).json())  # fmt: skip
        assert found["index"] == "loading" and "still loading" in found["note"]
        assert found["results"][0]["title"] == "Espresso ratio"  # from the saved index
        asked = {"q": "qzxv", "mode": "keyword"}
        nothing = http.get("/v1/search", params=asked, headers=AUTH).json()
        assert "still loading" in _valid(document, "SearchAnswer", nothing)["message"]
        status = _valid(document, "Status", http.get("/v1/status", headers=AUTH).json())
        assert status["index"] == "loading"
        assert tools.semantic_search("espresso")["index"] == "loading"  # the MCP tool too

        release.set()
        deadline = time.monotonic() + 30
        while http.get("/v1/status", headers=AUTH).json()["index"] != "ready":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        found = _valid(document, "SearchAnswer", http.get("/v1/search", params={"q": "espresso"},
                                                          headers=AUTH).json())  # fmt: skip
        assert found["index"] == "ready" and "note" not in found
        assert tools.semantic_search("espresso")["index"] == "ready"
