"""A saved copy of a vault's search index: read back memory-mapped, searchable at once.

Building the index of a 10k-memory vault from the embedding cache takes seconds (chunking,
tokenising, the keyword postings, the catalog); every start of the app, ``pixelmem serve``,
``pixelmem mcp`` and every ``pixelmem search`` paid it. Instead the engine saves its index
(``<vault>/.pixelmem/search-index-<host>.pxm``, an :mod:`array_file`) and the next process maps
it and searches it before it has looked at a file:

* what is saved: the live chunks (text, spans) and memories (ids, paths, the catalog's
  metadata), the vectors, the keyword postings keyed by a stable hash of each term
  (:mod:`stable_postings`), what the indexer needs to bring it up to date by difference (each
  memory's fingerprint and file hash, each chunk's content hash), and the signatures of the
  files it was made from (:mod:`vault_state`);
* it is used only by code that would build the same index: the same format, the same source
  of the modules that chunk, tokenise and describe memories (:func:`code_fingerprint`), the
  same model id, chunking and title rule; anything else is ignored and the index is built as
  before;
* until the engine has compared it with the scanned vault (or :mod:`vault_state` has found
  every file as it was), a search on it is marked partial.

Per host, like the scan cache: a synced ``.pixelmem`` carries files whose signatures mean
nothing on another machine. Written atomically and privately (``.pixelmem`` is 0700).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import logging
import socket
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pixelmem import __version__
from pixelmem.core.index.array_file import ArrayFileError, read_array_file, write_array_file
from pixelmem.core.index.catalog import Catalog
from pixelmem.core.index.chunking import Chunk
from pixelmem.core.index.keyword_side import LocalKeywordSide
from pixelmem.core.index.search import SearchIndex, keyword_title
from pixelmem.core.index.stable_postings import stable_postings
from pixelmem.core.index.vault_state import FileTable
from pixelmem.core.index.vector_side import LocalVectorSide
from pixelmem.core.paths import appdata_dir
from pixelmem.core.vault.memory import Memory

log = logging.getLogger(__name__)

FORMAT_VERSION = 1
_HOST_TAG = hashlib.blake2b(socket.gethostname().encode(), digest_size=4).hexdigest()
INDEX_FILENAME = f"search-index-{_HOST_TAG}.pxm"
ANCHORS_FILENAME = "anchors.pxm"
ANCHOR_QUESTIONS_FILENAME = "anchor-questions.pxm"  # the same texts embedded as questions
# Modules whose code decides what a saved index holds; their source is part of ``code``.
_INDEX_MODULES = (
    "pixelmem.core.index.catalog",
    "pixelmem.core.index.chunking",
    "pixelmem.core.index.keyword_side",
    "pixelmem.core.index.saved_index",
    "pixelmem.core.index.scripts",
    "pixelmem.core.index.stable_postings",
    "pixelmem.core.index.text_tokens",
    "pixelmem.core.vault.memory",
)


def index_path(vault: Path) -> Path:
    return appdata_dir(vault) / INDEX_FILENAME


@dataclass(frozen=True)
class Seed:
    """What the indexer knew of one memory: its text's fingerprint, its file's hash (None:
    not read from a file) and its chunks' content hashes."""

    fingerprint: str
    disk_hash: str | None
    hashes: tuple[bytes, ...]


@dataclass(frozen=True)
class Expected:
    """What the engine would build now: a saved index made otherwise is not used."""

    model_id: str
    chunker: dict[str, int]
    titles_in_keyword: bool = True
    # How the vault titles its notes (core.vault.titles.vault_title_rule): a vault that became
    # an Obsidian vault (Obsidian opened it: ``.obsidian/``) titles them by file name, and an
    # index saved before gave `pixelmem search` and `status` the old titles, every file as it was.
    title_rule: str = ""


