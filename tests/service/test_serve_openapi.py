"""The OpenAPI document describes what the service answers, closely enough to generate a client.

Against one real ``pixelmem serve``: every answer of a tour through the API is validated
against the schema the document gives for its path, method and status; then a client is
generated from the document with openapi-python-client (as a user of the API would), imported,
and driven through the same tour: it must hand back typed models, not untyped objects.
"""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012
from serve_helpers import Server, running, until, write_settings

from pixelmem.core.vault.store import MemoryStore


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    root = tmp_path_factory.mktemp("serve-openapi")
    vault, config = root / "vault", root / "config"
    store = MemoryStore(vault)
    store.create("Espresso ratio", "Use 18 g of coffee for 36 g of espresso.", topics=["coffee"])
    store.create("Bike chain", "Lube the chain every 300 km.", topics=["bike"])
    (vault / "broken.md").write_bytes(b"\xff\xfe not text")  # a skipped file in the status
    write_settings(config, embedding__provider="local", mcp_writes="direct")
    with running(vault, config, root / "server.log") as served:
        served.wait_idle()
        yield served


@pytest.fixture(scope="module")
def document(server: Server) -> dict[str, Any]:
    doc = server.http.get("/v1/openapi.json").json()
    validate(doc)
    return doc


def _validator(document: dict[str, Any], path: str, method: str, status: int):
    operation = document["paths"][path][method]
    schema = operation["responses"][str(status)]["content"]["application/json"]["schema"]
    resource = Resource.from_contents(document, default_specification=DRAFT202012)
    registry = Registry().with_resource("urn:doc", resource)
    rebased = {"$ref": "urn:doc" + schema["$ref"]} if "$ref" in schema else schema
    return Draft202012Validator(rebased, registry=registry)


def _tour(http: httpx.Client) -> list[tuple[str, str, httpx.Response]]:
    """(path template, method, answer) for every endpoint, the usual statuses of each."""
    seen = [
        ("/v1/health", "get", http.get("/v1/health")),
        ("/v1/status", "get", http.get("/v1/status")),
        ("/v1/memories", "get", http.get("/v1/memories", params={"limit": 1})),
        ("/v1/search", "get", http.get("/v1/search", params={"q": "espresso coffee ratio"})),
        ("/v1/search", "get", http.get("/v1/search", params={"q": "qzxv wplkj"})),
        ("/v1/search", "get", http.get("/v1/search", params={"q": ""})),
    ]
    created = http.post("/v1/memories", json={"title": "Kettle", "body": "Descale monthly."})
    memory = created.json()
    path = "/v1/memories/{id}"
    seen += [
        ("/v1/memories", "post", created),
        (path, "get", http.get(f"/v1/memories/{memory['id']}")),
        (path, "get", http.get("/v1/memories/0123456789abcdef")),
        (path, "patch", http.patch(f"/v1/memories/{memory['id']}", json={"body": "Weekly."})),
        (path, "patch", http.patch(f"/v1/memories/{memory['id']}", json={"color": "red"})),
        ("/v1/record", "post", http.post("/v1/record", json={"title": "Proposed"})),
    ]
    job = http.post("/v1/index")
    seen.append(("/v1/index", "post", job))
    url = job.json()["url"]
    done = until(lambda: http.get(url), lambda a: a.json()["state"] in ("done", "failed"), 30)
    seen += [
        ("/v1/index/{job}", "get", done),
        ("/v1/index/{job}", "get", http.get("/v1/index/nope")),
        (path, "delete", http.delete(f"/v1/memories/{memory['id']}")),
    ]
    return seen


def test_every_answer_matches_its_schema(server: Server, document: dict[str, Any]) -> None:
    statuses = set()
    for path, method, answer in _tour(server.http):
        validator = _validator(document, path, method, answer.status_code)
        problems = [e.message for e in validator.iter_errors(answer.json())]
        assert problems == [], (method, path, answer.status_code, problems, answer.text[:300])
        statuses.add((path, method, answer.status_code))
    assert len(statuses) >= 14
    for operation in (op for item in document["paths"].values() for op in item.values()):
        schema = operation["responses"].get("200") or operation["responses"].get("201")
        schema = schema or operation["responses"]["202"]
        assert schema["content"]["application/json"]["schema"] != {"type": "object"}


@pytest.fixture(scope="module")
def client_package(
    server: Server, document: dict[str, Any], tmp_path_factory: pytest.TempPathFactory
) -> Any:
    generator = shutil.which("openapi-python-client", path=str(Path(sys.executable).parent))
    assert generator, "openapi-python-client (a test dependency) is not installed"
    out = tmp_path_factory.mktemp("client")
    spec = out / "openapi.json"
    spec.write_text(server.http.get("/v1/openapi.json").text, encoding="utf-8")
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    generated = subprocess.run(
        [generator, "generate", "--path", str(spec), "--output-path", str(out / "client")],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert generated.returncode == 0, generated.stdout + generated.stderr
    sys.path.insert(0, str(out / "client"))
    try:
        yield importlib.import_module("pixelmem_client")
    finally:
        sys.path.remove(str(out / "client"))


def test_a_generated_client_gets_typed_answers(server: Server, client_package: Any) -> None:
    api = importlib.import_module("pixelmem_client.api.default")
    models = importlib.import_module("pixelmem_client.models")
    client = client_package.AuthenticatedClient(base_url=server.base, token=server.token)

    def call(name: str, **kwargs: Any) -> Any:
        module = importlib.import_module(f"pixelmem_client.api.default.{name}")
        return module.sync(client=client, **kwargs)

    assert api is not None
    health = call("health")
    assert isinstance(health, models.Health) and health.status == "ok"
    status = call("status")
    assert isinstance(status, models.Status) and status.memories >= 2
    assert isinstance(status.skipped[0], models.SkippedFile)
    page = call("list_memories", limit=5)
    assert isinstance(page, models.MemoryList)
    assert all(isinstance(m, models.MemorySummary) for m in page.memories)
    found = call("search", q="espresso coffee ratio")
    assert isinstance(found, models.SearchAnswer)
    top = found.results[0]
    assert isinstance(top, models.SearchResult) and top.title == "Espresso ratio"
    assert isinstance(top.score, float) and 0.0 < top.score <= 1.0
    new = models.NewMemory(title="Generated client note", body="written by a generated client")
    created = call("create_memory", body=new)
    assert isinstance(created, models.Memory) and created.etag.startswith('"')
    job = call("start_index")
    assert isinstance(job, models.IndexJobStarted)
    trashed = call("delete_memory", id=created.id)
    assert isinstance(trashed, models.Trashed) and trashed.status == "trashed"
