#!/usr/bin/env bash
# Smoke test of a built pixelmem binary, offscreen, in a throw-away vault and user folders:
#   packaging/smoke_test.sh dist/pixelmem/pixelmem
# --version; add a memory; a semantic search across languages (so the bundled multilingual
# model must load and embed offline); status; the window opened offscreen and closed. Exit 0 = pass.
set -euo pipefail
BIN=$(realpath "${1:?usage: packaging/smoke_test.sh PATH/TO/pixelmem}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
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

step "window (offscreen, quits after the first show)"
PIXELMEM_QUIT_AFTER_SHOW=1 timeout 120 "$BIN" --vault "$tmp/vault" app
echo "exit 0"

echo "smoke: PASS"
