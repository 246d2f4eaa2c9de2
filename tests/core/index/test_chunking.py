"""Chunking: exact spans, sizes in CJK-weighted characters, headings, overlap, determinism."""

from __future__ import annotations

import itertools
import random
import re

import pytest

from pixelmem.core.index.chunking import Chunk, ChunkerSettings, chunk_text, text_weight

WORDS = ("alpha", "beta", "gamma", "delta", "memory", "vault", "search", "index", "note", "idea")
ZH_SENTENCE = "我今天在公园里散步，天气非常好。"  # 16 characters, weight 48


def sentences(n: int, seed: int = 0) -> str:
    rng = random.Random(seed)
    return " ".join(
        " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 15))).capitalize() + "."
        for _ in range(n)
    )


def assert_valid(text: str, chunks: list[Chunk], settings: ChunkerSettings) -> None:
    """The invariants every chunking must keep."""
    assert [c.index for c in chunks] == list(range(len(chunks)))
    covered = bytearray(len(text))
    for c in chunks:
        assert text[c.start : c.end] == c.text
        assert c.text.strip() == c.text != ""
        assert text_weight(c.text) <= settings.size
        covered[c.start : c.end] = b"\x01" * (c.end - c.start)
    assert [c.start for c in chunks] == sorted(c.start for c in chunks)
    assert all(a.end <= b.end for a, b in itertools.pairwise(chunks))
    uncovered = "".join(ch for ch, hit in zip(text, covered, strict=True) if not hit)
    assert uncovered.strip() == "", "every non-blank character is in some chunk"


def test_text_weight_counts_cjk_three() -> None:
    assert text_weight("") == 0
    assert text_weight("hello") == 5
    assert text_weight("中文") == 6
    assert text_weight("a中b。") == 1 + 3 + 1 + 3
    assert text_weight("カナ한국") == 12
    assert text_weight("café — ok") == 9


@pytest.mark.parametrize("blank", ["", " ", "\n\n\t  \n"])
def test_blank_text_has_no_chunks(blank: str) -> None:
    assert chunk_text("m", blank) == []


def test_short_text_is_one_trimmed_chunk() -> None:
    text = "\n\n  # Title\n\nA short memory.\n\n## More\n\nStill short.  \n"
    [chunk] = chunk_text("m1", text)
    assert chunk == Chunk("m1", 0, text.index("#"), text.rindex(".") + 1, chunk.text)
    assert chunk.text == "# Title\n\nA short memory.\n\n## More\n\nStill short."


