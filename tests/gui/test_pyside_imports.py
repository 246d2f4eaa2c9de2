"""Imports after Qt: PySide's per-module source check reads bytes, with PySide's own answers."""

from __future__ import annotations

import inspect
import linecache
import sys
from pathlib import Path

import pixelmem.gui  # noqa: F401  (installs the check)
from pixelmem.gui import pyside_imports


def _feature():
    return sys.modules[pyside_imports.FEATURE_MODULE]


def test_the_app_installs_it_with_its_package():
    check = _feature()._mod_uses_pyside
    assert getattr(check, pyside_imports._MARK, False)
    assert pyside_imports.install()  # a second install keeps the one in place
    assert _feature()._mod_uses_pyside is check


def test_a_module_imported_after_qt_is_not_read_through_linecache(tmp_path, monkeypatch):
    (tmp_path / "fresh_module_after_qt.py").write_text("from PySide6 import QtCore\n")
    (tmp_path / "plain_module_after_qt.py").write_text("VALUE = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    reads: list[str] = []
    original = linecache.updatecache

    def counted(filename, *args, **kwargs):
        reads.append(filename)
        return original(filename, *args, **kwargs)

    monkeypatch.setattr(linecache, "updatecache", counted)
    import fresh_module_after_qt  # noqa: F401
    import plain_module_after_qt  # noqa: F401

    assert not [r for r in reads if "_module_after_qt" in r]
    feature = _feature()
    assert feature.pyside_feature_dict["fresh_module_after_qt"] == 0  # uses PySide
    assert feature.pyside_feature_dict["plain_module_after_qt"] == -1  # ignored
    for name in ("fresh_module_after_qt", "plain_module_after_qt"):
        sys.modules.pop(name)
        feature.pyside_feature_dict.pop(name)


def test_its_answers_are_pysides_own_for_every_loaded_module():
    feature = _feature()
    ours = feature._mod_uses_pyside
    import pixelmem.core.errors
    import pixelmem.gui.workers

    modules = [
        m for m in list(sys.modules.values()) if isinstance(getattr(m, "__file__", None), str)
    ]
    assert len(modules) > 100

    def pysides(module) -> bool:
        try:
            return "PySide6" in inspect.getsource(module)  # PySide's check
        except (TypeError, OSError, SyntaxError):
            return False

    differing = [m.__name__ for m in modules if ours(m) != pysides(m)]
    assert not differing
    assert ours(sys.modules["pixelmem.gui.workers"]) and not ours(pixelmem.core.errors)


def test_a_module_without_a_source_file_gets_pysides_answer(tmp_path):
    answers: list[str] = []
    check = pyside_imports.uses_pyside_reading_bytes(lambda m: answers.append(m.__name__) or True)
    builtin = sys.modules["sys"]
    assert check(builtin) and answers == ["sys"]
    gone = type(sys)("gone_module")
    gone.__file__ = str(Path(tmp_path) / "missing.py")
    assert check(gone) and answers == ["sys", "gone_module"]


def test_without_pyside_nothing_is_installed_and_nothing_fails(monkeypatch):
    """The app's package is imported before its system check, which must get to say why Qt
    cannot load."""
    monkeypatch.setitem(sys.modules, "PySide6", None)  # import PySide6 raises ImportError
    assert pyside_imports.install() is False
