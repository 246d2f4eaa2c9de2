"""The embedding cache: chunk vectors keyed by a hash of the chunk's text, one file per vault.

``<vault>/.pixelmem/embeddings.msgpack.zst`` is a zstd-compressed msgpack map::

    {"header": {"format": 1, "model_id": str, "dim": int, "chunker": {...},
                "hash_size": 16, "count": n},
     "hashes": bytes,    # n digests of 16 bytes, back to back
     "vectors": bytes}   # n*dim little-endian float32, row i belongs to digest i

A file that cannot be used (missing, damaged, another format, model, dimension or chunker) is
ignored with a warning; the cache then starts empty and fills again as chunks are embedded.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import struct
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, BinaryIO

import msgpack
import numpy as np
import zstandard

from pixelmem.core.errors import CacheError
from pixelmem.core.files.atomic import atomic_write_bytes
from pixelmem.core.files.permissions import make_private_dirs
from pixelmem.core.files.process_lock import LOCK_SUFFIX, process_lock
from pixelmem.core.files.safe_open import open_regular

CACHE_FILENAME = "embeddings.msgpack.zst"
FORMAT_VERSION = 1
HASH_SIZE = 16
# zstd's fast mode. Float32 vectors are mostly noise to zstd: level 1 saves only ~7% of the
# size but halves decompression speed (100k x 384 loads in ~0.3 s instead of ~0.15 s).
_ZSTD_LEVEL = -1
_VECTOR_DTYPE = np.dtype("<f4")
# Work handed to one numpy or zstd call on a worker: each holds the GIL for all of it (or part
# of it), and the window's thread waits meanwhile. ~1-4 MB: about a millisecond each.
_ROWS_PER_CALL = 4096
_COMPRESS_STEP = 1 << 20


def content_hash(text: str) -> bytes:
    """16-byte blake2b digest of exactly the text that is embedded."""
    return hashlib.blake2b(text.encode("utf-8"), digest_size=HASH_SIZE).digest()


class EmbeddingCache:
    """Vectors by content hash, in one contiguous float32 matrix; thread-safe."""

    def __init__(self, path: Path, model_id: str, dim: int, chunker: dict[str, Any]) -> None:
        self.path = Path(path)
        self.model_id = model_id
        self.dim = dim
        self.chunker = dict(chunker)
        self._lock = threading.RLock()
        self._rows: dict[bytes, int] = {}  # insertion order == row order
        self._matrix = np.empty((0, dim), dtype=np.float32)
        self._dirty = False
        # The file as we last read or wrote it; another state means another process saved.
        self._seen_state: tuple[int, int, int] | None = None
        # Entries merged from another process's saves. This process cannot tell whether they
        # are stale (it may not have seen their memories yet), so its saves never purge them.
        self._foreign: set[bytes] = set()

    @staticmethod
    def stored_hashes(path: Path, model_id: str, chunker: dict[str, Any]) -> set[bytes]:
        """The content hashes the cache file at ``path`` holds vectors for, if it was made
        with ``model_id`` and ``chunker`` (else, and without a usable file: none). Reads the
        file, converts no vector: what ``pixelmem status`` counts."""
        try:
            with open_regular(path) as handle:
                payload = _decompress(handle, os.fstat(handle.fileno()).st_size)
            data = _unpack_map(payload) if payload is not None else {}
        except (OSError, ValueError, zstandard.ZstdError):
            return set()
        header = data.get("header") if isinstance(data, dict) else None
        hashes = data.get("hashes") if isinstance(data, dict) else None
        if not isinstance(header, dict) or not isinstance(hashes, memoryview):
            return set()
        if (header.get("format"), header.get("model_id"), header.get("chunker")) != (
            FORMAT_VERSION, model_id, dict(chunker),
        ):  # fmt: skip
            return set()
        return set(_split_hashes(bytes(hashes)))

    # --- reading -------------------------------------------------------------------------

    def load(self) -> list[str]:
        """Replace the contents with the file's; returns warnings and never raises."""
        with self._lock:
            self._reset()
            try:
                state, hashes, vectors = self._read_file()
            except CacheError as exc:
                self._seen_state = _file_state(self.path)
                return [str(exc)]
            except Exception as exc:  # a damaged file must never stop the app
                self._seen_state = _file_state(self.path)
                reason = f"is damaged or unreadable ({exc})"
                return [f"the embedding cache {self.path} {reason}; it will be rebuilt"]
            self._seen_state = state
            self._rows = dict(zip(_split_hashes(hashes), range(len(vectors)), strict=True))
            if len(self._rows) != len(vectors):  # duplicate digests: keep the last row of each
                vectors = vectors[list(self._rows.values())]
                self._rows = dict(zip(self._rows, range(len(vectors)), strict=True))
            self._matrix = vectors
            return []

    def get(self, h: bytes) -> np.ndarray | None:
        with self._lock:
            row = self._rows.get(h)
            return None if row is None else self._matrix[row].copy()

    def get_many(self, hashes: Sequence[bytes]) -> tuple[np.ndarray, list[int]]:
        """(vectors of the hashes found, in order; positions in ``hashes`` of the misses).

        Entries another process saved meanwhile are merged in first (see :meth:`refresh`), so
        a chunk it already embedded is not embedded again here.
        """
        with self._lock:
            self.refresh()
            rows = np.fromiter(
                (self._rows.get(h, -1) for h in hashes), dtype=np.int64, count=len(hashes)
            )
            found = rows >= 0
            return self._matrix[rows[found]], np.flatnonzero(~found).tolist()

    def refresh(self) -> bool:
        """Merge entries another process saved since we last read or wrote the file.

        One ``stat`` when nothing changed. Returns True if entries were added.
        """
        with self._lock:
            state = _file_state(self.path)
            if state is None or state == self._seen_state:
                return False
            return self._merge_from_disk(state)

    def __contains__(self, h: object) -> bool:
        with self._lock:
            return h in self._rows

    def __len__(self) -> int:
        with self._lock:
            return len(self._rows)

    @property
    def dirty(self) -> bool:
        """True when there are entries (or purges) not yet saved."""
        return self._dirty

    # --- writing -------------------------------------------------------------------------

    def put_many(self, hashes: Sequence[bytes], vectors: np.ndarray) -> None:
        """Add or replace entries; ``vectors`` is float32[len(hashes), dim] of finite values."""
        vectors = np.asarray(vectors, dtype=np.float32)
        if vectors.shape != (len(hashes), self.dim):
            raise ValueError(
                f"expected vectors of shape ({len(hashes)}, {self.dim}), got {vectors.shape}"
            )
        if not np.all(np.isfinite(vectors)):
            raise ValueError("vectors with NaN or infinity cannot be cached")
        if any(len(h) != HASH_SIZE for h in hashes):
            raise ValueError(f"content hashes must be {HASH_SIZE} bytes")
        with self._lock:
            self._put(hashes, vectors)
            self._foreign.difference_update(hashes)
            if len(hashes):
                self._dirty = True

    def save(self, keep: Iterable[bytes] | None = None) -> None:
        """Write the cache atomically, merged with what another process saved meanwhile.

        With ``keep``, this process's entries whose hash is not in it are dropped (entries only
        another process has used are kept). Raises ``OSError`` when the file cannot be written;
        the old file then stays intact.
        """
        keep_set = None if keep is None else set(keep)
        with self._lock:
            make_private_dirs(self.path.parent)
            with self._file_lock():
                state = _file_state(self.path)
                if state is not None and state != self._seen_state:
                    self._merge_from_disk(state)
                purged = keep_set is not None and self._purge(keep_set)
                unchanged = state is not None and state == self._seen_state
                if unchanged and not (self._dirty or purged):
                    return  # the file already holds exactly this
                atomic_write_bytes(self.path, self._encode())
                self._seen_state = _file_state(self.path)
            self._dirty = False

    # --- internals -----------------------------------------------------------------------

    def _reset(self) -> None:
        self._rows = {}
        self._matrix = np.empty((0, self.dim), dtype=np.float32)
        self._dirty = False
        self._seen_state = None
        self._foreign = set()

    def _put(self, hashes: Sequence[bytes], vectors: np.ndarray) -> None:
        latest = dict(zip(hashes, range(len(hashes)), strict=True))  # a repeat: last one wins
        old = [(self._rows[h], i) for h, i in latest.items() if h in self._rows]
        new = [(h, i) for h, i in latest.items() if h not in self._rows]
        start = len(self._rows)
        self._reserve(start + len(new))
        if old:
            self._matrix[[row for row, _ in old]] = vectors[[i for _, i in old]]
        if new:
            self._matrix[start : start + len(new)] = vectors[[i for _, i in new]]
            self._rows.update((h, start + k) for k, (h, _) in enumerate(new))

    def _reserve(self, rows: int) -> None:
        """Make the matrix writable with room for ``rows`` rows, plus spare for appends."""
        if self._matrix.flags.writeable and len(self._matrix) >= rows:
            return
        used = len(self._rows)
        capacity = max(rows, int(len(self._matrix) * 1.5), 1024)
        bigger = np.empty((capacity, self.dim), dtype=np.float32)
        bigger[:used] = self._matrix[:used]
        self._matrix = bigger

    def _purge(self, keep: set[bytes]) -> bool:
        self._foreign.difference_update(keep)  # this process uses them now: they are its own
        live = [(h, row) for h, row in self._rows.items() if h in keep or h in self._foreign]
        if len(live) == len(self._rows):
            return False
        self._matrix = self._matrix[[row for _, row in live]]
        self._rows = {h: i for i, (h, _) in enumerate(live)}
        return True

    def _merge_from_disk(self, state: tuple[int, int, int]) -> bool:
        """Add the file's entries we lack (ours win); True if there were any."""
        try:
            state, hashes, vectors = self._read_file()
        except Exception:  # unusable or another model's: ours will replace it on save
            self._seen_state = state
            return False
        self._seen_state = state
        missing = [(h, i) for i, h in enumerate(_split_hashes(hashes)) if h not in self._rows]
        if missing:
            self._put([h for h, _ in missing], vectors[[i for _, i in missing]])
            self._foreign.update(h for h, _ in missing)
        return bool(missing)

    def _read_file(self) -> tuple[tuple[int, int, int], bytes, np.ndarray]:
        """(file state, hash blob, vectors) of a usable file, else CacheError."""
        try:
            handle = open_regular(self.path)  # never a FIFO: it would block forever
        except FileNotFoundError:
            raise CacheError(
                f"no embedding cache yet at {self.path}; all chunks will be embedded"
            ) from None
        with handle:
            state = _state_of(os.fstat(handle.fileno()))
            payload = _decompress(handle, compressed_size=state[1])
        damaged = CacheError(f"the embedding cache {self.path} is damaged; it will be rebuilt")
        if payload is None:
            raise damaged
        data = _unpack_map(payload)
        count = self._check_header(data)
        hashes, blob = data.get("hashes"), data.get("vectors")
        if (
            not isinstance(hashes, memoryview)
            or not isinstance(blob, memoryview)
            or len(hashes) != count * HASH_SIZE
            or len(blob) != count * self.dim * _VECTOR_DTYPE.itemsize
        ):
            raise damaged
        vectors = np.frombuffer(blob, dtype=_VECTOR_DTYPE).reshape(count, self.dim)
        return (state, *_finite_rows(bytes(hashes), vectors.astype(np.float32, copy=False)))

    def _check_header(self, data: Any) -> int:
        """The entry count of a file whose header matches this cache, else CacheError."""

        def unusable(why: str) -> CacheError:
            return CacheError(f"the embedding cache {self.path} {why}; it will be rebuilt")

        header = data.get("header") if isinstance(data, dict) else None
        if not isinstance(header, dict):
            raise unusable("is damaged")
        if header.get("format") != FORMAT_VERSION:
            raise unusable(
                f"was made by another pixelmem version (format {header.get('format')!r})"
            )
        if header.get("model_id") != self.model_id:
            raise unusable(f"was made with another embedding model ({header.get('model_id')!r})")
        if header.get("dim") != self.dim:
            raise unusable(f"was made with another vector dimension ({header.get('dim')!r})")
        if header.get("chunker") != self.chunker:
            raise unusable(f"was made with other chunk settings ({header.get('chunker')!r})")
        count = header.get("count")
        if header.get("hash_size") != HASH_SIZE or not isinstance(count, int) or count < 0:
            raise unusable("is damaged")
        return count

    def _encode(self) -> bytes:
        count = len(self._rows)
        header = {
            "format": FORMAT_VERSION,
            "model_id": self.model_id,
            "dim": self.dim,
            "chunker": self.chunker,
            "hash_size": HASH_SIZE,
            "count": count,
        }
        vectors = np.ascontiguousarray(self._matrix[:count], dtype=_VECTOR_DTYPE)
        blob = vectors.reshape(-1).view(np.uint8).data
        return _compress(_msgpack_map(header=header, hashes=b"".join(self._rows), vectors=blob))

    def _file_lock(self) -> contextlib.AbstractContextManager[None]:
        """Serialise saves across processes."""
        return process_lock(self.path.parent, self.path.name + LOCK_SUFFIX)


