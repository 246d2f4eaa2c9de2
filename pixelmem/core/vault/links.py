"""``[[Wiki links]]`` between memories: parse, resolve, backlinks, and rewriting after a rename.

Links follow Obsidian's syntax: ``[[Target]]``, ``[[Target#Heading]]``, ``[[Target|shown
text]]``, ``[[Folder/Target]]``; ``![[embeds]]`` are parsed (flagged ``embed``) but never
resolved to memories or rewritten. Links inside code (fenced blocks, inline code) are text.

A target resolves, case-insensitively and ignoring runs of spaces, to the memory whose
vault-relative path (without ``.md``) ends with it, else whose file name is it, else whose
title is it, else one of whose aliases is it; among several, the one with the shortest path
(then the first by path) wins, as Obsidian's "shortest path" links do.

Public API for callers that move or merge memories: :func:`plan_rename` (links that would
stop resolving once a memory's title changes, rewritten to the new title) and
:func:`plan_retarget` (links to some memories pointed at another, e.g. after a merge); both
return :class:`LinkUpdate` lists that ``MemoryWrites.apply_link_updates`` writes in one change set.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NamedTuple

from pixelmem.core.step_aside import step_aside
from pixelmem.core.vault.memory import Memory

# Starts with the literal "[[" so the engine can skip ahead; a "!" before it makes an embed.
_LINK_RE = re.compile(r"\[\[([^\[\]\n|#]*)(?:#([^\[\]\n|]*))?(?:\|([^\[\]\n]*))?\]\]")
_FENCE_RE = re.compile(r"^[ \t]{0,3}(```|~~~)[^\n]*\n.*?(?:^[ \t]{0,3}\1[ \t]*$|\Z)", re.M | re.S)
_INLINE_CODE_RE = re.compile(r"(`+)[^`\n].*?\1", re.S)
_MARKDOWN_SUFFIXES = (".md", ".markdown")
_FORBIDDEN_IN_TARGET = re.compile(r"[\[\]|#^\n]")
_HEADING_LINE_RE = re.compile(r"^[ \t]{0,3}#{1,6}[ \t]+(.+?)[ \t#]*$", re.MULTILINE)


class WikiLink(NamedTuple):
    """One ``[[…]]`` in a text; ``start``/``end`` are its span (``!`` included for embeds).
    (A named tuple: a 10k-memory vault has tens of thousands, built in one go.)"""

    target: str
    heading: str | None
    alias: str | None
    embed: bool
    start: int
    end: int

    @property
    def shown(self) -> str:
        """The text a reader sees for the link."""
        if self.alias:
            return self.alias
        return f"{self.target} > {self.heading}" if self.heading else self.target

    @property
    def destination(self) -> str:
        """``Target#Heading`` (or just ``Target``): what following the link opens."""
        return f"{self.target}#{self.heading}" if self.heading else self.target

    def with_target(self, target: str) -> str:
        """The link's text pointing at ``target``, keeping its heading, alias and embed mark."""
        heading = f"#{self.heading}" if self.heading is not None else ""
        alias = f"|{self.alias}" if self.alias is not None else ""
        return f"{'!' if self.embed else ''}[[{target}{heading}{alias}]]"


def parse_links(text: str) -> list[WikiLink]:
    """Every wiki link and embed in ``text`` outside code, in order."""
    if "[[" not in text:
        return []
    code = _code_spans(text)
    links: list[WikiLink] = []
    for match in _LINK_RE.finditer(text):
        if any(start <= match.start() < end for start, end in code):
            continue
        target, heading, alias = match.groups()
        embed = match.start() > 0 and text[match.start() - 1] == "!"
        links.append(
            WikiLink(  # [[Note\|shown]] in a table: the backslash escapes the pipe
                target=target.strip().removesuffix("\\").rstrip(),
                heading=heading.strip().removesuffix("\\") if heading is not None else None,
                alias=alias,
                embed=embed,
                start=match.start() - embed,
                end=match.end(),
            )
        )
    return links


