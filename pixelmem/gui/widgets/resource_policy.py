"""The one rule for what a rendered Markdown view may load: :class:`ResourcePolicy`.

``QTextBrowser`` asks ``loadResource`` for every image and style sheet. If that answers None,
``QTextDocument`` goes and reads ``file:`` URLs (and relative paths) itself, so a refusal must
be an answer too: a transparent 1x1 image, or empty text. Allowed resources are read here,
not by Qt: only regular files inside the vault (never a FIFO or device), up to a size, and
``data:`` URLs up to a size. Nothing else is ever opened, and nothing remote is fetched.
"""

from __future__ import annotations

import base64
import binascii
from pathlib import Path
from urllib.parse import unquote_to_bytes

from PySide6.QtCore import QByteArray, Qt, QUrl
from PySide6.QtGui import QImage, QTextDocument

from pixelmem.core.files.safe_open import open_regular

MAX_RESOURCE_BYTES = 16 * 1024 * 1024
_BLANK: list[QImage] = []


class ResourcePolicy:
    """Serves a view's resources: files inside ``root`` and ``data:`` URLs, if allowed."""

    def __init__(self, root: Path | None = None, *, allow_data: bool = True) -> None:
        self.root = root.resolve() if root is not None else None
        self.allow_data = allow_data
        self.refused: list[QUrl] = []  # every URL asked for and not served (tests, debugging)
        self.served: list[QUrl] = []

    def load(self, kind: int, url: QUrl, base: QUrl) -> object:
        """What ``loadResource`` returns for ``url``: its content, or a placeholder."""
        data = self._read(url, base)
        if data is None:
            self.refused.append(QUrl(url))
            return placeholder(kind)
        self.served.append(QUrl(url))
        if kind == QTextDocument.ResourceType.ImageResource:
            image = QImage.fromData(data)
            return image if not image.isNull() else placeholder(kind)
        return QByteArray(data)

    def allows(self, url: QUrl, base: QUrl) -> bool:
        """Whether ``url`` (relative to ``base``) would be served, without reading it."""
        scheme = url.scheme().lower()
        if scheme == "data":
            return self.allow_data
        return self._vault_file(url, base) is not None

    def _read(self, url: QUrl, base: QUrl) -> bytes | None:
        if url.scheme().lower() == "data":
            return _data_url(url.toString()) if self.allow_data else None
        path = self._vault_file(url, base)
        if path is None:
            return None
        try:
            with open_regular(path) as handle:
                data = handle.read(MAX_RESOURCE_BYTES + 1)
        except OSError:
            return None
        return data if len(data) <= MAX_RESOURCE_BYTES else None

    def _vault_file(self, url: QUrl, base: QUrl) -> Path | None:
        if self.root is None or url.scheme().lower() not in ("", "file"):
            return None
        resolved = base.resolved(url) if url.isRelative() else url
        if not resolved.isLocalFile() or resolved.host():
            return None  # file://server/share would reach the network
        try:
            path = Path(resolved.toLocalFile()).resolve()
        except (OSError, RuntimeError):  # a symlink loop
            return None
        return path if path.is_relative_to(self.root) else None


def placeholder(kind: int) -> object:
    """A refusal Qt accepts as an answer (None would make it load the URL itself)."""
    if kind == QTextDocument.ResourceType.ImageResource:
        if not _BLANK:
            image = QImage(1, 1, QImage.Format.Format_ARGB32)
            image.fill(Qt.GlobalColor.transparent)
            _BLANK.append(image)
        return _BLANK[0]
    return ""


def _data_url(text: str) -> bytes | None:
    """The bytes of a ``data:`` URL, or None if it is malformed or too big."""
    header, comma, payload = text.partition(",")
    if not comma or len(payload) > MAX_RESOURCE_BYTES * 4 // 3 + 4:
        return None
    try:
        if header.lower().endswith(";base64"):
            return base64.b64decode(unquote_to_bytes(payload), validate=False)
        return unquote_to_bytes(payload)
    except (binascii.Error, ValueError):
        return None
