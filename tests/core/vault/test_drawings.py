"""Excalidraw drawings kept as Markdown: read by their words, never by their scene's data."""

from __future__ import annotations

import json
from pathlib import Path

from fakes import HashEmbedder

from pixelmem.core.index.chunking import ChunkerSettings, embedding_text
from pixelmem.core.index.engine import Engine
from pixelmem.core.index.indexer import memory_chunks
from pixelmem.core.settings import Settings
from pixelmem.core.vault import drawings
from pixelmem.core.vault.markdown_html import render_html
from pixelmem.core.vault.memory import preview_line
from pixelmem.core.vault.vault_scan import load_memory

WARNING = "==⚠  Switch to EXCALIDRAW VIEW in the MORE OPTIONS menu of this document. ⚠=="
SCENE = json.dumps(
    {
        "type": "excalidraw",
        "elements": [
            {"type": "text", "text": "Corpus", "strokeColor": "#1e1e1e", "roughness": 1}
            for _ in range(40)
        ],
    },
    indent=2,
)

# The plugin's first layout: every section at level 1, the scene as plain JSON.
OLD_LAYOUT = f"""---

excalidraw-plugin: parsed

---
{WARNING}


# Text Elements
Harness function ^WpjcEilx

Corpus scheduler ^KUHl9Jx6

# Embedded files
2b1c3f: [[Pasted image 20220101.png]]

%%
# Drawing
```json
{SCENE}
```
%%
"""

# Today's layout: notes on the drawing's back, the data under one heading, the scene
# compressed inside a comment.
NEW_LAYOUT = f"""---
excalidraw-plugin: parsed
tags: [excalidraw]
---
{WARNING} You can decompress Drawing data with the command palette.

The buffer pool keeps hot pages near the head.

# Excalidraw Data

## Text Elements
new sublist of hot pages ^WTlWJG3S

old sublist of cold pages ^2EuYX9Mh

## Element Links
a1b2c3: [[InnoDB]]

## Embedded Files
3f4e5d: [[diagram.png]]

%%
## Drawing
```compressed-json
N4KAkARALgngDgUwgLgAQQDwMYEMA2AlgCYBOuA7hADTgQBuCpAzoQPYB2KqATLZMzYBXUtiRoIACyhQ4zZAHoFAc3JRJQgEYA6bGwC2CgF7N6hbEcK4OCtptbErHALRY8RMpWdx8Q
```
%%
"""


def _write(vault: Path, name: str, text: str) -> Path:
    path = vault / name
    path.write_text(text, encoding="utf-8")
    return path


def _words(text: str) -> str:
    body = text.split("---", 2)[2]
    return drawings.drawing_words(body)


def test_the_old_layout_is_read_by_its_text_elements_alone() -> None:
    words = _words(OLD_LAYOUT)
    assert "Harness function ^WpjcEilx" in words
    assert "Corpus scheduler" in words
    for data in ("EXCALIDRAW VIEW", "Text Elements", "Pasted image", "roughness", "%%", "```"):
        assert data not in words, data


def test_the_new_layout_keeps_the_notes_on_its_back() -> None:
    words = _words(NEW_LAYOUT)
    assert "The buffer pool keeps hot pages near the head." in words
    assert "new sublist of hot pages" in words and "old sublist of cold pages" in words
    for data in ("EXCALIDRAW VIEW", "Excalidraw Data", "[[InnoDB]]", "diagram.png", "N4KAk"):
        assert data not in words, data


def test_spans_are_parts_of_the_body_in_order() -> None:
    body = NEW_LAYOUT.split("---", 2)[2]
    spans = drawings.text_spans(body)
    assert spans == sorted(spans)
    assert all(a < b and (i == 0 or spans[i - 1][1] < a) for i, (a, b) in enumerate(spans))
    assert "".join(body[a:b] for a, b in spans) == drawings.drawing_words(body)


def test_a_drawing_is_known_by_its_key_or_its_layout() -> None:
    assert drawings.is_drawing({"excalidraw-plugin": "raw"}, "just words")
    assert drawings.looks_like_drawing(OLD_LAYOUT)
    assert drawings.looks_like_drawing("# Text Elements\nA ^abc\n%%\n# Drawing\n```json\n{}\n```")
    assert not drawings.is_drawing({}, "# Drawing\nHow I learned to draw hands.")
    assert not drawings.is_drawing({}, "## Text Elements\nof a web page, and how to style them.")


def test_a_drawing_is_chunked_and_embedded_by_its_words(vault: Path) -> None:
    memory = load_memory(_write(vault, "Buffer pool.excalidraw.md", NEW_LAYOUT), vault)
    chunks, _ = memory_chunks(memory, ChunkerSettings(size=800, overlap=100))
    assert chunks and all(c.text == memory.body[c.start : c.end] for c in chunks)
    read = "".join(c.text for c in chunks)
    assert "N4KAk" not in read and "EXCALIDRAW VIEW" not in read
    assert [c.index for c in chunks] == list(range(len(chunks)))
    embedded = embedding_text(memory.title, chunks[-1].text)
    assert "^WTlWJG3S" not in embedded and "^2EuYX9Mh" not in embedded
    assert "new sublist of hot pages" in embedded


