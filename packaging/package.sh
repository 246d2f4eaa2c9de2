#!/usr/bin/env bash
# Build the app folder, check it and wrap it for Linux. Run through `./dev.sh package`, which
# sets up .venv with the `packaging` extra first. Steps:
#   1. PyInstaller one-folder build from packaging/pixelmem.spec -> dist/pixelmem/ (size printed),
#      debug symbols stripped, ICU data trimmed to what Qt uses (trim_icu.sh, checked)
#   2. desktop-file-validate and appstreamcli validate --no-net on resources/
#   3. packaging/smoke_test.sh on the built binary (offscreen, throw-away vault)
#   4. dist/pixelmem-VERSION-ARCH.AppImage: the AppDir in a squashfs behind an AppImage runtime
#      built from packaging/appimage_runtime/ (or APPIMAGE_RUNTIME=/path/to/runtime-x86_64)
#   5. the smoke test again on the AppImage, extracted (no FUSE) and, where FUSE works, mounted
set -euo pipefail
cd "$(dirname "$0")/.."
PYBIN=.venv/bin
DESKTOP=resources/pixelmem.desktop
METAINFO=resources/io.github.pixelmem.pixelmem.metainfo.xml

need_dev() {  # need_dev DEBIAN-PACKAGE...: the -dev packages the AppImage runtime is built from
    local missing=() package
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
            missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        apt-get install -y -qq "${missing[@]}" >/dev/null ||
            { apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null; }
    else
        echo "package: to build the AppImage runtime: sudo apt-get install ${missing[*]}" >&2
        return 1
    fi
}

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
# Qt's xcb plugin links these two; PyInstaller bundles them only when the build machine has them
# (without them the app cannot open its window under X11 where the system lacks them too).
need_dev libxcb-icccm4 libxcb-keysyms1
"$PYBIN/python" -m pixelmem.gui.i18n.build >/dev/null
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

echo "== 4. AppImage"
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
# An AppImage (type 2) is the runtime ELF followed by a squashfs of the AppDir. The runtime is
# built here from appimage_runtime/ and Debian's static libraries (see packaging/README.md), unless
# APPIMAGE_RUNTIME names another one (e.g. upstream's runtime-x86_64).
need mksquashfs squashfs-tools
runtime=${APPIMAGE_RUNTIME:-}
if [ -z "$runtime" ]; then
    need_dev libsquashfuse-dev libfuse3-dev libzstd-dev liblz4-dev liblzma-dev liblzo2-dev zlib1g-dev
    runtime=build/appimage-runtime-$arch
    packaging/appimage_runtime/build.sh "$runtime" 2> >(grep -v -e "statically linked applications" -e "in function .fuse_get_module" >&2)
    echo "AppImage runtime: $runtime, $(($(stat -c %s "$runtime") / 1024)) KB, static"
fi
out=dist/pixelmem-$version-$arch.AppImage
rm -f build/pixelmem.squashfs "$out"
mksquashfs "$appdir" build/pixelmem.squashfs -root-owned -noappend -comp zstd -quiet
cat "$runtime" build/pixelmem.squashfs > "$out"
chmod +x "$out"
rm build/pixelmem.squashfs
echo "$out: $(du -sm "$out" | cut -f1) MB"

echo "== 5. smoke test of the AppImage"
echo "-- without FUSE (--appimage-extract-and-run, as where /dev/fuse is missing)"
APPIMAGE_EXTRACT_AND_RUN=1 packaging/smoke_test.sh "$out"
# Mounted (the normal start) where FUSE works; the runtime's own message says when it does not.
if "$out" --version >/dev/null 2>build/fuse-probe.log; then
    echo "-- mounted with FUSE"
    packaging/smoke_test.sh "$out"
elif grep -q "cannot mount the image with FUSE" build/fuse-probe.log; then
    echo "-- FUSE is not available here, the mounted start is not tested:"
    head -1 build/fuse-probe.log
else
    cat build/fuse-probe.log >&2
    exit 1
fi