@dataclass
class SavedIndex:
    """A saved index read back: the snapshot and what comes with it."""

    index: SearchIndex
    dim: int
    paths: dict[str, str]  # memory id → path relative to the vault (POSIX separators)
    files: FileTable
    saved_ns: int
    _arrays: dict[str, np.ndarray]
    _disk_hashes: list[str | None]

    def chunk_hashes(self) -> list[bytes]:
        """Each chunk's content hash, in chunk id order."""
        blob = self._arrays["chunk_hashes"].tobytes()
        return [blob[i : i + 16] for i in range(0, len(blob), 16)]

    def skipped_files(self) -> list[str]:
        """The vault-relative paths of the files that could not be read as memories."""
        return [p for p, h in zip(self.files.paths, self.files.hashes, strict=True) if h is None]

    def seeds(self) -> dict[str, Seed]:
        """Each memory's :class:`Seed` (what the indexer needs, not a search; ~30 ms for 10k)."""
        ids = list(self.index.memory_ids)
        fingerprints = self._arrays["fingerprints"].tobytes()
        hashes = self.chunk_hashes()
        counts = np.bincount(self._arrays["chunk_owner"], minlength=len(ids)).tolist()
        seeds, at = {}, 0
        for m, mid in enumerate(ids):
            mine = tuple(hashes[at : at + counts[m]])
            at += counts[m]
            fingerprint = fingerprints[m * 16 : m * 16 + 16].hex()
            seeds[mid] = Seed(fingerprint, self._disk_hashes[m], mine)
        return seeds


# ---------------------------------------------------------------- saving


def save_index(
    vault: Path,
    index: SearchIndex,
    memories: Mapping[str, Memory],
    seeds: Mapping[str, Seed],
    expected: Expected,
    files: FileTable,
) -> bool:
    """Save ``index`` (local vectors only); False (logged) when it cannot be."""
    catalog, matrix, titles_in_keyword = index.saved_parts()
    if matrix is None or titles_in_keyword != expected.titles_in_keyword:
        return False
    started = time.perf_counter()
    try:
        meta, arrays = _packed(index, catalog, matrix, memories, seeds, expected, files)
        meta["paths"] = [_relative_path(memories[mid], vault) for mid in meta["ids"]]
        write_array_file(index_path(vault), meta, arrays)
    except (OSError, KeyError, ValueError) as exc:  # read-only vault, a memory gone meanwhile
        log.info("the search index was not saved: %s", exc)
        return False
    log.debug("saved the search index in %.2f s", time.perf_counter() - started)
    return True


def _packed(
    index: SearchIndex,
    catalog: Catalog,
    matrix: np.ndarray,
    memories: Mapping[str, Memory],
    seeds: Mapping[str, Seed],
    expected: Expected,
    files: FileTable,
) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    ids = list(index.memory_ids)
    positions = np.array([catalog.position[mid] for mid in ids], np.int64)
    live = np.concatenate([catalog.rows[m] for m in positions.tolist()] or [np.zeros(0, int)])
    live.sort()  # chunk id order, as a fresh build of the same memories
    renumber = np.full(catalog.size, -1, np.int64)
    renumber[positions] = np.arange(len(ids))
    chunks = [catalog.chunks[c] for c in live.tolist()]
    owners = renumber[catalog.owners[live]]
    if any(c is None for c in chunks):
        raise ValueError("a live chunk id without its chunk")
    titles = {mid: keyword_title(memories[mid], expected.titles_in_keyword) for mid in ids}
    postings = stable_postings((titles[c.memory_id], c.text) for c in chunks if c)
    texts = [c.text.encode("utf-8", "surrogatepass") for c in chunks if c]
    meta = {
        "format": FORMAT_VERSION,
        "code": code_fingerprint(),
        "model_id": expected.model_id,
        "chunker": dict(expected.chunker),
        "titles_in_keyword": expected.titles_in_keyword,
        "title_rule": expected.title_rule,
        "saved_ns": time.time_ns(),
        "ids": ids,
        "catalog": _plain(catalog.saved_fields(positions)),
        "files": {"paths": list(files.paths), "hashes": list(files.hashes)},
        "disk_hashes": [seeds[mid].disk_hash for mid in ids],
    }
    arrays = {
        "chunk_owner": owners.astype(np.int32),
        "chunk_script": catalog.chunk_scripts[live].astype(np.int8),
        "chunk_span": np.array([[c.index, c.start, c.end] for c in chunks if c], np.int64),
        "text_offsets": np.cumsum([0, *map(len, texts)], dtype=np.int64),
        "text": np.frombuffer(b"".join(texts), np.uint8),
        "vectors": np.ascontiguousarray(matrix[live], np.float32),
        "terms": postings.terms,
        "indptr": postings.indptr,
        "docs": postings.docs,
        "tf": postings.tf,
        "doc_len": postings.doc_len,
        "fingerprints": _digests([seeds[mid].fingerprint for mid in ids], 16),
        "chunk_hashes": _chunk_hashes(ids, seeds, len(live)),
        "file_signatures": np.asarray(files.signatures, np.int64).reshape(-1, 4),
    }
    return meta, arrays


