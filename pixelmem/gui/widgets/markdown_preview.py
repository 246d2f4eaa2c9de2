"""Markdown preview that never touches the network (pixelmem works offline).

Every image and style sheet ``QTextBrowser`` asks for goes through one
:class:`~pixelmem.gui.widgets.resource_policy.ResourcePolicy`: files inside the vault (relative
attachments, as Obsidian writes them) and ``data:`` URLs are served; anything else gets a
placeholder, never None (Qt would then read the file itself). Links open only when the user
clicks one. A body too big to lay out quickly is cut (:mod:`pixelmem.core.render_limits`)
and ends in a "Show all" link. ``[[Wiki links]]`` become links that emit
``wiki_link_clicked(target)``; ``![[embeds]]`` are left as written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

from PySide6.QtCore import QUrl, Signal
from PySide6.QtWidgets import QTextBrowser, QWidget

from pixelmem.core.render_limits import bounded_markdown
from pixelmem.core.vault.links import parse_links
from pixelmem.gui.widgets.resource_policy import ResourcePolicy

SHOW_ALL_URL = "pixelmem:show-all"
WIKI_LINK_SCHEME = "pixelmem-link"
_MARKDOWN_SPECIAL = str.maketrans({c: f"\\{c}" for c in "\\[]*_`<>"})


def with_wiki_links(text: str) -> str:
    """``text`` with each ``[[Target#Heading|shown]]`` as a Markdown link the preview can
    follow (``pixelmem-link:Target``); embeds and links inside code stay as written."""
    out: list[str] = []
    last = 0
    for link in parse_links(text):
        if link.embed or not link.target:
            continue
        shown = link.shown.translate(_MARKDOWN_SPECIAL)
        out.append(text[last : link.start])
        out.append(f"[{shown}](<{WIKI_LINK_SCHEME}:{quote(link.destination, safe='')}>)")
        last = link.end
    out.append(text[last:])
    return "".join(out)


class MarkdownPreview(QTextBrowser):
    """Read-only rendering of a memory's body; ``link_clicked(url)`` for the window to decide."""

    link_clicked = Signal(QUrl)
    wiki_link_clicked = Signal(str)  # "Coffee brewing" or "Coffee brewing#Ratios"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenExternalLinks(False)
        self.setOpenLinks(False)  # never navigate away: the preview shows one memory
        self.anchorClicked.connect(self._on_anchor)
        self.policy = ResourcePolicy()
        self._full_text = ""
        self.is_cut = False  # the text shown is a part of the body

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
        text = with_wiki_links(text)
        self._full_text = text
        bounded = bounded_markdown(text)
        self.is_cut = bounded.cut
        if bounded.cut:
            note = self.tr("Part of this memory is not shown: {what}.").format(
                what=", ".join(bounded.cuts)
            )
            link = self.tr("Show all (may be slow)")
            self.setMarkdown(f"{bounded.text}\n\n---\n\n*{note}* [{link}]({SHOW_ALL_URL})\n")
        else:
            self.setMarkdown(text)

    def show_all(self) -> None:
        """Render the whole body, however long it takes (the person asked for it)."""
        self.is_cut = False
        self.setMarkdown(self._full_text)

    def _on_anchor(self, url: QUrl) -> None:
        if url.toString() == SHOW_ALL_URL:
            self.show_all()
        elif url.scheme() == WIKI_LINK_SCHEME:
            encoded = bytes(url.toEncoded().data()).decode("ascii")
            self.wiki_link_clicked.emit(unquote(encoded.split(":", 1)[1]))
        else:
            self.link_clicked.emit(url)

    def loadResource(self, kind: int, url: QUrl | str) -> Any:
        return self.policy.load(kind, QUrl(url), self.document().baseUrl())

    def _allowed(self, url: QUrl) -> bool:
        return self.policy.allows(url, self.document().baseUrl())
