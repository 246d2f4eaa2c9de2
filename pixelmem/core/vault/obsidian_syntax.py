"""Obsidian's Markdown on top of markdown-it-py: the parser the preview renders from.

What this adds to CommonMark + GFM tables and strikethrough (+ mdit-py-plugins' footnotes,
task lists and dollar math):

- ``[[Target#Heading|shown]]`` links and ``![[Target]]`` embeds: ``wikilink`` and ``embed``
  tokens (``meta``: target, heading, alias), never inside code;
- ``==highlight==``: ``mark_open`` / ``mark_close``;
- ``%%comments%%`` (inline or over several lines) are hidden, as in Obsidian's reading view;
- a block id (`` ^abc-1`` ending a paragraph or list item, or on a line of its own) is
  hidden and becomes an anchor (``block_id`` token);
- callouts: a quote whose first line is ``[!type]`` (``+``/``-`` for foldable, then an
  optional title) gets ``meta["callout"]`` on its ``blockquote_open`` and loses that line.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.tasklists import tasklists_plugin

from pixelmem.core.vault.links import _code_spans  # the one code rule links use too

# In a table, Obsidian writes the alias pipe escaped: [[Note\|shown]].
_WIKI = re.compile(r"\[\[([^\[\]\n|#\\]*)\\?(?:#([^\[\]\n|\\]*)\\?)?(?:\|([^\[\]\n]*))?\]\]")
_DELIMITER_ROW = re.compile(r"^ {0,3}\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$")
_PIPE_IN_LINK = re.compile(r"(\[\[[^\[\]\n|]*?)(?<!\\)\|([^\[\]\n]*\]\])")
_COMMENT = re.compile(r"%%.*?%%", re.S)
_CALLOUT = re.compile(r"^\[!([^\]\s]+)\]([+-]?)[ \t]*(.*)$")
_BLOCK_ID_END = re.compile(r"(?:^|[ \t]+)\^([A-Za-z0-9-]+)[ \t]*$")


@cache
def parser() -> MarkdownIt:
    """The one parser (building it costs ~1 ms; it holds no per-document state)."""
    md = MarkdownIt("commonmark", {"html": True, "linkify": False, "typographer": False})
    md.enable(["table", "strikethrough"])
    md.use(footnote_plugin).use(tasklists_plugin).use(dollarmath_plugin, double_inline=True)
    md.inline.ruler.before("link", "obsidian_wikilink", _wikilink)
    md.inline.ruler.before("emphasis", "obsidian_mark", _mark)
    md.core.ruler.push("obsidian_block_ids", _block_ids)
    md.core.ruler.push("obsidian_callouts", _callouts)
    return md


def without_comments(text: str) -> str:
    """``text`` less its ``%%comments%%`` outside code (Obsidian hides them when reading);
    the line breaks a comment spanned stay, so paragraphs do not run together."""
    if "%%" not in text:
        return text
    code = _code_spans(text)
    out: list[str] = []
    last = 0
    for match in _COMMENT.finditer(text):
        if any(start <= match.start() < end for start, end in code):
            continue
        out.append(text[last : match.start()])
        out.append("\n" * match.group(0).count("\n"))
        last = match.end()
    out.append(text[last:])
    return "".join(out)


def parse(text: str) -> tuple[list[Token], dict[str, Any]]:
    """The tokens of ``text`` (comments removed) and the environment (footnotes)."""
    env: dict[str, Any] = {}
    return parser().parse(links_kept_in_tables(without_comments(text)), env), env


def links_kept_in_tables(text: str) -> str:
    """Table rows with the pipe of each ``[[Note|shown]]`` escaped, as Obsidian reads them:
    a bare one would end the cell (the words after it went missing)."""
    if "[[" not in text or "|" not in text:
        return text
    lines = text.split("\n")
    in_table = False
    for index, line in enumerate(lines):
        if index + 1 < len(lines) and "|" in line and _DELIMITER_ROW.match(lines[index + 1]):
            in_table = True
        elif in_table and ("|" not in line or not line.strip()):
            in_table = False
        if in_table and "[[" in line:
            lines[index] = _PIPE_IN_LINK.sub(r"\1\\|\2", line)
    return "\n".join(lines)


# ---------------------------------------------------------------- inline rules


def _wikilink(state: StateInline, silent: bool) -> bool:
    src, pos = state.src, state.pos
    embed = src.startswith("![[", pos)
    if not (embed or src.startswith("[[", pos)):
        return False
    match = _WIKI.match(src, pos + embed)
    if match is None:
        return False
    if not silent:
        target, heading, alias = match.groups()
        token = state.push("embed" if embed else "wikilink", "", 0)
        target = target.rstrip("\\")
        token.meta = {
            "target": target.strip(),
            "heading": heading.strip() if heading is not None else None,
            "alias": alias,
        }
        token.content = src[pos : match.end()]
    state.pos = match.end()
    return True


def _mark(state: StateInline, silent: bool) -> bool:
    src, start = state.src, state.pos
    if not src.startswith("==", start) or start + 2 >= state.posMax or src[start + 2] in " =\n":
        return False
    end = src.find("==", start + 2, state.posMax)
    if end < 0 or src[end - 1] in " \n":
        return False
    if not silent:
        state.push("mark_open", "mark", 1)
        old_max = state.posMax
        state.pos, state.posMax = start + 2, end
        state.md.inline.tokenize(state)
        state.posMax = old_max
        state.push("mark_close", "mark", -1)
    state.pos = end + 2
    return True


# ---------------------------------------------------------------- core rules


def _block_ids(state: StateCore) -> None:
    """Hide a block id at the end of a block; put an anchor in its place."""
    for token in state.tokens:
        if token.type != "inline" or "^" not in token.content or not token.children:
            continue
        last = token.children[-1]
        if last.type != "text":
            continue
        match = _BLOCK_ID_END.search(last.content)
        if match is None or (_glued(last.content, match) and not _after_break(token)):
            continue  # "**word**^x": no space before the caret, so not a block id
        last.content = last.content[: match.start()]
        anchor = Token("block_id", "", 0)
        anchor.meta = {"id": match.group(1)}
        token.children.append(anchor)


def _glued(text: str, match: re.Match[str]) -> bool:
    return match.start() == 0 and text.startswith("^")


def _after_break(token: Token) -> bool:
    children = token.children or []
    return len(children) == 1 or children[-2].type in ("softbreak", "hardbreak")


def _callouts(state: StateCore) -> None:
    """Mark quotes that are callouts, take their ``[!type]`` line out of the content."""
    tokens = state.tokens
    number = 0
    for index, token in enumerate(tokens):
        if token.type != "blockquote_open" or index + 2 >= len(tokens):
            continue
        inline = tokens[index + 2]
        if tokens[index + 1].type != "paragraph_open" or inline.type != "inline":
            continue
        first_line = inline.content.split("\n", 1)[0]
        match = _CALLOUT.match(first_line)
        if match is None:
            continue
        kind, fold, title = match.groups()
        token.meta["callout"] = {
            "type": kind.lower(),
            "fold": fold,
            "title": title.strip(),
            "number": number,
        }
        number += 1
        _drop_first_line(tokens, index + 1, inline)


def _drop_first_line(tokens: list[Token], paragraph: int, inline: Token) -> None:
    children = inline.children or []
    cut = next((i for i, c in enumerate(children) if c.type in ("softbreak", "hardbreak")), None)
    if cut is None:  # a title-only callout: the paragraph goes
        tokens[paragraph].hidden = True
        tokens[paragraph + 2].hidden = True
        inline.children = []
        inline.content = ""
        return
    inline.children = children[cut + 1 :]
    inline.content = inline.content.split("\n", 1)[1] if "\n" in inline.content else ""
