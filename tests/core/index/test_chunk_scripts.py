"""A note written in two languages is measured where the passage a question finds lives."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from fakes import HashEmbedder

from pixelmem.core.index import saved_index
from pixelmem.core.index.catalog import (
    Catalog,
    MemoryChunks,
    chunk_scripts_of,
    main_of,
    mixed_memories,
    script_held,
)
from pixelmem.core.index.chunking import Chunk
from pixelmem.core.index.engine import Engine
from pixelmem.core.index.scripts import CJK_SCRIPT, OTHER_SCRIPT
from pixelmem.core.settings import Settings
from pixelmem.core.vault.memory import Memory
from pixelmem.core.vault.store import MemoryStore

ENGLISH = "The scheduler picks the next task from the run queue when a time slice ends. " * 3
CHINESE = (
    "调度器在时间片用完时从就绪队列中选出下一个任务，这样每个任务都能公平地得到处理器时间。" * 2
)
CODE_LINE = (
    "func main() { ch := make(chan int); go worker(ch); for v := range ch { fmt.Println(v) } }"
)


def _chunk(text: str, index: int = 0, memory_id: str = "m") -> Chunk:
    return Chunk(memory_id, index, 0, len(text), text)


def test_each_chunk_knows_its_main_script_and_the_chinese_passage_it_holds() -> None:
    chinese_with_code = "然后在这个文件所在的目录下运行生成命令。\n" + CODE_LINE * 2
    chunks = [_chunk(ENGLISH), _chunk(CHINESE), _chunk(chinese_with_code), _chunk("12 + 30")]
    entries = chunk_scripts_of(chunks, np.zeros(4, np.int64), np.array([CJK_SCRIPT], np.int8))
    assert main_of(entries).tolist() == [OTHER_SCRIPT, CJK_SCRIPT, OTHER_SCRIPT, CJK_SCRIPT]
    assert script_held(entries, CJK_SCRIPT).tolist() == [False, True, True, True]
    # a sum is in no language: held in every script, as markup is
    assert script_held(entries, OTHER_SCRIPT).tolist() == [True, False, True, True]
    assert not script_held(entries, 0).any()


def test_a_word_or_two_of_chinese_is_not_a_passage() -> None:
    english = "Insomnia (失眠) is trouble falling asleep or staying asleep through the night."
    [entry] = chunk_scripts_of([_chunk(english)], np.zeros(1, np.int64), np.array([2], np.int8))
    assert main_of(entry) == OTHER_SCRIPT and not script_held(int(entry), CJK_SCRIPT)


def test_a_chunk_of_code_or_attachments_under_a_chinese_heading_is_in_every_script() -> None:
    # a public Chinese vault: such chunks read as English were the best hit of 187 of 200
    # unrelated Chinese questions, measured against unrelated English text
    command = "### 删除会话\n```bash\ntmux kill-session -t name\n```"
    screenshots = "## 立字-字腹 ![[boxcnUhFH8Oy4bkePwyzmInh3Ld.png]] ![[boxcn8wNrLmgtHp3.png]]"
    prose = "### 登录\n先运行 `agent login`，再按提示在浏览器里确认授权，完成后回到终端。"
    address = "# 参考 http://www.imooc.com/read/27/article/258"
    chunks = [
        _chunk(t, 0, m) for t, m in zip((command, screenshots, prose, address), "abcd", strict=True)
    ]
    entries = chunk_scripts_of(chunks, np.arange(4), np.array([CJK_SCRIPT] * 4, np.int8))
    assert main_of(entries).tolist() == [CJK_SCRIPT] * 4
    assert script_held(entries, OTHER_SCRIPT).tolist() == [True, True, False, True]
    assert script_held(entries, CJK_SCRIPT).all()


def test_a_chunk_of_numbers_is_in_every_script_and_prose_with_numbers_is_not() -> None:
    # a public vault of clipped articles: a page's drawings, read as English, were the best
    # hit of 20 of 200 unrelated Chinese questions, measured across languages
    drawing = "L 191.9,35.0 L 194.2,35.0 L 196.5,35.0 " * 8 + "C-273 251.81, -277.27 252.9"
    escape = "%5D)"
    table = (
        "| year | sales |\n|---|---|\n| 2019 | 1,204.5 |\n| 2020 | 1,377.0 |\n| 2021 | 1,502.9 |"
    )
    prose = "In 2019 we sold 1,204 units; by 2021 sales had grown by a quarter, to 1,502."
    texts = (drawing, escape, table, prose)
    chunks = [_chunk(t, 0, m) for t, m in zip(texts, "abcd", strict=True)]
    entries = chunk_scripts_of(chunks, np.arange(4), np.array([OTHER_SCRIPT] * 4, np.int8))
    assert main_of(entries).tolist() == [OTHER_SCRIPT] * 4
    assert script_held(entries, CJK_SCRIPT).tolist() == [True, True, True, False]


def test_a_short_english_chunk_naming_its_subject_in_chinese_holds_chinese() -> None:
    glossary = "Hilbert space: a complete linear inner product space 完备线性内积空间, see Wiki"
    [entry] = chunk_scripts_of([_chunk(glossary)], np.zeros(1, np.int64), np.array([2], np.int8))
    assert main_of(entry) == OTHER_SCRIPT and script_held(int(entry), CJK_SCRIPT)


def test_an_english_chunk_with_a_link_or_two_is_still_english_only() -> None:
    text = "The scheduler ([[Run queue|run queue]]) picks the next task: see https://x.org/a."
    [entry] = chunk_scripts_of([_chunk(text)], np.zeros(1, np.int64), np.array([2], np.int8))
    assert main_of(entry) == OTHER_SCRIPT and not script_held(int(entry), CJK_SCRIPT)


def test_memories_in_two_scripts_are_marked_mixed() -> None:
    chunks = [_chunk(ENGLISH, 0, "a"), _chunk(CHINESE, 1, "a"), _chunk(ENGLISH, 0, "b")]
    owners = np.array([0, 0, 1], np.int64)
    entries = chunk_scripts_of(chunks, owners, np.array([OTHER_SCRIPT, OTHER_SCRIPT], np.int8))
    assert mixed_memories(entries, owners, 2).tolist() == [True, False]


def test_an_updated_catalog_reads_only_the_new_chunks_and_keeps_mixed_current() -> None:
    english = Memory(id="a", title="Scheduler", body=ENGLISH)
    catalog = Catalog.build([_chunk(ENGLISH, 0, "a")], {"a": english})
    assert catalog.mixed.tolist() == [False]
    both = Memory(id="a", title="Scheduler", body=ENGLISH + CHINESE)
    changed = [MemoryChunks("a", both, [_chunk(ENGLISH, 0, "a"), _chunk(CHINESE, 1, "a")])]
    updated, *_ = catalog.updated([], changed, [])
    assert updated.mixed.tolist() == [True]
    assert len(updated.chunk_scripts) == 3  # the gone chunk keeps its place
    assert catalog.mixed.tolist() == [False]  # the old snapshot is as it was


def _engine(vault: Path) -> Engine:
    settings = Settings()
    settings.set_key("chunk.size", "300")  # the note's two languages in chunks of their own
    settings.set_key("chunk.overlap", "50")
    return Engine(vault, settings, embedder=HashEmbedder())


def _two_language_vault(vault: Path) -> MemoryStore:
    store = MemoryStore(vault)
    store.create("Scheduler notes", f"{ENGLISH}\n\n## 中文笔记\n\n{CHINESE}")
    store.create("Gardening", "Tomatoes need sun, water every morning and a stake to climb.")
    store.create("泡茶", "泡绿茶的水温不要太高，八十度左右就好，时间也不要太长。")
    return store


def test_a_chinese_question_on_an_english_notes_chinese_passage_is_not_across(
    vault: Path,
) -> None:
    _two_language_vault(vault)
    engine = _engine(vault)
    engine.open()
    hit = engine.search("调度器 就绪队列 任务", k=1, min_relevance=0.0, explain=True)[0]
    assert hit.title == "Scheduler notes"
    assert hit.evidence is not None and not hit.evidence.cross
    english = engine.search("scheduler run queue task", k=1, min_relevance=0.0, explain=True)[0]
    assert english.title == "Scheduler notes"
    assert english.evidence is not None and not english.evidence.cross


def test_a_chinese_notes_command_is_not_across_for_a_question_in_either_language(
    vault: Path,
) -> None:
    store = MemoryStore(vault)
    store.create("使用指南", "### 登录\n\n```bash\nagent login --token abc\n```\n")
    store.create("Gardening", "Tomatoes need sun, water every morning and a stake to climb.")
    engine = _engine(vault)
    engine.open()
    for query in ("怎么登录", "agent login token"):
        hits = engine.search(query, k=2, min_relevance=0.0, explain=True)
        [hit] = [h for h in hits if h.title == "使用指南"]
        assert hit.evidence is not None and not hit.evidence.cross, query


def test_unrelated_text_of_a_script_is_sampled_from_the_chunks_written_in_it(
    vault: Path,
) -> None:
    # a Chinese vault's English passages are its English text: a Chinese question measured
    # against an English chunk there is measured against them, not against everyday English
    store = MemoryStore(vault)
    for topic in ("监控", "部署", "日志"):
        store.create(f"{topic}笔记", f"{CHINESE}\n\n## Settings\n\n{ENGLISH}")
    store.create("Gardening", "Tomatoes need sun, water every morning and a stake to climb.")
    store.create("泡茶", "泡绿茶的水温不要太高，八十度左右就好，时间也不要太长。")
    engine = _engine(vault)
    engine.open()
    index = engine.index
    sample = index._vault_sample()
    assert sample is not None
    assert sample.counts[OTHER_SCRIPT] == 1 and sample.counts[CJK_SCRIPT] == 4
    written = sample.written
    assert written.counts[OTHER_SCRIPT] == 4 and written.counts[CJK_SCRIPT] == 4
    catalog = index._catalog
    english = [
        next(c for c in catalog.rows[m] if main_of(int(catalog.chunk_scripts[c])) == OTHER_SCRIPT)
        for m in range(len(catalog.ids))
        if any(main_of(int(catalog.chunk_scripts[c])) == OTHER_SCRIPT for c in catalog.rows[m])
    ]
    expected = np.asarray(index._vectors.vectors(np.array(english)), np.float32)
    got = written.vectors[written.scripts == OTHER_SCRIPT]
    assert sorted(map(tuple, got.round(5))) == sorted(map(tuple, expected.round(5)))


def test_the_chunk_scripts_are_saved_and_read_back(vault: Path) -> None:
    _two_language_vault(vault)
    engine = _engine(vault)
    engine.open()
    loaded = _engine(vault)
    assert loaded.load_saved_index(check_files=True)
    saved = saved_index.load_index(vault, loaded._expected(loaded.embedder))
    assert saved is not None and "chunk_script" in saved._arrays
    assert loaded.index._catalog.mixed.any()
    query = "调度器 就绪队列 任务"
    assert [(h.memory_id, h.score) for h in loaded.search(query, min_relevance=0.0)] == [
        (h.memory_id, h.score) for h in engine.search(query, min_relevance=0.0)
    ]
