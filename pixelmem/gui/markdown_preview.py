"""Markdown preview that never touches the network (SPEC §5).

``QTextBrowser`` asks ``loadResource`` for every image and stylesheet; only files inside the
vault (relative attachments, as Obsidian writes them) and in-memory ``data:`` URLs are served.
Every other URL is refused and recorded, and links open only when the user clicks one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QUrl, Signal
from PySide6.QtWidgets import QTextBrowser, QWidget

LOCAL_SCHEMES = ("", "file", "data")


class MarkdownPreview(QTextBrowser):
    """Read-only rendering of a memory's body; ``link_clicked(url)`` for the window to decide."""

    link_clicked = Signal(QUrl)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenExternalLinks(False)
        self.setOpenLinks(False)  # never navigate away: the preview shows one memory
        self.anchorClicked.connect(self.link_clicked)
        self.refused: list[QUrl] = []  # every URL asked for and not served (tests, debugging)
        self.served: list[QUrl] = []
        self._root: Path | None = None

    def show_markdown(self, text: str, folder: Path | None, vault: Path | None) -> None:
        """Render ``text``; relative images resolve against ``folder``, only inside ``vault``."""
        self._root = vault.resolve() if vault is not None else None
        if folder is not None:
            self.document().setBaseUrl(QUrl.fromLocalFile(str(folder) + "/"))
        self.setMarkdown(text)

    def loadResource(self, kind: int, url: QUrl) -> Any:
        if not self._allowed(url):
            self.refused.append(QUrl(url))
            return None
        self.served.append(QUrl(url))
        return super().loadResource(kind, url)

    def _allowed(self, url: QUrl) -> bool:
        scheme = url.scheme().lower()
        if scheme not in LOCAL_SCHEMES:
            return False
        if scheme == "data":
            return True
        resolved = self.document().baseUrl().resolved(url) if url.isRelative() else url
        if not resolved.isLocalFile() or self._root is None:
            return False
        path = Path(resolved.toLocalFile()).resolve()
        return path.is_relative_to(self._root)