def test_long_english_text_is_cut_at_sentences_with_overlap() -> None:
    settings = ChunkerSettings()
    text = sentences(120)
    chunks = chunk_text("m", text, settings)
    assert_valid(text, chunks, settings)
    assert len(chunks) >= 4
    for a, b in itertools.pairwise(chunks):
        assert a.text.endswith(".")
        overlap = a.end - b.start
        assert 0 < overlap <= settings.overlap
        assert text[b.start - 1] == " ", "an overlap starts on a word"
    assert all(len(c.text) >= settings.size // 2 for c in chunks[:-1])


def test_paragraph_boundaries_are_preferred() -> None:
    paragraphs = [sentences(6, seed=i)[:450].rstrip() + "." for i in range(6)]
    text = "\n\n".join(paragraphs)
    chunks = chunk_text("m", text)
    assert_valid(text, chunks, ChunkerSettings())
    for c in chunks:
        assert c.text.endswith(".")
        assert text[c.end : c.end + 2] in ("\n\n", "")


def test_chinese_chunks_respect_weight_and_keep_punctuation() -> None:
    settings = ChunkerSettings()
    text = ZH_SENTENCE * 60
    chunks = chunk_text("zh", text, settings)
    assert_valid(text, chunks, settings)
    assert len(chunks) >= 4
    for c in chunks:
        assert len(c.text) <= settings.size // 3
        assert c.text.endswith("。")
    for a, b in itertools.pairwise(chunks):
        assert 0 < a.end - b.start <= settings.overlap // 3
        assert text[b.start - 1] == "。", "the overlap starts at a sentence"


def test_mixed_chinese_sentence_ends() -> None:
    text = "".join(f"第{i}个问题是什么？答案很简单！我们继续。" for i in range(80))
    chunks = chunk_text("zh", text)
    assert_valid(text, chunks, ChunkerSettings())
    assert all(c.text[-1] in "。！？" for c in chunks)


def test_headings_start_new_chunks_when_splitting() -> None:
    sections = [f"## Part {i}\n\n{sentences(8, seed=i)}" for i in range(5)]
    text = "Intro line one.\nIntro line two.\n\n" + "\n\n".join(sections)
    chunks = chunk_text("m", text)
    assert_valid(text, chunks, ChunkerSettings())
    starts = {c.start for c in chunks}
    for m in re.finditer(r"^## Part", text, re.MULTILINE):
        assert m.start() in starts
    assert chunks[0].text.startswith("Intro")
    assert all(c.text.count("## Part") <= 1 for c in chunks)


def test_heading_only_section_joins_the_next() -> None:
    body = sentences(30)
    text = f"# Book\n## Chapter one\n\n{body}\n\n## Chapter two\n\n{body}"
    chunks = chunk_text("m", text)
    assert chunks[0].text.startswith("# Book\n## Chapter one\n\n")
    assert not any(c.text in ("# Book", "## Chapter one") for c in chunks)


def test_headings_inside_code_fences_do_not_split() -> None:
    code = "\n".join(f"# comment {i}\nx_{i} = {i}" for i in range(60))
    text = f"## Script\n\n```python\n{code}\n```\n\n## After\n\n{sentences(10)}"
    chunks = chunk_text("m", text)
    assert_valid(text, chunks, ChunkerSettings())
    starts = {c.start for c in chunks}
    assert text.index("## After") in starts
    assert not any(text.index(f"# comment {i}\n") in starts for i in (1, 30, 59))
    assert not any(c.text.startswith("# comment") and "x_" not in c.text for c in chunks)


def test_text_without_separators_is_cut_by_character() -> None:
    settings = ChunkerSettings(size=100, overlap=20)
    text = "x" * 1000
    chunks = chunk_text("m", text, settings)
    assert_valid(text, chunks, settings)
    assert all(len(c.text) == 100 for c in chunks[:-1])


def test_crlf_and_tabs() -> None:
    text = "\r\n\r\n".join(sentences(8, seed=i) for i in range(6)).replace(" ", "\t", 5)
    settings = ChunkerSettings(size=300, overlap=50)
    assert_valid(text, chunk_text("m", text, settings), settings)


def test_zero_overlap() -> None:
    settings = ChunkerSettings(size=200, overlap=0)
    text = sentences(40)
    chunks = chunk_text("m", text, settings)
    assert_valid(text, chunks, settings)
    assert all(a.end <= b.start for a, b in itertools.pairwise(chunks))


def test_long_blank_gaps_do_not_break_limits() -> None:
    settings = ChunkerSettings(size=100, overlap=50)
    text = ("word " * 30) + " " * 400 + ("more " * 30) + "\n" * 300 + "end"
    assert_valid(text, chunk_text("m", text, settings), settings)


def test_settings_validate_and_serialise() -> None:
    assert ChunkerSettings().as_dict() == {"size": 800, "overlap": 100}
    with pytest.raises(ValueError):
        ChunkerSettings(size=8)
    with pytest.raises(ValueError):
        ChunkerSettings(size=100, overlap=60)
    with pytest.raises(ValueError):
        ChunkerSettings(overlap=-1)


def random_text(rng: random.Random) -> str:
    pieces = [
        "word", "Sentence ends here. ", "Why? ", "\n", "\n\n", "  ", "\t", "# Heading\n",
        "### Deep heading\n", "```\n", "~~~\n", "#not-a-heading ", ZH_SENTENCE, "中文", "！",
        "？", "https://example.com/a/very/long/path?query=1", "ü", "—", "\r\n", "x" * 90,
    ]  # fmt: skip
    return "".join(rng.choice(pieces) for _ in range(rng.randint(0, 300)))


@pytest.mark.parametrize("seed", range(60))
def test_invariants_on_random_texts(seed: int) -> None:
    rng = random.Random(seed)
    size = rng.choice([16, 40, 100, 300, 800])
    settings = ChunkerSettings(size=size, overlap=rng.randint(0, size // 2))
    text = random_text(rng)
    chunks = chunk_text("r", text, settings)
    assert_valid(text, chunks, settings)
    assert chunks == chunk_text("r", text, settings), "deterministic"
    assert all(c.memory_id == "r" for c in chunks)
