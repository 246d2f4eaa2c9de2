"""Every ``pixelmem`` command the README shows is one the parser accepts, as written.

People copy commands from the README's code blocks, option order included: each must
parse exactly as printed. Inline code names commands in prose — synopses
(``pixelmem search QUERY [--k N] [--weaker]``) and mentions (``pixelmem search --explain``) —
and every option one names must exist on that command. Parsing runs nothing: a handler is
only looked up.
"""

from __future__ import annotations

import argparse
import re
import shlex
from pathlib import Path

import pytest

from pixelmem.cli import build_parser, command_word

README = Path(__file__).resolve().parents[2] / "README.md"

# Words that make a README line a synopsis rather than a command to run.
_PLACEHOLDER = re.compile(r"\[|\||…|\.\.\.|\b[A-Z][A-Z_.]+\b")


def _code_block_commands(text: str) -> list[str]:
    """``pixelmem …`` lines of the code blocks, comments dropped."""
    found: list[str] = []
    in_block = False
    for line in text.splitlines():
        if line.startswith("```"):
            in_block = not in_block
        elif in_block and line.strip().startswith("pixelmem "):
            found.append(line.split("  #")[0].strip())
    return sorted(set(found))


def _inline_commands(text: str) -> list[str]:
    spans = re.findall(r"`(pixelmem [^`]+)`", text)
    return sorted({span.replace("\\|", "|") for span in spans})


def _words(command: str) -> list[str]:
    return shlex.split(command)[1:]


_TEXT = README.read_text(encoding="utf-8")
CONCRETE = _code_block_commands(_TEXT)
SYNOPSES = [*_inline_commands(_TEXT), *(c for c in CONCRETE if _PLACEHOLDER.search(c[9:]))]


def _subcommand_parser(words: list[str]) -> argparse.ArgumentParser:
    """The parser of the command ``words`` names (nested: ``config set``)."""
    parser = build_parser(command_word(words))
    for word in (w for w in words if not w.startswith("-")):
        choices = next(
            (
                action.choices
                for action in parser._actions
                if isinstance(action, argparse._SubParsersAction)
            ),
            None,
        )
        if not choices or word not in choices:
            break
        parser = choices[word]
    return parser


def test_the_readme_shows_commands_of_both_kinds() -> None:
    assert len(CONCRETE) >= 10
    assert len(SYNOPSES) >= 30


@pytest.mark.parametrize("command", [c for c in CONCRETE if not _PLACEHOLDER.search(c[9:])])
def test_a_command_shown_in_the_readme_parses_as_written(command: str) -> None:
    words = _words(command)
    try:
        args = build_parser(command_word(words)).parse_args(words)
    except SystemExit as exc:  # argparse's way of refusing
        pytest.fail(f"README shows `{command}`, which the parser refuses (exit {exc.code})")
    assert getattr(args, "handler", None) is not None, command


@pytest.mark.parametrize("command", SYNOPSES)
def test_every_option_a_readme_synopsis_names_exists(command: str) -> None:
    words = _words(command.replace("[", " ").replace("]", " ").replace("|", " "))
    parser = _subcommand_parser(words)
    known = {option for action in parser._actions for option in action.option_strings}
    named = {word.split("=")[0] for word in words if word.startswith("--")}
    assert named <= known, f"`{command}`: {sorted(named - known)} not options of the command"
