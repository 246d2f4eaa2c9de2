"""Importing a folder keeps its tree, names and attachments, so that every link and embed
resolves in the vault as it did in Obsidian (issue 28; core/archive/folder_import.py)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from pixelmem.core.vault.attachments import AttachmentIndex, is_image
from pixelmem.core.vault.links import LinkResolver, parse_links
from pixelmem.core.vault.store import MemoryStore
from pixelmem.core.writes import MemoryWrites


def _files(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(root).parts)
    }


def test_a_folder_comes_in_whole_and_its_links_resolve(obsidian_syntax: Path, vault: Path) -> None:
    store = MemoryStore(vault)
    result = MemoryWrites(store).import_files([obsidian_syntax]).value
    imported = vault / obsidian_syntax.name
    assert _files(imported) == _files(obsidian_syntax)  # every note and attachment, byte for byte
    assert len(result.created) == 9 and not result.failed and not result.skipped
    assert "Syntax vault/Attachments/diagram.png" in result.copied
    assert "Syntax vault/Canvas/My canvas.canvas" in result.copied
    memories = MemoryStore(vault).list()
    resolver, files = LinkResolver(memories, vault), AttachmentIndex(vault)
    for memory in memories:
        assert memory.path is not None
        folder = memory.path.parent.relative_to(vault).as_posix()
        for link in parse_links(memory.body):
            if link.embed and is_image(link.target) and "No such" not in link.target:
                assert files.find(link.target, folder) is not None, link.target
            elif not link.embed and link.target and "No such" not in link.target:
                assert resolver.resolve(link.target) is not None, (memory.title, link.target)


def test_importing_again_adds_only_what_is_new(obsidian_syntax: Path, vault: Path) -> None:
    writes = MemoryWrites(MemoryStore(vault))
    writes.import_files([obsidian_syntax])
    (obsidian_syntax / "Attachments" / "diagram.png").write_bytes(b"another picture")
    (obsidian_syntax / "New note.md").write_text("Written since.\n")
    again = writes.import_files([obsidian_syntax]).value
    assert len(again.created) == 1 and len(again.skipped) == 9 + 5  # notes, same attachments
    assert again.copied == ("Syntax vault/Attachments/diagram (2).png",)  # changed: beside
    reasons = {p.reason for p in again.problems}  # templates the app translates
    assert reasons == {"already there (the text of “{title}”)", "already there (the same file)"}


def test_single_files_keep_their_names(tmp_path: Path, vault: Path) -> None:
    (tmp_path / "Meeting notes.md").write_text("# Meeting\n\nWe met.\n", encoding="utf-8")
    (tmp_path / "Reading.txt").write_text("A plain text file.\n", encoding="utf-8")
    (tmp_path / "photo.png").write_bytes(b"\x89PNG not really")
    result = (
        MemoryWrites(MemoryStore(vault))
        .import_files(
            [tmp_path / "Meeting notes.md", tmp_path / "Reading.txt", tmp_path / "photo.png"]
        )
        .value
    )
    assert (vault / "Meeting notes.md").read_bytes() == (tmp_path / "Meeting notes.md").read_bytes()
    assert (vault / "Reading.md").exists()
    assert len(result.created) == 2 and len(result.skipped) == 1  # a lone PNG is no note
    assert result.problems[0].values["kind"] == ".png"


def test_every_reason_the_core_gives_is_marked_for_translation() -> None:
    """The import report shows reasons in the person's language: each template the core
    raises is in gui/dialogs/import_report.py's REASONS (so lupdate puts it in the .ts)."""
    import re

    import pixelmem.core.archive.folder_import as folder_import
    import pixelmem.core.archive.importers as importers
    import pixelmem.core.writes as writes

    raised: set[str] = set()
    for module in (importers, folder_import, writes):
        source = Path(module.__file__ or "").read_text(encoding="utf-8")
        raised |= set(re.findall(r'reason="([^"]+)"', source))
    raised |= {importers.NOT_SUPPORTED, importers.TOO_LARGE, importers.UNREADABLE}
    raised.discard("{why}")  # a library's own words: shown as they come
    report = Path(__file__).parents[3] / "pixelmem" / "gui" / "dialogs" / "import_report.py"
    marked = set(
        re.findall(r'QT_TRANSLATE_NOOP\(\s*"import_reasons",\s*"([^"]+)"', report.read_text())
    )
    assert raised == marked


@pytest.mark.permissions  # also run without CAP_DAC_OVERRIDE (dev.sh)
def test_a_copy_is_no_more_open_than_its_source(tmp_path: Path, vault: Path) -> None:
    """A private (0600) note, text file and attachment stay private in an ordinary 0755 vault
    folder; an ordinary 0644 one gets the vault's usual mode (issue 26: import keeps modes)."""
    source = tmp_path / "Private"
    source.mkdir()
    (source / "Diary.md").write_text("# Diary\n\nA private note.\n", encoding="utf-8")
    (source / "Letter.txt").write_text("A private letter.\n", encoding="utf-8")
    (source / "scan.png").write_bytes(b"\x89PNG private")
    (source / "Public.md").write_text("# Public\n\nAnyone may read this.\n", encoding="utf-8")
    for name in ("Diary.md", "Letter.txt", "scan.png"):
        (source / name).chmod(0o600)
    (source / "Public.md").chmod(0o644)
    vault.chmod(0o755)
    old_umask = os.umask(0o022)
    try:
        MemoryWrites(MemoryStore(vault)).import_files([source])
    finally:
        os.umask(old_umask)
    imported = vault / "Private"
    modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in imported.iterdir()}
    assert modes == {"Diary.md": 0o600, "Letter.md": 0o600, "scan.png": 0o600, "Public.md": 0o644}
