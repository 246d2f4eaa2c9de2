"""Markdown preview that never touches the network (SPEC §5).

Every image and style sheet ``QTextBrowser`` asks for goes through one
:class:`~pixelmem.gui.resource_policy.ResourcePolicy`: files inside the vault (relative
attachments, as Obsidian writes them) and ``data:`` URLs are served; anything else gets a
placeholder, never None (Qt would then read the file itself). Links open only when the user
clicks one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QUrl, Signal
from PySide6.QtWidgets import QTextBrowser, QWidget

from pixelmem.gui.resource_policy import ResourcePolicy


class MarkdownPreview(QTextBrowser):
    """Read-only rendering of a memory's body; ``link_clicked(url)`` for the window to decide."""

    link_clicked = Signal(QUrl)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenExternalLinks(False)
        self.setOpenLinks(False)  # never navigate away: the preview shows one memory
        self.anchorClicked.connect(self.link_clicked)
        self.policy = ResourcePolicy()

    @property
    def refused(self) -> list[QUrl]:
        return self.policy.refused

    @property
    def served(self) -> list[QUrl]:
        return self.policy.served

    def show_markdown(self, text: str, folder: Path | None, vault: Path | None) -> None:
        """Render ``text``; relative images resolve against ``folder``, only inside ``vault``."""
        self.policy.root = vault.resolve() if vault is not None else None
        if folder is not None:
            self.document().setBaseUrl(QUrl.fromLocalFile(str(folder) + "/"))
        self.setMarkdown(text)

    def loadResource(self, kind: int, url: QUrl) -> Any:
        return self.policy.load(kind, QUrl(url), self.document().baseUrl())

    def _allowed(self, url: QUrl) -> bool:
        return self.policy.allows(url, self.document().baseUrl())
