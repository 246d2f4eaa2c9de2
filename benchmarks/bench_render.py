"""UI-thread time to render hostile bodies in the Markdown preview and the chat view.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_render.py

Target (issue 18): every case ≤ 50 ms (set + lay out + paint). Before the render limits
the audit measured 21 s (table), 12 s (500 KB line), > 60 s (2 MB line), 23 s (50 MB data:
URL), 11 s (5,000 images) and 51 s (2 MB line in the chat view).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtWidgets import QApplication

HEAD = "|" + "|".join(f"h{i}" for i in range(20)) + "|\n|" + "|".join("---" for _ in range(20))
CASES = {
    "table 3000x20": HEAD + "|\n" + ("|" + "|".join("cell" for _ in range(20)) + "|\n") * 3000,
    "500 KB line": "word " * 100_000,
    "2 MB line": "x" * 2_000_000,
    "50 MB data URL": "![i](data:image/png;base64," + "A" * 50_000_000 + ")",
    "5000 images": "![a](nope.png)\n" * 5000,
}


def main() -> None:
    app = QApplication.instance() or QApplication([])
    from pixelmem.gui.chat.widgets import MarkdownView
    from pixelmem.gui.widgets.markdown_preview import MarkdownPreview

    worst = 0.0
    for cls in (MarkdownPreview, MarkdownView):
        widget = cls()
        widget.resize(700, 900)
        widget.show()
        for name, text in CASES.items():
            start = time.perf_counter()
            if isinstance(widget, MarkdownPreview):
                widget.show_markdown(text, None, None)
            else:
                widget.set_markdown(text)
            widget.grab()
            app.processEvents()
            elapsed = (time.perf_counter() - start) * 1000
            worst = max(worst, elapsed)
            print(f"{cls.__name__:16} {name:16} {elapsed:7.1f} ms  (cut: {widget.cut})")
    print(f"worst UI stall: {worst:.1f} ms (target 50 ms)")


if __name__ == "__main__":
    main()
