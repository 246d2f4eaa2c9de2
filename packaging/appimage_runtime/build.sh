#!/usr/bin/env bash
# Build the AppImage runtime: packaging/appimage_runtime/build.sh OUTPUT
# A static ELF (runs on any x86-64/aarch64 Linux, no libraries needed) from runtime.c and the
# static libraries of Debian's libsquashfuse-dev, libfuse3-dev and the squashfs decompressors
# (libzstd-dev, liblz4-dev, liblzma-dev, liblzo2-dev, zlib1g-dev); then the AppImage type-2
# magic ('A' 'I' 2 at offset 8, in the ELF header's padding, which the kernel ignores).
set -euo pipefail
out=${1:?usage: build.sh OUTPUT}
here=$(dirname "$0")
gcc -std=gnu11 -O2 -Wall -Wextra -Wno-unused-parameter -D_FILE_OFFSET_BITS=64 -static \
    -DRUNTIME_VERSION="\"pixelmem-$(sha256sum "$here/runtime.c" | cut -c1-12)\"" \
    -o "$out" "$here/runtime.c" \
    -lsquashfuse_ll -lsquashfuse -lfuse3 -lzstd -llz4 -llzma -llzo2 -lz -lpthread -ldl
strip "$out"
printf 'AI\002' | dd of="$out" bs=1 seek=8 count=3 conv=notrunc status=none