def _code_spans(text: str) -> list[tuple[int, int]]:
    if "`" not in text and "~~~" not in text:
        return []
    spans = [(m.start(), m.end()) for m in _FENCE_RE.finditer(text)]
    for m in _INLINE_CODE_RE.finditer(text):
        if not any(start <= m.start() < end for start, end in spans):
            spans.append((m.start(), m.end()))
    return spans


def link_key(text: str) -> str:
    """How link targets compare: case-insensitive, runs of spaces as one."""
    return " ".join(text.split()).casefold()


def link_target_for(memory: Memory) -> str:
    """What a new link to ``memory`` names: its title, or its file name when the title holds
    characters a link cannot (``[ ] | # ^``)."""
    if memory.title and not _FORBIDDEN_IN_TARGET.search(memory.title):
        return memory.title
    return _stem(memory) or memory.title


def _stem(memory: Memory) -> str:
    return _relative_stem(memory, None).rsplit("/", 1)[-1]


def _relative_stem(memory: Memory, root: Path | None) -> str:
    """The path below ``root`` without ``.md``, with ``/`` (string work: pathlib's parsing
    was most of the time of a 10k-memory graph)."""
    if memory.path is None:
        return ""
    text = os.fspath(memory.path).replace(os.sep, "/")
    prefix = os.fspath(root).replace(os.sep, "/").rstrip("/") + "/" if root is not None else ""
    if prefix and text.startswith(prefix):
        text = text[len(prefix) :]
    for suffix in _MARKDOWN_SUFFIXES:
        if text.lower().endswith(suffix):
            return text[: -len(suffix)]
    return text


class LinkResolver:
    """Resolves link targets to memory ids over one snapshot of the vault."""

    def __init__(self, memories: Iterable[Memory], root: Path | None = None) -> None:
        keyed = []
        for number, memory in enumerate(memories):
            if number % 256 == 255:
                step_aside()  # the paths' string work too: ~30 ms at 10k memories
            keyed.append((_relative_stem(memory, root), memory))
        keyed.sort(key=lambda p: (len(p[0]), p[0]))
        self._paths: list[tuple[str, str]] = []  # (casefolded relative stem, id)
        self._names: dict[str, str] = {}
        self._titles: dict[str, str] = {}
        self._aliases: dict[str, str] = {}
        for number, (rel, memory) in enumerate(keyed):
            if number % 256 == 255:
                step_aside()  # a search, or a late window, first (core/step_aside)
            self._paths.append((link_key(rel), memory.id))
            self._names.setdefault(link_key(rel.rsplit("/", 1)[-1]), memory.id)
            self._titles.setdefault(link_key(memory.title), memory.id)
            for alias in memory.aliases:
                self._aliases.setdefault(link_key(alias), memory.id)

    def resolve(self, target: str) -> str | None:
        """The id of the memory ``target`` names, or None (a link to a note not written yet)."""
        key = link_key(target)
        for suffix in _MARKDOWN_SUFFIXES:
            if key.endswith(suffix):
                key = key[: -len(suffix)]
        if not key:
            return None
        if "/" in key:
            for rel, memory_id in self._paths:
                if rel == key or rel.endswith("/" + key):
                    return memory_id
            key = key.rsplit("/", 1)[1]
        for table in (self._names, self._titles, self._aliases):
            found = table.get(key)
            if found is not None:
                return found
        return None


def heading_span(body: str, heading: str) -> tuple[int, int] | None:
    """Where the Markdown heading called ``heading`` is in ``body`` (case and spacing aside),
    for ``[[Note#Heading]]``; None if there is none."""
    wanted = link_key(heading)
    for match in _HEADING_LINE_RE.finditer(body):
        if link_key(match.group(1)) == wanted:
            return match.start(), match.end()
    return None


# ---------------------------------------------------------------- backlinks


@dataclass(frozen=True)
class Mention:
    """A place in another memory that names this one: a link, or (unlinked) its title."""

    source_id: str
    start: int
    end: int
    context: str  # the line it is on, trimmed


