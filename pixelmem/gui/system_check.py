"""Can Qt open a window here? Checked before the app starts, so a missing system library is one
clear line with the install command instead of Qt's abort ("could not load the Qt platform
plugin "xcb"… Aborted").

PySide6's wheels carry Qt itself but not the X11 client libraries its ``xcb`` platform plugin
links against; minimal Debian/Ubuntu/Fedora installs lack several of them (``libxcb-cursor0``
first). This module imports no Qt: it asks the dynamic loader (``ldd``) what the plugin would
miss, and falls back to loading the usual libraries one by one where ``ldd`` is absent.
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

# What the xcb plugin links against beyond Qt and glibc (PySide6 6.x, read off `ldd`):
# soname → (Debian/Ubuntu package, Fedora package)
PACKAGES: dict[str, tuple[str, str]] = {
    "libxcb-cursor.so.0": ("libxcb-cursor0", "xcb-util-cursor"),
    "libxcb-icccm.so.4": ("libxcb-icccm4", "xcb-util-wm"),
    "libxcb-keysyms.so.1": ("libxcb-keysyms1", "xcb-util-keysyms"),
    "libxcb-image.so.0": ("libxcb-image0", "xcb-util-image"),
    "libxcb-render-util.so.0": ("libxcb-render-util0", "xcb-util-renderutil"),
    "libxcb-util.so.1": ("libxcb-util1", "xcb-util"),
    "libxcb-xkb.so.1": ("libxcb-xkb1", "libxcb"),
    "libxcb-shape.so.0": ("libxcb-shape0", "libxcb"),
    "libxcb-randr.so.0": ("libxcb-randr0", "libxcb"),
    "libxcb-xfixes.so.0": ("libxcb-xfixes0", "libxcb"),
    "libxcb-sync.so.1": ("libxcb-sync1", "libxcb"),
    "libxcb-shm.so.0": ("libxcb-shm0", "libxcb"),
    "libxcb-render.so.0": ("libxcb-render0", "libxcb"),
    "libxcb.so.1": ("libxcb1", "libxcb"),
    "libxkbcommon-x11.so.0": ("libxkbcommon-x11-0", "libxkbcommon-x11"),
    "libxkbcommon.so.0": ("libxkbcommon0", "libxkbcommon"),
    "libX11-xcb.so.1": ("libx11-xcb1", "libX11-xcb"),
    "libX11.so.6": ("libx11-6", "libX11"),
    "libEGL.so.1": ("libegl1", "libglvnd-egl"),
    "libGL.so.1": ("libgl1", "libglvnd-glx"),
    "libGLX.so.0": ("libglx0", "libglvnd-glx"),
    "libfontconfig.so.1": ("libfontconfig1", "fontconfig"),
    "libfreetype.so.6": ("libfreetype6", "freetype"),
    "libdbus-1.so.3": ("libdbus-1-3", "dbus-libs"),
    "libglib-2.0.so.0": ("libglib2.0-0", "glib2"),
}

_NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found", re.MULTILINE)


def display_problem(env: dict[str, str] | None = None) -> str | None:
    """One line saying why no window can open here, or None when nothing is known to be wrong.

    Only the X11 (``xcb``) platform on Linux is checked: other platforms (Wayland, offscreen,
    macOS, Windows) bring what they need or fail in Qt with a clear message of their own.
    """
    env = dict(os.environ if env is None else env)
    if not sys.platform.startswith("linux") or not _uses_xcb(env):
        return None
    if not env.get("DISPLAY"):
        return (
            "there is no graphical display (DISPLAY is not set): start pixelmem from a desktop "
            "session; the commands (pixelmem --help) work without one"
        )
    missing = missing_libraries(_xcb_plugin_files())
    return missing_message(missing) if missing else None


def missing_message(missing: Iterable[str]) -> str:
    """The one line for the libraries ``missing`` (sonames), with both install commands."""
    names = sorted(set(missing))
    debian = _packages(names, 0)
    fedora = _packages(names, 1)
    return (
        f"the Qt platform plugin 'xcb' cannot load: missing {', '.join(names)}. Install with "
        f"`sudo apt-get install {' '.join(debian)}` (Debian/Ubuntu) or "
        f"`sudo dnf install {' '.join(fedora)}` (Fedora)"
    )


def missing_libraries(
    files: list[Path],
    *,
    run_ldd: Callable[[Path], str | None] | None = None,
    can_load: Callable[[str], bool] | None = None,
) -> list[str]:
    """Sonames the dynamic loader cannot find for ``files`` (and what they link against)."""
    run_ldd = run_ldd or _ldd
    found: list[str] = []
    reports = [run_ldd(f) for f in files if f.exists()]
    if reports and all(r is not None for r in reports):
        for report in reports:
            found += _NOT_FOUND.findall(report or "")
        return list(dict.fromkeys(found))
    can_load = can_load or _can_load  # no ldd (musl, stripped images): try the usual ones
    return [name for name in PACKAGES if not can_load(name)]


def _uses_xcb(env: dict[str, str]) -> bool:
    chosen = env.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0].strip()
    if chosen:
        return chosen == "xcb"
    # Unset: Qt 6 picks Wayland in a Wayland session and X11 otherwise.
    return not (env.get("WAYLAND_DISPLAY") and env.get("XDG_SESSION_TYPE") == "wayland")


def _xcb_plugin_files() -> list[Path]:
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return []
    qt = Path(next(iter(spec.submodule_search_locations))) / "Qt"
    return [qt / "plugins" / "platforms" / "libqxcb.so", qt / "lib" / "libQt6XcbQpa.so.6"]


def _ldd(path: Path) -> str | None:
    ldd = shutil.which("ldd")
    if ldd is None:
        return None
    try:
        done = subprocess.run(
            [ldd, str(path)], capture_output=True, text=True, timeout=10, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout


def _can_load(soname: str) -> bool:
    try:
        ctypes.CDLL(soname)
    except OSError:
        return False
    return True


def _packages(sonames: list[str], column: int) -> list[str]:
    return list(dict.fromkeys(PACKAGES[s][column] if s in PACKAGES else s for s in sonames))
