#!/usr/bin/env bash
# pixelmem developer entry point.
#   ./dev.sh app [ARGS]    set up .venv (first time) and start the app
#   ./dev.sh test [ARGS]   set up .venv with test extras and run the test suite with coverage
#   ./dev.sh bench NAME    run benchmarks/bench_NAME.py (installs the bench extra)
#   ./dev.sh package       build, validate and smoke-test dist/pixelmem/ and a Linux bundle
#                          (installs the packaging extra; see packaging/README.md)
#   ./dev.sh lock          resolve every dependency afresh into constraints.txt (then run the
#                          tests: a new release of onnxruntime or tokenizers can move scores)
#
# Every setup installs the versions pinned in constraints.txt, so a fresh clone tests what CI
# tested; pyproject.toml keeps the ranges users install from.
set -euo pipefail
cd "$(dirname "$0")"

PY=${PYTHON:-python3}
VENV=.venv

setup() {
    local extras=$1
    local stamp="$VENV/.pixelmem-setup-$extras"
    local want
    want=$(cat pyproject.toml constraints.txt | "$PY" -c 'import hashlib,sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())')
    if [ ! -x "$VENV/bin/python" ]; then
        "$PY" -m venv "$VENV"
    fi
    if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
        "$VENV/bin/python" -m pip install --quiet --upgrade pip
        # setuptools prints a banner about editable installs on every build: not for users.
        if [ "$extras" = base ]; then
            PYTHONWARNINGS=ignore::UserWarning "$VENV/bin/python" -m pip install --quiet \
                -c constraints.txt -e .
        else
            PYTHONWARNINGS=ignore::UserWarning "$VENV/bin/python" -m pip install --quiet \
                -c constraints.txt -e ".[$extras]"
        fi
        echo "$want" > "$stamp"
        path_hint
    fi
    "$VENV/bin/python" -m pixelmem.gui.i18n.build >/dev/null 2>&1 || true
}

path_hint() {
    # The README's commands say `pixelmem …`: say once how to get it on PATH.
    if ! command -v pixelmem >/dev/null 2>&1; then
        echo "pixelmem is set up in $PWD/$VENV. To run \`pixelmem\` from any folder:" >&2
        echo "  pipx install $PWD    (or: uv tool install $PWD)" >&2
        echo "  or: mkdir -p ~/.local/bin && ln -sf $PWD/$VENV/bin/pixelmem ~/.local/bin/pixelmem" >&2
    fi
}

lock() {
    # Resolve every extra afresh in a throw-away venv and pin what it got.
    local tmp
    tmp=$(mktemp -d)
    "$PY" -m venv "$tmp/venv"
    "$tmp/venv/bin/python" -m pip install --quiet --upgrade pip
    PYTHONWARNINGS=ignore::UserWarning "$tmp/venv/bin/python" -m pip install --quiet \
        ".[test,bench,packaging]"
    {
        echo "# Exact versions ./dev.sh installs (pip -c). Refresh: ./dev.sh lock, then ./dev.sh test."
        "$tmp/venv/bin/python" -m pip freeze --exclude-editable | grep -vi '^pixelmem'
    } > constraints.txt
    rm -rf "$tmp"
    echo "constraints.txt refreshed: run ./dev.sh test before committing it" >&2
}

cmd=${1:-app}
shift || true
case "$cmd" in
    app)
        setup base
        exec "$VENV/bin/pixelmem" "$@"
        ;;
    test)
        setup test
        export QT_QPA_PLATFORM=offscreen
        if [ $# -gt 0 ] || [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null 2>&1; then
            exec "$VENV/bin/python" -m pytest --cov=pixelmem --cov-report=term "$@"
        fi
        "$VENV/bin/python" -m pytest --cov=pixelmem --cov-report=term
        # As root the kernel ignores file modes, so the permission tests skip above. Run them
        # again as root without the capabilities that override them (like a normal account).
        echo "== the permission tests again, without CAP_DAC_OVERRIDE (as a normal user would)"
        exec setpriv --bounding-set=-dac_override,-dac_read_search,-fowner -- \
            "$VENV/bin/python" -m pytest -q -p no:cacheprovider -m permissions
        ;;
    bench)
        setup "test,bench"
        name=${1:?usage: ./dev.sh bench NAME}
        shift
        exec "$VENV/bin/python" "benchmarks/bench_$name.py" "$@"
        ;;
    package)
        setup packaging
        exec packaging/package.sh "$@"
        ;;
    lock)
        lock
        ;;
    *)
        echo "usage: ./dev.sh app|test|bench NAME|package|lock" >&2
        exit 2
        ;;
esac
