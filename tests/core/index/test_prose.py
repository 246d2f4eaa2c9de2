"""A text's language is read from what a person wrote in it, not from its markup."""

from __future__ import annotations

import numpy as np

from pixelmem.core.index.chunking import ChunkerSettings, chunk_text
from pixelmem.core.index.prose import chunks_prose, prose_of, without_addresses, words_weight
from pixelmem.core.index.scripts import CJK_SCRIPT, OTHER_SCRIPT, main_script


def test_code_attachments_addresses_and_tags_are_no_words() -> None:
    text = (
        "## 立字-字腹 ![[boxcnUhFH8Oy4bkePwyzmInh3Ld.png]] ![[clip.mp4|300]]\n"
        '运行 `tmux ls` 看会话 <br> <span style="color:red">红色</span> https://example.com/a?b=c\n'
        "```bash\ntmux kill-session -t name\n```\n"
    )
    prose = prose_of(text)
    for gone in ("boxcn", "png", "clip", "tmux", "span", "example", "kill"):
        assert gone not in prose
    assert "立字" in prose and "运行" in prose and "红色" in prose


def test_a_links_shown_text_and_an_images_alt_text_stay() -> None:
    text = (
        "See [[Scheduler notes|the scheduler]], [[Run queue#Ticks]], ![[Embedded note]], "
        "![a cat on a mat](cat.png) and [the docs](https://docs.example.org/x_(y))."
    )
    prose = prose_of(text)
    assert "the scheduler" in prose and "Run queue" in prose and "Embedded note" in prose
    assert "a cat on a mat" in prose and "the docs" in prose
    assert "Ticks" not in prose and "cat.png" not in prose and "docs.example" not in prose


def test_math_is_no_words_and_money_is_not_math() -> None:
    assert prose_of("设 $f: X \\to Y$ 是连续映射，$$\\sum_i x_i$$ 收敛").split() == [
        "设",
        "是连续映射，",
        "收敛",
    ]
    assert prose_of("It costs $5 and $10 today") == "It costs $5 and $10 today"


def test_plain_text_is_returned_as_it_is() -> None:
    text = "Tomatoes need sun, water every morning and a stake to climb"
    assert prose_of(text) is text


def test_an_unclosed_fence_is_code_to_the_end() -> None:
    assert prose_of("### 配置\n```yaml\nglobal:\n  scrape_interval: 15s\n").strip() == "### 配置"


def test_a_chunk_cut_inside_a_code_block_is_read_as_code() -> None:
    step = "echo 'export PATH=$HOME/bin:$PATH' >> ~/.zshrc"
    code = "\n".join(f"# step {i}\n{step}" for i in range(40))
    text = (
        "## 安装步骤\n\n先把下面的命令加到配置文件里，然后重新打开终端。\n\n"
        f"```bash\n{code}\n```\n\n完成以后检查一下版本号。"
    )
    chunks = chunk_text("m", text, ChunkerSettings(size=300, overlap=50))
    assert len(chunks) > 3
    prose = chunks_prose(chunks, np.zeros(len(chunks), np.int64))
    for chunk, words in zip(chunks, prose, strict=True):
        assert "echo" not in words and "zshrc" not in words, chunk.text
    assert "安装步骤" in prose[0] and "版本号" in prose[-1]


def test_a_heading_of_markup_is_no_word() -> None:
    # "###" and "-" are no words: a Chinese heading is Chinese, as a Chinese list is
    assert main_script("### 登录") == CJK_SCRIPT
    assert main_script("- 登录\n- 退出") == CJK_SCRIPT
    assert main_script("### Login 登") == OTHER_SCRIPT


def test_a_web_address_is_taken_out_and_a_links_text_stays() -> None:
    text = (
        "[^7]: [https://whogan.scholars.harvard.edu/n.pdf](https://whogan.scholars.harvard.edu/n.pdf)"
        " and [Harvard's paper](https://x.org/a_(b)), see https://example.com/harvard too"
    )
    kept = without_addresses(text)
    assert "whogan" not in kept and "example" not in kept and "x.org" not in kept
    assert "[Harvard's paper]" in kept and "see" in kept and "too" in kept
    plain = "No address here, [a local link](notes/a.md) stays"
    assert without_addresses(plain) is plain


def test_numbers_coordinates_and_escapes_are_no_words() -> None:
    assert words_weight("L 191.9,35.0 C-273 251.81, %5D) 2019 1,204.5") == 0
    assert words_weight("Tomatoes need sun") == len("Tomatoes") + len("need") + len("sun")
    assert words_weight("调度器 在 2019") == 3 * 3 + 3  # CJK characters weigh as the model reads
    assert words_weight("x = 5 and y") == len("and")  # a letter alone is no word
    assert words_weight('cy="185" r="6" fill="#f97316"></circle><text x="944"') == 0
