"""The Markdown preview renders local content and never fetches anything remote."""

from __future__ import annotations

import base64
import os
import threading
from pathlib import Path

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QImage

from pixelmem.gui.chat.widgets import MarkdownView
from pixelmem.gui.widgets.markdown_preview import MarkdownPreview

REMOTE = """# Title

![tracker](https://tracker.example.com/pixel.png)
![ftp](ftp://files.example.com/a.png)
<img src="http://example.com/b.png">

A [link](https://example.com) is shown, not followed.
"""


def test_remote_images_are_refused(qtbot, tmp_path: Path) -> None:
    preview = MarkdownPreview()
    qtbot.addWidget(preview)
    with qtbot.waitSignal(preview.rendered, timeout=5000):
        preview.show_markdown(REMOTE, tmp_path, tmp_path)
    preview.resize(400, 300)
    preview.show()
    qtbot.waitExposed(preview)
    refused = {url.toString() for url in preview.refused}
    assert "https://tracker.example.com/pixel.png" in refused
    assert "ftp://files.example.com/a.png" in refused
    assert not any(url.scheme() in ("http", "https", "ftp") for url in preview.served)
    assert not preview.openExternalLinks() and not preview.openLinks()


def test_images_inside_the_vault_load_and_outside_do_not(qtbot, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "pic.png").write_bytes(b"not really a png")
    (tmp_path / "secret.png").write_bytes(b"outside")
    preview = MarkdownPreview()
    qtbot.addWidget(preview)
    with qtbot.waitSignal(preview.rendered, timeout=5000):
        preview.show_markdown("![a](pic.png) ![b](../secret.png)", vault, vault)
    assert preview._allowed(QUrl("pic.png"))
    assert not preview._allowed(QUrl("../secret.png"))
    assert not preview._allowed(QUrl("https://example.com/pic.png"))


def test_clicking_a_link_only_reports_it(qtbot, tmp_path: Path) -> None:
    preview = MarkdownPreview()
    qtbot.addWidget(preview)
    with qtbot.waitSignal(preview.rendered, timeout=5000):
        preview.show_markdown(REMOTE, tmp_path, tmp_path)
    with qtbot.waitSignal(preview.link_clicked) as clicked:
        preview.anchorClicked.emit(QUrl("https://example.com"))
    assert clicked.args[0] == QUrl("https://example.com")
    assert preview.source().isEmpty()  # did not navigate