def _finite_rows(hashes: bytes, vectors: np.ndarray) -> tuple[bytes, np.ndarray]:
    """Drop the entries whose vector holds a NaN or an infinity: they are embedded again.

    A row sum is NaN or infinite when any value is (or when finite values overflow, which
    normalised vectors cannot); it avoids a boolean matrix the size of the cache.
    """
    finite = np.empty(len(vectors), bool)
    for start in range(0, len(vectors), _ROWS_PER_CALL):  # a row sum holds the GIL: in blocks
        block = vectors[start : start + _ROWS_PER_CALL]
        finite[start : start + len(block)] = np.isfinite(block.sum(axis=1))
    if finite.all():
        return hashes, vectors
    rows = np.frombuffer(hashes, dtype=np.uint8).reshape(-1, HASH_SIZE)
    return rows[finite].tobytes(), vectors[finite]


def _split_hashes(blob: bytes) -> list[bytes]:
    return [blob[i : i + HASH_SIZE] for i in range(0, len(blob), HASH_SIZE)]


def _file_state(path: Path) -> tuple[int, int, int] | None:
    try:
        return _state_of(path.stat())
    except OSError:
        return None


def _state_of(stat: os.stat_result) -> tuple[int, int, int]:
    return (stat.st_mtime_ns, stat.st_size, stat.st_ino)


