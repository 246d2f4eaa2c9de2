"""Reading files to import as memories: Markdown, plain text, PDF and Word documents.

Each reader turns one file into an :class:`ImportedDoc`; :data:`READERS` maps a lowercase
suffix to its reader, and :func:`register_reader` adds more. Readers raise
:class:`ImportFailed` with a sentence saying what is wrong with the file; a file of a kind no
reader takes raises :class:`ImportSkipped`. What pypdf and python-docx say about damaged files
(warnings, log records) goes to this module's log at INFO, never to the terminal.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import re
import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pixelmem.core.errors import ImportFailed, ImportSkipped
from pixelmem.core.files.folders import walk_tree
from pixelmem.core.files.safe_open import read_regular_bytes
from pixelmem.core.vault.frontmatter_fields import (
    CREATED_KEYS,
    UPDATED_KEYS,
    read_aliases,
    read_moment,
    read_topics,
)
from pixelmem.core.vault.frontmatter_io import (
    FrontmatterError,
    normalise_text,
    parse_document,
)
from pixelmem.core.vault.ids import is_valid_id
from pixelmem.core.vault.memory import (
    ALIAS_KEYS,
    DEFAULT_IMPORTANCE,
    IMPORTANCE_LEVELS,
    TOPIC_KEYS,
    Memory,
)
from pixelmem.core.vault.store import MemoryStore
from pixelmem.core.vault.titles import first_heading
from pixelmem.core.vault.vault_files import MARKDOWN_SUFFIXES, is_hidden

log = logging.getLogger(__name__)

MAX_IMPORT_BYTES = 50 * 1024 * 1024
# Reasons with values (the app translates each template, gui/dialogs/import_report.py)
NOT_SUPPORTED = "{kind} is not a supported file type (pixelmem imports {kinds})"
TOO_LARGE = "larger than {mb} MB"
UNREADABLE = "cannot be read: {why}"
_BOMS = ((b"\xef\xbb\xbf", "utf-8-sig"), (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"))


@dataclass
class ImportedDoc:
    title: str
    body: str
    frontmatter: dict[str, Any] = field(default_factory=dict)
    source: str = ""


Reader = Callable[[Path], ImportedDoc]
READERS: dict[str, Reader] = {}


def register_reader(suffixes: Iterable[str], reader: Reader) -> None:
    for suffix in suffixes:
        READERS[suffix.lower()] = reader


def supported_suffixes() -> list[str]:
    return sorted(READERS)


def read_importable(path: Path) -> ImportedDoc:
    """Read one file with the reader for its suffix; raise :class:`ImportFailed`."""
    path = Path(path)
    reader = READERS.get(path.suffix.lower())
    if reader is None:
        kinds = ", ".join(supported_suffixes())
        kind = path.suffix.lower() or "a file without an extension"
        raise ImportSkipped(path=path, reason=NOT_SUPPORTED, kind=kind, kinds=kinds)
    if not path.is_file():
        raise ImportFailed(path=path, reason="no such file")
    size = path.stat().st_size
    if size > MAX_IMPORT_BYTES:
        raise ImportFailed(path=path, reason=TOO_LARGE, mb=MAX_IMPORT_BYTES // (1024 * 1024))
    try:
        doc = reader(path)
    except ImportFailed:
        raise
    except OSError as exc:
        raise ImportFailed(path=path, reason=UNREADABLE, why=exc.strerror or exc) from None
    doc.source = doc.source or str(path.resolve())
    return doc


def iter_importable(paths: Iterable[Path]) -> Iterator[Path]:
    """Files named directly and, for folders, every file below them (dot-folders and
    dot-files left out), in sorted order; unsupported ones too, so each gets reported."""
    for path in paths:
        path = Path(path)
        if not path.is_dir():
            yield path
            continue
        for folder, dirnames, filenames in walk_tree(path):
            dirnames[:] = sorted(d for d in dirnames if not is_hidden(d))
            for name in sorted(filenames):
                if not is_hidden(name):
                    yield Path(folder) / name


# ---------------------------------------------------------------- readers


def _decode(path: Path, data: bytes) -> str:
    if b"\0" in data and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise ImportFailed(path=path, reason="binary file, not text")
    for bom, encoding in (
        (b"\xef\xbb\xbf", "utf-8-sig"),
        (b"\xff\xfe", "utf-16"),
        (b"\xfe\xff", "utf-16"),
    ):
        if data.startswith(bom):
            return data.decode(encoding)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ImportFailed(
            path=path, reason="not UTF-8 text; save it as UTF-8 and import again"
        ) from None


def _title_from(text: str, path: Path) -> str:
    heading = first_heading(text)  # outside code: "# Login" in a shell snippet is no title
    return heading[0] if heading else path.stem


def read_markdown(path: Path) -> ImportedDoc:
    text = _decode(path, read_regular_bytes(path))
    try:
        doc = parse_document(text)
    except FrontmatterError as exc:
        raise ImportFailed(path=path, reason="{why}", why=exc) from None
    frontmatter = {str(key): value for key, value in doc.data.items()}
    title = (normalise_text(frontmatter.get("title")) or "").strip()
    return ImportedDoc(title or _title_from(doc.body, path), doc.body, frontmatter)


def read_text(path: Path) -> ImportedDoc:
    text = _decode(path, read_regular_bytes(path))
    if not text.strip():
        raise ImportFailed(path=path, reason="empty file")
    return ImportedDoc(path.stem, text)


class _ToLog(logging.Handler):
    """Re-logs a library's records about one file under this module, at INFO."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path

    def emit(self, record: logging.LogRecord) -> None:
        log.info("%s: %s: %s", self.path, record.name, record.getMessage())


