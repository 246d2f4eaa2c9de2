"""Compile the UI translations: ``python -m pixelmem.gui.i18n_build`` (``.ts`` → ``.qm``).

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

I18N_DIR = Path(__file__).resolve().parent / "i18n"


def find_lrelease() -> list[str] | None:
    """The command that runs Qt's ``lrelease``: PySide6's own copy first."""
    try:
        import PySide6

        bundled = Path(PySide6.__file__).parent / (
            "lrelease.exe" if sys.platform == "win32" else "lrelease"
        )
        if bundled.is_file():
            return [str(bundled)]
    except ImportError:  # pragma: no cover - PySide6 is a dependency
        pass
    beside_python = Path(sys.executable).parent / "pyside6-lrelease"
    if beside_python.is_file():
        return [str(beside_python)]
    for name in ("pyside6-lrelease", "lrelease6", "lrelease"):
        found = shutil.which(name)
        if found:
            return [found]
    return None


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


def main() -> int:
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
