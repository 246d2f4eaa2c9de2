"""Importing files and folders so that links keep working in Obsidian (issue 28).

Rules (README, "Importing"):

- A **folder** comes in as a folder of the vault with its name, every sub-folder and file
  name kept: Markdown notes are copied byte for byte (no key added, no rename), attachments
  (images, PDFs, canvases, anything else) are copied beside them, so ``[[Note]]`` and
  ``![[image.png]]`` resolve as they did. The same folder imported again adds only what is
  new: a file already there with the same bytes is skipped, a different one of the same
  name is kept beside it as ``name (2)``.
- A **Markdown file** named alone is copied into the vault's top folder under its own name.
- Text, PDF and Word files (and every other registered reader's) become a Markdown note named
  after the file (``Report.pdf`` → ``Report.md``) where the file would have gone; in a folder
  that is an Obsidian vault (it has ``.obsidian/``) they are attachments, copied as they are,
  as Obsidian keeps them (``![[Report.pdf]]``).
- A file whose text the vault already holds is skipped ("already there"), so an import made
  twice does not double the vault; a file inside the vault is refused; a file of a kind no
  reader takes is skipped when named alone, copied as an attachment when in a folder.

Permissions: a copy or converted note is no more open to other accounts than its source (a
0600 file stays 0600 in a 0755 vault folder). Dot-files and dot-folders (``.obsidian/``,
``.git/``) are left out. Every write is a new
file (never over one); the store re-reads each note it gains, so the change set names them.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pixelmem.core.archive.importers import (
    MAX_IMPORT_BYTES,
    READERS,
    ImportedDoc,
    content_key,
    import_doc,
    read_importable,
)
from pixelmem.core.errors import ImportFailed, ImportSkipped, PixelmemError
from pixelmem.core.files.atomic import remove_quietly
from pixelmem.core.files.checked_replace import write_new
from pixelmem.core.files.folders import unique_path, walk_tree
from pixelmem.core.files.permissions import copy_mode, no_more_open_than
from pixelmem.core.vault.memory import Memory
from pixelmem.core.vault.store import MemoryStore
from pixelmem.core.vault.titles import OBSIDIAN, vault_title_rule
from pixelmem.core.vault.vault_files import is_hidden, is_markdown

MAX_ATTACHMENT_BYTES = 1024 * 1024 * 1024  # a 1 GB video is copied; anything larger is not
Listener = Callable[[Path, "Memory | PixelmemError"], None]


@dataclass(frozen=True)
class ImportProblem:
    """A file left out: ``reason`` is an English template filled with ``values`` (the app
    translates the template); ``skipped`` on purpose, else failed."""

    path: str
    reason: str
    values: dict[str, Any] = field(default_factory=dict)
    skipped: bool = False

    def sentence(self) -> str:
        return f"{self.path}: {self.reason.format(**self.values)}"


@dataclass
class Imported:
    created: list[str] = field(default_factory=list)  # memory ids
    copied: list[str] = field(default_factory=list)  # attachments, paths below the vault
    problems: list[ImportProblem] = field(default_factory=list)


class FolderImport:
    """One import into ``store``; :meth:`run` takes the paths a person chose."""

    def __init__(self, store: MemoryStore, on_file: Listener | None = None) -> None:
        self.store = store
        self.root = store.root.resolve()
        self.on_file = on_file
        self.known = {content_key(m.title, m.body): m.title for m in store.list()}
        self.result = Imported()

    def run(self, paths: Iterable[Path]) -> Imported:
        for path in paths:
            path = Path(path)
            if path.is_dir() and not path.resolve().is_relative_to(self.root):
                self._folder(path)
            else:
                self._file(path, self.store.root, in_folder=False)
        return self.result

    def _folder(self, folder: Path) -> None:
        target = self.store.root / (folder.name or "Imported")
        convert = vault_title_rule(folder) != OBSIDIAN  # a vault's PDFs are attachments
        for source, relative in _files_below(folder):
            self._file(source, target / relative.parent, in_folder=True, convert=convert)

    def _file(self, source: Path, into: Path, *, in_folder: bool, convert: bool = True) -> None:
        try:
            if source.resolve().is_relative_to(self.root):
                raise ImportFailed(path=source, reason="already in the vault")
            if is_markdown(source.name):
                memory: Memory | None = self._note(source, into)
            elif not in_folder or (convert and source.suffix.lower() in READERS):
                memory = self._converted(source, into)
            else:
                self._attachment(source, into)
                return
        except (ImportFailed, PixelmemError) as exc:
            self._problem(source, exc)
            return
        if memory is not None:
            self.result.created.append(memory.id)
            if self.on_file is not None:
                self.on_file(source, memory)

    def _note(self, source: Path, into: Path) -> Memory:
        doc = read_importable(source)  # refuses what the vault could not read
        self._check_new(source, doc)
        data = source.read_bytes()
        target = self._write(into, source.name, data, source)
        _keep_times(source, target)
        found = self.store.reload_path(target)
        if found is None:  # pragma: no cover - a file just written is always read
            raise ImportFailed(path=source, reason="could not be read back")
        self.known[content_key(doc.title, doc.body)] = doc.title
        return self.store.get(found[1])

    def _converted(self, source: Path, into: Path) -> Memory:
        doc = read_importable(source)
        self._check_new(source, doc)
        into.mkdir(parents=True, exist_ok=True)
        memory = import_doc(self.store, doc, place=into / f"{source.stem}.md")
        if memory.path is not None:  # written by the store: narrowed once it is there
            no_more_open_than(source, memory.path)
        self.known[content_key(doc.title, doc.body)] = memory.title
        return memory

    def _attachment(self, source: Path, into: Path) -> None:
        size = source.stat().st_size
        if size > MAX_ATTACHMENT_BYTES:
            raise ImportFailed(path=source, reason="larger than {mb} MB", mb=1024)
        into.mkdir(parents=True, exist_ok=True)
        if _same_file(source, into / source.name):
            raise ImportSkipped(path=source, reason="already there (the same file)")
        target = unique_path(into, source.name)
        partial = target.with_name(f".{target.name}.importing")
        try:
            shutil.copyfile(source, partial)
            os.chmod(partial, copy_mode(source, target))
            _place_new(partial, target)
        finally:
            remove_quietly(partial)
        _keep_times(source, target)
        self.result.copied.append(target.relative_to(self.store.root).as_posix())

    def _check_new(self, source: Path, doc: ImportedDoc) -> None:
        key = content_key(doc.title, doc.body)
        if key in self.known:
            raise ImportSkipped(
                path=source, reason="already there (the text of “{title}”)", title=self.known[key]
            )

    def _write(self, into: Path, name: str, data: bytes, source: Path) -> Path:
        if len(data) > MAX_IMPORT_BYTES:
            raise ImportFailed(reason="larger than {mb} MB", mb=MAX_IMPORT_BYTES >> 20)
        into.mkdir(parents=True, exist_ok=True)
        while True:  # another program may take the free name first: the next one then
            target = unique_path(into, name)
            try:
                write_new(target, data, copy_mode(source, target))
                return target
            except FileExistsError:
                continue

    def _problem(self, source: Path, exc: Exception) -> None:
        reason = getattr(exc, "reason", "") or "{why}"
        values = getattr(exc, "values", None) or {"why": str(exc)}
        problem = ImportProblem(str(source), reason, dict(values), isinstance(exc, ImportSkipped))
        self.result.problems.append(problem)
        if self.on_file is not None and isinstance(exc, PixelmemError):
            self.on_file(source, exc)


def _files_below(folder: Path) -> Iterator[tuple[Path, Path]]:
    """(file, its path below ``folder``) for every file outside dot-folders, sorted."""
    for current, dirnames, filenames in walk_tree(folder):
        dirnames[:] = sorted(d for d in dirnames if not is_hidden(d))
        for name in sorted(filenames):
            if not is_hidden(name):
                source = Path(current) / name
                yield source, source.relative_to(folder)


def _place_new(partial: Path, target: Path) -> None:
    """``partial`` at ``target``, never over a file that appeared there meanwhile (a hard
    link; where the file system has none, a rename after a last look)."""
    try:
        os.link(partial, target)
    except FileExistsError:
        raise
    except OSError:
        if target.exists():
            raise FileExistsError(target) from None
        os.replace(partial, target)


def _same_file(source: Path, there: Path) -> bool:
    """Whether ``there`` exists with ``source``'s bytes."""
    try:
        if there.stat().st_size != source.stat().st_size:
            return False
        with open(source, "rb") as a, open(there, "rb") as b:
            while True:
                left, right = a.read(1 << 20), b.read(1 << 20)
                if left != right:
                    return False
                if not left:
                    return True
    except OSError:
        return False


def _keep_times(source: Path, target: Path) -> None:
    """The copy keeps the original's modification time (the list's dates, Obsidian's sort)."""
    try:
        info = source.stat()
        os.utime(target, ns=(info.st_atime_ns, info.st_mtime_ns))
    except OSError:
        pass