def _relative_path(memory: Memory, vault: Path) -> str:
    try:
        return memory.path.relative_to(vault).as_posix() if memory.path else ""
    except ValueError:  # not below the vault (a store opened through another path)
        return ""


def _plain(fields: dict[str, Any]) -> dict[str, Any]:
    return {k: v.tolist() if isinstance(v, np.ndarray) else v for k, v in fields.items()}


def _digests(hexes: Sequence[str], size: int) -> np.ndarray:
    return np.frombuffer(b"".join(bytes.fromhex(h) for h in hexes), np.uint8).reshape(-1, size)


def _chunk_hashes(ids: Sequence[str], seeds: Mapping[str, Seed], count: int) -> np.ndarray:
    hashes = [h for mid in ids for h in seeds[mid].hashes]
    if len(hashes) != count:
        raise ValueError("the indexer's chunks and the snapshot's differ")
    return np.frombuffer(b"".join(hashes), np.uint8).reshape(-1, 16)


# ---------------------------------------------------------------- loading


def load_index(vault: Path, expected: Expected) -> SavedIndex | None:
    """The index saved for ``vault`` if this code and these settings would build it; None
    (logged at debug level) when there is none or it cannot be used."""
    path = index_path(vault)
    try:
        meta, arrays = read_array_file(path)
    except FileNotFoundError:
        return None
    except (OSError, ArrayFileError) as exc:
        log.debug("ignoring the saved search index %s: %s", path, exc)
        return None
    why = _unusable(meta, expected)
    if why:
        log.debug("ignoring the saved search index %s: %s", path, why)
        return None
    try:
        return _unpacked(meta, arrays)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        log.debug("ignoring the saved search index %s: damaged (%s)", path, exc)
        return None


def _unusable(meta: dict[str, Any], expected: Expected) -> str:
    if meta.get("format") != FORMAT_VERSION or meta.get("code") != code_fingerprint():
        return "written by other pixelmem code"
    if meta.get("model_id") != expected.model_id:
        return f"made with {meta.get('model_id')!r}"
    if meta.get("chunker") != dict(expected.chunker):
        return "made with other chunk settings"
    if meta.get("titles_in_keyword") != expected.titles_in_keyword:
        return "made with another title rule"
    if meta.get("title_rule", "") != expected.title_rule:
        return "made when the vault's notes were titled otherwise"
    return ""


def _unpacked(meta: dict[str, Any], arrays: dict[str, np.ndarray]) -> SavedIndex:
    ids: list[str] = meta["ids"]
    owners = np.asarray(arrays["chunk_owner"], np.int64)
    spans, offsets = arrays["chunk_span"], arrays["text_offsets"]
    vectors, doc_len = arrays["vectors"], arrays["doc_len"]
    count = len(owners)
    if not (len(spans) == len(vectors) == len(doc_len) == count == len(offsets) - 1):
        raise ValueError("the chunk arrays differ in length")
    if count and (owners.min() < 0 or owners.max() >= len(ids)):
        raise ValueError("a chunk of an unknown memory")
    _check_postings(arrays, count)
    chunks = SavedChunks(ids, owners, spans, arrays["text"], offsets)
    catalog = Catalog.restored(chunks, owners, ids, meta["catalog"], arrays.get("chunk_script"))
    segment = _stable_segment(arrays)
    keywords = LocalKeywordSide(segment, None, doc_len, owners, None)
    vector_side = LocalVectorSide.from_matrix(vectors, owners) if count else None
    index = SearchIndex(catalog, vector_side, keywords, titles_in_keyword=meta["titles_in_keyword"])
    files = meta["files"]
    if len(meta["paths"]) != len(ids) or len(meta["disk_hashes"]) != len(ids):
        raise ValueError("the memory lists differ in length")
    if not len(files["paths"]) == len(files["hashes"]) == len(arrays["file_signatures"]):
        raise ValueError("the file lists differ in length")
    return SavedIndex(
        index=index,
        dim=int(vectors.shape[1]),
        paths=dict(zip(ids, meta["paths"], strict=True)),
        files=FileTable(tuple(files["paths"]), arrays["file_signatures"], tuple(files["hashes"])),
        saved_ns=int(meta["saved_ns"]),
        _arrays=arrays,
        _disk_hashes=meta["disk_hashes"],
    )