@contextlib.contextmanager
def library_warnings_to_log(path: Path, *loggers: str) -> Iterator[None]:
    """While a library reads ``path``: its warnings and its loggers' records go to the log.

    Without this, pypdf's "Ignoring wrong pointing object" and friends reach the terminal
    through Python's last-resort handler (or the CLI's stderr handler)."""
    handler = _ToLog(path)
    saved = []
    for name in loggers:
        logger = logging.getLogger(name)
        saved.append((logger, logger.propagate))
        logger.addHandler(handler)
        logger.propagate = False
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield
    finally:
        for logger, propagate in saved:
            logger.removeHandler(handler)
            logger.propagate = propagate
    for warning in caught:
        log.info("%s: %s: %s", path, warning.category.__name__, warning.message)


def read_pdf(path: Path) -> ImportedDoc:
    with library_warnings_to_log(path, "pypdf"):
        return _read_pdf(path)


def _read_pdf(path: Path) -> ImportedDoc:
    from pypdf import PdfReader

    try:
        reader = PdfReader(path)
        if reader.is_encrypted and not reader.decrypt(""):
            raise ImportFailed(path=path, reason="the PDF is password-protected")
        pages = [(page.extract_text() or "").strip() for page in reader.pages]
        meta_title = (reader.metadata.title if reader.metadata else None) or ""
    except ImportFailed:
        raise
    except Exception as exc:  # pypdf raises many kinds on damaged files
        raise ImportFailed(
            path=path, reason="cannot read the PDF ({why})", why=f"{type(exc).__name__}: {exc}"
        ) from None
    body = "\n\n".join(page for page in pages if page)
    if not body:
        raise ImportFailed(
            path=path, reason="the PDF has no extractable text (a scan? run OCR first)"
        )
    return ImportedDoc(str(meta_title).strip() or path.stem, body + "\n")


def read_docx(path: Path) -> ImportedDoc:
    with library_warnings_to_log(path, "docx"):
        return _read_docx(path)


def _read_docx(path: Path) -> ImportedDoc:
    import docx

    try:
        document = docx.Document(str(path))
        lines = [_docx_line(p.style.name if p.style else "", p.text) for p in document.paragraphs]
        meta_title = _docx_title(document)
    except Exception as exc:  # python-docx raises zipfile/lxml/KeyError on damaged files
        raise ImportFailed(
            path=path,
            reason="cannot read the Word file ({why})",
            why=f"{type(exc).__name__}: {exc}",
        ) from None
    body = "\n\n".join(line for line in lines if line.strip())
    if not body:
        raise ImportFailed(path=path, reason="the Word file has no text")
    title = meta_title.strip() or _title_from(body, path)
    return ImportedDoc(title, body + "\n")


