"""Dialogs of the chat pane: the exact prompt sent, and the draft of a memory to save."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from pixelmem.core.vault.memory import DEFAULT_IMPORTANCE, IMPORTANCE_LEVELS

TITLE_LIMIT = 80
_MARKUP = re.compile(r"^\s*(#{1,6}\s+|[-*+]\s+|>\s*|\d+[.)]\s+)+")
_EMPHASIS = re.compile(r"(\*\*|__|\*|_|`)")


@dataclass
class Draft:
    """A memory not saved yet: what the dialog shows and the person edits."""

    title: str
    body: str
    topics: list[str] = field(default_factory=list)
    importance: str = DEFAULT_IMPORTANCE
    source: str = "chat"


def title_from_text(text: str) -> str:
    """The first non-empty line, without Markdown markup, cut on a word near 80 characters."""
    for line in text.splitlines():
        line = _EMPHASIS.sub("", _MARKUP.sub("", line)).strip()
        if line:
            if len(line) <= TITLE_LIMIT:
                return line
            cut = line[: TITLE_LIMIT - 1]
            space = cut.rfind(" ")
            return (cut[:space] if space > TITLE_LIMIT // 2 else cut).rstrip(" ,;:.") + "…"
    return ""


def draft_from_text(text: str, topics: list[str] | None = None) -> Draft:
    return Draft(title=title_from_text(text), body=text.strip(), topics=list(topics or []))


class SaveMemoryDialog(QDialog):
    """A pre-filled draft; nothing is saved until the person presses Save."""

    def __init__(self, draft: Draft, parent: QWidget | None = None, error: str = "") -> None:
        super().__init__(parent)
        self.setObjectName("saveMemoryDialog")
        self.title_edit = QLineEdit(draft.title)
        self.topics_edit = QLineEdit(", ".join(draft.topics))
        self.importance_combo = QComboBox()
        for level in IMPORTANCE_LEVELS:
            self.importance_combo.addItem(self._level_name(level), level)
        self.importance_combo.setCurrentIndex(IMPORTANCE_LEVELS.index(draft.importance))
        self.body_edit = QPlainTextEdit(draft.body)
        self.source = draft.source
        self.source_label = QLabel(draft.source)
        self.error_label = QLabel(error)
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet("color: #d9534f;")
        self.error_label.setVisible(bool(error))
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        form = QFormLayout()
        form.addRow(self.tr("Title"), self.title_edit)
        form.addRow(self.tr("Topics"), self.topics_edit)
        form.addRow(self.tr("Importance"), self.importance_combo)
        form.addRow(self.tr("Source"), self.source_label)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.body_edit, 1)
        layout.addWidget(self.error_label)
        layout.addWidget(self.buttons)
        self.setWindowTitle(self.tr("Save as Memory"))
        self.topics_edit.setPlaceholderText(self.tr("comma-separated, e.g. coffee, recipes"))
        self.resize(560, 460)

    def _level_name(self, level: str) -> str:
        return {"low": self.tr("Low"), "medium": self.tr("Medium"), "high": self.tr("High")}[level]

    def draft(self) -> Draft:
        topics = [t.strip() for t in re.split(r"[,，]", self.topics_edit.text()) if t.strip()]
        return Draft(
            title=self.title_edit.text().strip(),
            body=self.body_edit.toPlainText(),
            topics=list(dict.fromkeys(topics)),
            importance=self.importance_combo.currentData(),
            source=self.source,
        )

    def accept(self) -> None:
        if not self.title_edit.text().strip():
            self.error_label.setText(self.tr("A memory needs a title."))
            self.error_label.show()
            self.title_edit.setFocus()
            return
        super().accept()


class PromptDialog(QDialog):
    """Read-only: the messages exactly as they were (or would be) sent."""

    def __init__(self, text: str, heading: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("promptDialog")
        self.setWindowTitle(self.tr("Prompt"))
        self.heading = QLabel(heading)
        self.heading.setWordWrap(True)
        self.text_edit = QPlainTextEdit(text)
        self.text_edit.setReadOnly(True)
        self.text_edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        copy = buttons.addButton(self.tr("Copy"), QDialogButtonBox.ButtonRole.ActionRole)
        copy.clicked.connect(lambda: QGuiApplication.clipboard().setText(text))
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.text_edit, 1)
        layout.addWidget(buttons)
        self.resize(720, 560)
