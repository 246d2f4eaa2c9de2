"""What an inbox draft proposes for an existing memory: an update (shown as a diff of the
memory's body) or a replacement (the memory it supersedes). Plain drafts show nothing here."""

from __future__ import annotations

import html

from PySide6.QtWidgets import QLabel, QSizePolicy, QTextBrowser, QVBoxLayout, QWidget

from pixelmem.core.archive.proposals import SUPERSEDE, UPDATE, body_diff, describe
from pixelmem.core.vault.store import MemoryStore

COLOURS = {"+": "#e6ffec", "-": "#ffebe9", " ": "transparent"}


class ProposalPanel(QWidget):
    """A line saying what accepting does, and the diff of an update."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        self.diff = QTextBrowser()
        self.diff.setOpenLinks(False)
        self.diff.setMinimumHeight(48)  # shares the editor's height with the body (stretch 1:1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label)
        layout.addWidget(self.diff, 1)
        self.hide()

    def show_for(self, draft: object | None, store: MemoryStore) -> None:
        kind, target = describe(draft, store) if draft is not None else ("", None)
        self.setVisible(bool(kind))
        self.diff.setVisible(kind == UPDATE and target is not None)
        if not kind:
            return
        if target is None:
            self.label.setText(self.tr("The memory this draft would change no longer exists."))
        elif kind == SUPERSEDE:
            text = self.tr("Accepting adds this memory and marks “{title}” superseded.")
            self.label.setText(text.format(title=target.title))
        else:
            text = self.tr("Accepting updates “{title}” to the text below.")
            self.label.setText(text.format(title=target.title))
            self.diff.setHtml(diff_html(target.body, getattr(draft, "body", "")))


def diff_html(old: str, new: str) -> str:
    rows = []
    for mark, line in body_diff(old, new):
        colour = COLOURS.get(mark, "transparent")
        rows.append(
            f'<div style="background:{colour}; white-space:pre-wrap">'
            f"{html.escape(mark)} {html.escape(line)}</div>"
        )
    return "".join(rows)
