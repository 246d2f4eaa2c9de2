"""The preview renders what Obsidian renders (issue 28): embeds of images, notes, headings and
blocks; callouts with their titles and folding; block ids hidden; HTML that loses no word.
The property (tests/preview_words.py): every word a reader sees in Obsidian is in the preview,
over both test vaults and over generated notes full of odd HTML."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from preview_words import missing_words, visible_words
from PySide6.QtCore import QUrl

from pixelmem.core.vault.frontmatter_io import parse_document
from pixelmem.core.vault.store import MemoryStore
from pixelmem.gui.widgets.markdown_preview import MarkdownPreview

DATA = Path(__file__).parents[2] / "data"


def _preview(qtbot, store: MemoryStore | None = None) -> MarkdownPreview:
    preview = MarkdownPreview()
    qtbot.addWidget(preview)
    preview.resize(700, 500)
    if store is not None:
        preview.notes = store.list
    return preview


def _show(qtbot, preview: MarkdownPreview, text: str, folder: Path, vault: Path, note_id=None):
    with qtbot.waitSignal(preview.rendered, timeout=10_000):
        preview.show_markdown(text, folder, vault, note_id=note_id)
    return preview.toPlainText()


def _unfolded(qtbot, preview: MarkdownPreview) -> str:
    """The preview's text with every folded callout opened (one click each, as a reader)."""
    for _ in range(50):
        folded = re.search(r'href="(pixelmem:callout:\d+)"[^>]*>(?:<[^>]*>)*▸', preview.toHtml())
        if folded is None:
            break
        with qtbot.waitSignal(preview.rendered, timeout=5000):
            preview.anchorClicked.emit(QUrl(folded.group(1)))
    return preview.toPlainText()


def _by_title(store: MemoryStore, title: str):
    return next(m for m in store.list() if m.title == title)


@pytest.mark.parametrize("fixture", ["obsidian_syntax", "obsidian_vault"])
def test_every_visible_word_of_every_note_is_in_its_preview(qtbot, tmp_path, fixture) -> None:
    import shutil

    vault = tmp_path / fixture
    shutil.copytree(DATA / fixture, vault)
    store = MemoryStore(vault)
    preview = _preview(qtbot, store)
    checked = 0
    for memory in store.list():
        assert memory.path is not None
        _show(qtbot, preview, memory.body, memory.path.parent, vault, memory.id)
        lost = missing_words(memory.body, _unfolded(qtbot, preview))
        assert lost == [], f"{memory.title}: {lost[:10]}"
        checked += len(visible_words(memory.body))
    assert checked > 50


_TAGS = [
    "<br>",
    "<br/>",
    "<hr>",
    "<img>",
    "<wbr>",
    "<b>",
    "</b>",
    "<i>",
    "<span style='color:red'>",
    "</span>",
    "<kbd>",
    "</kbd>",
    "<details>",
    "<summary>",
    "</details>",
    "<mark>",
    "</mark>",
    "<script>",
    "</script>",
    "<style>",
    "</style>",
    "<iframe src='http://x.example'>",
    "<custom-tag>",
    "</custom-tag>",
    "<table>",
    "<td>",
    "<div>",
    "</div>",
    "<p>",
    "<input>",
    "<font color=red>",
    "<center>",
    "<a href='javascript:alert(1)'>",
    "</a>",
    "<sup>",
    "<u>",
    "<!DOCTYPE html>",
    "<o:p>",
    "<svg>",
    "<math>",
    "<textarea>",
    "<title>",
    "<xmp>",
]
_WORDS = [
    "alpha",
    "bravo",
    "charlie",
    "delta",
    "echo",
    "foxtrot",
    "golf",
    "hotel",
    "数据",
    "索引",
    "记忆",
    "笔记",
]
_BLOCKS = ["", "# ", "- ", "> ", "1. ", "> [!note] ", "| a | b |\n| - | - |\n| ", "**", "=="]


def _odd_note(rng: random.Random) -> str:
    lines = []
    for _ in range(rng.randint(3, 12)):
        parts = [rng.choice(_BLOCKS)]
        for _ in range(rng.randint(1, 8)):
            parts.append(rng.choice(_WORDS) + str(rng.randint(0, 99)))
            if rng.random() < 0.4:
                parts.append(rng.choice(_TAGS))
        lines.append(" ".join(parts))
        if rng.random() < 0.5:
            lines.append("")
    return "\n".join(lines) + "\n"


def test_no_word_is_lost_after_any_html_tag(qtbot, tmp_path) -> None:
    rng = random.Random(28)
    preview = _preview(qtbot)
    for number in range(150):
        text = _odd_note(rng)
        _show(qtbot, preview, text, tmp_path, tmp_path)
        lost = missing_words(text, _unfolded(qtbot, preview))
        assert lost == [], f"note {number}: {lost} lost from\n{text}"


