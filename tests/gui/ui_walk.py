"""Walk every widget of a window and collect what it shows a person, for the i18n and layout
tests. Generic on purpose: a view added later is covered without touching these tests.

Texts come from window and dock titles, labels, buttons, placeholders, tooltips, status tips,
combo box items, tab bars, actions (menus, context actions) and the first rows of item views.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

from PySide6.QtCore import QAbstractItemModel, QModelIndex, Qt
from PySide6.QtGui import QAction, QTextDocumentFragment
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QComboBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTabBar,
    QTextEdit,
    QWidget,
)

from pixelmem.gui.i18n.build import I18N_DIR

ROWS = 40  # rows of each item view to read
CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
# Pieces of a composed text ("file.md  ·  updated …", "Title\nsource · date").
SEPARATORS = re.compile(r"\s+·\s+|\n+|\s+—\s+")


def _plain(text: str) -> str:
    if "<" in text and ">" in text:
        return QTextDocumentFragment.fromHtml(text).toPlainText()
    return text


def _model_texts(model: QAbstractItemModel, where: str) -> Iterator[tuple[str, str]]:
    roles = (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole)
    for row in range(min(model.rowCount(QModelIndex()), ROWS)):
        index = model.index(row, 0)
        for role in roles:
            value = model.data(index, role)
            if isinstance(value, str):
                yield where, value


def _action_texts(actions: list[QAction], where: str) -> Iterator[tuple[str, str]]:
    for action in actions:
        for text in (action.text(), action.toolTip(), action.statusTip()):
            yield where, text
        menu = action.menu()
        if menu is not None:
            yield from _action_texts(menu.actions(), where)


def widget_texts(widget: QWidget) -> Iterator[tuple[str, str]]:
    """(where, text) pairs of one widget (not its children)."""
    where = f"{type(widget).__name__}({widget.objectName()})"
    yield where, widget.toolTip()
    yield where, widget.statusTip()
    yield where, widget.whatsThis()
    if widget.isWindow() or hasattr(widget, "toggleViewAction"):
        yield where, widget.windowTitle().replace("[*]", "")
    if isinstance(widget, QLabel):
        yield where, _plain(widget.text())
    if isinstance(widget, QAbstractButton):
        yield where, widget.text()
    if isinstance(widget, QLineEdit | QPlainTextEdit | QTextEdit):
        yield where, widget.placeholderText()
    if isinstance(widget, QGroupBox):
        yield where, widget.title()
    if isinstance(widget, QComboBox):
        for i in range(widget.count()):
            yield where, widget.itemText(i)
            tip = widget.itemData(i, Qt.ItemDataRole.ToolTipRole)
            if isinstance(tip, str):
                yield where, tip
    if isinstance(widget, QTabBar):
        for i in range(widget.count()):
            yield where, widget.tabText(i)
            yield where, widget.tabToolTip(i)
    if isinstance(widget, QAbstractItemView) and widget.model() is not None:
        yield from _model_texts(widget.model(), where)
    yield from _action_texts(widget.actions(), where)


def all_texts(root: QWidget) -> list[tuple[str, str]]:
    """Every non-empty text shown by ``root`` and its descendants (hidden ones too: they may
    be shown later, and must then be in the current language)."""
    found: list[tuple[str, str]] = []
    for widget in [root, *root.findChildren(QWidget)]:
        for where, text in widget_texts(widget):
            if text and text.strip():
                found.append((where, text))
    return found


# -- what counts as "the old language" ----------------------------------------------------


def _pattern(source: str) -> re.Pattern[str]:
    """A translatable source string as a regex: placeholders match anything."""
    text = re.sub(r"&(?!&)", "", source).replace("&&", "&")
    parts = re.split(r"(\{[a-z_]*\}|%n|%L?\d)", text)
    regex = "".join(
        ".+?" if re.fullmatch(r"\{[a-z_]*\}|%n|%L?\d", p) else re.escape(p) for p in parts
    )
    return re.compile(regex, re.DOTALL)


def translated_sources(
    ts: Path = I18N_DIR / "pixelmem_zh_CN.ts",
) -> list[tuple[str, re.Pattern[str]]]:
    """English sources that have a different, finished Chinese translation."""
    found = []
    for message in ET.parse(ts).getroot().iter("message"):
        source = message.findtext("source", "")
        translation = message.find("translation")
        if translation is None or translation.get("type") in ("unfinished", "obsolete", "vanished"):
            continue
        forms = [f.text or "" for f in translation.iter("numerusform")] or [translation.text or ""]
        if source.strip() and any(form and form != source for form in forms):
            found.append((source, _pattern(source)))
    return found


def english_leftovers(root: QWidget) -> list[tuple[str, str, str]]:
    """(where, text, source) for each text that is still an English UI string."""
    sources = translated_sources()
    left = []
    for where, text in all_texts(root):
        pieces = [text, *SEPARATORS.split(text)]
        for piece in pieces:
            piece = piece.strip()
            hit = next((s for s, p in sources if piece and p.fullmatch(piece)), None)
            if hit is not None:
                left.append((where, text, hit))
                break
    return left


def chinese_leftovers(root: QWidget, allowed: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """(where, text) for each text with Chinese characters, ``allowed`` (user content) removed."""
    left = []
    for where, text in all_texts(root):
        rest = text
        for word in allowed:
            rest = rest.replace(word, "")
        if CJK.search(rest):
            left.append((where, text))
    return left