def _msgpack_map(**fields: Any) -> list[bytes | memoryview]:
    """A msgpack map as pieces, with big binary values passed through without copying."""
    pieces: list[bytes | memoryview] = [_map_header(len(fields))]
    for key, value in fields.items():
        pieces.append(msgpack.packb(key))
        if isinstance(value, memoryview):
            pieces.append(b"\xc6" + struct.pack(">I", value.nbytes))  # bin 32
            pieces.append(value)
        else:
            pieces.append(msgpack.packb(value))
    return pieces


def _map_header(size: int) -> bytes:
    return bytes([0x80 | size]) if size < 16 else b"\xde" + struct.pack(">H", size)


def _decompress(handle: BinaryIO, compressed_size: int) -> memoryview | None:
    """The zstd frame in ``handle`` decompressed into one buffer; None if it is cut short.

    Streaming into a buffer of the announced size avoids holding the compressed and the
    decompressed bytes at once, and copying them again.
    """
    size = zstandard.get_frame_parameters(handle.read(18)).content_size
    # Our writer always records the size; float32 data never compresses 64-fold.
    if size == zstandard.CONTENTSIZE_UNKNOWN or size > 64 * compressed_size + (1 << 20):
        return None
    handle.seek(0)
    buffer = np.empty(size, dtype=np.uint8).data
    done = 0
    with zstandard.ZstdDecompressor().stream_reader(handle, read_size=1 << 20) as reader:
        while done < size:
            n = reader.readinto(buffer[done:])
            if n == 0:
                return None
            done += n
        if reader.read(1):  # more data than announced; also makes zstd verify the checksum
            return None
    return buffer


