"""The words a reader must find in a note's preview: the source's words less what Obsidian's
reading view hides or shows another way (markup, link targets behind an alias, image and
embed names, URLs behind link text, comments, block ids, task boxes). Used by the preview's
property tests and by tools/obsidian_check.py on a real vault."""

from __future__ import annotations

import html
import re

_FENCE_LINE = re.compile(r"^[ \t>]*(`{3,}|~{3,}).*$", re.M)  # its language is not shown
_FOOTNOTE_LABEL = re.compile(r"\[\^[^\]\s]+\]:?")  # shown as its number
_OBSIDIAN_COMMENT = re.compile(r"%%.*?%%", re.S)
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.S)
_EMBED = re.compile(r"!\[\[[^\]\n]*\]\]")
_IMAGE = re.compile(r"!\[[^\]\n]*\]\([^)\n]*\)")
_WIKI = re.compile(r"\[\[([^\[\]\n|#]*)(?:#([^\[\]\n|]*))?(?:\|([^\[\]\n]*))?\]\]")
_LINK = re.compile(r"\[([^\]\n]*)\]\([^)\n]*\)")
_TAG = re.compile(r"</?[A-Za-z][^<>]*>")
_CALLOUT = re.compile(r"\[![^\]\s]+\][+-]?")
_BLOCK_ID = re.compile(r"(?:^|[ \t])\^[A-Za-z0-9-]+[ \t]*$", re.M)
_TASK = re.compile(r"^(\s*(?:[-*+]|\d+[.)])\s+)\[[ xX]\]", re.M)
_NUMBERED = re.compile(r"^([ \t>]*)\d{1,9}[.)](?=[ \t])", re.M)  # a list's numbers are drawn
_WORD = re.compile(r"[^\W_]+")


def _wiki_shown(match: re.Match[str]) -> str:
    target, heading, alias = match.groups()
    return alias if alias else f"{target} {heading or ''}"


def visible_words(body: str) -> list[str]:
    text = _OBSIDIAN_COMMENT.sub(" ", body)
    text = _HTML_COMMENT.sub(" ", text)
    text = _FENCE_LINE.sub(" ", text)
    text = _FOOTNOTE_LABEL.sub(" ", text)
    text = _EMBED.sub(" ", text)
    text = _IMAGE.sub(" ", text)
    text = _WIKI.sub(_wiki_shown, text)
    text = _LINK.sub(lambda m: m.group(1), text)
    text = _TAG.sub(" ", text)
    text = _CALLOUT.sub(" ", text)
    text = _BLOCK_ID.sub(" ", text)
    text = _TASK.sub(r"\1", text)
    text = _NUMBERED.sub(r"\1", text)
    return _WORD.findall(html.unescape(text))


def missing_words(body: str, rendered: str) -> list[str]:
    """The visible words of ``body`` that ``rendered`` (the preview's plain text) lacks."""
    shown = html.unescape(rendered)
    return [word for word in dict.fromkeys(visible_words(body)) if word not in shown]
