"""A note's other names and properties, editable as Obsidian's properties are (issue 28).

Aliases are a comma list beside the topics (``aliases:`` in the file, in the form it has).
Every other frontmatter key (``publish``, ``cssclasses``, ``description``, a plugin's) is
shown as the YAML lines it is, in a box that the "Properties" button opens; an edited line
changes that key only, a deleted one takes the key out of the file, a new one adds a key
(:func:`parse_properties`). Keys pixelmem owns (title, tags, dates…) have their own fields
and are refused here with a sentence saying where they go.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import yaml
from PySide6.QtCore import Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from pixelmem.core.vault.frontmatter_io import dump_mapping
from pixelmem.core.vault.memory import OWNED_KEYS

SHOWN_LINES = 6


class PropertiesError(ValueError):
    """The text is not ``key: value`` lines of YAML (the message says why, in one line)."""


def properties_text(extra: Mapping[str, Any]) -> str:
    """The properties as YAML lines, in file order ("" when there are none)."""
    return dump_mapping(extra) if extra else ""


def parse_properties(text: str) -> dict[str, Any]:
    """The properties ``text`` says; :class:`PropertiesError` when it is not YAML lines of
    ``key: value`` or names a key pixelmem owns."""
    if not text.strip():
        return {}
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        problem = getattr(exc, "problem", None) or "not YAML"
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark is not None else ""
        raise PropertiesError(f"{problem}{where}") from None
    if not isinstance(data, dict):
        raise PropertiesError("write one “name: value” per line")
    owned = sorted(str(key) for key in data if str(key) in OWNED_KEYS)
    if owned:
        raise PropertiesError(", ".join(owned))
    return {str(key): value for key, value in data.items()}


class PropertiesBox(QWidget):
    """The box of YAML lines; ``edited`` when its text changes (not while being filled)."""

    edited = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = QLabel()
        self.label.setEnabled(False)
        self.edit = QPlainTextEdit()
        self.edit.setObjectName("propertiesEdit")
        self.edit.setTabChangesFocus(True)
        self.edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        lines = self.edit.fontMetrics().lineSpacing()
        self.edit.setFixedHeight(lines * SHOWN_LINES + 12)
        self.label.setBuddy(self.edit)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.label)
        layout.addWidget(self.edit)
        self._shown = ""
        self._filling = False
        self.edit.textChanged.connect(self._changed)
        self.retranslate()

    def retranslate(self) -> None:
        self.label.setText(self.tr("&Properties (one “name: value” per line, as YAML)"))
        self.edit.setPlaceholderText(self.tr("publish: true\ndescription: A short summary"))

    def fill(self, extra: Mapping[str, Any]) -> None:
        self._filling = True
        self._shown = properties_text(extra)
        self.edit.setPlainText(self._shown)
        self._filling = False

    def changed(self) -> bool:
        return self.edit.toPlainText() != self._shown

    def properties(self, old: Mapping[str, Any]) -> tuple[dict[str, Any], tuple[str, ...]]:
        """(the properties to save, the keys deleted); ``old`` as they were when untouched.
        :class:`PropertiesError` when the text cannot be read."""
        if not self.changed():
            return dict(old), ()
        new = parse_properties(self.edit.toPlainText())
        return new, tuple(key for key in old if key not in new)

    def _changed(self) -> None:
        if not self._filling:
            self.edited.emit()