class LinkGraph:
    """Every memory's outgoing links, resolved once; backlinks and unlinked mentions."""

    def __init__(self, memories: Iterable[Memory], root: Path | None = None) -> None:
        self.memories = {m.id: m for m in memories}
        self.resolver = LinkResolver(self.memories.values(), root)
        self._incoming: dict[str, list[tuple[str, WikiLink]]] = {}
        self._links: dict[str, list[WikiLink]] = {}
        self._folded: dict[str, str] = {}  # casefolded bodies, made on the first mention search
        resolved: dict[str, str | None] = {}  # most targets repeat: resolve each once
        for number, memory in enumerate(self.memories.values()):
            if number % 256 == 255:
                step_aside()  # a search, or a late window, first (core/step_aside)
            links = parse_links(memory.body)
            self._links[memory.id] = links
            for link in links:
                if link.embed:
                    continue
                if link.target not in resolved:
                    resolved[link.target] = self.resolver.resolve(link.target)
                target = resolved[link.target]
                if target is not None and target != memory.id:
                    self._incoming.setdefault(target, []).append((memory.id, link))

    def backlinks(self, memory_id: str) -> list[Mention]:
        """Links in other memories that resolve to ``memory_id``, by source title."""
        found = [
            Mention(source, link.start, link.end, _line(self.memories[source].body, *link[4:6]))
            for source, link in self._incoming.get(memory_id, [])
        ]
        return sorted(found, key=lambda m: (self.memories[m.source_id].title.casefold(), m.start))

    def unlinked_mentions(self, memory_id: str, limit: int = 200) -> list[Mention]:
        """Places in other memories that say the title (or an alias) without linking it."""
        memory = self.memories.get(memory_id)
        if memory is None:
            return []
        names = [memory.title, *memory.aliases]
        pattern = mention_pattern(names)
        if pattern is None:
            return []
        if not self._folded:
            self._folded = {m.id: m.body.casefold() for m in self.memories.values()}
        folded_names = [" ".join(n.split()).casefold() for n in names if len(n.strip()) >= 2]
        found: list[Mention] = []
        for other in sorted(self.memories.values(), key=lambda m: m.title.casefold()):
            body = self._folded.get(other.id, "")
            if other.id == memory_id or not any(n in body for n in folded_names):
                continue  # a plain substring test first: the pattern is slow to run everywhere
            taken = [(link.start, link.end) for link in self._links.get(other.id, ())]
            taken += _code_spans(other.body)
            for match in pattern.finditer(other.body):
                if any(start <= match.start() < end for start, end in taken):
                    continue
                line = _line(other.body, match.start(), match.end())
                found.append(Mention(other.id, match.start(), match.end(), line))
                if len(found) >= limit:
                    return found
        return found


def mention_pattern(names: Iterable[str]) -> re.Pattern[str] | None:
    """A case-insensitive pattern for any of ``names`` as whole words (Latin edges only: CJK
    text has no spaces between words)."""
    parts = []
    for name in sorted({" ".join(n.split()) for n in names if len(n.strip()) >= 2}, key=len)[::-1]:
        body = r"\s+".join(re.escape(word) for word in name.split())
        head = r"(?<!\w)" if name[0].isascii() and name[0].isalnum() else ""
        tail = r"(?!\w)" if name[-1].isascii() and name[-1].isalnum() else ""
        parts.append(f"{head}{body}{tail}")
    return re.compile("|".join(parts), re.IGNORECASE) if parts else None


def _line(text: str, span_start: int, span_end: int) -> str:
    """The line around a mention, trimmed; a long one is cut so the mention is near its start
    (a panel elides the end, so the mention stays in view)."""
    start = text.rfind("\n", 0, span_start) + 1
    end = text.find("\n", span_end)
    end = end if end >= 0 else len(text)
    if span_start - start > 60:
        cut = text.rfind(" ", start, span_start - 40)
        start = cut + 1 if cut > start else span_start - 40
        prefix = "…"
    else:
        prefix = ""
    line = prefix + text[start:end].strip()
    return line if len(line) <= 240 else line[:239] + "…"


