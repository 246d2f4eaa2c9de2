"""Counts use Qt's plural forms in both languages: "1 memory", "2 memories", "1 条记忆"."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator

import pytest
from PySide6.QtCore import QCoreApplication, QLocale

from pixelmem.gui import i18n
from pixelmem.gui.i18n import TsTranslator
from pixelmem.gui.i18n.build import I18N_DIR


@pytest.fixture(autouse=True)
def _english_afterwards(qapp) -> Iterator[None]:
    yield
    i18n.install_translator("en")
    QLocale.setDefault(QLocale("en_US"))


def _count(n: int) -> str:
    return QCoreApplication.translate("MemoryListPanel", "%Ln memories", "", n)


def test_english_singular_and_plural() -> None:
    QLocale.setDefault(QLocale("en_US"))
    i18n.install_translator("en")
    assert [_count(n) for n in (0, 1, 2, 1234)] == [
        "0 memories",
        "1 memory",
        "2 memories",
        "1,234 memories",
    ]
    text = QCoreApplication.translate("SearchPanel", "%Ln results · {ms} ms", "", 1)
    assert text.format(ms=3) == "1 result · 3 ms"


def test_chinese_has_one_form() -> None:
    i18n.install_translator("zh_CN")
    assert [_count(n) for n in (1, 2)] == ["1 条记忆", "2 条记忆"]


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_ts_fallback_reads_plural_forms(qapp, language: str) -> None:
    translator = TsTranslator(I18N_DIR / f"pixelmem_{language}.ts")
    app = QCoreApplication.instance()
    i18n.install_translator("en")
    for installed in list(i18n._installed):
        app.removeTranslator(installed)
    app.installTranslator(translator)
    try:
        expected = {"en": ["1 memory", "2 memories"], "zh_CN": ["1 条记忆", "2 条记忆"]}
        assert [_count(1), _count(2)] == expected[language]
    finally:
        app.removeTranslator(translator)


def _numerus_sources(ts: str) -> set[tuple[str, str]]:
    found = set()
    for context in ET.parse(I18N_DIR / ts).getroot().iter("context"):
        for message in context.iter("message"):
            if message.get("numerus") == "yes":
                forms = [f.text for f in message.iter("numerusform")]
                assert forms and all(forms), message.findtext("source")
                found.add((context.findtext("name", ""), message.findtext("source", "")))
    return found


def test_every_plural_has_its_forms_in_both_languages() -> None:
    chinese = _numerus_sources("pixelmem_zh_CN.ts")
    assert chinese and chinese == _numerus_sources("pixelmem_en.ts")


def test_the_list_and_inbox_say_one_not_ones(qtbot, window) -> None:
    panel = window.list_panel
    panel.topic_combo.setCurrentIndex(panel.topic_combo.findData("coffee"))
    assert panel.count_label.text() == "1 of 5 memories"
    window.inbox.drafts = window.inbox.drafts[:0]
    window.inbox._update_count()
    assert "No drafts" in window.inbox.count_label.text()
