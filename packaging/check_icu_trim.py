"""Check a trimmed ICU data library (packaging/trim_icu.sh) against PySide6's own.

    .venv/bin/python packaging/check_icu_trim.py dist/pixelmem/_internal/PySide6/Qt/lib

Runs the same Qt calls twice in this Python's PySide6, once with its libicudata and once with
the one in the given folder first on LD_LIBRARY_PATH (Qt's RUNPATH comes after it), and fails
if any answer differs: collation in 11 locales (Chinese pinyin and stroke order, Japanese,
Korean, German, Swedish, …, numeric mode, case-insensitive), locale case mapping (Turkish,
Greek, Lithuanian, …), which text converters exist, time-zone display names of every kind in
four languages, long dates with zone names, and the time-zone list.
"""

from __future__ import annotations

import os
import subprocess
import sys
from functools import cmp_to_key
from pathlib import Path

WORDS = [
    "张三", "李四", "王五", "赵六", "阿", "中文", "日本語", "한국어", "Ärger", "Zebra", "apple",
    "Äpfel", "ångström", "Øre", "item10", "item9", "çedille", "ЖЖ", "Яблоко", "ñandu", "nube",
]  # fmt: skip
COLLATION_LOCALES = [
    "zh_CN", "zh_TW", "ja_JP", "ko_KR", "de_DE", "sv_SE", "en_US", "es_ES", "ru_RU", "fr_FR", "C",
]  # fmt: skip
CODECS = [
    "GBK", "GB18030", "Big5", "Shift_JIS", "EUC-JP", "EUC-KR", "windows-1251", "KOI8-R",
    "ISO-8859-15", "windows-1252", "ISO-2022-JP", "IBM437",
]  # fmt: skip
ZONES = [b"Europe/Berlin", b"Asia/Shanghai", b"America/New_York", b"Australia/Lord_Howe", b"UTC"]


def probe() -> None:
    from PySide6.QtCore import (
        QCollator,
        QCoreApplication,
        QDateTime,
        QLocale,
        QStringDecoder,
        QTimeZone,
    )

    app = QCoreApplication(sys.argv[:1])  # noqa: F841 - Qt wants one for locale data
    with open("/proc/self/maps", encoding="utf-8") as maps:
        mapped = sorted({line.split()[-1] for line in maps if "libicudata" in line})
    print("icudata", mapped, file=sys.stderr)
    for name in COLLATION_LOCALES:
        collator = QCollator(QLocale(name))
        collator.setNumericMode(True)
        print("collate", name, sorted(WORDS, key=cmp_to_key(collator.compare)))
        insensitive = QCollator(QLocale(name))
        insensitive.setCaseSensitivity(type(insensitive.caseSensitivity())(0))
        ordered = collator.sortKey("Ärger").compare(collator.sortKey("Zebra"))
        print("  ", insensitive.compare("abc", "ABC"), (ordered > 0) - (ordered < 0))
    for name in ["tr_TR", "de_DE", "el_GR", "lt_LT", "en_US", "zh_CN"]:
        locale = QLocale(name)
        print("case", name, locale.toUpper("istanbul ıi straße ὀδυσσεύς"))
        print("    ", name, locale.toLower("İSTANBUL Iİ ΣΊΣΥΦΟΣ"))
    for name in CODECS:
        print("codec", name, QStringDecoder(name).isValid(), QStringDecoder(name).name())
    print("codecs", sorted(QStringDecoder.availableCodecs()))
    kinds = [
        (time, name)
        for time in (
            QTimeZone.TimeType.StandardTime,
            QTimeZone.TimeType.DaylightTime,
            QTimeZone.TimeType.GenericTime,
        )
        for name in (
            QTimeZone.NameType.LongName,
            QTimeZone.NameType.ShortName,
            QTimeZone.NameType.OffsetName,
            QTimeZone.NameType.DefaultName,
        )
    ]
    for zone_id in ZONES:
        zone = QTimeZone(zone_id)
        for name in ["en_US", "zh_CN", "de_DE", "ja_JP"]:
            names = [zone.displayName(time, kind, QLocale(name)) for time, kind in kinds]
            print("zone", zone_id.decode(), name, names)
    moment = QDateTime.fromSecsSinceEpoch(1700000000, QTimeZone(b"Asia/Shanghai"))
    for name in ["en_US", "zh_CN", "de_DE"]:
        print("date", name, QLocale(name).toString(moment, QLocale.FormatType.LongFormat))
    print("zones", len(QTimeZone.availableTimeZoneIds()))


def run(library_dir: Path | None) -> tuple[str, str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    if library_dir is not None:
        env["LD_LIBRARY_PATH"] = f"{library_dir}:{env.get('LD_LIBRARY_PATH', '')}"
    done = subprocess.run(
        [sys.executable, __file__, "--probe"], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout, done.stderr


def main() -> int:
    if sys.argv[1:] == ["--probe"]:
        probe()
        return 0
    trimmed_dir = Path(sys.argv[1]).resolve()
    trimmed = next(trimmed_dir.glob("libicudata.so.*"))
    full, full_maps = run(None)
    small, small_maps = run(trimmed_dir)
    if str(trimmed) not in small_maps or str(trimmed) in full_maps:
        print(
            f"check_icu_trim: the probe did not load {trimmed} (only) when asked to",
            file=sys.stderr,
        )
        print(full_maps, small_maps, file=sys.stderr)
        return 1
    if full != small:
        for a, b in zip(full.splitlines(), small.splitlines(), strict=False):
            if a != b:
                print(f"check_icu_trim: differs:\n  full:    {a}\n  trimmed: {b}", file=sys.stderr)
        return 1
    print(
        f"ICU data check: {len(full.splitlines())} answers from Qt identical with the trimmed data"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
