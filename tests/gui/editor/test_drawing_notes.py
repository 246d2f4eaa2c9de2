"""An Excalidraw drawing in the editor: said what it is, previewed by the words on it."""

from __future__ import annotations

OLD_LAYOUT = """---
excalidraw-plugin: parsed
---
==⚠  Switch to EXCALIDRAW VIEW in the MORE OPTIONS menu of this document. ⚠==

# Text Elements
Harness function ^WpjcEilx

Corpus scheduler ^KUHl9Jx6

%%
# Drawing
```json
{"type": "excalidraw", "elements": [{"type": "text", "roughness": 1}]}
```
%%
"""


def _titles(window) -> list[str]:
    return [m.title for m in window.list_model.memories()]


def test_a_drawing_opens_with_its_notice_and_previews_its_words(qtbot, window) -> None:
    root = window.session.store.root
    (root / "Fuzzer.excalidraw.md").write_text(OLD_LAYOUT, encoding="utf-8")
    qtbot.waitUntil(lambda: "Fuzzer.excalidraw" in _titles(window), timeout=10_000)
    drawing = next(m for m in window.list_model.memories() if m.title == "Fuzzer.excalidraw")
    window.open_memory(drawing.id)
    form = window.editor.form
    assert not form.banner.isHidden()
    assert form.banner.text() == form.drawing_notice()
    assert form.body_edit.toPlainText().startswith("==⚠")  # the source stays the file's
    form.show_preview(True)
    qtbot.waitUntil(lambda: "Corpus scheduler" in form.preview.toPlainText(), timeout=5000)
    shown = form.preview.toPlainText()
    assert "roughness" not in shown and "^KUHl9Jx6" not in shown and "EXCALIDRAW" not in shown

    other = next(m for m in window.list_model.memories() if m.title == "Tomato garden")
    window.open_memory(other.id)
    assert form.banner.isHidden()
