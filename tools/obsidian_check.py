"""Try pixelmem on an Obsidian vault the way issue 28 measured it, and print what it found.

    python tools/obsidian_check.py VAULT [VAULT…]

For each vault (opened as an Obsidian vault: a copy with ``.obsidian/`` if it has none, the
original is never touched): titles that are not the file name (a note with a frontmatter
``title`` excepted), image embeds rendered (the preview found the file inside the vault and
loaded it as an image), notes whose preview lacks a word a reader sees in Obsidian
(tests/preview_words.py), and whether every file of the copy is byte-identical after the
scan, the previews, a search and a chat-context lookup.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from preview_words import missing_words
from PySide6.QtCore import QUrl
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QApplication

from pixelmem.core.vault.attachments import AttachmentIndex, is_image
from pixelmem.core.vault.frontmatter_io import parse_document
from pixelmem.core.vault.links import parse_links
from pixelmem.core.vault.store import MemoryStore
from pixelmem.core.vault.titles import frontmatter_title
from pixelmem.gui.widgets.markdown_preview import MarkdownPreview


def snapshot(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".pixelmem" not in p.parts
    }


def paint_all(preview: MarkdownPreview) -> None:
    """Paint the whole document (not only the visible part): sized images load lazily."""
    document = preview.document()
    size = document.size().toSize()
    image = QImage(
        max(size.width(), 1), max(min(size.height(), 30_000), 1), QImage.Format.Format_RGB32
    )
    painter = QPainter(image)
    document.drawContents(painter)
    painter.end()


def unfold_all(app: QApplication, preview: MarkdownPreview) -> None:
    for _ in range(50):
        folded = re.search(r'href="(pixelmem:callout:\d+)"[^>]*>(?:<[^>]*>)*▸', preview.toHtml())
        if folded is None:
            return
        preview.anchorClicked.emit(QUrl(folded.group(1)))
        wait_rendered(app, preview)


def wait_rendered(app: QApplication, preview: MarkdownPreview) -> None:
    deadline = time.monotonic() + 20
    while preview._waiting and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.002)


def check(app: QApplication, source: Path) -> dict[str, object]:
    work = Path(tempfile.mkdtemp()) / source.name
    shutil.copytree(source, work, symlinks=True)
    (work / ".obsidian").mkdir(exist_ok=True)
    before = snapshot(work)
    store = MemoryStore(work)
    memories = store.list()
    wrong = [
        (m.path.name, m.title)
        for m in memories
        if m.path is not None
        and m.title != m.path.stem
        and not frontmatter_title(parse_document(m.path.read_text("utf-8")).data)
    ]
    preview = MarkdownPreview()
    preview.resize(900, 700)
    preview.notes = store.list
    preview.show()
    files = AttachmentIndex(work)
    absent: list[tuple[str, str]] = []
    embeds = rendered = 0
    unrendered: list[tuple[str, str]] = []
    losing: list[tuple[str, list[str]]] = []
    slowest = (0.0, "")
    for memory in memories:
        assert memory.path is not None
        started = time.perf_counter()
        preview.policy.served.clear()
        preview.show_markdown(memory.body, memory.path.parent, work, note_id=memory.id)
        wait_rendered(app, preview)
        took = time.perf_counter() - started
        slowest = max(slowest, (took, memory.title))
        unfold_all(app, preview)
        paint_all(preview)  # every image is read when painted
        folder = memory.path.parent.relative_to(work).as_posix()
        named = [link.target for link in parse_links(memory.body) if link.embed]
        images = [name for name in named if is_image(name) and files.find(name, folder)]
        absent += [(memory.title, n) for n in named if is_image(n) and not files.find(n, folder)]
        embeds += len(images)
        served = {Path(u.toLocalFile()).name.casefold() for u in preview.policy.served}
        shown = [name for name in images if name.rsplit("/", 1)[-1].casefold() in served]
        rendered += len(shown)
        unrendered += [(memory.title, name) for name in images if name not in shown]
        lost = missing_words(memory.body, preview.toPlainText())
        if lost:
            losing.append((memory.title, lost[:8]))
    from pixelmem.core.index.engine import Engine  # a search over the same copy, then bytes

    engine = Engine(work)
    engine.reindex()
    engine.search("how do I embed an image", k=5)
    after = snapshot(work)
    return {
        "vault": str(source),
        "notes": len(memories),
        "wrong titles": wrong,
        "image embeds": embeds,
        "image embeds rendered": rendered,
        "image embeds of files not in the vault": absent,
        "image embeds not rendered": unrendered[:10],
        "notes losing text": losing,
        "slowest preview": f"{slowest[0] * 1000:.0f} ms ({slowest[1]})",
        "byte-identical": before == after,
    }


def main(paths: list[str]) -> int:
    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    for path in paths:
        for key, value in check(app, Path(path)).items():
            print(f"{key}: {value}")
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
