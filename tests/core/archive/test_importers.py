"""Readers for files to import: Markdown, text, PDF, Word; broken files fail politely."""

from __future__ import annotations

import logging
import re
import zipfile
from pathlib import Path

import docx
import pytest
from doc_files import make_docx, make_pdf

from pixelmem.core.archive.importers import (
    ImportedDoc,
    import_doc,
    iter_importable,
    read_importable,
    register_reader,
    supported_suffixes,
)
from pixelmem.core.errors import ImportFailed, ImportSkipped
from pixelmem.core.vault.store import MemoryStore


def test_markdown_keeps_frontmatter_and_body(tmp_path: Path) -> None:
    path = tmp_path / "note.md"
    path.write_text("---\ntitle: 标题\ntags: [a]\n---\nBody [[link]]\n", encoding="utf-8")
    doc = read_importable(path)
    assert doc.title == "标题"
    assert doc.body == "Body [[link]]\n"
    assert doc.frontmatter == {"title": "标题", "tags": ["a"]}
    assert doc.source == str(path.resolve())


def test_markdown_title_falls_back_to_heading_then_name(tmp_path: Path) -> None:
    (tmp_path / "a.markdown").write_text("# Heading\ntext\n", encoding="utf-8")
    (tmp_path / "b.md").write_text("text only\n", encoding="utf-8")
    assert read_importable(tmp_path / "a.markdown").title == "Heading"
    assert read_importable(tmp_path / "b.md").title == "b"


def test_text_file_becomes_the_body(tmp_path: Path) -> None:
    path = tmp_path / "meeting notes.txt"
    path.write_bytes("\ufeff会议纪要\nline 2\n".encode())
    doc = read_importable(path)
    assert doc.title == "meeting notes" and doc.body == "会议纪要\nline 2\n"
    utf16 = tmp_path / "u16.txt"
    utf16.write_bytes("hello\n".encode("utf-16"))
    assert read_importable(utf16).body == "hello\n"


@pytest.mark.parametrize(
    ("name", "data", "reason"),
    [
        ("latin.txt", "café".encode("latin-1"), "not UTF-8"),
        ("bin.txt", b"ab\x00cd", "binary"),
        ("empty.txt", b"  \n", "empty"),
        ("bad.md", b"---\na: [\n---\n", "invalid YAML"),
        ("image.png", b"\x89PNG", "not a supported file type"),
        ("broken.pdf", b"%PDF-1.4\ngarbage\n%%EOF", "cannot read the PDF"),
        ("broken.docx", b"PK\x03\x04not a zip", "cannot read the Word file"),
    ],
)
def test_unreadable_files_raise_import_failed(tmp_path: Path, name, data, reason) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(ImportFailed, match=reason):
        read_importable(path)


def test_missing_and_huge_files(tmp_path: Path, monkeypatch) -> None:
    with pytest.raises(ImportFailed, match="no such file"):
        read_importable(tmp_path / "missing.md")
    monkeypatch.setattr("pixelmem.core.archive.importers.MAX_IMPORT_BYTES", 10)
    (tmp_path / "big.txt").write_text("x" * 20, encoding="utf-8")
    with pytest.raises(ImportFailed, match="larger than"):
        read_importable(tmp_path / "big.txt")


def test_pdf_text_is_extracted_per_page(tmp_path: Path) -> None:
    path = tmp_path / "paper.pdf"
    make_pdf(path, ["Hello from page one", "Second page text"], title="A Paper")
    doc = read_importable(path)
    assert doc.title == "A Paper"
    assert "Hello from page one" in doc.body and "Second page text" in doc.body
    assert doc.body.index("page one") < doc.body.index("Second page")
    plain = tmp_path / "untitled.pdf"
    make_pdf(plain, ["Only text"])
    assert read_importable(plain).title == "untitled"


def test_pdf_without_text_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "scan.pdf"
    make_pdf(path, [""])
    with pytest.raises(ImportFailed, match="no extractable text"):
        read_importable(path)


def test_docx_paragraphs_and_headings(tmp_path: Path) -> None:
    path = tmp_path / "report.docx"
    make_docx(path)
    doc = read_importable(path)
    assert doc.title == "Doc title"
    assert doc.body == (
        "# Main heading\n\nFirst paragraph.\n\n## Section two\n\n- A bullet\n\n1. A number\n"
    )
    untitled = tmp_path / "u.docx"
    make_docx(untitled, title=None)
    assert read_importable(untitled).title == "Main heading"


def test_a_docx_without_document_properties_is_titled_by_its_first_heading(
    tmp_path: Path,
) -> None:
    """Files from other tools may have no docProps/core.xml: python-docx then makes up a
    title ("Word Document"), which must not become the memory's title."""
    made = tmp_path / "made.docx"
    make_docx(made)
    source = zipfile.ZipFile(made)
    path = tmp_path / "no-properties.docx"
    with zipfile.ZipFile(path, "w") as out:
        for name in source.namelist():
            data = source.read(name)
            if name == "docProps/core.xml":
                continue
            if name in ("_rels/.rels", "[Content_Types].xml"):
                data = re.sub(rb"<(Relationship|Override)[^>]*core[^>]*/>", b"", data)
            out.writestr(name, data)
    assert "docProps/core.xml" not in zipfile.ZipFile(path).namelist()

    assert read_importable(path).title == "Main heading"


def test_empty_docx_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "empty.docx"
    docx.Document().save(str(path))
    with pytest.raises(ImportFailed, match="no text"):
        read_importable(path)


