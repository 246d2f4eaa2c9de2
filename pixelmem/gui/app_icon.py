"""The app icon, drawn from SVG kept in this module (so it ships inside the package).

``python -m pixelmem.gui.app_icon resources`` writes ``pixelmem.svg`` and the PNG sizes that
desktop files and installers want.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QByteArray, QRectF, Qt
from PySide6.QtGui import QIcon, QImage, QPainter, QPixmap
from PySide6.QtSvg import QSvgRenderer

PNG_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)

# A rounded indigo tile holding a 4×4 grid of "pixels": memories, some lit up by a search.
ICON_SVG = """\
<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#5b5bf0"/>
      <stop offset="1" stop-color="#8b3fd9"/>
    </linearGradient>
    <linearGradient id="lit" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#ffe28a"/>
      <stop offset="1" stop-color="#ffb648"/>
    </linearGradient>
  </defs>
  <rect x="8" y="8" width="240" height="240" rx="56" fill="url(#bg)"/>
  <g fill="#ffffff">
    <rect x="50" y="50" width="30" height="30" rx="8" opacity="0.95"/>
    <rect x="94" y="50" width="30" height="30" rx="8" opacity="0.55"/>
    <rect x="138" y="50" width="30" height="30" rx="8" opacity="0.95"/>
    <rect x="182" y="50" width="30" height="30" rx="8" opacity="0.35"/>
    <rect x="50" y="94" width="30" height="30" rx="8" opacity="0.95"/>
    <rect x="94" y="94" width="30" height="30" rx="8" opacity="0.95"/>
    <rect x="182" y="94" width="30" height="30" rx="8" opacity="0.55"/>
    <rect x="50" y="138" width="30" height="30" rx="8" opacity="0.95"/>
    <rect x="94" y="138" width="30" height="30" rx="8" opacity="0.35"/>
    <rect x="182" y="138" width="30" height="30" rx="8" opacity="0.95"/>
    <rect x="50" y="182" width="30" height="30" rx="8" opacity="0.95"/>
    <rect x="94" y="182" width="30" height="30" rx="8" opacity="0.55"/>
    <rect x="138" y="182" width="30" height="30" rx="8" opacity="0.35"/>
  </g>
  <rect x="138" y="94" width="30" height="30" rx="8" fill="url(#lit)"/>
  <rect x="138" y="138" width="30" height="30" rx="8" fill="url(#lit)"/>
  <rect x="182" y="182" width="30" height="30" rx="8" fill="url(#lit)"/>
</svg>
"""


def render(size: int) -> QImage:
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    renderer = QSvgRenderer(QByteArray(ICON_SVG.encode("utf-8")))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter, QRectF(0, 0, size, size))
    painter.end()
    return image


def app_icon() -> QIcon:
    icon = QIcon()
    for size in (16, 24, 32, 48, 64, 128, 256):
        icon.addPixmap(QPixmap.fromImage(render(size)))
    return icon


def export(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pixelmem.svg").write_text(ICON_SVG, encoding="utf-8")
    for size in PNG_SIZES:
        render(size).save(str(folder / f"pixelmem-{size}.png"))


if __name__ == "__main__":
    from PySide6.QtGui import QGuiApplication

    _app = QGuiApplication(sys.argv[:1])
    export(Path(sys.argv[1] if len(sys.argv) > 1 else "resources"))