def _docx_title(document: Any) -> str:
    """The title in the file's document properties; "" when it has none. Without a
    properties part (files from other tools), python-docx makes one up titled "Word
    Document": the first heading is the better title then."""
    from docx.opc.constants import RELATIONSHIP_TYPE

    try:
        document.part.package.part_related_by(RELATIONSHIP_TYPE.CORE_PROPERTIES)
    except KeyError:
        return ""
    return document.core_properties.title or ""


def _docx_line(style: str, text: str) -> str:
    text = text.strip()
    if not text:
        return ""
    style = style.lower()
    if style == "title":
        return f"# {text}"
    match = re.match(r"heading (\d)", style)
    if match:
        return f"{'#' * min(int(match.group(1)), 6)} {text}"
    if style.startswith("list"):
        return f"- {text}" if "number" not in style else f"1. {text}"
    return text


# Saved web pages and the HTML exports of Notion, Evernote, OneNote, Apple Notes, Bear: what
# the page shows, as Markdown (markdownify over BeautifulSoup with lxml); scripts, styles and
# navigation left out; the title from <title>, else the first heading, else the file name.
_HTML_DROPPED = ("script", "style", "noscript", "template", "iframe", "nav", "svg", "form")


def read_html(path: Path) -> ImportedDoc:
    from bs4 import BeautifulSoup
    from markdownify import markdownify

    soup = BeautifulSoup(read_regular_bytes(path), "lxml")  # the page's own charset
    for tag in soup(_HTML_DROPPED):
        tag.decompose()
    heading = soup.find(["h1", "h2"])
    title = " ".join(
        (soup.title.get_text() if soup.title else "").split()
        or (heading.get_text() if heading else "").split()
    )
    body = markdownify(str(soup.body or soup), heading_style="ATX", bullets="-")
    body = re.sub(r"\n{3,}", "\n\n", body).strip()
    if not body:
        raise ImportFailed(f"{path}: the page has no text")
    return ImportedDoc(title or path.stem, body + "\n")


register_reader(MARKDOWN_SUFFIXES, read_markdown)
register_reader((".txt", ".text"), read_text)
register_reader((".pdf",), read_pdf)
register_reader((".docx",), read_docx)
register_reader((".html", ".htm", ".xhtml"), read_html)


# ---------------------------------------------------------------- into the vault


def content_key(title: str, body: str) -> str:
    """Equal for texts that differ only in spacing and line breaks (the same file imported
    again, or a copy saved with CRLF); a memory without a body is known by its title."""
    text = " ".join(body.split()) or f"title:{' '.join(title.split())}"
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def import_doc(store: MemoryStore, doc: ImportedDoc, place: Path | None = None) -> Memory:
    """Create a memory from ``doc``, keeping its frontmatter; a taken or unsafe id is replaced.
    ``place``: the file's path in the vault (``name (2).md`` beside it if taken)."""
    extra = dict(doc.frontmatter)
    raw_id = normalise_text(extra.pop("id", None))
    keep_id = raw_id if raw_id and is_valid_id(raw_id) and raw_id not in store else None
    importance = str(extra.pop("importance", None) or "").strip().lower()
    topics, aliases = read_topics(extra), read_aliases(extra)  # tags are topics
    created, updated = read_moment(extra, CREATED_KEYS), read_moment(extra, UPDATED_KEYS)
    for key in ("title", "created", "updated", *TOPIC_KEYS, *ALIAS_KEYS):
        extra.pop(key, None)
    original_source = normalise_text(extra.pop("source", None))
    if original_source and original_source != doc.source:
        extra.setdefault("original_source", original_source)
    return store.create(
        doc.title,
        doc.body,
        topics=topics,
        aliases=aliases,
        importance=importance if importance in IMPORTANCE_LEVELS else DEFAULT_IMPORTANCE,
        source=doc.source,
        extra=extra,
        created=created,
        updated=updated,
        memory_id=keep_id,
        place=place,
    )
