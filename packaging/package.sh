#!/usr/bin/env bash
# Build the app folder, check it and wrap it for Linux. Run through `./dev.sh package`, which
# sets up .venv with the `packaging` extra first. Steps:
#   1. PyInstaller one-folder build from packaging/pixelmem.spec -> dist/pixelmem/ (size printed),
#      debug symbols stripped, ICU data trimmed to what Qt uses (trim_icu.sh, checked)
#   2. desktop-file-validate and appstreamcli validate --no-net on resources/
#   3. packaging/smoke_test.sh on the built binary (offscreen, throw-away vault)
#   4. an AppImage when an AppImage runtime is given (APPIMAGE_RUNTIME=/path/to/runtime-x86_64),
#      else dist/pixelmem-VERSION-linux-ARCH.tar.gz (see packaging/README.md for why)
set -euo pipefail
cd "$(dirname "$0")/.."
PYBIN=.venv/bin
DESKTOP=resources/pixelmem.desktop
METAINFO=resources/io.github.pixelmem.pixelmem.metainfo.xml

need() {  # need COMMAND DEBIAN-PACKAGE: install it when we are root on Debian, else say how
    command -v "$1" >/dev/null 2>&1 && return 0
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        apt-get install -y -qq "$2" >/dev/null || { apt-get update -qq && apt-get install -y -qq "$2" >/dev/null; }
    else
        echo "package: $1 is missing; install it with: sudo apt-get install $2" >&2
        return 1
    fi
}

strip_libraries() {  # strip_libraries DIR: drop debug symbols from the shared libraries in DIR
    # Not the ones auditwheel vendored or re-linked with patchelf (in a *.libs/ folder, or with
    # an RPATH/RUNPATH pointing into one): strip breaks those ("ELF load command address/offset
    # not page-aligned", numpy's OpenBLAS). Nor the executable, which carries PyInstaller's
    # archive.
    local file saved=0 before
    while IFS= read -r -d '' file; do
        case "$file" in *.libs/*) continue ;; esac
        if readelf -d "$file" 2>/dev/null | grep -E '\((RPATH|RUNPATH)\)' | grep -q '\.libs'; then
            continue
        fi
        before=$(stat -c %s "$file")
        strip --strip-unneeded "$file" 2>/dev/null || continue
        saved=$((saved + before - $(stat -c %s "$file")))
    done < <(find "$1" -type f \( -name '*.so' -o -name '*.so.*' \) -print0)
    echo "stripped debug symbols: $((saved / 1048576)) MB"
}

echo "== 1. PyInstaller build"
"$PYBIN/python" -m pixelmem.gui.i18n_build >/dev/null
"$PYBIN/pyinstaller" packaging/pixelmem.spec --noconfirm --log-level WARN \
    --distpath dist --workpath build/pyinstaller
echo "dist/pixelmem: $(du -sm dist/pixelmem | cut -f1) MB as built"
strip_libraries dist/pixelmem
need gcc gcc
need icupkg icu-devtools
need genccode icu-devtools
packaging/trim_icu.sh dist/pixelmem/_internal/PySide6/Qt/lib
"$PYBIN/python" packaging/check_icu_trim.py dist/pixelmem/_internal/PySide6/Qt/lib
version=$(dist/pixelmem/pixelmem --version | awk '{print $2}')
arch=$(uname -m)
echo "dist/pixelmem: $(du -sm dist/pixelmem | cut -f1) MB unpacked after stripping and the ICU trim, version $version"

echo "== 2. desktop entry and metainfo"
need desktop-file-validate desktop-file-utils
need appstreamcli appstream
desktop-file-validate "$DESKTOP"
appstreamcli validate --no-net "$METAINFO"

echo "== 3. smoke test"
packaging/smoke_test.sh dist/pixelmem/pixelmem

echo "== 4. Linux bundle"
appdir=build/pixelmem.AppDir
rm -rf "$appdir" && mkdir -p "$appdir/usr/lib" "$appdir/usr/share/metainfo" "$appdir/usr/share/applications"
cp -a dist/pixelmem "$appdir/usr/lib/pixelmem"
cp "$DESKTOP" "$appdir/pixelmem.desktop"
cp "$DESKTOP" "$appdir/usr/share/applications/pixelmem.desktop"
cp "$METAINFO" "$appdir/usr/share/metainfo/"
cp resources/icons/pixelmem-256.png "$appdir/pixelmem.png"
ln -s pixelmem.png "$appdir/.DirIcon"
cat > "$appdir/AppRun" <<'APPRUN'
#!/bin/sh
HERE=$(dirname "$(readlink -f "$0")")
exec "$HERE/usr/lib/pixelmem/pixelmem" "$@"
APPRUN
chmod +x "$appdir/AppRun"
if [ -n "${APPIMAGE_RUNTIME:-}" ]; then
    # An AppImage (type 2) is the runtime ELF followed by a squashfs of the AppDir.
    need mksquashfs squashfs-tools
    out=dist/pixelmem-$version-$arch.AppImage
    mksquashfs "$appdir" build/pixelmem.squashfs -root-owned -noappend -comp zstd -quiet
    cat "$APPIMAGE_RUNTIME" build/pixelmem.squashfs > "$out"
    chmod +x "$out"
    echo "$out: $(du -sm "$out" | cut -f1) MB"
    APPIMAGE_EXTRACT_AND_RUN=1 packaging/smoke_test.sh "$out"
else
    out=dist/pixelmem-$version-linux-$arch.tar.gz
    tar -C build -czf "$out" --transform "s,^pixelmem.AppDir,pixelmem-$version," pixelmem.AppDir
    echo "$out: $(du -sm "$out" | cut -f1) MB (no AppImage: set APPIMAGE_RUNTIME, see packaging/README.md)"
fi
