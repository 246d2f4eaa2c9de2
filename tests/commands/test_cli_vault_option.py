"""``--vault`` before or after the subcommand, for every command (issue 15).

The app's last-opened vault is set to another folder in every test: a command that ignored
``--vault`` would use it, and these tests would see files there.
"""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

import pytest

from pixelmem import __version__, cli
from pixelmem.commands import backup, chat, chats, common, mcp, serve, vault
from pixelmem.core.settings import Settings
from pixelmem.core.vault.store import MemoryStore

# The arguments each subcommand needs besides --vault; a new subcommand must be added here.
REQUIRED: dict[str, list[str]] = {
    "app": [],
    "add": ["--title", "t", "--body", "b"],
    "list": [],
    "show": ["abc"],
    "delete": ["abc"],
    "import": ["x.md"],
    "doctor": [],
    "duplicates": [],
    "map": [],
    "index": [],
    "search": ["query"],
    "status": [],
    "eval": ["beir"],
    "config show": [],
    "config set": ["search.mode", "keyword"],
    "config test": [],
    "ask": ["question"],
    "mcp": [],
    "serve": [],
    "backup": ["out.tar.gz"],
    "restore": ["in.tar.gz"],
    "import-chats": ["conversations.json"],
    "chats": [],
    "propose-memories": ["--latest"],
}
# Commands that do not read a vault (config is per user; config test reads it to know which
# model `auto` chose for it); the rest must resolve --vault.
NO_VAULT = {"config show", "config set", "eval"}


class _Resolved(Exception):
    """Raised by the spy once a command has resolved its vault (the test stops there)."""

    def __init__(self, path: Path) -> None:
        self.path = path


def _commands(parser: argparse.ArgumentParser, prefix: str = "") -> list[str]:
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                nested = _commands(sub, f"{prefix}{name} ")
                found += nested or [f"{prefix}{name}"]
    return found


@pytest.fixture
def vaults(tmp_path: Path) -> tuple[Path, Path]:
    """``(chosen, last_opened)``: the settings name the second as the app's last vault."""
    chosen, last = tmp_path / "chosen", tmp_path / "last-opened"
    chosen.mkdir()
    last.mkdir()
    settings = Settings()
    settings.vault = str(last)
    settings.save()
    return chosen, last


def _orders(command: str, chosen: Path) -> list[list[str]]:
    words = command.split() + REQUIRED[command]
    return [["--vault", str(chosen), *words], [*words, "--vault", str(chosen)]]


def test_every_subcommand_is_listed_here() -> None:
    assert sorted(_commands(cli.build_parser())) == sorted(REQUIRED)


@pytest.mark.parametrize("command", sorted(REQUIRED))
def test_both_orders_parse_to_the_vault(command: str, tmp_path: Path) -> None:
    parser = cli.build_parser()
    for argv in _orders(command, tmp_path):
        assert parser.parse_args(argv).vault == str(tmp_path), argv
    assert parser.parse_args(command.split() + REQUIRED[command]).vault is None


