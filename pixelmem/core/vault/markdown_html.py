"""A note as HTML for the preview, rendering what Obsidian's reading view renders.

Parsed by :mod:`obsidian_syntax` (markdown-it-py), then written as HTML a rich-text view
shows (Qt's ``QTextDocument`` subset: tables for boxes, no CSS classes):

- ``[[links]]`` become ``pixelmem-link:`` anchors (``[[#Heading]]`` an anchor in the note);
- ``![[embeds]]``: images from the vault (found as Obsidian finds them:
  :class:`~.attachments.AttachmentIndex`; ``|100`` or ``|100x80`` sizes them), notes,
  their headings' sections and their blocks (``#^id``), boxed, up to :data:`MAX_EMBED_DEPTH`
  deep and never a note inside itself; other files (PDF, canvas, audio) as a link to the
  file, a missing one as its name;
- callouts as a coloured box with the type's icon and the title; a foldable one
  (``[!faq]-``) shows its title only until its ``pixelmem:callout:N`` link is followed
  (``RenderContext.toggled`` lists the callouts a person opened or closed);
- raw HTML through :func:`~.html_safety.safe_html`: no word after a tag is lost.

Nothing is read from the network; files are only named here (``file:`` URLs), the view reads
them through its resource policy. Pure Python: the preview renders large notes on a worker.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

from markdown_it.renderer import RendererHTML
from markdown_it.token import Token

from pixelmem.core.vault import drawings
from pixelmem.core.vault.attachments import AttachmentIndex, is_image
from pixelmem.core.vault.html_safety import safe_html
from pixelmem.core.vault.links import link_key
from pixelmem.core.vault.memory import Memory
from pixelmem.core.vault.note_parts import block_of, section_of
from pixelmem.core.vault.obsidian_syntax import parse, parser

WIKI_LINK_SCHEME = "pixelmem-link"
CALLOUT_SCHEME = "pixelmem:callout:"
MAX_EMBED_DEPTH = 3
_SIZE = re.compile(r"^\s*(\d{1,5})(?:\s*x\s*(\d{1,5}))?\s*$")

# type -> (colour, icon); aliases as Obsidian lists them. Icons from the Basic Multilingual
# Plane, which common fonts have (an emoji such as 🔥 is a box where no emoji font is installed)
_CALLOUTS: dict[str, tuple[str, str]] = {
    "note": ("#086ddd", "✎"),
    "abstract": ("#00bfbc", "☰"),
    "info": ("#086ddd", "ℹ"),
    "todo": ("#086ddd", "☑"),
    "tip": ("#00bfbc", "★"),
    "success": ("#08b94e", "✔"),
    "question": ("#ec7500", "?"),
    "warning": ("#ec7500", "⚠"),
    "failure": ("#e93147", "✘"),
    "danger": ("#e93147", "⚡"),
    "bug": ("#e93147", "✱"),
    "example": ("#7852ee", "☷"),
    "quote": ("#9e9e9e", "❝"),
}
_CALLOUT_ALIASES = {
    "summary": "abstract",
    "tldr": "abstract",
    "hint": "tip",
    "important": "tip",
    "check": "success",
    "done": "success",
    "help": "question",
    "faq": "question",
    "caution": "warning",
    "attention": "warning",
    "fail": "failure",
    "missing": "failure",
    "error": "danger",
    "cite": "quote",
}


@dataclass(frozen=True)
class RenderContext:
    """Where a note lives and how to find what it names.

    ``note(target)`` gives the memory a link target names (None: none); ``files`` finds
    attachments; ``folder`` is the note's folder below the vault (posix, "" for the root).
    """

    note: Callable[[str], Memory | None] = lambda _target: None
    files: AttachmentIndex | None = None
    folder: str = ""
    toggled: frozenset[int] = frozenset()
    depth: int = 0
    inside: tuple[str, ...] = ()  # ids of the notes being embedded (no note inside itself)
    callouts: list[int] = field(default_factory=lambda: [0])  # numbering across embeds


def render_html(text: str, context: RenderContext | None = None) -> str:
    """``text`` (a note's body) as HTML for the preview; an Excalidraw drawing's, as its
    words (its scene is data only the plugin draws: thousands of lines of JSON)."""
    context = context or RenderContext()
    if drawings.looks_like_drawing(text):
        text = drawings.drawing_words(text)
    tokens, env = parse(text)
    _number_callouts(tokens, context)
    renderer = _Renderer(context)
    return renderer.render(tokens, env)


def _number_callouts(tokens: Sequence[Token], context: RenderContext) -> None:
    """Callouts numbered across the whole page (embedded notes included)."""
    for token in tokens:
        callout = token.meta.get("callout") if token.meta else None
        if callout is not None:
            callout["number"] = context.callouts[0]
            context.callouts[0] += 1


def heading_anchor(text: str) -> str:
    """A heading's anchor name: its words joined by ``-`` (CJK kept as it is)."""
    return "h-" + "-".join(re.findall(r"[^\W_]+", link_key(text)))


def anchor_name(part: str) -> str:
    """The anchor of ``Note#part``: a block's (``^id``) or a heading's."""
    return part if part.startswith("^") else heading_anchor(part)


class _Renderer:
    def __init__(self, context: RenderContext) -> None:
        self.context = context
        md = parser()
        self.base: RendererHTML = md.renderer  # type: ignore[assignment]
        self.options = md.options

    def render(self, tokens: list[Token], env: dict[str, Any]) -> str:
        out: list[str] = []
        index = 0
        while index < len(tokens):
            token = tokens[index]
            callout = token.meta.get("callout") if token.meta else None
            if callout is not None:
                end = _matching_close(tokens, index)
                out.append(self._callout(callout, tokens[index + 1 : end], env))
                index = end + 1
                continue
            out.append(self._block(tokens, index, env))
            index += 1
        return "".join(out)

    def _block(self, tokens: list[Token], index: int, env: dict[str, Any]) -> str:
        token = tokens[index]
        if token.type == "inline":
            return self._inline(token.children or [], env)
        if token.type == "html_block":
            return safe_html(token.content)
        if token.type == "heading_open":
            inline = tokens[index + 1]
            anchor = heading_anchor(inline.content)
            return f'<a name="{anchor}"></a>' + self.base.renderToken(
                tokens, index, self.options, env
            )
        if token.type == "table_open":
            return '<table border="1" cellspacing="0" cellpadding="4">'
        if token.type in ("math_block", "math_block_label"):
            return f"<pre>{html.escape(token.content)}</pre>"
        if token.type == "code_block" and token.level > 0 and _only_embeds(token.content):
            # An attachment indented under a list item: Obsidian shows it, not its code.
            return self._inline(parse(token.content.strip())[0][1].children or [], env)
        if token.type in ("fence", "code_block"):
            return f"<pre>{html.escape(token.content)}</pre>"
        if token.type.startswith("footnote") or token.type == "hr":
            rule = self.base.rules.get(token.type)
            if rule is not None:
                return str(rule(tokens, index, self.options, env))
        return self.base.renderToken(tokens, index, self.options, env)

    # -- inline ------------------------------------------------------------------------------

    def _inline(self, children: list[Token], env: dict[str, Any]) -> str:
        out: list[str] = []
        for index, child in enumerate(children):
            kind = child.type
            if kind == "text":
                out.append(html.escape(child.content, quote=False))
            elif kind == "html_inline":
                out.append(safe_html(child.content, inline=True))
            elif kind == "wikilink":
                out.append(self._wikilink(child.meta))
            elif kind == "embed":
                out.append(self._embed(child.meta, child.content))
            elif kind == "block_id":
                out.append(f'<a name="^{html.escape(child.meta["id"])}"></a>')
            elif kind == "mark_open":
                out.append('<span style="background-color: #fff3a3; color: #000">')
            elif kind == "mark_close":
                out.append("</span>")
            elif kind in ("math_inline", "math_inline_double"):
                out.append(f"<code>{html.escape(child.content)}</code>")
            elif kind == "image":
                out.append(self._image(child))
            elif kind == "softbreak":
                out.append("\n")
            else:
                rule = self.base.rules.get(kind)
                if rule is not None:
                    out.append(str(rule(children, index, self.options, env)))
                else:
                    out.append(self.base.renderToken(children, index, self.options, env))
        return "".join(out)

    def _wikilink(self, meta: dict[str, Any]) -> str:
        target, heading, alias = meta["target"], meta["heading"], meta["alias"]
        if alias:
            shown = alias
        elif heading is not None:
            shown = f"{target} > {heading}" if target else heading
        else:
            shown = target
        if not target and heading is not None:  # [[#Heading]]: a place in this note
            return f'<a href="#{heading_anchor(heading)}">{html.escape(shown)}</a>'
        destination = f"{target}#{heading}" if heading is not None else target
        href = f"{WIKI_LINK_SCHEME}:{quote(destination, safe='')}"
        return f'<a href="{href}">{html.escape(shown)}</a>'

    def _image(self, token: Token) -> str:
        src = str(token.attrs.get("src", ""))
        alt = "".join(c.content for c in token.children or [])
        width = height = ""
        if "|" in alt:  # Obsidian's ![alt|100](path)
            alt, _, size = alt.rpartition("|")
            width, height = _size(size)
        if src and ":" not in src.split("/", 1)[0] and self.context.files is not None:
            found = self.context.files.find(_unquoted(src), self.context.folder)
            if found is not None:
                src = found.as_uri()
        return _img(src, alt, width, height)

    # -- embeds ------------------------------------------------------------------------------

    def _embed(self, meta: dict[str, Any], written: str) -> str:
        target, heading, alias = meta["target"], meta["heading"], meta["alias"]
        files = self.context.files
        if is_image(target):
            found = files.find(target, self.context.folder) if files else None
            if found is None:
                return _missing(target)
            width, height = _size(alias or "")
            return _img(found.as_uri(), target, width, height)
        found = files.find(target, self.context.folder) if files and target else None
        if found is not None:  # a PDF, a canvas, a recording: a link to the file
            name = html.escape(alias or target)
            return f'📎 <a href="{found.as_uri()}">{name}</a>'
        note = self.context.note(target) if target else None
        if note is not None:
            return self._note_embed(note, heading, written)
        return _missing(target or written)

    def _note_embed(self, note: Memory, heading: str | None, written: str) -> str:
        context = self.context
        link = self._wikilink({"target": _link_name(note), "heading": heading, "alias": None})
        if context.depth >= MAX_EMBED_DEPTH or note.id in context.inside:
            return f"<p>{link}</p>"  # deep enough, or a note inside itself: a link
        body = note.body
        if heading is not None and heading.startswith("^"):
            part = block_of(body, heading)
        elif heading is not None:
            part = section_of(body, heading)
        else:
            part = body
        if part is None:
            return f"<p>{link} {_missing(heading or '')}</p>"
        inner = replace(
            context,
            folder=_folder_of(note, context),
            depth=context.depth + 1,
            inside=(*context.inside, note.id),
        )
        tokens, env = parse(part)
        _number_callouts(tokens, inner)
        content = _Renderer(inner).render(tokens, env)
        return (
            '<table width="100%" border="0" cellspacing="0" cellpadding="8"'
            ' style="background-color: rgba(128,128,128,0.08);"><tr><td>'
            f"<p><small>{link}</small></p>{content}</td></tr></table>"
        )

    # -- callouts ----------------------------------------------------------------------------

    def _callout(self, callout: dict[str, Any], inner: list[Token], env: dict[str, Any]) -> str:
        kind = _CALLOUT_ALIASES.get(callout["type"], callout["type"])
        color, icon = _CALLOUTS.get(kind, _CALLOUTS["note"])
        number, fold = callout["number"], callout["fold"]
        title_md = callout["title"] or callout["type"].replace("-", " ").capitalize()
        title = self._inline(parser().parseInline(title_md, env)[0].children or [], env)
        open_ = fold != "-"
        if fold and number in self.context.toggled:
            open_ = not open_
        head = f'<span style="color: {color}; font-weight: 600;">{icon} {title}</span>'
        if fold:
            arrow = "▾" if open_ else "▸"
            toggle = f'<a href="{CALLOUT_SCHEME}{number}" style="text-decoration: none;">'
            head = f"{toggle}{arrow}</a> {head}"
        content = self.render(inner, env) if open_ else ""
        return (
            '<table width="100%" border="0" cellspacing="0" cellpadding="8"'
            f' style="background-color: {_tint(color)}; border-left: 3px solid {color};">'
            f"<tr><td><p>{head}</p>{content}</td></tr></table>"
        )


_EMBED_LINE = re.compile(r"^\s*!\[\[[^\]\n]+\]\]\s*$")


def _only_embeds(code: str) -> bool:
    lines = [line for line in code.split("\n") if line.strip()]
    return bool(lines) and all(_EMBED_LINE.match(line) for line in lines)


def _matching_close(tokens: list[Token], start: int) -> int:
    depth = 0
    for index in range(start, len(tokens)):
        if tokens[index].type == "blockquote_open":
            depth += 1
        elif tokens[index].type == "blockquote_close":
            depth -= 1
            if depth == 0:
                return index
    return len(tokens) - 1


def _tint(color: str) -> str:
    red, green, blue = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgba({red},{green},{blue},0.10)"


def _size(text: str) -> tuple[str, str]:
    match = _SIZE.match(text)
    return (match.group(1), match.group(2) or "") if match else ("", "")


def _img(src: str, alt: str, width: str, height: str) -> str:
    attrs = f' width="{width}"' if width else ""
    attrs += f' height="{height}"' if height else ""
    return f'<img src="{html.escape(src)}" alt="{html.escape(alt)}"{attrs}>'


def _missing(name: str) -> str:
    return f'<span style="color: #9e9e9e;">⚠ {html.escape(name)}</span>'


def _unquoted(src: str) -> str:
    return unquote(src)


def _link_name(note: Memory) -> str:
    if note.path is not None:
        return note.path.stem
    return note.title


def _folder_of(note: Memory, context: RenderContext) -> str:
    files = context.files
    return note_folder(note.path, files.root) if files is not None else context.folder


def note_folder(path: Path | None, root: Path | None) -> str:
    """The posix folder of the note at ``path`` below ``root`` ("" for the root or unknown)."""
    if path is None or root is None:
        return ""
    try:
        folder = path.parent.relative_to(root).as_posix()
    except ValueError:
        return ""
    return "" if folder == "." else folder