def test_iter_importable_recurses_and_skips_hidden(tmp_path: Path) -> None:
    (tmp_path / "d" / "sub").mkdir(parents=True)
    (tmp_path / "d" / ".git").mkdir()
    for name in ("d/a.md", "d/sub/b.txt", "d/c.png", "d/.hidden.md", "d/.git/x.md"):
        (tmp_path / name).write_text("x", encoding="utf-8")
    found = list(iter_importable([tmp_path / "d", tmp_path / "single.png"]))
    # Unsupported files in folders are listed too: the import names each one it skips.
    assert found == [
        tmp_path / "d" / "a.md",
        tmp_path / "d" / "c.png",
        tmp_path / "d/sub/b.txt",
        tmp_path / "single.png",
    ]


def test_registry_accepts_new_readers(tmp_path: Path) -> None:
    register_reader([".CSVX"], lambda path: ImportedDoc("t", path.read_text()))
    try:
        (tmp_path / "x.csvx").write_text("a,b", encoding="utf-8")
        assert read_importable(tmp_path / "x.csvx").body == "a,b"
        assert ".csvx" in supported_suffixes()
    finally:
        from pixelmem.core.archive import importers

        importers.READERS.pop(".csvx")


def test_reader_os_errors_become_import_failed(tmp_path: Path) -> None:
    def failing(path: Path) -> ImportedDoc:
        raise PermissionError(13, "Permission denied")

    register_reader([".perm"], failing)
    try:
        (tmp_path / "x.perm").write_text("a", encoding="utf-8")
        with pytest.raises(ImportFailed, match="Permission denied"):
            read_importable(tmp_path / "x.perm")
    finally:
        from pixelmem.core.archive import importers

        importers.READERS.pop(".perm")


def test_import_doc_keeps_frontmatter_and_replaces_a_taken_id(vault: Path, tmp_path) -> None:
    store = MemoryStore(vault)
    taken = store.create("existing", memory_id="abc123")
    doc = ImportedDoc(
        "Imported",
        "body\n",
        {
            "id": "abc123",
            "title": "Imported",
            "topics": ["x"],
            "importance": "HIGH",
            "created": "2020-01-02",
            "source": "https://example.com",
            "aliases": ["y"],
        },
        source="/somewhere/file.md",
    )
    memory = import_doc(store, doc)
    assert memory.id != taken.id and memory.has_id
    assert memory.topics == ["x"] and memory.importance == "high"
    assert memory.created is not None and memory.created.year == 2020
    assert memory.source == "/somewhere/file.md"
    assert memory.aliases == ["y"]
    assert memory.extra == {"original_source": "https://example.com"}
    fresh = import_doc(store, ImportedDoc("Other", "b\n", {"id": "free-id"}, source="/x"))
    assert fresh.id == "free-id"


def test_an_unsupported_kind_is_skipped_not_failed(tmp_path: Path) -> None:
    path = tmp_path / "letter.rtf"
    path.write_text("{\\rtf1 hello}", encoding="utf-8")
    with pytest.raises(ImportSkipped, match=r"letter.rtf: .rtf is not a supported file type"):
        read_importable(path)


def test_pypdf_warnings_go_to_the_log_not_the_terminal(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "odd.pdf"
    make_pdf(path, ["Readable words"])
    data = path.read_bytes()
    # A wrong xref offset: pypdf recovers, and warns about it through its logger.
    start = data.rindex(b"startxref") + len(b"startxref\n")
    end = data.index(b"\n", start)
    path.write_bytes(data[:start] + str(int(data[start:end]) + 7).encode() + data[end:])
    caplog.set_level(logging.INFO, logger="pixelmem.core.archive.importers")
    doc = read_importable(path)
    assert "Readable words" in doc.body
    out, err = capfd.readouterr()
    assert out == "" and err == ""
    assert any("odd.pdf" in r.getMessage() and "pypdf" in r.getMessage() for r in caplog.records)


SAVED_PAGE = """<!DOCTYPE html>
<html><head><meta charset="windows-1252"><title>Espresso  guide</title>
<style>body { color: red }</style><script>track("visit")</script></head>
<body><nav><a href="/">Home</a> | <a href="/shop">Shop</a></nav>
<h1>Dialling in</h1><p>Grind <b>finer</b> when a shot runs fast; 18 g in, 36 g out.</p>
<ul><li>Water at 93 °C</li><li>25–30 seconds</li></ul>
<table><tr><th>Dose</th><th>Yield</th></tr><tr><td>18 g</td><td>36 g</td></tr></table>
<p><a href="https://example.com/beans">Beans</a> <img src="cup.png" alt="a cup"></p>
</body></html>"""


def test_a_saved_web_page_becomes_markdown(tmp_path: Path) -> None:
    path = tmp_path / "Espresso guide.html"
    path.write_bytes(SAVED_PAGE.encode("cp1252"))
    doc = read_importable(path)
    assert doc.title == "Espresso guide"
    body = doc.body
    assert "# Dialling in" in body and "Grind **finer** when a shot runs fast" in body
    assert "- Water at 93 °C" in body and "25–30 seconds" in body  # the page's own charset
    assert "| 18 g | 36 g |" in body and "[Beans](https://example.com/beans)" in body
    assert "![a cup](cup.png)" in body
    assert "track(" not in body and "color: red" not in body and "Shop" not in body


def test_an_html_page_without_text_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "empty.htm"
    path.write_text("<html><head><title>Nothing</title></head><body><script>x()</script>", "utf-8")
    with pytest.raises(ImportFailed, match="has no text"):
        read_importable(path)
    assert ".html" in supported_suffixes() and ".htm" in supported_suffixes()