def test_a_big_scene_adds_no_chunk(vault: Path) -> None:
    big = OLD_LAYOUT.replace(SCENE, SCENE * 20)
    memory = load_memory(_write(vault, "Fuzzer.excalidraw.md", big), vault)
    chunks, _ = memory_chunks(memory, ChunkerSettings())
    assert len(chunks) == 1
    assert len(memory.body) > 50_000


def test_block_ids_are_not_embedded_and_other_text_is_unchanged() -> None:
    assert embedding_text("T", "A paragraph. ^para-1\nNext line") == "T\nA paragraph.\nNext line"
    assert embedding_text("T", "x ^2 is x squared") == "T\nx ^2 is x squared"
    assert embedding_text("", "plain words") == "plain words"


def test_search_finds_a_drawing_by_its_words_and_never_by_its_scene(vault: Path) -> None:
    _write(vault, "Fuzzer.excalidraw.md", OLD_LAYOUT)
    _write(vault, "Paint.md", "Stroke colour and roughness of the brush for oil painting.")
    engine = Engine(vault, Settings(), embedder=HashEmbedder())
    engine.open()
    by_words = engine.search("corpus scheduler", k=5, min_relevance=0.0)
    assert by_words and by_words[0].title == "Fuzzer.excalidraw"
    assert "Corpus scheduler" in by_words[0].snippet and "^" not in by_words[0].snippet
    by_scene = engine.search("strokeColor roughness", mode="keyword", k=5, min_relevance=0.0)
    assert [hit.title for hit in by_scene] == ["Paint"]
    assert all(hit.title == "Paint" for hit in engine.search("strokeColor roughness", k=5))


def test_the_list_and_the_preview_show_the_words(vault: Path) -> None:
    memory = load_memory(_write(vault, "Buffer pool.excalidraw.md", NEW_LAYOUT), vault)
    assert preview_line(memory.body) == "The buffer pool keeps hot pages near the head."
    old = load_memory(_write(vault, "Fuzzer.excalidraw.md", OLD_LAYOUT), vault)
    assert preview_line(old.body) == "Harness function"
    html = render_html(old.body)
    assert "Corpus scheduler" in html
    assert "roughness" not in html and "EXCALIDRAW" not in html


def test_the_file_is_never_changed_by_reading_it(vault: Path) -> None:
    path = _write(vault, "Fuzzer.excalidraw.md", OLD_LAYOUT)
    before = path.read_bytes()
    Engine(vault, Settings(), embedder=HashEmbedder()).open()
    assert path.read_bytes() == before


def test_exact_search_reads_a_drawings_words(vault: Path) -> None:
    _write(vault, "Fuzzer.excalidraw.md", OLD_LAYOUT)
    _write(vault, "Paint.md", "Stroke colour and roughness of the brush for oil painting.")
    engine = Engine(vault, Settings(), embedder=HashEmbedder())
    engine.open()
    assert [h.title for h in engine.search("Corpus scheduler", mode="exact")] == [
        "Fuzzer.excalidraw"
    ]
    assert [h.title for h in engine.search("roughness", mode="exact")] == ["Paint"]


def test_a_chat_prompt_gets_a_drawings_words_not_its_scene(vault: Path) -> None:
    from pixelmem.core.assist.injection import build_prompt

    memory = load_memory(_write(vault, "Fuzzer.excalidraw.md", OLD_LAYOUT), vault)

    class Hit:
        memory_id, title, score, start, end = memory.id, memory.title, 0.9, 0, len(memory.body)

    prompt = build_prompt("fuzzer", search=lambda _q: [Hit()], get_memory=lambda _id: memory)
    assert "Corpus scheduler" in prompt.system
    assert "roughness" not in prompt.system and "EXCALIDRAW" not in prompt.system


def test_a_chinese_drawing_is_in_chinese_whatever_its_warning(vault: Path) -> None:
    from pixelmem.core.index.catalog import _script
    from pixelmem.core.index.scripts import CJK_SCRIPT

    chinese = OLD_LAYOUT.replace("Harness function", "模糊测试").replace("Corpus scheduler", "语料")
    memory = load_memory(_write(vault, "Fuzz.excalidraw.md", chinese), vault)
    assert _script(memory) == CJK_SCRIPT


def test_a_drawing_without_words_is_found_by_its_name(vault: Path) -> None:
    wordless = OLD_LAYOUT.replace("Harness function ^WpjcEilx\n\nCorpus scheduler ^KUHl9Jx6\n", "")
    memory = load_memory(_write(vault, "Blank sketch.excalidraw.md", wordless), vault)
    chunks, _ = memory_chunks(memory, ChunkerSettings())
    assert [(c.start, c.end, c.text) for c in chunks] == [(0, 0, "")]  # its title alone
    assert preview_line(memory.body) == ""
    engine = Engine(vault, Settings(), embedder=HashEmbedder())
    engine.open()
    assert [h.title for h in engine.search("blank sketch", mode="keyword")] == [
        "Blank sketch.excalidraw"
    ]


def test_the_list_line_is_read_without_walking_the_scene() -> None:
    body = OLD_LAYOUT.split("---", 2)[2]
    assert drawings.first_words(body) == "Harness function ^WpjcEilx\n"
