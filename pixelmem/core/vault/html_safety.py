"""Raw HTML in a note, made safe for the preview without losing a word of it.

Obsidian renders the HTML a note holds (``<br>``, ``<kbd>``, ``<span style>``, ``<details>``).
The preview keeps the tags a rich-text view can show (mapping a few it cannot, such as
``<kbd>`` and ``<mark>``, onto ones it can) with a short list of attributes, and shows every
other tag as text: ``<script>`` and ``<style>``, an ``<iframe>``, a tag of another program's
markup. Nothing after an odd tag is dropped, whatever it is (the old preview lost everything
after a ``<br>``); comments are hidden, as Obsidian hides them. Remote resources named in
attributes are never fetched here: the view's resource policy refuses them.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

# tag -> (tag shown, attributes kept, extra attributes)
_SAME: tuple[str, ...] = (
    "b",
    "big",
    "blockquote",
    "br",
    "code",
    "dd",
    "div",
    "dl",
    "dt",
    "em",
    "hr",
    "i",
)
_SAME += ("h1", "h2", "h3", "h4", "h5", "h6", "li", "ol", "p", "pre", "s", "small", "span")
_SAME += ("strong", "sub", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "tt")
_SAME += ("u", "ul", "font", "img", "a", "center")
_MAPPED = {
    "kbd": ("code", ""),
    "samp": ("code", ""),
    "var": ("i", ""),
    "cite": ("i", ""),
    "q": ("i", ""),
    "abbr": ("span", ""),
    "del": ("s", ""),
    "strike": ("s", ""),
    "ins": ("u", ""),
    "mark": ("span", ' style="background-color: #fff3a3; color: #000"'),
    "details": ("div", ""),
    "summary": ("b", ""),
    "section": ("div", ""),
    "article": ("div", ""),
    "aside": ("div", ""),
    "figure": ("div", ""),
    "figcaption": ("i", ""),
    "header": ("div", ""),
    "footer": ("div", ""),
    "nav": ("div", ""),
    "main": ("div", ""),
    "caption": ("b", ""),
    "wbr": ("", ""),
}
_ATTRIBUTES = {
    "a": ("href", "title", "name"),
    "img": ("src", "alt", "width", "height", "title"),
    "font": ("color", "size"),
    "td": ("colspan", "rowspan", "align", "valign", "style", "width"),
    "th": ("colspan", "rowspan", "align", "valign", "style", "width"),
    "table": ("border", "cellpadding", "cellspacing", "width", "style"),
    "span": ("style", "title"),
    "div": ("style", "align"),
    "p": ("style", "align"),
    "ol": ("start", "type"),
}
_VOID = frozenset(("br", "hr", "img", "wbr", "input", "meta", "link", "source", "col", "area"))
_SAFE_HREF = re.compile(r"^(?:https?:|mailto:|pixelmem-link:|#|[^:]*$)", re.IGNORECASE)


# Block structure a paragraph cannot hold: inside text (an inline tag) they are left out, so a
# stray "<table>" in a sentence cannot swallow the rest of it. Tables in an HTML block are
# kept, with their text always in a cell (text loose in a table is not shown by Qt).
_BLOCK_TAGS = frozenset(("blockquote", "center", "dd", "div", "dl", "dt", "h1", "h2", "h3"))
_BLOCK_TAGS |= frozenset(("h4", "h5", "h6", "hr", "li", "ol", "p", "pre", "ul"))
_TABLE_TAGS = frozenset(("table", "tbody", "thead", "tfoot", "tr", "td", "th"))
_ROW_HOLDERS = frozenset(("table", "tbody", "thead", "tfoot"))


def safe_html(fragment: str, *, inline: bool = False) -> str:
    """``fragment`` (raw HTML from a note) with its tags made safe, its text kept; ``inline``
    for a tag inside a paragraph (block and table tags are then left out)."""
    if "<" not in fragment:
        return fragment
    cleaner = _Cleaner(inline)
    cleaner.feed(fragment)
    cleaner.close()
    cleaner.close_tables()
    return "".join(cleaner.out)


class _Cleaner(HTMLParser):
    def __init__(self, inline: bool) -> None:
        super().__init__(convert_charrefs=False)
        self.inline = inline
        self.out: list[str] = []
        self.tables: list[str] = []  # open table tags, innermost last

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.inline and (tag in _BLOCK_TAGS or tag in _TABLE_TAGS) and tag != "hr":
            return
        if tag in _TABLE_TAGS:
            self._open_table_tag(tag, attrs)
            return
        self.out.append(_start(tag, attrs) or html.escape(self.get_starttag_text() or ""))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag in _TABLE_TAGS and tag in self.tables[-1:]:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if self.inline and (tag in _BLOCK_TAGS or tag in _TABLE_TAGS):
            return
        if tag in _TABLE_TAGS:
            if tag in self.tables:  # close it and whatever it holds
                while self.tables:
                    inner = self.tables.pop()
                    self.out.append(f"</{inner}>")
                    if inner == tag:
                        break
            return
        shown = _shown_tag(tag)
        if shown is None:
            self.out.append(html.escape(f"</{tag}>"))
        elif shown and tag not in _VOID:
            self.out.append(f"</{shown}>")

    def handle_data(self, data: str) -> None:
        if self.tables and self.tables[-1] not in ("td", "th") and data.strip():
            self._open_table_tag("td", [])  # loose text in a table goes in a cell
        self.out.append(html.escape(data, quote=False))

    def _open_table_tag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        inner = self.tables[-1] if self.tables else None
        if tag in ("td", "th"):
            if inner in ("td", "th"):
                self.handle_endtag(inner)
                inner = self.tables[-1] if self.tables else None
            if inner != "tr":
                self._open_table_tag("tr", [])
        elif tag == "tr":
            while self.tables and self.tables[-1] not in _ROW_HOLDERS:
                self.handle_endtag(self.tables[-1])
            if not self.tables:
                self._open_table_tag("table", [])
        elif tag in ("tbody", "thead", "tfoot") and inner != "table":
            if "table" in self.tables:
                self.handle_endtag(self.tables[-1]) if inner != "table" else None
            else:
                self._open_table_tag("table", [])
        self.tables.append(tag)
        self.out.append(_start(tag, attrs) or f"<{tag}>")

    def close_tables(self) -> None:
        """Close what the fragment left open (Qt drops a table that never ends)."""
        while self.tables:
            self.out.append(f"</{self.tables.pop()}>")

    def handle_entityref(self, name: str) -> None:
        self.out.append(f"&{name};")

    def handle_charref(self, name: str) -> None:
        self.out.append(f"&#{name};")

    def handle_comment(self, data: str) -> None:
        pass  # hidden, as Obsidian hides HTML comments

    def handle_decl(self, decl: str) -> None:
        self.out.append(html.escape(f"<!{decl}>"))

    def handle_pi(self, data: str) -> None:
        self.out.append(html.escape(f"<?{data}>"))

    def unknown_decl(self, data: str) -> None:
        self.out.append(html.escape(f"<![{data}]>"))


def _shown_tag(tag: str) -> str | None:
    """The tag shown for ``tag`` ("" for none at all), or None to show it as text."""
    if tag in _SAME:
        return tag
    if tag in _MAPPED:
        return _MAPPED[tag][0]
    if tag == "input":
        return ""
    return None


def _start(tag: str, attrs: list[tuple[str, str | None]]) -> str | None:
    if tag == "input":  # a task list's checkbox: a character Qt shows
        checked = any(name == "checked" for name, _ in attrs)
        return "☑ " if checked else "☐ "
    shown = _shown_tag(tag)
    if shown is None:
        return None
    if not shown:
        return ""
    extra = _MAPPED[tag][1] if tag in _MAPPED else ""
    kept = []
    for name, value in attrs:
        if name not in _ATTRIBUTES.get(shown, ()) or value is None:
            continue
        if name == "href" and not _SAFE_HREF.match(value.strip()):
            continue
        kept.append(f' {name}="{html.escape(value)}"')
    return f"<{shown}{''.join(kept)}{extra}>"
