"""Markdown preview that renders what Obsidian renders and never touches the network.

The HTML comes from :func:`pixelmem.core.vault.markdown_html.render_html` (markdown-it-py
with Obsidian's syntax: ``[[links]]``, ``![[embeds]]`` of images, notes, headings and blocks,
callouts with folding, block ids, highlights, raw HTML kept without losing a word). A note
that embeds something, or a long one, is rendered on a worker (the vault's notes and files
are looked up there; a 50,000-character note takes ~40 ms); a short plain one at once.
``rendered`` says when the view shows the note.

Every image and style sheet ``QTextBrowser`` asks for goes through one
:class:`~pixelmem.gui.widgets.resource_policy.ResourcePolicy`: files inside the vault and
``data:`` URLs are served; anything else gets a placeholder, never None (Qt would then read
the file itself). An image wider than the view is shown scaled to fit. Links open only when
the person clicks one. A body too big to lay out quickly is cut
(:mod:`pixelmem.core.render_limits`) and ends in a "Show all" link. ``[[Wiki links]]`` emit
``wiki_link_clicked(target)``; ``[[#Heading]]`` scrolls to it; a callout's arrow folds it.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from PySide6.QtCore import QUrl, Signal
from PySide6.QtGui import QImage, QTextDocument
from PySide6.QtWidgets import QTextBrowser, QWidget

from pixelmem.core.render_limits import HTML_TABLE_CELLS, bounded_markdown
from pixelmem.core.vault.memory import Memory
from pixelmem.gui.widgets.resource_policy import ResourcePolicy
from pixelmem.gui.workers import LatestOnly

SHOW_ALL_URL = "pixelmem:show-all"
WIKI_LINK_SCHEME = "pixelmem-link"
CALLOUT_PREFIX = "pixelmem:callout:"
SYNC_CHARS = 8_000  # a plain note shorter than this renders at once (~5 ms)
IMAGE_MARGIN = 32  # px the view keeps beside a scaled image

Notes = Callable[[], list[Memory]]


class MarkdownPreview(QTextBrowser):
    """Read-only rendering of a memory's body; ``link_clicked(url)`` for the window to decide."""

    link_clicked = Signal(QUrl)
    wiki_link_clicked = Signal(str)  # "Coffee brewing" or "Coffee brewing#Ratios"
    rendered = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenExternalLinks(False)
        self.setOpenLinks(False)  # never navigate away: the preview shows one memory
        self.anchorClicked.connect(self._on_anchor)
        self.policy = ResourcePolicy()
        self.notes: Notes | None = None  # the vault's memories, for ![[embeds]] (a worker calls it)
        self._latest = LatestOnly()
        self._request: dict[str, Any] = {}
        self._toggled: frozenset[int] = frozenset()
        self._keep_scroll = False
        self._waiting = False  # a rendering runs on a worker
        self._anchor: str | None = None  # where to scroll once it is shown
        self.is_cut = False  # the text shown is a part of the body

    @property
    def refused(self) -> list[QUrl]:
        return self.policy.refused

    @property
    def served(self) -> list[QUrl]:
        return self.policy.served

    def show_markdown(
        self,
        text: str,
        folder: Path | None,
        vault: Path | None,
        *,
        note_id: str | None = None,
    ) -> None:
        """Render ``text``; relative images resolve against ``folder``, only inside ``vault``;
        ``note_id`` is the note shown (it never embeds itself)."""
        self.policy.root = vault.resolve() if vault is not None else None
        if folder is not None:
            self.document().setBaseUrl(QUrl.fromLocalFile(str(folder) + "/"))
        same_note = self._request.get("note_id") == note_id
        if not same_note or self._request.get("text") != text:
            self._toggled = frozenset()
        self._keep_scroll = same_note
        self._request = {"text": text, "folder": folder, "vault": vault, "note_id": note_id}
        self._render(cut=True)

    def show_all(self) -> None:
        """Render the whole body, however long it takes (the person asked for it)."""
        self._keep_scroll = True
        self._render(cut=False)

    def _render(self, *, cut: bool) -> None:
        request, toggled, notes = dict(self._request), self._toggled, self.notes
        text = request.get("text", "")
        bounded = bounded_markdown(text, HTML_TABLE_CELLS) if cut else None
        self.is_cut = bool(bounded and bounded.cut)
        source = bounded.text if bounded is not None else text
        tail = self._cut_note(bounded.cuts) if bounded is not None and bounded.cut else ""

        def render() -> str:
            return _render_html(source, request, toggled, notes) + tail

        looks_up = request.get("vault") is not None and ("![" in source or "](" in source)
        if not looks_up and len(source) < SYNC_CHARS:
            self._latest.invalidate()  # an earlier render on a worker must not land after
            self._show(render())
        else:
            self._waiting = True
            self._latest.submit(render, self._show, context=self)

    def _cut_note(self, cuts: list[str]) -> str:
        note = self.tr("Part of this memory is not shown: {what}.").format(what=", ".join(cuts))
        link = self.tr("Show all (may be slow)")
        show_all = f'<a href="{SHOW_ALL_URL}">{html.escape(link)}</a>'
        return f"<hr><p><i>{html.escape(note)}</i> {show_all}</p>"

    def _show(self, markup: str) -> None:
        scroll = self.verticalScrollBar().value() if self._keep_scroll else 0
        self._waiting = False
        self.setHtml(markup)
        self.verticalScrollBar().setValue(scroll)
        if self._anchor is not None:
            self.scrollToAnchor(self._anchor)
            self._anchor = None
        self.rendered.emit()

    def scroll_to(self, anchor: str) -> None:
        """Scroll to a heading's or block's anchor (:func:`~.markdown_html.anchor_name`), now
        or once the rendering under way is shown."""
        if self._waiting:
            self._anchor = anchor
        else:
            self.scrollToAnchor(anchor)

    def _on_anchor(self, url: QUrl) -> None:
        text = url.toString()
        if text == SHOW_ALL_URL:
            self.show_all()
        elif text.startswith(CALLOUT_PREFIX):
            self._toggle_callout(int(text.removeprefix(CALLOUT_PREFIX) or 0))
        elif url.scheme() == WIKI_LINK_SCHEME:
            encoded = bytes(url.toEncoded().data()).decode("ascii")
            self.wiki_link_clicked.emit(unquote(encoded.split(":", 1)[1]))
        elif url.isRelative() and url.hasFragment() and not url.path():
            self.scrollToAnchor(url.fragment(QUrl.ComponentFormattingOption.FullyDecoded))
        else:
            self.link_clicked.emit(url)

    def _toggle_callout(self, number: int) -> None:
        self._toggled = self._toggled ^ {number}
        self._keep_scroll = True
        self._render(cut=self.is_cut)

    def loadResource(self, kind: int, url: QUrl | str) -> Any:
        resource = self.policy.load(kind, QUrl(url), self.document().baseUrl())
        if kind == QTextDocument.ResourceType.ImageResource and isinstance(resource, QImage):
            room = max(self.viewport().width() - IMAGE_MARGIN, 64)
            if resource.width() > room:  # as Obsidian does: never wider than the page
                return resource.scaledToWidth(room)
        return resource

    def _allowed(self, url: QUrl) -> bool:
        return self.policy.allows(url, self.document().baseUrl())