@pytest.mark.parametrize("command", sorted(set(REQUIRED) - NO_VAULT))
def test_both_orders_reach_the_command(
    command: str, vaults: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each command resolves the chosen vault, not the last opened one."""
    chosen, _ = vaults
    real = common.vault_from_args

    def spy(args: argparse.Namespace, settings: Settings | None = None) -> Path:
        raise _Resolved(real(args, settings))

    for module in (common, vault, chat, chats, mcp, serve, backup):
        monkeypatch.setattr(module, "vault_from_args", spy)
    monkeypatch.setattr(cli, "_run_app", lambda args: spy(args, Settings.load()))
    monkeypatch.setattr(chat, "create_chat_client", lambda settings: object())
    for argv in _orders(command, chosen):
        with pytest.raises(_Resolved) as resolved:
            cli.main(argv)
        assert resolved.value.path == chosen, argv


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert cli.main(list(argv)) == 0, argv
    return capsys.readouterr().out


def test_writes_and_reads_land_in_the_chosen_vault(
    vaults: tuple[Path, Path], capsys: pytest.CaptureFixture[str], monkeypatch
) -> None:
    chosen, last = vaults
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    v = str(chosen)
    first = _run(capsys, "--vault", v, "add", "--title", "Before", "--body", "x").strip()
    second = _run(capsys, "add", "--title", "After", "--body", "y", "--vault", v).strip()
    assert {m.id for m in MemoryStore(chosen).list()} == {first, second}

    for argv in (["--vault", v, "list", "--json"], ["list", "--json", "--vault", v]):
        assert {m["id"] for m in json.loads(_run(capsys, *argv))} == {first, second}
    assert "Before" in _run(capsys, "--vault", v, "show", first)
    assert "After" in _run(capsys, "show", second, "--vault", v)
    _run(capsys, "--vault", v, "doctor")

    note = chosen.parent / "note.md"
    note.write_text("# Imported\n\ntext\n", "utf-8")
    _run(capsys, "--vault", v, "import", str(note))
    archive = chosen.parent / "b.tar.gz"
    _run(capsys, "--vault", v, "backup", str(archive))
    assert archive.is_file()

    _run(capsys, "--vault", v, "delete", first)
    _run(capsys, "delete", second, "--vault", v)
    assert [m.title for m in MemoryStore(chosen).list()] == ["Imported"]
    assert sorted(p.name for p in last.iterdir()) == []  # nothing in the last-opened vault


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        cli.main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"pixelmem {__version__}"


def test_version_has_one_source() -> None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        installed = version("pixelmem")
    except PackageNotFoundError:  # pragma: no cover - not installed
        pytest.skip("pixelmem is not installed")
    assert installed == __version__


@pytest.mark.parametrize(
    ("argv", "vault"),
    [
        ([], None),
        (["app"], None),
        (["--vault", "A"], "A"),
        (["--vault=A"], "A"),
        (["app", "--vault", "A"], "A"),
        (["--vault", "A", "app"], "A"),
        (["--vault", "A", "app", "--vault", "B"], "B"),  # as with the parser: the last one
        (["--vault", "app"], "app"),  # a folder named app
    ],
)
def test_opening_the_app_is_read_without_the_command_parser(
    argv: list[str], vault: str | None
) -> None:
    """The app's own arguments are read before the parser (whose command groups import
    ~0.2 s of modules a launch does not need); anything else goes to the parser."""
    args = cli.app_arguments(argv)
    assert args is not None and args.vault == vault and args.handler is cli._run_app
    if argv:
        assert cli.build_parser().parse_args(argv).vault == vault  # the parser agrees


@pytest.mark.parametrize(
    "argv",
    [["--help"], ["app", "--help"], ["--vault"], ["app", "app"], ["list"], ["--version"]],
)
def test_anything_else_goes_to_the_parser(argv: list[str]) -> None:
    assert cli.app_arguments(argv) is None


def test_each_command_is_parsed_by_its_group_alone() -> None:
    """``pixelmem search`` builds a parser with the search group only (no chat, backup or
    serve imports): cli.COMMAND_GROUPS must name the group of every command."""
    groups = {m.__name__.rsplit(".", 1)[1] for m in cli.command_modules()}
    assert set(cli.COMMAND_GROUPS) == {c.split()[0] for c in REQUIRED} - {"app"}
    for command, group in cli.COMMAND_GROUPS.items():
        alone = {c.split()[0] for c in _commands(cli.build_parser(command))} - {"app"}
        assert command in alone and group in groups
        assert alone == {c for c, g in cli.COMMAND_GROUPS.items() if g == group}


@pytest.mark.parametrize(
    ("argv", "word"),
    [
        (["search", "x"], "search"),
        (["--vault", "/v", "search", "x"], "search"),
        (["--vault=/v", "status"], "status"),
        (["--help"], None),
        (["--version", "search"], None),
        ([], None),
    ],
)
def test_the_command_word(argv: list[str], word: str | None) -> None:
    assert cli.command_word(argv) == word