def test_a_void_tag_keeps_what_follows(qtbot, tmp_path) -> None:
    preview = _preview(qtbot)
    assert "after" in _show(qtbot, preview, "x <br>\n\nafter\n", tmp_path, tmp_path)
    table = "| a | b <br> c |\n| - | - |\n| d <br> e | f |\n\n" + "tail " * 300
    assert _show(qtbot, preview, table, tmp_path, tmp_path).count("tail") == 300


def test_image_embeds_are_found_and_shown(qtbot, obsidian_syntax: Path) -> None:
    store = MemoryStore(obsidian_syntax)
    preview = _preview(qtbot, store)
    note = _by_title(store, "Embed files")
    assert note.path is not None
    _show(qtbot, preview, note.body, note.path.parent, obsidian_syntax, note.id)
    preview.show()
    qtbot.waitExposed(preview)
    preview.grab()  # images are read when laid out and painted
    served = {Path(QUrl(u).toLocalFile()).name for u in map(QUrl.toString, preview.served)}
    assert {"diagram.png", "sync-diagram.png", "logo.svg"} <= served
    markup = preview.toHtml()
    assert 'width="100"' in markup and 'height="80"' in markup  # ![[x|100x80]]
    text = preview.toPlainText()
    assert "![[" not in text and "No such picture.png" in text  # a missing one says its name
    assert "Document.pdf" in text and "My canvas.canvas" in text


def test_note_heading_and_block_embeds_and_a_note_never_inside_itself(
    qtbot, obsidian_syntax: Path
) -> None:
    store = MemoryStore(obsidian_syntax)
    preview = _preview(qtbot, store)
    note = _by_title(store, "Embed files")
    assert note.path is not None
    text = _show(qtbot, preview, note.body, note.path.parent, obsidian_syntax, note.id)
    assert text.count("Links connect notes") == 1  # ![[Internal links]], once
    assert text.count("Write [[Note#Heading]] to link to a heading.") == 2  # + the heading
    assert text.count("This paragraph has an id.") == 2  # + the block
    assert "^b15695" not in text.replace("> ^b15695", "")  # the id itself is hidden
    assert text.count("Embed a note:") == 1  # it embeds itself: only a link


def test_callouts_show_type_title_and_fold(qtbot, obsidian_syntax: Path) -> None:
    store = MemoryStore(obsidian_syntax)
    preview = _preview(qtbot, store)
    note = _by_title(store, "Callouts")
    assert note.path is not None
    text = _show(qtbot, preview, note.body, note.path.parent, obsidian_syntax, note.id)
    assert "[!info]" not in text and "Here's a callout title" in text
    assert "Warning" in text  # no title: the type
    assert "Are callouts foldable?" in text and "the contents are hidden" not in text
    assert "The plus sign shows the content." in text  # [!note]+ is open
    folded = re.search(r'href="(pixelmem:callout:\d+)"[^>]*>(?:<[^>]*>)*▸', preview.toHtml())
    assert folded is not None
    with qtbot.waitSignal(preview.rendered, timeout=5000):
        preview.anchorClicked.emit(QUrl(folded.group(1)))
    assert "the contents are hidden" in preview.toPlainText()
    assert "You can even use multiple layers of nesting." in preview.toPlainText()


def test_a_heading_link_inside_the_note_scrolls_there(qtbot, tmp_path: Path) -> None:
    preview = _preview(qtbot)
    text = "See [[#Far below]].\n\n" + "filler line\n\n" * 200 + "## Far below\n\nhere\n"
    _show(qtbot, preview, text, tmp_path, tmp_path)
    preview.show()
    qtbot.waitExposed(preview)
    href = re.search(r'href="(#h-[^"]+)"', preview.toHtml())
    assert href is not None
    preview.anchorClicked.emit(QUrl(href.group(1)))
    assert preview.verticalScrollBar().value() > 0


def test_a_large_note_renders_on_a_worker(qtbot, tmp_path: Path) -> None:
    preview = _preview(qtbot)
    text = "\n\n".join(f"Paragraph {n} with **bold** and [[a link]]." for n in range(1000))
    with qtbot.waitSignal(preview.rendered, timeout=10_000):
        preview.show_markdown(text, tmp_path, tmp_path)
        assert "Paragraph 999" not in preview.toPlainText()  # not yet: a worker renders it
    assert "Paragraph 999" in preview.toPlainText()


def test_frontmatter_never_reaches_the_preview(obsidian_syntax: Path) -> None:
    doc = parse_document((obsidian_syntax / "Callouts.md").read_text())
    assert "aliases" not in doc.body
