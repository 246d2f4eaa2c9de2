"""Render limits: a body is cut to what lays out quickly, and says what it left out
(issue 18, item 7)."""

from __future__ import annotations

import time

from pixelmem.core.render_limits import (
    MAX_CHARS,
    MAX_IMAGES,
    MAX_LINE_CHARS,
    MAX_TABLE_CELLS,
    bounded_markdown,
)


def _table(rows: int, cols: int) -> str:
    head = "|" + "|".join(f"h{i}" for i in range(cols)) + "|\n"
    rule = "|" + "|".join("---" for _ in range(cols)) + "|\n"
    return head + rule + ("|" + "|".join("c" for _ in range(cols)) + "|\n") * rows


def test_ordinary_text_is_untouched() -> None:
    text = "# Title\n\nSome *text*.\n\n" + _table(5, 3) + "![a](pic.png)\n"
    bounded = bounded_markdown(text)
    assert bounded.text == text and not bounded.cut


def test_a_huge_table_keeps_its_first_rows() -> None:
    bounded = bounded_markdown(_table(500, 20) + "after\n")
    kept = [line for line in bounded.text.split("\n") if line.startswith("|")]
    assert (len(kept) - 2) * 20 <= MAX_TABLE_CELLS
    assert "more table rows" in bounded.text and "after" in bounded.text
    assert bounded.cuts == ["table rows"]


def test_long_lines_and_long_texts_are_cut() -> None:
    bounded = bounded_markdown("x" * 2_000_000)
    assert len(bounded.text) <= MAX_LINE_CHARS + 2 and bounded.cut
    bounded = bounded_markdown("word\n" * 100_000)
    assert len(bounded.text) <= MAX_CHARS and "the end of the text" in bounded.cuts


def test_a_huge_data_url_is_dropped_quickly() -> None:
    text = "![i](data:image/png;base64," + "A" * 50_000_000 + ")"
    start = time.perf_counter()
    bounded = bounded_markdown(text)
    assert time.perf_counter() - start < 0.5
    assert len(bounded.text) < 100 and "AAAA" not in bounded.text


def test_images_stop_after_the_limit() -> None:
    bounded = bounded_markdown("![a](x.png)\n" * 5000)
    assert bounded.text.count("![") == MAX_IMAGES and bounded.cut
