"""Light Markdown highlighting for the editor: headings, emphasis, code, links, quotes.

Colours come from the palette (text, link, a tint between base and text), so the editor reads
well in light and dark themes alike. It is a visual aid, not a parser.
"""

from __future__ import annotations

import re

from PySide6.QtGui import QFont, QPalette, QSyntaxHighlighter, QTextCharFormat, QTextDocument

from pixelmem.gui.widgets import colors

RULES = (
    ("heading", re.compile(r"^#{1,6}\s.*$")),
    ("quote", re.compile(r"^\s*>.*$")),
    ("marker", re.compile(r"^\s*(?:[-*+]|\d+\.)\s")),
    ("bold", re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")),
    ("italic", re.compile(r"(?<![*\w])([*_])(?=\S)(.+?)(?<=\S)\1(?![*\w])")),
    ("code", re.compile(r"`[^`\n]+`")),
    ("link", re.compile(r"\[\[[^\]\n]+\]\]|\[[^\]\n]+\]\([^)\n]+\)|https?://\S+")),
)
FENCE = re.compile(r"^\s*(```|~~~)")
IN_FENCE = 1


class MarkdownHighlighter(QSyntaxHighlighter):
    def __init__(self, document: QTextDocument, palette: QPalette) -> None:
        super().__init__(document)
        self.formats: dict[str, QTextCharFormat] = {}
        self.set_palette(palette)

    def set_palette(self, palette: QPalette) -> None:
        text = palette.color(QPalette.ColorRole.Text)
        muted = colors.muted_text(palette)
        heading = QTextCharFormat()
        heading.setFontWeight(QFont.Weight.Bold)
        heading.setForeground(text)
        bold = QTextCharFormat()
        bold.setFontWeight(QFont.Weight.Bold)
        italic = QTextCharFormat()
        italic.setFontItalic(True)
        code = QTextCharFormat()
        code.setFontFamilies(["monospace"])
        code.setFontStyleHint(QFont.StyleHint.Monospace)
        code.setBackground(colors.chip_background(palette))
        link = QTextCharFormat()
        link.setForeground(palette.color(QPalette.ColorRole.Link))
        faint = QTextCharFormat()
        faint.setForeground(muted)
        self.formats = {
            "heading": heading,
            "quote": faint,
            "marker": faint,
            "bold": bold,
            "italic": italic,
            "code": code,
            "link": link,
        }
        self.rehighlight()

    def highlightBlock(self, text: str) -> None:
        fence = FENCE.match(text)
        inside = self.previousBlockState() == IN_FENCE
        if inside or fence:
            self.setFormat(0, len(text), self.formats["code"])
            ends_here = inside and fence is not None
            self.setCurrentBlockState(-1 if ends_here else IN_FENCE)
            return
        self.setCurrentBlockState(-1)
        for name, pattern in RULES:
            for match in pattern.finditer(text):
                self.setFormat(match.start(), match.end() - match.start(), self.formats[name])
