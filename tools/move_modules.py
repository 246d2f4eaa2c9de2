"""Group pixelmem's flat ``core/`` and ``gui/`` modules into packages, and rewrite every import.

Run from the repository root:

    python tools/move_modules.py           # git mv the modules, write the packages'
                                           # __init__ docstrings, rewrite the references
    python tools/move_modules.py --check   # change nothing; list references still using
                                           # an old module path (exit 1 if any)

Re-runnable: modules already moved are skipped, and rewritten references are not rewritten
again, so another branch can run it after merging (then ``--check``). References are rewritten
in .py files under pixelmem/, tests/, benchmarks/, tools/ and packaging/ (imports, ``from
pixelmem.core import a, b`` lists, dotted names in strings and docstrings such as mock targets)
and in README.md, packaging/*.spec and packaging/README.md (``pixelmem/core/x.py`` paths too).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# old module (dotted, below pixelmem.) -> new module
MOVES: dict[str, str] = {
    # core/vault: the Markdown files themselves
    **{
        f"core.{name}": f"core.vault.{name}"
        for name in (
            "atomic",
            "checked_replace",
            "frontmatter_io",
            "ids",
            "memory",
            "memory_json",
            "rename_ops",
            "safe_open",
            "scan_cache",
            "simple_yaml",
            "stale_temps",
            "store",
            "vault_files",
            "vault_scan",
            "vault_watch",
            "writes",
            "yaml_guard",
        )
    },
    # core/index: from memories to a searchable snapshot
    **{
        f"core.{name}": f"core.index.{name}"
        for name in (
            "cache",
            "chunking",
            "engine",
            "evaluate",
            "indexer",
            "keyword_index",
            "model_choice",
            "relevance",
            "search",
            "text_tokens",
            "vector_index",
        )
    },
    # core/providers: models and servers pixelmem talks to
    "core.embeddings": "core.providers.embeddings",
    "core.http": "core.providers.http",
    "core.providers": "core.providers.servers",
    "core.rerank": "core.providers.rerank",
    "core.chat": "core.providers.chat",
    # core/assist: memories into a chat
    **{f"core.{n}": f"core.assist.{n}" for n in ("injection", "conversations", "token_budget")},
    # core/archive: in and out of the vault
    **{
        f"core.{n}": f"core.archive.{n}"
        for n in ("archive_manifest", "backup", "restore", "importers", "inbox")
    },
    # core/insight: the map, near-duplicates, topic suggestions
    **{
        f"core.{n}": f"core.insight.{n}"
        for n in (
            "semantic_map",
            "map_clusters",
            "map_layout",
            "memory_vectors",
            "duplicates",
            "merge",
            "topic_suggestions",
        )
    },
    # gui/chat: the chat pane and its parts
    **{
        f"gui.chat_{n}": f"gui.chat.{n}"
        for n in (
            "body",
            "chips",
            "conversations",
            "dialogs",
            "history",
            "pane",
            "state",
            "widgets",
        )
    },
}

# package -> (one-line summary, what it owns and may import); written as its __init__ docstring
PACKAGES: dict[str, tuple[str, str]] = {
    "core": (
        "The Qt-free engine, in packages by concern; the CLI, MCP server and app share it.",
        "vault: the Markdown files (rules, scan, store, the one write gateway, watching). "
        "index: chunks, embedding cache, vector and keyword sides, search, the engine. "
        "providers: embedding models, HTTP servers, reranker, chat clients. "
        "assist: memories into a chat prompt, conversations, token budgets. "
        "archive: backup, restore, import, the review inbox. "
        "insight: the semantic map, near-duplicates, topic suggestions. "
        "Here: errors, paths, settings, wording, render_limits (used by all). "
        "Nothing here imports PySide6, pixelmem.gui or an entry point (CLI, commands, MCP); "
        "tests/test_architecture.py enforces it.",
    ),
    "core.vault": (
        "The vault: which files are memories, reading them, writing them back safely.",
        "Owns the file rules (vault_files), scanning (vault_scan, scan_cache), the table and "
        "its writes (store), the one write gateway every entry point uses (writes), "
        "frontmatter, ids, atomic writes and watching for outside changes. May import the "
        "core's shared modules (errors, paths, settings); the gateway (writes) also drives "
        "archive's importers and inbox. Never index, providers, assist or insight.",
    ),
    "core.index": (
        "The search index: memories into chunks, vectors and keywords, and searching them.",
        "Owns chunking, the embedding cache, the vector and keyword sides, relevance, search "
        "and the Engine that ties a vault to its index. May import vault, providers and the "
        "core's shared modules.",
    ),
    "core.providers": (
        "What pixelmem talks to: embedding models, HTTP servers, rerankers, chat clients.",
        "Local and remote. May import the core's shared modules only (not vault or index).",
    ),
    "core.assist": (
        "Memories in a chat: which go into the prompt, token budgets, saved conversations.",
        "May import vault, index, providers and the core's shared modules.",
    ),
    "core.archive": (
        "In and out of the vault: backup, restore, import, the review inbox.",
        "The inbox holds drafts proposed by AI tools (MCP) until the person accepts them. "
        "May import vault and the core's shared modules.",
    ),
    "core.insight": (
        "Seeing the vault whole: the semantic map, near-duplicates, topic suggestions.",
        "Merging near-duplicates lives here too. May import vault, index and the core's "
        "shared modules.",
    ),
    "gui.chat": (
        "The chat pane (a dock) and its parts.",
        "pane routes; body, widgets and chips render; state and history keep the turns and "
        "saved conversations; dialogs save a reply as a memory. May import pixelmem.core and "
        "the rest of pixelmem.gui.",
    ),
}


def package_docstring(package: str) -> str:
    summary, body = PACKAGES[package]
    return f'"""{summary}\n\n{textwrap.fill(body, width=95)}\n"""\n'


SCAN_DIRS = ("pixelmem", "tests", "benchmarks", "tools", "packaging")
EXTRA_FILES = ("README.md", "packaging/README.md", "packaging/pixelmem.spec")
SELF = Path(__file__).resolve()


def _path_of(module: str) -> Path:
    """The file or folder of a module below pixelmem/ (``core.store`` -> core/store.py)."""
    base = ROOT / "pixelmem" / Path(*module.split("."))
    module_file = base.with_suffix(".py")  # core/providers.py before it becomes a package
    return module_file if module_file.exists() or not base.is_dir() else base


def _new_members(package: str) -> set[str]:
    """Leaf names that a new package will hold (to tell ``core.providers.http`` from the old
    ``core.providers`` module followed by an attribute)."""
    return {new.split(".")[-1] for new in MOVES.values() if new.rsplit(".", 1)[0] == package}


_OLD = sorted(MOVES, key=len, reverse=True)
_TOKEN = re.compile(
    r"pixelmem(?P<sep>[./])(?P<old>"
    + "|".join(re.escape(o).replace(r"\.", "[./]") for o in _OLD)
    + r")(?![A-Za-z0-9_])"
)
_FROM_LIST = re.compile(
    r"^(?P<indent>[ \t]*)from pixelmem\.(?P<pkg>core|gui) import "
    r"(?:\((?P<paren>[^)]*)\)|(?P<plain>[^\n#]+?))[ \t]*(?P<comment>#[^\n]*)?$",
    re.MULTILINE,
)


def _token_sub(match: re.Match[str]) -> str:
    sep, old = match.group("sep"), match.group("old")
    old_dotted = old.replace("/", ".")
    rest = match.string[match.end() :]
    follow = re.match(r"(?:[./]|\s+import\s+\(?\s*)([A-Za-z_][A-Za-z0-9_]*)", rest)
    if follow and follow.group(1) in _new_members(old_dotted):
        return match.group(0)  # already the new package (core.providers.http)
    new = MOVES[old_dotted]
    return "pixelmem" + sep + (new.replace(".", "/") if sep == "/" else new)


def _from_list_sub(match: re.Match[str]) -> str:
    """``from pixelmem.core import ids, scan_cache`` -> one import per new parent package."""
    pkg = match.group("pkg")
    names_text = match.group("paren") if match.group("paren") is not None else match.group("plain")
    names = [n.strip() for n in names_text.replace("\n", " ").split(",") if n.strip()]
    groups: dict[str, list[str]] = {}
    for name in names:
        leaf = name.split(" as ")[0].strip()
        moved = MOVES.get(f"{pkg}.{leaf}")
        if moved is None:
            groups.setdefault(pkg, []).append(name)
            continue
        parent, new_leaf = moved.rsplit(".", 1)
        alias = name.split(" as ")[1].strip() if " as " in name else None
        if new_leaf != leaf and alias is None:
            alias = leaf
        groups.setdefault(parent, []).append(f"{new_leaf} as {alias}" if alias else new_leaf)
    if list(groups) == [pkg]:
        return match.group(0)
    indent, comment = match.group("indent"), match.group("comment")
    lines = [
        f"{indent}from pixelmem.{parent} import {', '.join(sorted(items))}"
        for parent, items in sorted(groups.items())
    ]
    if comment:
        lines[0] += f"  {comment}"
    return "\n".join(lines)


def rewrite(text: str) -> str:
    text = _FROM_LIST.sub(_from_list_sub, text)
    return _TOKEN.sub(_token_sub, text)


def stragglers(text: str) -> list[str]:
    found = []
    for match in _TOKEN.finditer(text):
        if _token_sub(match) != match.group(0):
            found.append(match.group(0))
    for match in _FROM_LIST.finditer(text):
        if _from_list_sub(match) != match.group(0):
            found.append(match.group(0).strip())
    return found


def files_to_rewrite() -> list[Path]:
    found = [p for d in SCAN_DIRS for p in sorted((ROOT / d).rglob("*.py"))]
    found += [ROOT / f for f in EXTRA_FILES if (ROOT / f).exists()]
    return [p for p in found if ".venv" not in p.parts and p.resolve() != SELF]


def move_files() -> None:
    for package in PACKAGES:
        doc = package_docstring(package)
        init = ROOT / "pixelmem" / Path(*package.split(".")) / "__init__.py"
        init.parent.mkdir(exist_ok=True)
        if package == "core" or not init.exists():
            init.write_text(doc, encoding="utf-8")
            subprocess.run(["git", "add", str(init)], cwd=ROOT, check=True)
    for old, new in MOVES.items():
        source, target = _path_of(old), _path_of(new)
        if not source.exists():
            continue  # moved already (or not on this branch)
        if source.is_dir():
            target = ROOT / "pixelmem" / Path(*new.split("."))
        subprocess.run(["git", "mv", str(source), str(target)], cwd=ROOT, check=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="list old references; change nothing")
    args = parser.parse_args()
    if args.check:
        problems = [
            f"{path.relative_to(ROOT)}: {ref}"
            for path in files_to_rewrite()
            for ref in stragglers(path.read_text(encoding="utf-8"))
        ]
        problems += [
            f"{_path_of(old).relative_to(ROOT)}: not moved yet"
            for old in MOVES
            if _path_of(old).exists() and not _path_of(MOVES[old]).exists()
        ]
        print("\n".join(problems) or "no old module paths left")
        return 1 if problems else 0
    move_files()
    changed = 0
    for path in files_to_rewrite():
        text = path.read_text(encoding="utf-8")
        new = rewrite(text)
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed += 1
    print(f"rewrote references in {changed} file(s); run with --check to confirm")
    return 0


if __name__ == "__main__":
    sys.exit(main())
