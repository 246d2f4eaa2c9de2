"""Compile the UI translations: ``python -m pixelmem.gui.i18n.build`` (``.ts`` → ``.qm``).

``python -m pixelmem.gui.i18n.build --update`` first runs ``lupdate`` over ``pixelmem/gui`` so
new ``tr()`` strings appear in the ``.ts`` (existing translations are kept) for Qt Linguist.
``pixelmem_en.ts`` holds only the English plural forms of the ``tr("%n …", "", n)`` strings.

``.qm`` files are build output (git-ignored). ``dev.sh`` runs this at set-up and
:func:`pixelmem.gui.i18n.install_translator` runs it lazily when a ``.qm`` is missing or older
than its ``.ts``; without ``lrelease`` the app reads the ``.ts`` directly, so a translation is
never lost for want of a build tool.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

I18N_DIR = Path(__file__).resolve().parent  # the .ts files are beside this module

# The source strings are English; this file only holds the plural forms of the ``%n`` ones.
ENGLISH_PLURALS = "pixelmem_en.ts"


def find_tool(name: str) -> list[str] | None:
    """The command that runs Qt's ``lrelease`` / ``lupdate``: PySide6's own copy first."""
    try:
        import PySide6

        exe = name + (".exe" if sys.platform == "win32" else "")
        bundled = Path(PySide6.__file__).parent / exe
        if bundled.is_file():
            return [str(bundled)]
    except ImportError:  # pragma: no cover - PySide6 is a dependency
        pass
    beside_python = Path(sys.executable).parent / f"pyside6-{name}"
    if beside_python.is_file():
        return [str(beside_python)]
    for candidate in (f"pyside6-{name}", f"{name}6", name):
        found = shutil.which(candidate)
        if found:
            return [found]
    return None


def find_lrelease() -> list[str] | None:
    return find_tool("lrelease")


def compile_ts(ts: Path, qm: Path) -> bool:
    """Run lrelease on one file; True when ``qm`` was written."""
    command = find_lrelease()
    if command is None:
        return False
    qm.parent.mkdir(parents=True, exist_ok=True)
    try:
        done = subprocess.run(
            [*command, "-silent", str(ts), "-qm", str(qm)],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0 and qm.is_file()


def update_ts() -> bool:
    """Merge the current ``tr()`` strings of ``pixelmem/gui`` into every ``.ts``."""
    command = find_tool("lupdate")
    if command is None:
        print("lupdate not found", file=sys.stderr)
        return False
    sources = sorted(str(p) for p in I18N_DIR.parent.rglob("*.py"))  # every gui package
    ok = True
    for ts in sorted(I18N_DIR.glob("*.ts")):
        args = [*command, *sources, "-no-obsolete", "-locations", "absolute", "-ts", str(ts)]
        if ts.name == ENGLISH_PLURALS:
            args.insert(-2, "-pluralonly")  # English needs only its "1 memory / 2 memories"
        ok = subprocess.run(args, check=False).returncode == 0 and ok
    return ok


def main() -> int:
    if "--update" in sys.argv[1:] and not update_ts():
        return 1
    sources = sorted(I18N_DIR.glob("*.ts"))
    failed = 0
    for ts in sources:
        qm = ts.with_suffix(".qm")
        if compile_ts(ts, qm):
            print(f"compiled {qm.name}")
        else:
            failed += 1
            print(
                f"could not compile {ts.name} (no lrelease?); the app will read the .ts",
                file=sys.stderr,
            )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
