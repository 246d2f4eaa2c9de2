#!/usr/bin/env bash
# Smoke test of a built pixelmem binary, offscreen, in a throw-away vault and user folders:
#   packaging/smoke_test.sh dist/pixelmem/pixelmem
#   APPIMAGE_EXTRACT_AND_RUN=1 packaging/smoke_test.sh dist/pixelmem-VERSION-x86_64.AppImage
# --version; add a memory; a semantic search across languages (so the bundled multilingual
# model must load and embed offline); status; import of a .docx and a PDF (python-docx, lxml and
# its templates, pypdf); an MCP session over stdio (initialize, tools/list, a search: the MCP
# stack with cryptography and pydantic); `serve` answering an authenticated search over HTTP;
# the PostgreSQL backend's driver (psycopg and libpq load and report a refused connection); the
# window opened offscreen and closed. Exit 0 = pass.
set -euo pipefail
BIN=$(realpath "${1:?usage: packaging/smoke_test.sh PATH/TO/pixelmem}")
HELPERS=$(realpath "$(dirname "$0")/smoke_helpers.py")
tmp=$(mktemp -d)
server=
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$tmp"' EXIT
export QT_QPA_PLATFORM=offscreen HOME="$tmp/home" PIXELMEM_VAULT="$tmp/vault"
export XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data" XDG_CACHE_HOME="$tmp/cache"
unset PIXELMEM_CONFIG_DIR
mkdir -p "$HOME"
cd "$tmp"  # nothing may come from the source tree

step() { printf 'smoke: %-44s' "$1"; }

step "--version"
"$BIN" --version

step "add"
"$BIN" --vault "$tmp/vault" add --title "Espresso ratio" \
    --body "Pull a double shot: 18 g of ground coffee in, 36 g out, in about 28 seconds."

step "semantic search (Chinese query, English note)"
out=$("$BIN" --vault "$tmp/vault" search --mode semantic --min-relevance 0 --json "浓缩咖啡用多少咖啡粉")
grep -q '"title": "Espresso ratio"' <<<"$out" || { echo "FAIL: not found"; echo "$out"; exit 1; }
echo "found"

step "hybrid search"
out=$("$BIN" --vault "$tmp/vault" search --min-relevance 0 --json "double shot coffee")
grep -q '"title": "Espresso ratio"' <<<"$out" || { echo "FAIL: not found"; echo "$out"; exit 1; }
echo "found"

step "status"
out=$("$BIN" --vault "$tmp/vault" status)
grep -q "multilingual-e5-small" <<<"$out" || { echo "FAIL: not the multilingual model"; echo "$out"; exit 1; }
grep -Eq "semantic search +ok" <<<"$out" || { echo "FAIL"; echo "$out"; exit 1; }
echo "multilingual-e5-small, semantic search ok"

step "import .docx and .pdf"
mkdir "$tmp/files"
python3 "$HELPERS" fixtures "$tmp/files"
"$BIN" --vault "$tmp/vault" import "$tmp/files/grinder.docx" "$tmp/files/kettle.pdf" >/dev/null 2>&1 ||
    { echo "FAIL: import"; "$BIN" --vault "$tmp/vault" import "$tmp/files/grinder.docx"; exit 1; }
out=$("$BIN" --vault "$tmp/vault" search --mode keyword --min-relevance 0 --json "conical burr moka")
grep -q 'Set the conical burr grinder to step 12' <<<"$out" || { echo "FAIL: .docx"; echo "$out"; exit 1; }
out=$("$BIN" --vault "$tmp/vault" search --mode keyword --min-relevance 0 --json "descaling kettle")
grep -q 'citric acid' <<<"$out" || { echo "FAIL: .pdf"; echo "$out"; exit 1; }
echo "both found"

step "mcp --help"
"$BIN" mcp --help | grep -q "Model Context Protocol" || { echo "FAIL"; exit 1; }
echo "ok"

step "MCP over stdio"
python3 "$HELPERS" mcp "$BIN" --vault "$tmp/vault"

step "serve (HTTP, bearer token)"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
token=$("$BIN" --vault "$tmp/vault" serve --print-token | tail -1)
"$BIN" --vault "$tmp/vault" serve --port "$port" >"$tmp/serve.log" 2>&1 &
server=$!
for _ in $(seq 240); do
    python3 - "$port" <<'PY' 2>/dev/null && break
import sys, urllib.request
urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/v1/health", timeout=2)
PY
    kill -0 "$server" 2>/dev/null || { echo "FAIL: serve exited"; cat "$tmp/serve.log"; exit 1; }
    sleep 0.5
done
out=$(python3 - "$port" "$token" <<'PY'
import sys, urllib.error, urllib.request
url = f"http://127.0.0.1:{sys.argv[1]}/v1/search?q=espresso"
try:
    urllib.request.urlopen(url, timeout=30)
    print("no token: answered")
except urllib.error.HTTPError as exc:
    print(f"no token: {exc.code}")
request = urllib.request.Request(url, headers={"Authorization": f"Bearer {sys.argv[2]}"})
print(urllib.request.urlopen(request, timeout=60).read().decode())
PY
)
grep -q "no token: 401" <<<"$out" || { echo "FAIL: no 401"; echo "$out"; exit 1; }
grep -q '"title":"Espresso ratio"' <<<"$out" || { echo "FAIL: not found"; echo "$out"; cat "$tmp/serve.log"; exit 1; }
kill "$server"
wait "$server" 2>/dev/null || true
server=
echo "401 without the token, search found, stopped"

step "PostgreSQL backend driver"
"$BIN" --vault "$tmp/pg" add --title "Postgres" --body "driver check" >/dev/null
"$BIN" --vault "$tmp/pg" config set search.backend postgres >/dev/null
"$BIN" --vault "$tmp/pg" config set search.postgres_url postgresql://smoke@127.0.0.1:9/pm >/dev/null
out=$("$BIN" --vault "$tmp/pg" status 2>&1)
grep -q "needs psycopg" <<<"$out" && { echo "FAIL: psycopg is not bundled"; echo "$out"; exit 1; }
grep -q "Connection refused" <<<"$out" || { echo "FAIL"; echo "$out"; exit 1; }
echo "psycopg + libpq: connection refused, as expected"

step "window (offscreen, quits after the first show)"
PIXELMEM_QUIT_AFTER_SHOW=1 timeout 120 "$BIN" --vault "$tmp/vault" app
echo "exit 0"

echo "smoke: PASS"
