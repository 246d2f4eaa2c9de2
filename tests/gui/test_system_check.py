"""The one-line message for a desktop that cannot show Qt windows (issue: first run on Debian)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pixelmem import cli
from pixelmem.gui import system_check
from pixelmem.gui.system_check import display_problem, missing_libraries, missing_message

LDD_MISSING_CURSOR = """\
\tlinux-vdso.so.1 (0x00007ffd)
\tlibxcb-cursor.so.0 => not found
\tlibxcb-icccm.so.4 => not found
\tlibxcb.so.1 => /lib/x86_64-linux-gnu/libxcb.so.1 (0x00007f)
"""

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="xcb is Linux")


def test_ldd_report_names_the_missing_libraries(tmp_path: Path) -> None:
    plugin = tmp_path / "libqxcb.so"
    plugin.write_bytes(b"")
    missing = missing_libraries([plugin], run_ldd=lambda _: LDD_MISSING_CURSOR)
    assert missing == ["libxcb-cursor.so.0", "libxcb-icccm.so.4"]


def test_without_ldd_the_usual_libraries_are_loaded_one_by_one(tmp_path: Path) -> None:
    plugin = tmp_path / "libqxcb.so"
    plugin.write_bytes(b"")
    missing = missing_libraries(
        [plugin], run_ldd=lambda _: None, can_load=lambda name: name != "libxcb-keysyms.so.1"
    )
    assert missing == ["libxcb-keysyms.so.1"]


def test_message_is_one_line_with_both_install_commands() -> None:
    text = missing_message(["libxcb-icccm.so.4", "libxcb-cursor.so.0", "libxcb-shape.so.0"])
    assert "\n" not in text
    assert "missing libxcb-cursor.so.0, libxcb-icccm.so.4, libxcb-shape.so.0" in text
    assert "sudo apt-get install libxcb-cursor0 libxcb-icccm4 libxcb-shape0" in text
    assert "sudo dnf install xcb-util-cursor xcb-util-wm libxcb" in text


@linux_only
def test_offscreen_and_wayland_are_not_checked() -> None:
    assert display_problem({"QT_QPA_PLATFORM": "offscreen"}) is None
    wayland = {"WAYLAND_DISPLAY": "wayland-0", "XDG_SESSION_TYPE": "wayland"}
    assert display_problem(wayland) is None


@linux_only
def test_no_display_is_said_plainly() -> None:
    problem = display_problem({"QT_QPA_PLATFORM": "xcb"})
    assert problem is not None and "DISPLAY is not set" in problem


@linux_only
def test_plugin_that_cannot_load_stops_the_app_with_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Simulated: the loader reports the xcb plugin's libraries missing; no window is tried."""
    plugin = tmp_path / "libqxcb.so"
    plugin.write_bytes(b"")
    monkeypatch.setenv("DISPLAY", ":99")
    monkeypatch.setenv("QT_QPA_PLATFORM", "xcb")
    monkeypatch.setattr(system_check, "_xcb_plugin_files", lambda: [plugin])
    monkeypatch.setattr(system_check, "_ldd", lambda _: LDD_MISSING_CURSOR)
    started: list[object] = []
    monkeypatch.setattr("pixelmem.gui.app.run_app", lambda **kw: started.append(kw) or 0)
    code = cli.main(["--vault", str(tmp_path / "v")])
    err = capsys.readouterr().err
    assert code == 1 and not started
    assert err.count("\n") == 1
    assert err.startswith("pixelmem: error: the Qt platform plugin 'xcb' cannot load")
    assert "libxcb-cursor0" in err


@linux_only
def test_real_plugin_check_runs_here() -> None:
    """On this machine (whatever it has installed) the check answers, and quickly."""
    files = system_check._xcb_plugin_files()
    assert files and files[0].name == "libqxcb.so"
    assert isinstance(missing_libraries(files), list)