class FifoWatch:
    """Proves nobody opened a FIFO for reading: opening its write end without blocking only
    succeeds while a reader has it open (and then lets that reader finish instead of hang)."""

    def __init__(self, path: Path) -> None:
        os.mkfifo(path)
        self.path = path
        self.opened = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while not self._stop.wait(0.005):
            try:
                fd = os.open(self.path, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:  # ENXIO: no reader
                continue
            self.opened.set()
            os.close(fd)

    def stop(self) -> bool:
        """True if a reader ever opened the FIFO."""
        self._stop.set()
        self._thread.join()
        return self.opened.is_set()


OUTSIDE_CASES = [
    "![p]({rel})",
    "![p]({url})",
    '<img src="{url}">',
    '<img src="{rel}">',
    "![p](<{abs}>)",
]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize("case", OUTSIDE_CASES)
def test_files_outside_the_vault_are_never_opened(qtbot, tmp_path: Path, case: str) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (tmp_path / "outside").mkdir()
    watch = FifoWatch(tmp_path / "outside" / "p.png")
    text = case.format(
        rel="../outside/p.png",
        url=QUrl.fromLocalFile(str(watch.path)).toString(),
        abs=str(watch.path),
    )
    preview = MarkdownPreview()
    qtbot.addWidget(preview)
    preview.resize(300, 200)
    with qtbot.waitSignal(preview.rendered, timeout=5000):
        preview.show_markdown(text, vault, vault)
    preview.show()
    qtbot.waitExposed(preview)
    preview.grab()  # paint: images are asked for while laid out and drawn
    qtbot.wait(50)
    assert not watch.stop(), f"{text} made Qt open a file outside the vault"
    assert not preview.served


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_chat_view_opens_nothing(qtbot, tmp_path: Path) -> None:
    watch = FifoWatch(tmp_path / "p.png")
    url = QUrl.fromLocalFile(str(watch.path)).toString()
    view = MarkdownView()
    qtbot.addWidget(view)
    view.document().setBaseUrl(QUrl.fromLocalFile(str(tmp_path) + "/"))
    view.set_markdown(f"![a]({url}) ![b](p.png) ![c](data:image/png;base64,iVBORw0KGgo=)")
    view.show()
    qtbot.waitExposed(view)
    view.grab()
    assert not watch.stop()
    assert len(view.policy.refused) >= 2 and not view.policy.served


def test_a_fifo_inside_the_vault_is_not_opened_either(qtbot, tmp_path: Path) -> None:
    watch = FifoWatch(tmp_path / "pipe.png")
    preview = MarkdownPreview()
    qtbot.addWidget(preview)
    with qtbot.waitSignal(preview.rendered, timeout=5000):
        preview.show_markdown("![p](pipe.png)", tmp_path, tmp_path)
    preview.show()
    qtbot.waitExposed(preview)
    preview.grab()
    assert not watch.stop()


def test_vault_images_and_data_urls_are_served(qtbot, tmp_path: Path) -> None:
    image = QImage(4, 4, QImage.Format.Format_ARGB32)
    image.fill(0xFF3366CC)
    image.save(str(tmp_path / "pic.png"))
    data = base64.b64encode((tmp_path / "pic.png").read_bytes()).decode()
    preview = MarkdownPreview()
    qtbot.addWidget(preview)
    with qtbot.waitSignal(preview.rendered, timeout=5000):
        preview.show_markdown(
            f"![a](pic.png) ![b](data:image/png;base64,{data})", tmp_path, tmp_path
        )
    preview.show()
    qtbot.waitExposed(preview)
    preview.grab()
    assert len(preview.served) == 2 and not preview.refused


def _read_since(path: Path, before: float) -> bool:
    return path.stat().st_atime != before


def _arm_atime(path: Path) -> float:
    """Set atime before mtime, so that under relatime the next read moves it (or skip)."""
    info = path.stat()
    os.utime(path, (info.st_mtime - 1000, info.st_mtime))
    before = path.stat().st_atime
    path.read_bytes()
    if not _read_since(path, before):
        pytest.skip("this file system does not record access times")
    os.utime(path, (info.st_mtime - 1000, info.st_mtime))
    return path.stat().st_atime


@pytest.mark.parametrize("case", OUTSIDE_CASES)
def test_outside_files_keep_their_access_time(qtbot, tmp_path: Path, case: str) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (tmp_path / "outside").mkdir()
    secret = tmp_path / "outside" / "p.png"
    QImage(2, 2, QImage.Format.Format_ARGB32).save(str(secret))
    before = _arm_atime(secret)
    text = case.format(
        rel="../outside/p.png", url=QUrl.fromLocalFile(str(secret)).toString(), abs=str(secret)
    )
    preview = MarkdownPreview()
    qtbot.addWidget(preview)
    with qtbot.waitSignal(preview.rendered, timeout=5000):
        preview.show_markdown(text, vault, vault)
    preview.show()
    qtbot.waitExposed(preview)
    preview.grab()
    assert not _read_since(secret, before), f"{text} made Qt read a file outside the vault"


def test_a_huge_body_is_cut_and_can_be_shown_in_full(qtbot, tmp_path: Path) -> None:
    head = "|a|b|\n|---|---|\n"
    text = head + "|1|2|\n" * 700 + "\nthe end\n"  # 1,400 cells: more than the preview lays out
    preview = MarkdownPreview()
    qtbot.addWidget(preview)
    with qtbot.waitSignal(preview.rendered, timeout=5000):
        preview.show_markdown(text, tmp_path, tmp_path)
    assert preview.is_cut and "Show all" in preview.toPlainText()
    with qtbot.assertNotEmitted(preview.link_clicked), qtbot.waitSignal(preview.rendered):
        preview.anchorClicked.emit(QUrl("pixelmem:show-all"))
    assert not preview.is_cut and "Show all" not in preview.toPlainText()


def test_the_chat_view_cuts_a_huge_answer(qtbot) -> None:
    view = MarkdownView()
    qtbot.addWidget(view)
    view.set_markdown("x" * 2_000_000)
    assert view.is_cut and len(view.toPlainText()) < 20_000
    view.anchorClicked.emit(QUrl("pixelmem:show-all"))
    assert not view.is_cut
