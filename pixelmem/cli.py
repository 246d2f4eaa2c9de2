"""``pixelmem`` command line: the app with no arguments, subcommands over the core otherwise.

Each group of subcommands lives in ``pixelmem/commands/<group>.py``, exposes
``register(subparsers, common)`` and is listed once in :func:`command_modules`. User errors
(:class:`PixelmemError`) print one line and exit 1; no traceback.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from types import ModuleType

from pixelmem import __version__
from pixelmem.core.blas_threads import use_one_blas_thread
from pixelmem.core.errors import PixelmemError

VAULT_HELP = "vault folder (default: $PIXELMEM_VAULT, else the vault the app last opened)"


# Which command group registers each command: a command's parser is built with its group
# alone (``pixelmem search`` need not import the chat, backup and serve groups: ~0.2 s of
# every run). tests/commands/test_cli_vault_option.py checks it against the groups.
COMMAND_GROUPS = {
    **dict.fromkeys(("add", "list", "show", "delete", "import", "doctor"), "vault"),
    **dict.fromkeys(("index", "search", "status", "eval"), "search"),
    "config": "config",
    "ask": "chat",
    **dict.fromkeys(("import-chats", "chats", "propose-memories"), "chats"),
    "mcp": "mcp",
    "serve": "serve",
    **dict.fromkeys(("backup", "restore"), "backup"),
    **dict.fromkeys(("duplicates", "map"), "insight"),
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """``--vault`` is accepted before and after the subcommand.

    The main parser and the subcommands each have their *own* ``--vault`` action: argparse
    shares a parent's action objects, so one ``set_defaults(vault=None)`` on the main parser
    used to give every subcommand a default of None that overwrote ``pixelmem --vault A add``.
    The subcommands' default is SUPPRESS: an absent ``--vault`` after the subcommand leaves the
    one given before it alone.
    """
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--vault", metavar="DIR", default=argparse.SUPPRESS, help=VAULT_HELP)
    parser = argparse.ArgumentParser(
        prog="pixelmem",
        description="Local-first knowledge memory. Run without a command to open the app.",
    )
    parser.add_argument("--vault", metavar="DIR", default=None, help=VAULT_HELP)
    parser.add_argument("--version", action="version", version=f"pixelmem {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    app = subparsers.add_parser("app", parents=[common], help="open the desktop app (default)")
    app.set_defaults(handler=_run_app)
    group = COMMAND_GROUPS.get(command or "")
    for module in command_modules() if group is None else (command_module(group),):
        module.register(subparsers, common)
    return parser


def command_modules() -> tuple[ModuleType, ...]:
    """The command groups, in ``--help`` order. Imported when a parser is built: opening the
    app (no command) needs none of them, and their imports (httpx, the chat engine, the
    store) cost ~0.2 s of a launch."""
    from pixelmem.commands import backup, chat, chats, config, insight, mcp, search, serve, vault

    return (vault, search, config, chat, chats, mcp, serve, backup, insight)


def command_module(group: str) -> ModuleType:
    import importlib

    return importlib.import_module(f"pixelmem.commands.{group}")


def command_word(argv: Sequence[str]) -> str | None:
    """The command ``argv`` runs (None: none, or help or the version asked before it)."""
    words = list(argv)
    while words:
        word = words.pop(0)
        if word == "--vault":
            words = words[1:]
        elif not word.startswith("-"):
            return word
        elif not word.startswith("--vault="):
            return None
    return None


def app_arguments(argv: Sequence[str]) -> argparse.Namespace | None:
    """The app's arguments when ``argv`` only opens the app (nothing, ``app``, ``--vault DIR``
    before or after it), else None: then the whole parser reads it (help, errors, commands).
    The last ``--vault`` wins, as with the parser."""
    vault: str | None = None
    words = list(argv)
    if words.count("app") > 1:
        return None
    while words:
        word = words.pop(0)
        if word == "app":
            continue
        if word == "--vault" and words and not words[0].startswith("-"):
            vault = words.pop(0)
        elif word.startswith("--vault=") and len(word) > len("--vault="):
            vault = word.removeprefix("--vault=")
        else:
            return None
    return argparse.Namespace(vault=vault, handler=_run_app)


def _run_app(args: argparse.Namespace) -> int:
    from pixelmem.gui.system_check import display_problem

    use_one_blas_thread()  # before numpy loads: searches run on workers beside the UI

    problem = display_problem()
    if problem:  # before Qt aborts the process with a message few people can act on
        raise PixelmemError(problem)
    from pixelmem.gui.app import run_app

    return run_app(vault=args.vault)


def main(argv: Sequence[str] | None = None) -> int:
    logging.basicConfig(level=logging.WARNING, format="pixelmem: %(levelname)s: %(message)s")
    words = sys.argv[1:] if argv is None else argv
    args = app_arguments(words) or build_parser(command_word(words)).parse_args(words)
    handler = getattr(args, "handler", None) or _run_app
    try:
        return int(handler(args) or 0)
    except PixelmemError as exc:
        print(f"pixelmem: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("pixelmem: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
