"""Every string the code marks for translation has its Chinese translation, in the context the
code looks it up in (a class moved or renamed looks its strings up under its new name)."""

from __future__ import annotations

import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pixelmem.gui.i18n.build import I18N_DIR, find_tool


def _messages(ts: Path) -> dict[tuple[str, str], str | None]:
    """(context, source) -> the translation's type ("unfinished", …) or None when done."""
    found = {}
    for context in ET.parse(ts).getroot().iter("context"):
        for message in context.iter("message"):
            translation = message.find("translation")
            key = (context.findtext("name", ""), message.findtext("source", ""))
            found[key] = translation.get("type") if translation is not None else "unfinished"
    return found


def test_lupdate_finds_nothing_new_or_unfinished(tmp_path: Path) -> None:
    lupdate = find_tool("lupdate")
    if lupdate is None:
        pytest.skip("lupdate is not installed")
    ts = tmp_path / "check.ts"
    shutil.copy(I18N_DIR / "pixelmem_zh_CN.ts", ts)
    sources = sorted(str(p) for p in I18N_DIR.parent.rglob("*.py"))
    done = subprocess.run(
        [*lupdate, *sources, "-no-obsolete", "-locations", "none", "-ts", str(ts)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    after, before = _messages(ts), _messages(I18N_DIR / "pixelmem_zh_CN.ts")
    assert [key for key, kind in after.items() if kind] == [], "strings without a translation"
    assert sorted(set(before) - set(after)) == [], "translations the code no longer asks for"