def _render_html(
    text: str, request: dict[str, Any], toggled: frozenset[int], notes: Notes | None
) -> str:
    """The note's HTML, with the vault looked up as its embeds need (runs on a worker)."""
    from pixelmem.core.vault.attachments import AttachmentIndex
    from pixelmem.core.vault.links import LinkResolver
    from pixelmem.core.vault.markdown_html import RenderContext, note_folder, render_html

    vault: Path | None = request.get("vault")
    folder: Path | None = request.get("folder")
    note_id: str | None = request.get("note_id")
    context = RenderContext(toggled=toggled, inside=(note_id,) if note_id else ())
    if vault is not None and ("![" in text or "](" in text):
        files = AttachmentIndex(vault)
        lookup = _note_lookup(notes, vault, LinkResolver) if "![[" in text else None
        context = RenderContext(
            note=lookup or (lambda _target: None),
            files=files,
            folder=note_folder(folder / "note.md", vault) if folder is not None else "",
            toggled=toggled,
            inside=context.inside,
        )
    return render_html(text, context)


def _note_lookup(notes: Notes | None, vault: Path, resolver_type: Any) -> Any:
    if notes is None:
        return None
    memories = notes()
    resolver = resolver_type(memories, vault)
    by_id = {m.id: m for m in memories}

    def lookup(target: str) -> Memory | None:
        found = resolver.resolve(target)
        return by_id.get(found) if found else None

    return lookup
