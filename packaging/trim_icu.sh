#!/usr/bin/env bash
# Replace PySide6's ICU data library in a built app folder with one that holds only what Qt uses:
#   packaging/trim_icu.sh dist/pixelmem/_internal/PySide6/Qt/lib
#
# QtCore links ICU for collation (QCollator: ucol_*), case mapping (QLocale::toUpper/toLower),
# text converters (QStringConverter: ucnv_*) and time-zone names and calendars (ucal_*); it
# calls nothing else (`nm -D --undefined-only libQt6Core.so.6 | grep _73`). The data library
# (libicudata.so.NN, 31 MB) also carries the data of ICU services nobody here calls: break
# iteration and its dictionaries (ubrk), transliteration (utrans), spelled-out numbers (rbnf),
# currency, unit, language and region display names (number/unit/locale-name formatting),
# Unicode character names (u_charName) and spoof checking. Those trees are removed with
# icupkg, the rest is put back into a shared library that exports the same symbol
# (icudtNN_dat) with genccode (both from Debian's icu-devtools, which reads ICU 73's package
# format). Collation, converters, locale and zone data stay whole.
#
# packaging/check_icu_trim.py then asks Qt the same questions with both libraries and fails
# the build if any answer differs.
set -euo pipefail
qtlib=$(realpath "${1:?usage: packaging/trim_icu.sh PATH/TO/PySide6/Qt/lib}")
data=$(find "$qtlib" -maxdepth 1 -type f -name 'libicudata.so.*' -print -quit)
[ -n "$data" ] || { echo "trim_icu: no libicudata.so.* in $qtlib" >&2; exit 1; }
major=${data##*.so.}
entry=icudt${major}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The package is the symbol icudtNN_dat in .rodata: copy its bytes out of the file.
read -r addr size < <(nm -D -S "$data" | awk -v s="${entry}_dat" '$4 == s {print $1, $2}')
[ -n "${addr:-}" ] || { echo "trim_icu: $data has no ${entry}_dat" >&2; exit 1; }
offset=$(readelf -SW "$data" | awk '$2 == ".rodata" {print $4, $5}' | {
    read -r vaddr foff
    echo $((0x$addr - 0x$vaddr + 0x$foff))
})
dd if="$data" of="$work/${entry}l.dat" iflag=skip_bytes,count_bytes skip="$offset" \
    count=$((0x$size)) bs=1M status=none
icupkg -l "$work/${entry}l.dat" > "$work/items"
grep -E '^(brkitr|translit|rbnf|curr|unit|lang|region)/|^unames\.icu$|^confusables' \
    "$work/items" > "$work/remove.txt" || true
# (icupkg takes the argument as a list file because it ends in .txt)
icupkg -r "$work/remove.txt" "$work/${entry}l.dat"
(cd "$work" && genccode -e "$entry" -a gcc "${entry}l.dat" >/dev/null)
gcc -shared -nostdlib -Wl,-soname,"$(basename "$data")" -Wl,-z,noexecstack \
    -o "$work/$(basename "$data")" "$work/${entry}l_dat.S"
before=$(stat -c %s "$data")
after=$(stat -c %s "$work/$(basename "$data")")
[ "$after" -lt $((before * 3 / 4)) ] || { echo "trim_icu: nothing was removed" >&2; exit 1; }
cp "$work/$(basename "$data")" "$data"
echo "ICU data: $(wc -l < "$work/remove.txt") of $(wc -l < "$work/items") items removed," \
    "$((before / 1048576)) MB -> $((after / 1048576)) MB"
