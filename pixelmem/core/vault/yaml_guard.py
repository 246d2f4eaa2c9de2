"""Bounds on YAML frontmatter, checked before the YAML is built into Python objects.

One hostile file must not stop or stall a scan (issue 18). Three things can:
- size: frontmatter above :data:`MAX_FRONTMATTER_BYTES` is refused unread;
- nesting: libyaml composes nodes recursively in C, so ``[[[[…`` 100,000 deep crashes the
  process and 10,000 deep takes seconds; anything deeper than :data:`MAX_NESTING` is refused;
- aliases: ``&a [x, x]`` / ``&b [*a, *a]`` … builds a small graph that every later walk
  (topics, JSON, the scan cache) expands to billions of values; a document whose expansion
  exceeds :data:`MAX_EXPANDED_NODES` is refused.

A cheap text bound decides first; only frontmatter that could be deep or that has anchors
and aliases is run through libyaml's event stream (iterative, no objects built) to be sure.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

try:
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

MAX_FRONTMATTER_BYTES = 256 * 1024
MAX_NESTING = 64
MAX_EXPANDED_NODES = 100_000
# Above this text bound even the event stream is not asked: libyaml's parser slows down
# quadratically with depth and crashes deeper still.
_MAX_EVENT_DEPTH = 2_000
# Leading indentation and block indicators (`- `, `? `, `: `): each block level needs one more.
_LEAD_RE = re.compile(r"^[ \t]*(?:[-?:][ \t]+)*", re.MULTILINE)
_OPEN = frozenset("[{")


class YamlLimitError(ValueError):
    """The frontmatter is too big, too deep or expands too far to be read safely."""


def check_bounds(yaml_text: str) -> bool:
    """Raise :class:`YamlLimitError` if ``yaml_text`` is beyond a bound; True if it has aliases."""
    if len(yaml_text) > MAX_FRONTMATTER_BYTES // 4 and (
        len(yaml_text.encode("utf-8", "surrogatepass")) > MAX_FRONTMATTER_BYTES
    ):
        raise YamlLimitError(f"frontmatter larger than {MAX_FRONTMATTER_BYTES // 1024} KB")
    bound = depth_bound(yaml_text)
    may_alias = "&" in yaml_text and "*" in yaml_text
    if bound <= MAX_NESTING and not may_alias:
        return False
    if bound > _MAX_EVENT_DEPTH:
        raise YamlLimitError(f"frontmatter nested more than {MAX_NESTING} levels deep")
    depth, expanded, aliases = _measure(yaml_text)
    if depth > MAX_NESTING:
        raise YamlLimitError(f"frontmatter nested more than {MAX_NESTING} levels deep")
    if expanded > MAX_EXPANDED_NODES:
        raise YamlLimitError(
            f"frontmatter aliases expand to more than {MAX_EXPANDED_NODES:,} values"
        )
    return aliases


def depth_bound(yaml_text: str) -> int:
    """An upper bound on the nesting depth, from brackets and leading indentation."""
    flow = deepest = 0
    for char in yaml_text:
        if char in _OPEN:
            flow += 1
            deepest = max(deepest, flow)
        elif char == "]" or char == "}":
            flow = max(flow - 1, 0)
    lead = max((len(m.group(0)) for m in _LEAD_RE.finditer(yaml_text)), default=0)
    # A block sequence may sit at its parent key's indentation, hence 2 levels per column.
    return deepest + 2 * (lead + 1)


def _measure(yaml_text: str) -> tuple[int, int, bool]:
    """(depth, node count with every alias expanded, any alias) from libyaml's events."""
    sizes: dict[str, int] = {}
    stack: list[list[Any]] = []  # [anchor, node count so far]
    depth = total = 0
    aliases = False
    try:
        for event in yaml.parse(yaml_text, Loader=_Loader):
            kind = type(event)
            anchor: str | None = getattr(event, "anchor", None)
            if kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
                stack.append([anchor, 1])
                depth = max(depth, len(stack))
                if depth > MAX_NESTING:
                    break
                continue
            if kind is yaml.ScalarEvent:
                size = 1
                if anchor:
                    sizes[anchor] = 1
            elif kind is yaml.AliasEvent:
                aliases = True
                size = sizes.get(anchor or "", 1)
                # Only an alias can make the count outgrow the text: check here alone.
                if total + size + sum(level[1] for level in stack) > MAX_EXPANDED_NODES:
                    return depth, MAX_EXPANDED_NODES + 1, True
            elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
                opened, size = stack.pop()
                if opened:
                    sizes[opened] = size
            else:
                continue
            if stack:
                stack[-1][1] += size
            else:
                total += size
    except yaml.YAMLError:
        pass  # the loader reports the syntax error with its position
    return depth, total, aliases
