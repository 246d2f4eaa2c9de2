"""The Markdown preview renders local content and never fetches anything remote."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QUrl

from pixelmem.gui.markdown_preview import MarkdownPreview

REMOTE = """# Title

![tracker](https://tracker.example.com/pixel.png)
![ftp](ftp://files.example.com/a.png)
<img src="http://example.com/b.png">

A [link](https://example.com) is shown, not followed.
"""


def test_remote_images_are_refused(qtbot, tmp_path: Path) -> None:
    preview = MarkdownPreview()
    qtbot.addWidget(preview)
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
    preview.show_markdown("![a](pic.png) ![b](../secret.png)", vault, vault)
    assert preview._allowed(QUrl("pic.png"))
    assert not preview._allowed(QUrl("../secret.png"))
    assert not preview._allowed(QUrl("https://example.com/pic.png"))


def test_clicking_a_link_only_reports_it(qtbot, tmp_path: Path) -> None:
    preview = MarkdownPreview()
    qtbot.addWidget(preview)
    preview.show_markdown(REMOTE, tmp_path, tmp_path)
    with qtbot.waitSignal(preview.link_clicked) as clicked:
        preview.anchorClicked.emit(QUrl("https://example.com"))
    assert clicked.args[0] == QUrl("https://example.com")
    assert preview.source().isEmpty()  # did not navigate
