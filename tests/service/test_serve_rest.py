"""``pixelmem serve``'s REST API, against one real server (uvicorn in a subprocess).

The server uses the small built-in English model (``local``) and ``mcp_writes: direct``; the
other write modes, the MCP endpoint, a provider that is down and shutdown have their own
modules.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from openapi_spec_validator import validate
from serve_helpers import Server, running, search_ids, until, wait_for, write_settings

from pixelmem.core.vault.store import MemoryStore
from pixelmem.service.app import ENDPOINTS

pytestmark = pytest.mark.permissions  # also run without CAP_DAC_OVERRIDE (dev.sh)

SEEDS = [
    (
        "Sourdough starter",
        "Feed the sourdough starter with rye flour and water every day.",
        ["baking"],
    ),
    (
        "Bicycle chain care",
        "Clean the bicycle chain and lubricate it with wax every 300 km.",
        ["bike"],
    ),
    ("Tax return deadline", "The tax return is due on the last day of July.", ["admin"]),
    ("Baking bread at home", "A hot oven and steam give bread a crisp crust.", ["baking"]),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    root = tmp_path_factory.mktemp("serve-rest")
    vault, config = root / "vault", root / "config"
    store = MemoryStore(vault)
    for title, body, topics in SEEDS:
        store.create(title, body, topics=topics)
    write_settings(config, embedding__provider="local", mcp_writes="direct")
    with running(vault, config, root / "server.log") as served:
        served.wait_idle()
        yield served


@pytest.fixture
def http(server: Server) -> httpx.Client:
    return server.http


def _ok(answer: httpx.Response, status: int = 200) -> Any:
    assert answer.status_code == status, answer.text
    return answer.json()


def _error(answer: httpx.Response, status: int, code: str | None = None) -> str:
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert set(error) == {"code", "message"} and error["message"]
    if code is not None:
        assert error["code"] == code, error
    return str(error["message"])


PIXELMEM = [sys.executable, "-m", "pixelmem"]


def _concrete(path: str) -> str:
    return path.replace("{id}", "0123456789abcdef").replace("{job}", "nojob")


# ---------------------------------------------------------------- security


def test_health_needs_no_token(server: Server) -> None:
    answer = httpx.get(f"{server.base}/v1/health")
    assert _ok(answer)["status"] == "ok"


@pytest.mark.parametrize(
    "ep", [e for e in ENDPOINTS if e.path != "/v1/health"], ids=lambda e: f"{e.method} {e.path}"
)
def test_every_other_endpoint_needs_the_token(server: Server, ep: Any) -> None:
    for token in ("", "wrong-token", server.token + "x"):
        with server.client(token=token) as client:
            answer = client.request(ep.method, _concrete(ep.path), json={"title": "x"})
        _error(answer, 401, "unauthorized")
        assert answer.headers["www-authenticate"].startswith("Bearer")
    for path in ("/mcp", "/nowhere"):
        with server.client(token="") as client:
            _error(client.post(path, json={}), 401)


def test_the_token_file_is_private(server: Server) -> None:
    token_file = server.config_dir / "service-token"
    assert token_file.stat().st_mode & 0o777 == 0o600
    assert len(server.token) >= 40
    env = dict(os.environ, PIXELMEM_CONFIG_DIR=str(server.config_dir))
    printed = subprocess.run(
        [*PIXELMEM, "serve", "--print-token"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert printed.stdout.strip() == server.token


@pytest.mark.parametrize("path", ["/v1/health", "/v1/status", "/mcp"])
def test_dns_rebinding_is_refused(server: Server, http: httpx.Client, path: str) -> None:
    """A page on evil.example whose name resolves to 127.0.0.1 sends its own Host/Origin."""
    port = server.port
    for host in ("evil.example", f"evil.example:{port}", "127.0.0.1.evil.example", ""):
        _error(http.get(path, headers={"Host": host}), 421, "bad_host")
    tricks = ("https://evil.example\\@127.0.0.1", "http://x@127.0.0.1", "http://127.0.0.1/a")
    for origin in ("http://evil.example", f"http://evil.example:{port}", "null", *tricks):
        _error(http.get(path, headers={"Origin": origin}), 403, "bad_origin")


def test_loopback_names_and_origins_are_accepted(server: Server, http: httpx.Client) -> None:
    port = server.port
    for host in (f"localhost:{port}", f"127.0.0.1:{port}", "localhost"):
        _ok(http.get("/v1/status", headers={"Host": host}))
    answer = http.get("/v1/status", headers={"Origin": f"http://localhost:{port}"})
    _ok(answer)
    assert "access-control-allow-origin" not in answer.headers  # no CORS unless configured


def test_a_body_over_the_limit_is_refused(http: httpx.Client) -> None:
    big = json.dumps({"title": "big", "body": "x" * (1024 * 1024)})
    _error(http.post("/v1/memories", content=big), 413, "too_large")

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted while it streams in
        for _ in range(20):
            yield b"x" * 65536

    _error(http.post("/v1/record", content=chunks()), 413, "too_large")
    _error(http.post("/mcp", content=big), 413, "too_large")


# ---------------------------------------------------------------- OpenAPI


def test_the_openapi_document_lists_every_route(server: Server, http: httpx.Client) -> None:
    doc = _ok(http.get("/v1/openapi.json"))
    validate(doc)  # a valid OpenAPI 3.1 document, by the reference validator
    listed = {(path, method.upper()) for path, ops in doc["paths"].items() for method in ops}
    assert listed == {(e.path, e.method) for e in ENDPOINTS}
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            assert op["responses"] and op["summary"], (path, method)
            declared = {p["name"] for p in op.get("parameters", []) if p["in"] == "path"}
            assert declared == {part[1:-1] for part in path.split("/") if part.startswith("{")}
            for ref in _refs(op):
                assert ref.removeprefix("#/components/schemas/") in doc["components"]["schemas"]
    # and every route really answers (not 404/405), so the document matches the app
    for e in ENDPOINTS:
        answer = http.request(e.method, _concrete(e.path), content=b"{}")
        assert answer.status_code not in (405, 500), (e.method, e.path, answer.text)
        if "{" not in e.path:
            assert answer.status_code != 404, (e.method, e.path)


def test_the_documented_body_fields_are_the_ones_the_service_accepts() -> None:
    from pixelmem.service.memory_writes import EDITABLE
    from pixelmem.service.openapi import SCHEMAS

    for name in ("NewMemory", "MemoryPatch"):
        assert set(SCHEMAS[name]["properties"]) == set(EDITABLE), name


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref":
                yield value
            else:
                yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


def test_unknown_routes_and_methods_answer_json(http: httpx.Client) -> None:
    _error(http.get("/v1/nothing"), 404, "not_found")
    _error(http.put("/v1/search"), 405, "method_not_allowed")


# ---------------------------------------------------------------- search


def test_search_answers_like_the_cli(server: Server, http: httpx.Client) -> None:
    answer = _ok(http.get("/v1/search", params={"q": "how do I bake bread", "top_k": 3}))
    assert answer["query"] == "how do I bake bread"
    results = answer["results"]
    assert results and results[0]["title"] in ("Baking bread at home", "Sourdough starter")
    for hit in results:
        assert set(hit) == {"id", "title", "score", "snippet", "topics", "path", "updated"}
        assert 0.5 <= hit["score"] <= 1.0  # above the relevance floor, like the CLI
    env = dict(os.environ, PIXELMEM_CONFIG_DIR=str(server.config_dir))
    vault = str(server.vault)
    cli = subprocess.run(
        [*PIXELMEM, "search", "how do I bake bread", "--k", "3", "--json", "--vault", vault],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    expected = [(h["id"], h["score"]) for h in json.loads(cli.stdout)]
    assert [(h["id"], pytest.approx(h["score"], abs=2e-3)) for h in results] == expected


def test_search_modes_topics_and_nothing_found(http: httpx.Client) -> None:
    keyword = _ok(http.get("/v1/search", params={"q": "bicycle chain", "mode": "keyword"}))
    assert [h["title"] for h in keyword["results"]][:1] == ["Bicycle chain care"]
    semantic = _ok(http.get("/v1/search", params={"q": "cycling maintenance", "mode": "semantic"}))
    assert "note" not in semantic
    baking = _ok(http.get("/v1/search", params={"q": "bread flour", "topic": "baking"}))
    assert baking["results"] and all("baking" in h["topics"] for h in baking["results"])
    assert not _ok(http.get("/v1/search", params={"q": "bread flour", "topic": "bike"}))["results"]
    empty = _ok(http.get("/v1/search", params={"q": "quantum chromodynamics lattice"}))
    assert empty["results"] == [] and "relevance" in empty["message"]


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"q": "  "},
        {"q": "x", "top_k": "0"},
        {"q": "x", "top_k": "101"},
        {"q": "x", "top_k": "five"},
        {"q": "x", "mode": "fuzzy"},
        {"q": "x" * 5000},
    ],
)
def test_bad_search_arguments_are_400(http: httpx.Client, params: dict[str, str]) -> None:
    _error(http.get("/v1/search", params=params), 400)


# ---------------------------------------------------------------- memories


def test_list_and_get(http: httpx.Client) -> None:
    listed = _ok(http.get("/v1/memories", params={"limit": 2}))
    assert listed["total"] >= len(SEEDS) and len(listed["memories"]) == 2
    assert "body" not in listed["memories"][0]
    page2 = _ok(http.get("/v1/memories", params={"limit": 2, "offset": 2}))
    assert {m["id"] for m in page2["memories"]}.isdisjoint(m["id"] for m in listed["memories"])
    baking = _ok(http.get("/v1/memories", params={"topic": "Baking"}))
    assert baking["total"] == 2
    one = _ok(http.get(f"/v1/memories/{listed['memories'][0]['id']}"))
    assert one["body"] and one["etag"].startswith('"')
    _error(http.get("/v1/memories", params={"limit": 0}), 400)


def test_create_patch_delete_with_etags(server: Server, http: httpx.Client) -> None:
    created = http.post(
        "/v1/memories",
        json={"title": "Kayak roll", "body": "Hip snap first, head last.", "topics": ["kayak"]},
    )
    memory = _ok(created, 201)
    assert created.headers["location"] == f"/v1/memories/{memory['id']}"
    assert created.headers["etag"] == memory["etag"]
    assert memory["source"] == "http"
    assert Path(memory["path"]).is_file()
    assert memory["id"] in search_ids(http, "kayak roll hip snap")  # indexed before the answer

    patched = _ok(
        http.patch(
            f"/v1/memories/{memory['id']}",
            json={"body": "Hip snap first, head comes up last.", "importance": "high"},
            headers={"If-Match": memory["etag"]},
        )
    )
    assert patched["importance"] == "high" and patched["etag"] != memory["etag"]
    assert patched["title"] == "Kayak roll" and patched["topics"] == ["kayak"]
    stale = http.patch(
        f"/v1/memories/{memory['id']}", json={"title": "x"}, headers={"If-Match": memory["etag"]}
    )
    _error(stale, 409, "conflict")
    _error(
        http.delete(f"/v1/memories/{memory['id']}", headers={"If-Match": memory["etag"]}),
        409,
        "conflict",
    )

    path = Path(patched["path"])
    deleted = _ok(
        http.delete(f"/v1/memories/{memory['id']}", headers={"If-Match": patched["etag"]})
    )
    assert deleted["status"] == "trashed" and not path.exists()
    assert Path(deleted["trashed"]).is_file()
    assert ".pixelmem" in Path(deleted["trashed"]).parts
    _error(http.get(f"/v1/memories/{memory['id']}"), 404, "not_found")
    assert memory["id"] not in search_ids(http, "kayak roll hip snap")


def test_a_read_only_note_is_refused_by_name(server: Server, http: httpx.Client) -> None:
    memory = _ok(http.post("/v1/memories", json={"title": "Signed lease", "body": "terms"}), 201)
    path = Path(memory["path"])
    before = path.read_bytes()
    path.chmod(0o444)
    try:
        refused = http.patch(f"/v1/memories/{memory['id']}", json={"body": "other terms"})
        _error(refused, 403, "not_writable")
        assert path.name in refused.json()["error"]["message"]
        _error(http.delete(f"/v1/memories/{memory['id']}"), 403, "not_writable")
        assert path.read_bytes() == before
        deleted = _ok(http.delete(f"/v1/memories/{memory['id']}", params={"force": "true"}))
        assert deleted["status"] == "trashed" and not path.exists()
    finally:
        if path.exists():
            path.chmod(0o644)


def test_a_unique_id_prefix_works_as_in_the_cli(server: Server, http: httpx.Client) -> None:
    memory = _ok(http.post("/v1/memories", json={"title": "Prefix probe", "body": "x"}), 201)
    prefix = memory["id"][:8]
    assert _ok(http.get(f"/v1/memories/{prefix}"))["id"] == memory["id"]
    patched = _ok(http.patch(f"/v1/memories/{prefix}", json={"body": "y"}))
    assert patched["id"] == memory["id"] and patched["body"].startswith("y")
    _error(http.get(f"/v1/memories/{prefix[:3]}"), 404, "not_found")  # too short to trust
    assert _ok(http.delete(f"/v1/memories/{prefix}"))["id"] == memory["id"]


def test_an_unreadable_note_is_named_not_missing(server: Server, http: httpx.Client) -> None:
    from pixelmem.core.vault import ids

    path = server.vault / "broken-note.md"
    path.write_bytes(b"---\ntitle: Broken\n---\n\xff\xfe bad bytes\n")
    memory_id = ids.path_id("broken-note.md")
    answer = until(
        lambda: http.get(f"/v1/memories/{memory_id}"),
        lambda a: "broken-note.md" in a.text,
        10,
    )
    _error(answer, 404, "not_found")
    assert "not UTF-8" in answer.json()["error"]["message"]
    path.unlink()


def test_head_answers_like_get_without_a_body(server: Server, http: httpx.Client) -> None:
    for path in ("/v1/status", "/v1/memories", "/v1/health"):
        got, head = http.get(path), http.head(path)
        assert head.status_code == got.status_code == 200, (path, head.text)
        assert head.content == b"" and head.headers["content-type"] == got.headers["content-type"]
    memory = _ok(http.post("/v1/memories", json={"title": "Head probe", "body": "x"}), 201)
    head = http.head(f"/v1/memories/{memory['id']}")
    assert head.status_code == 200 and head.headers["etag"] == memory["etag"]
    assert http.head("/v1/memories/nope").status_code == 404


@pytest.mark.parametrize(
    "if_match", ["abc", '"abc', 'W/abc, "x"', '"a" "b"', ""], ids=["bare", "open", "w", "sp", "0"]
)
def test_a_malformed_if_match_is_a_bad_request(
    server: Server, http: httpx.Client, if_match: str
) -> None:
    memory = _ok(http.post("/v1/memories", json={"title": "Etag syntax", "body": "x"}), 201)
    answer = http.patch(
        f"/v1/memories/{memory['id']}", json={"body": "y"}, headers={"If-Match": if_match}
    )
    _error(answer, 400, "bad_if_match")
    good = f'W/"other", {memory["etag"]}'
    _ok(http.patch(f"/v1/memories/{memory['id']}", json={"body": "y"}, headers={"If-Match": good}))


def test_an_edit_on_disk_changes_the_etag(server: Server, http: httpx.Client) -> None:
    memory = _ok(http.post("/v1/memories", json={"title": "Etag probe", "body": "one"}), 201)
    path = Path(memory["path"])
    path.write_text(path.read_text("utf-8").replace("one", "two by an editor"), "utf-8")
    seen = wait_for(
        lambda: (
            ((m := http.get(f"/v1/memories/{memory['id']}").json())["etag"] != memory["etag"] and m)
            or None
        ),
        5,
    )
    assert "two by an editor" in seen["body"]
    stale = http.patch(
        f"/v1/memories/{memory['id']}", json={"body": "three"}, headers={"If-Match": memory["etag"]}
    )
    _error(stale, 409)
    assert "two by an editor" in path.read_text("utf-8")  # the editor's work is kept


@pytest.mark.parametrize(
    ("body", "status"),
    [
        (b"{not json", 400),
        (b"[1, 2]", 422),
        (b'{"body": "no title"}', 422),
        (b'{"title": "   "}', 422),
        (b'{"title": "t", "colour": "red"}', 422),
        (b'{"title": "t", "importance": "urgent"}', 422),
        (b'{"title": "t", "topics": "one"}', 422),
        (b'{"title": 5}', 422),
        (b'{"title": "t", "body": "nul \\u0000"}', 422),
        (b"[" * 100_000, 400),  # nested deeper than the JSON parser recurses
        (b'{"title": "t", "body": "lone \\ud800 surrogate"}', 422),  # UTF-8 cannot store it
        (b'{"title": "lone \\udfff", "body": "b"}', 422),
        (b'{"title": "t", "topics": ["\\ud83d"]}', 422),
    ],
)
def test_bad_bodies(http: httpx.Client, body: bytes, status: int) -> None:
    _error(http.post("/v1/memories", content=body), status)
    _error(http.post("/v1/record", content=body), status)


@pytest.mark.parametrize(
    "body",
    [b'{"body": "lone \\ud800"}', b'{"title": "\\udfff"}', b'{"topics": ["\\ud83d"]}'],
)
def test_a_patch_with_text_utf8_cannot_hold_is_422(http: httpx.Client, body: bytes) -> None:
    message = _error(http.patch(f"/v1/memories/{_any_id(http)}", content=body), 422)
    assert "surrogate" in message


def test_errors_of_an_endpoint_carry_server_timing_too(http: httpx.Client) -> None:
    for answer in (
        http.get("/v1/search", params={"q": ""}),
        http.get("/v1/memories/0123456789abcdef"),
        http.post("/v1/memories", content=b"{not json"),
        http.get("/v1/status"),
    ):
        assert answer.headers["Server-Timing"].startswith("app;dur="), answer.text


def test_bad_and_unknown_ids(http: httpx.Client) -> None:
    for method in ("GET", "PATCH", "DELETE"):
        _error(http.request(method, "/v1/memories/a%01b", json={"title": "x"}), 400)
        _error(http.request(method, "/v1/memories/0123456789abcdef", json={"title": "x"}), 404)
    _error(http.patch(f"/v1/memories/{_any_id(http)}", json={}), 422)


def _any_id(http: httpx.Client) -> str:
    return str(http.get("/v1/memories").json()["memories"][0]["id"])


def test_record_always_goes_to_the_inbox(server: Server, http: httpx.Client) -> None:
    answer = _ok(http.post("/v1/record", json={"title": "A record", "body": "proposed"}), 202)
    assert answer["status"] == "pending_review"
    drafts = list((server.vault / ".pixelmem" / "inbox").glob("*.md"))
    assert any(answer["id"] in p.read_text("utf-8") for p in drafts)
    _error(http.get(f"/v1/memories/{answer['id']}"), 404, "pending_review")
    assert _ok(http.get("/v1/status"))["pending_drafts"] >= 1


# ---------------------------------------------------------------- index and status


def test_index_jobs_report_progress_and_result(http: httpx.Client) -> None:
    started = _ok(http.post("/v1/index"), 202)
    assert started["url"] == f"/v1/index/{started['job']}"
    done = until(lambda: _ok(http.get(started["url"])), lambda j: j["state"] == "done", 30)
    assert done["report"]["memories"] >= len(SEEDS) and done["report"]["embedded"] == 0
    assert done["finished"].endswith("Z")
    _error(http.get("/v1/index/nosuchjob"), 404, "not_found")


def test_status(server: Server, http: httpx.Client) -> None:
    (server.vault / "broken.md").write_bytes(b"\xff\xfe not text \x00")
    status = until(lambda: _ok(http.get("/v1/status")), lambda s: bool(s["skipped"]), 5)
    assert status["memories"] >= len(SEEDS) and status["chunks"] >= len(SEEDS)
    assert status["vectors"] == status["chunks"]
    assert status["provider"] == "local" and "MiniLM" in status["model"]
    assert status["last_indexed"].endswith("Z") and status["semantic_search"] == "ok"
    assert status["watching"] == "native" and status["indexing"] is False
    assert any(s["path"].endswith("broken.md") and s["reason"] for s in status["skipped"])
    (server.vault / "broken.md").unlink()


# ---------------------------------------------------------------- the watcher


def _write_elsewhere(path: Path, text: str) -> None:
    """Write a file from another process, as an editor would."""
    code = "import sys, pathlib; pathlib.Path(sys.argv[1]).write_text(sys.argv[2], 'utf-8')"
    subprocess.run([sys.executable, "-c", code, str(path), text], check=True)


def _found_within(http: httpx.Client, query: str, title: str, seconds: float = 2.0) -> float:
    start = time.monotonic()

    def probe() -> float | None:
        answer = http.get("/v1/search", params={"q": query}).json()
        titles = [r["title"] for r in answer["results"]]
        return time.monotonic() - start if title in titles else None

    return wait_for(probe, seconds)


def test_a_file_written_by_another_process_is_found_within_2_s(
    server: Server, http: httpx.Client
) -> None:
    _write_elsewhere(
        server.vault / "telescope.md", "# Telescope\n\nCollimate the telescope mirror.\n"
    )
    _found_within(http, "collimate telescope mirror", "Telescope")

    # a new folder (and one inside it) with a file
    folder = server.vault / "astronomy" / "gear"
    _write_elsewhere_in_new_folder(folder / "eyepiece.md", "# Eyepiece\n\nA wide eyepiece.\n")
    _found_within(http, "wide eyepiece", "Eyepiece")

    # a rename-save: the editor writes a temporary file and renames it over the note
    note = server.vault / "telescope.md"
    temp = server.vault / ".telescope.md.swp"
    temp.write_text("# Telescope\n\nCool the telescope before observing Saturn.\n", "utf-8")
    os.replace(temp, note)
    _found_within(http, "observing saturn", "Telescope")

    # a folder moved in from outside the vault brings its files with it
    outside = server.vault.parent / "incoming"
    outside.mkdir()
    (outside / "comet.md").write_text("# Comet\n\nThe comet tail points away from the sun.\n")
    os.replace(outside, server.vault / "incoming")
    _found_within(http, "comet tail", "Comet")

    # and a deleted file leaves the results
    note.unlink()
    wait_for(lambda: None if "Telescope" in _titles(http, "observing saturn") else True, 2.0)


def _write_elsewhere_in_new_folder(path: Path, text: str) -> None:
    code = (
        "import sys, pathlib; p = pathlib.Path(sys.argv[1]); "
        "p.parent.mkdir(parents=True); p.write_text(sys.argv[2], 'utf-8')"
    )
    subprocess.run([sys.executable, "-c", code, str(path), text], check=True)


def _titles(http: httpx.Client, query: str) -> list[str]:
    return [r["title"] for r in http.get("/v1/search", params={"q": query}).json()["results"]]
