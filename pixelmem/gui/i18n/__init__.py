"""UI language: English source strings, Simplified Chinese from ``pixelmem_zh_CN.ts`` here.

This package holds the translations (``.ts``; ``.qm`` built from them by :mod:`.build`), the
translator installed here and the live switch (:mod:`.retranslate`). It imports nothing from
the other gui packages: every view only calls ``tr()`` and has a ``retranslate()``.

The language is the setting's (``""``, ``"en"``, ``"zh_CN"``) or else the system locale's. The
compiled ``.qm`` is used when present and current, built on the spot when it is not, and the
``.ts`` itself is read as a last resort (:class:`TsTranslator`).
"""

from __future__ import annotations

import logging
from pathlib import Path

import platformdirs
from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

log = logging.getLogger(__name__)

I18N_DIR = Path(__file__).resolve().parent  # the .ts files
SUPPORTED = ("en", "zh_CN")
_installed: list[QTranslator] = []


def resolve_language(setting: str) -> str:
    """``setting`` if given, else the system's language if we have it, else English."""
    if setting in SUPPORTED:
        return setting
    return "zh_CN" if QLocale.system().name().startswith("zh") else "en"


def install_translator(language: str) -> str:
    """Make ``language`` the UI language of the running app; returns the one installed."""
    app = QCoreApplication.instance()
    assert app is not None, "create the QApplication first"
    for old in _installed:
        app.removeTranslator(old)
    _installed.clear()
    language = resolve_language(language)
    if not QLocale.system().name().startswith(language.split("_")[0]):
        QLocale.setDefault(QLocale(language))  # dates and numbers follow a chosen language
    # English too: its .ts holds the plural forms ("1 memory", "2 memories") of tr("%n …").
    qt_own = _qt_translator(language) if language != "en" else None
    for translator in (qt_own, _app_translator(language)):
        if translator is not None and app.installTranslator(translator):
            _installed.append(translator)
    return language


def _app_translator(language: str) -> QTranslator | None:
    ts = I18N_DIR / f"pixelmem_{language}.ts"
    if not ts.is_file():
        log.warning("no translation for %s", language)
        return None
    qm = _current_qm(ts)
    if qm is not None:
        translator = QTranslator(QCoreApplication.instance())
        if translator.load(str(qm)):
            return translator
    return TsTranslator(ts, QCoreApplication.instance())


def _current_qm(ts: Path) -> Path | None:
    """A ``.qm`` at least as new as ``ts``: the packaged one, a cached one, or a fresh build."""
    cache = Path(platformdirs.user_cache_dir("pixelmem")) / "i18n" / ts.with_suffix(".qm").name
    for qm in (ts.with_suffix(".qm"), cache):
        if qm.is_file() and qm.stat().st_mtime >= ts.stat().st_mtime:
            return qm
    from pixelmem.gui.i18n.build import compile_ts  # not run as ``-m …build`` twice

    for qm in (ts.with_suffix(".qm"), cache):  # the package folder may be read-only
        if compile_ts(ts, qm):
            return qm
    return None


def _qt_translator(language: str) -> QTranslator | None:
    """Qt's own strings (standard buttons: Save, Cancel, …)."""
    translator = QTranslator(QCoreApplication.instance())
    folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    return translator if translator.load(f"qtbase_{language}", folder) else None


class TsTranslator(QTranslator):
    """Serves translations straight from a Qt Linguist ``.ts`` file (no lrelease needed).

    Plural forms: Chinese has one, English two (singular for n == 1); the other languages
    Qt knows are not needed here."""

    def __init__(self, ts: Path, parent: QCoreApplication | None = None) -> None:
        super().__init__(parent)
        self._table: dict[tuple[str, str], str] = {}
        self._plurals: dict[tuple[str, str], list[str]] = {}
        import xml.etree.ElementTree as ET  # only without a compiled .qm: not at every launch

        root = ET.parse(ts).getroot()
        self._singular_differs = root.get("language", "").startswith("en")
        for context in root.iter("context"):
            name = context.findtext("name", "")
            for message in context.iter("message"):
                source = message.findtext("source", "")
                translation = message.find("translation")
                if translation is None or translation.get("type") in (
                    "unfinished",
                    "obsolete",
                    "vanished",
                ):
                    continue
                forms = [form.text or "" for form in translation.iter("numerusform")]
                if forms and all(forms):
                    self._plurals[(name, source)] = forms
                elif translation.text and translation.text.strip():
                    self._table[(name, source)] = translation.text

    def translate(
        self, context: str, source: str, disambiguation: str | None = None, n: int = -1
    ) -> str:
        forms = self._plurals.get((context, source))
        if forms:
            plural = not self._singular_differs or n != 1
            return forms[min(int(plural), len(forms) - 1)]
        return self._table.get((context, source), "")

    def isEmpty(self) -> bool:
        return not (self._table or self._plurals)