_BIN_WIDTH = {0xC4: 1, 0xC5: 2, 0xC6: 4}


def _unpack_map(buf: memoryview) -> dict[Any, Any]:
    """A top-level msgpack map; binary values come back as zero-copy views into ``buf``."""
    head = buf[0]
    if 0x80 <= head <= 0x8F:
        count, pos = head & 0x0F, 1
    elif head in (0xDE, 0xDF):
        width = 2 if head == 0xDE else 4
        count, pos = int.from_bytes(buf[1 : 1 + width], "big"), 1 + width
    else:
        raise ValueError("not a msgpack map")
    result = {}
    for _ in range(count):
        key, pos = _unpack_one(buf, pos)
        value, pos = _unpack_one(buf, pos)
        result[key] = value
    return result


def _unpack_one(buf: memoryview, pos: int) -> tuple[Any, int]:
    width = _BIN_WIDTH.get(buf[pos])
    if width is not None:
        start = pos + 1 + width
        end = start + int.from_bytes(buf[pos + 1 : start], "big")
        if end > len(buf):
            raise ValueError("msgpack data cut short")
        return buf[start:end], end
    unpacker = msgpack.Unpacker()
    fed, step = pos, 1024
    while True:
        unpacker.feed(buf[fed : fed + step])
        fed += step
        try:
            return unpacker.unpack(), pos + unpacker.tell()
        except msgpack.OutOfData:
            if fed >= len(buf):
                raise ValueError("msgpack data cut short") from None
            step *= 2


def _compress(pieces: list[bytes | memoryview]) -> bytes:
    total = sum(len(p) if isinstance(p, bytes) else p.nbytes for p in pieces)
    compressor = zstandard.ZstdCompressor(level=_ZSTD_LEVEL, write_checksum=True)
    out = io.BytesIO()
    with compressor.stream_writer(out, size=total, closefd=False) as writer:
        for piece in pieces:
            view = memoryview(piece).cast("B")
            for start in range(0, len(view), _COMPRESS_STEP):  # the writer holds the GIL
                writer.write(view[start : start + _COMPRESS_STEP])  # in part: short calls
    return out.getvalue()