def _check_postings(arrays: dict[str, np.ndarray], count: int) -> None:
    indptr, docs = arrays["indptr"], arrays["docs"]
    if len(indptr) != len(arrays["terms"]) + 1 or len(docs) != len(arrays["tf"]):
        raise ValueError("the postings arrays differ in length")
    if indptr[0] != 0 or indptr[-1] != len(docs) or np.any(np.diff(indptr) < 0):
        raise ValueError("the postings' offsets are not in order")
    if len(docs) and (int(docs.min()) < 0 or int(docs.max()) >= count):
        raise ValueError("a posting of an unknown chunk")


def _stable_segment(arrays: dict[str, np.ndarray]) -> Any:
    from pixelmem.core.index.stable_postings import StableSegment

    return StableSegment(arrays["terms"], 0, arrays["indptr"], arrays["docs"], arrays["tf"])


class SavedChunks(Sequence[Chunk]):
    """The chunks of a saved index, each made from the mapped file when it is first asked for
    (a search reads a few; the indexer, updating the index, all of them once)."""

    def __init__(
        self,
        ids: list[str],
        owners: np.ndarray,
        spans: np.ndarray,
        text: np.ndarray,
        offsets: np.ndarray,
    ) -> None:
        self._ids, self._owners, self._spans = ids, owners, spans
        self._text, self._offsets = text, offsets
        self._lists: tuple[list[int], list[list[int]], list[int], bytes] | None = None
        self._count = len(owners)

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self._chunk(j) for j in range(*i.indices(self._count))]
        if i < 0:
            i += self._count
        if not 0 <= i < self._count:
            raise IndexError(i)
        return self._chunk(i)

    def __iter__(self) -> Iterator[Chunk]:
        return (self._chunk(i) for i in range(self._count))

    def _chunk(self, i: int) -> Chunk:
        if self._lists is None:  # Python lists: a numpy scalar per field costs ~1 µs each
            self._lists = (
                self._offsets.tolist(), self._spans.tolist(), self._owners.tolist(),
                self._text.tobytes(),
            )  # fmt: skip
        offsets, spans, owners, text = self._lists
        index, first, last = spans[i]
        body = text[offsets[i] : offsets[i + 1]].decode("utf-8", "surrogatepass")
        return Chunk(self._ids[owners[i]], index, first, last, body)


@functools.cache
def code_fingerprint() -> str:
    """The pixelmem version plus a digest of the code that decides what an index holds."""
    digest = hashlib.blake2b(digest_size=12)
    for name in _INDEX_MODULES:
        spec = importlib.util.find_spec(name)
        module_file = spec.origin if spec is not None else None
        try:
            digest.update(Path(module_file).read_bytes() if module_file else b"?")
        except OSError:  # a frozen app may ship no source: the version alone then decides
            digest.update(b"?")
    return f"{__version__} {digest.hexdigest()}"


# ---------------------------------------------------------------- the relevance anchors


def anchors_path(vault: Path, questions: bool = False) -> Path:
    return appdata_dir(vault) / (ANCHOR_QUESTIONS_FILENAME if questions else ANCHORS_FILENAME)


def load_anchors(
    vault: Path, model_id: str, texts: Sequence[str], questions: bool = False
) -> np.ndarray | None:
    """The vectors of the relevance anchor ``texts`` an engine embedded with ``model_id`` for
    this vault, as passages or (``questions``) as questions (None: none saved, or saved for
    other texts or another model). Saved once, they spare a new process the model's load and
    ~0.4 s of embedding before its first search, and every process uses the same vectors."""
    try:
        meta, arrays = read_array_file(anchors_path(vault, questions))
    except (OSError, ArrayFileError):
        return None
    if meta.get("model_id") != model_id or meta.get("texts") != _texts_digest(texts):
        return None
    vectors = arrays.get("vectors")
    if vectors is None or vectors.ndim != 2 or len(vectors) != len(texts):
        return None
    return np.array(vectors, np.float32)  # a copy: the map closes with the file


def save_anchors(
    vault: Path, model_id: str, texts: Sequence[str], vectors: np.ndarray, questions: bool = False
) -> None:
    meta = {"model_id": model_id, "texts": _texts_digest(texts)}
    path = anchors_path(vault, questions)
    try:
        write_array_file(path, meta, {"vectors": np.asarray(vectors, np.float32)})
    except OSError as exc:  # a read-only vault: embedded again next time
        log.debug("the relevance anchors were not saved: %s", exc)


def _texts_digest(texts: Sequence[str]) -> str:
    return hashlib.blake2b("\0".join(texts).encode(), digest_size=16).hexdigest()