# ---------------------------------------------------------------- rewriting


@dataclass(frozen=True)
class LinkUpdate:
    """One memory whose body gets rewritten links: ``count`` links changed."""

    memory_id: str
    title: str
    body: str
    count: int
    disk_hash: str | None = None  # the file the plan was made from: a changed one is skipped


def rewrite_links(text: str, new_target: Callable[[WikiLink], str | None]) -> tuple[str, int]:
    """``text`` with each link for which ``new_target`` gives a target pointed there (its
    heading, alias and every other byte kept); and how many links changed."""
    out: list[str] = []
    last = count = 0
    for link in parse_links(text):
        target = new_target(link)
        if target is None or target == link.target:
            continue
        out.append(text[last : link.start])
        out.append(link.with_target(target))
        last = link.end
        count += 1
    out.append(text[last:])
    return "".join(out), count


def plan_link_mention(source: Memory, mention: Mention, target: Memory) -> LinkUpdate | None:
    """Turn one unlinked mention of ``target`` in ``source`` into a link: ``[[Title]]``, or
    ``[[Title|the words as written]]`` when they differ. None if ``source`` no longer has
    those words there (it changed since the mention was found)."""
    words = source.body[mention.start : mention.end]
    pattern = mention_pattern([target.title, *target.aliases])
    if pattern is None or not pattern.fullmatch(words):
        return None
    name = link_target_for(target)
    link = f"[[{name}]]" if words == name else f"[[{name}|{words}]]"
    body = source.body[: mention.start] + link + source.body[mention.end :]
    return LinkUpdate(source.id, source.title, body, 1, source.disk_hash)


def plan_retarget(
    memories: Iterable[Memory],
    root: Path | None,
    targets: Mapping[str, Memory],
    *,
    after: Iterable[Memory] | None = None,
    only_broken: bool = False,
) -> list[LinkUpdate]:
    """Links resolving to an id in ``targets`` rewritten to name ``targets[id]``.

    ``after`` is the vault as it will be (a renamed title, a merged memory gone); with
    ``only_broken`` a link is rewritten only if it would no longer resolve to the same memory
    there (a link by file name or alias survives a title change untouched).
    """
    memories = list(memories)
    before = LinkResolver(memories, root)
    future = LinkResolver(after if after is not None else memories, root)
    updates: list[LinkUpdate] = []

    def new_target(link: WikiLink) -> str | None:
        if link.embed:
            return None
        old = before.resolve(link.target)
        if old is None or old not in targets:
            return None
        if only_broken and future.resolve(link.target) == old:
            return None
        return link_target_for(targets[old])

    for memory in memories:
        if memory.id in targets and not only_broken:
            continue  # a memory being merged away
        body, count = rewrite_links(memory.body, new_target)
        if count:
            updates.append(LinkUpdate(memory.id, memory.title, body, count, memory.disk_hash))
    return updates


def plan_rename(
    memories: Iterable[Memory], root: Path | None, memory_id: str, new_title: str
) -> list[LinkUpdate]:
    """The other memories' links to ``memory_id`` that its new title would break (they named
    the old title), rewritten to name ``new_title``. Links by file name or alias are kept."""
    memories = list(memories)
    renamed = next((m for m in memories if m.id == memory_id), None)
    if renamed is None or renamed.title == new_title:
        return []
    future = replace(renamed, title=new_title)
    after = [future if m.id == memory_id else m for m in memories]
    updates = plan_retarget(memories, root, {memory_id: future}, after=after, only_broken=True)
    return [u for u in updates if u.memory_id != memory_id]


__all__ = [
    "LinkGraph",
    "LinkResolver",
    "LinkUpdate",
    "Mention",
    "WikiLink",
    "heading_span",
    "link_key",
    "link_target_for",
    "mention_pattern",
    "parse_links",
    "plan_link_mention",
    "plan_rename",
    "plan_retarget",
    "rewrite_links",
]
