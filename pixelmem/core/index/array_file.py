"""One file of named numpy arrays and a small msgpack header, read back memory-mapped.

The saved search index (:mod:`~pixelmem.core.index.saved_index`) is tens of megabytes of
arrays that a process wants to use at once without decoding or copying them: the vectors, the
keyword postings, the chunks' text. Layout::

    b"PXMARR1\\n"   magic, 8 bytes
    u64 LE        length of the header
    u8[32]        blake2b-256 of the header
    header        msgpack {"meta": {...}, "arrays": {name: [offset, dtype, shape]}}
    arrays        each at a 64-byte-aligned offset from the start of the file

Reading checks the magic, the header's digest, that every array lies inside the file and that
the file has exactly the announced size; the arrays' bytes are trusted as written (the file
is written to a temp file, fsynced and renamed into place, so a reader never sees a torn
one). Writing is atomic and private: the file gets its folder's private mode (``.pixelmem``
is 0700, so 0600) and replaces the old one in one rename.
"""

from __future__ import annotations

import hashlib
import mmap
import os
import struct
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import msgpack
import numpy as np

from pixelmem.core.files.atomic import put_in_place, temp_beside
from pixelmem.core.files.permissions import make_private_dirs
from pixelmem.core.files.safe_open import open_regular

MAGIC = b"PXMARR1\n"
_ALIGN = 64
_DIGEST = 32
_PREFIX = len(MAGIC) + 8 + _DIGEST
_MAX_HEADER = 64 << 20


class ArrayFileError(ValueError):
    """The file is not an array file this code wrote, or it is damaged."""


def write_array_file(path: Path, meta: Mapping[str, Any], arrays: Mapping[str, np.ndarray]) -> None:
    """Write ``arrays`` (any shape, fixed-size dtypes) and ``meta`` (msgpack-able) to ``path``
    atomically."""
    parts = {name: np.ascontiguousarray(a) for name, a in arrays.items()}
    table: dict[str, list[Any]] = {}
    offsets: dict[str, int] = {}
    offset = 0
    for name, array in parts.items():
        offsets[name] = offset
        table[name] = [offset, array.dtype.str, list(array.shape)]
        offset = _aligned(offset + array.nbytes)
    header = msgpack.packb({"meta": dict(meta), "arrays": table}, use_bin_type=True)
    start = _aligned(_PREFIX + len(header))
    make_private_dirs(path.parent)
    with temp_beside(path) as (out, tmp_name):
        out.write(MAGIC + struct.pack("<Q", len(header)))
        out.write(hashlib.blake2b(header, digest_size=_DIGEST).digest() + header)
        for name, array in parts.items():
            out.seek(start + offsets[name])
            out.write(array.reshape(-1).view(np.uint8).data)
        out.truncate(start + offset)
    put_in_place(tmp_name, path)


def read_array_file(path: Path) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """``(meta, arrays)`` of the file at ``path``; the arrays are read-only views of one
    memory map (nothing is read from disk until used). Raises :class:`ArrayFileError` for a
    damaged file and ``OSError`` when it cannot be opened."""
    with open_regular(path) as handle:
        size = os.fstat(handle.fileno()).st_size
        if size < _PREFIX:
            raise ArrayFileError("too short")
        mapped = mmap.mmap(handle.fileno(), size, access=mmap.ACCESS_READ)
    prefix = mapped[:_PREFIX]
    if prefix[: len(MAGIC)] != MAGIC:
        raise ArrayFileError("not an array file")
    (length,) = struct.unpack_from("<Q", prefix, len(MAGIC))
    if length > min(_MAX_HEADER, size - _PREFIX):
        raise ArrayFileError("damaged (header length)")
    header = mapped[_PREFIX : _PREFIX + length]
    if hashlib.blake2b(header, digest_size=_DIGEST).digest() != prefix[len(MAGIC) + 8 :]:
        raise ArrayFileError("damaged (header checksum)")
    try:
        parsed = msgpack.unpackb(header, raw=False, strict_map_key=False)
        meta, table = parsed["meta"], parsed["arrays"]
        start = _aligned(_PREFIX + length)
        arrays = {name: _view(mapped, start, size, *spec) for name, spec in table.items()}
    except (KeyError, TypeError, ValueError) as exc:
        raise ArrayFileError(f"damaged ({exc})") from None
    if start + max((_aligned(s[0] + _nbytes(s)) for s in table.values()), default=0) != size:
        raise ArrayFileError("damaged (size)")
    return meta, arrays


def _view(
    mapped: mmap.mmap, start: int, size: int, offset: int, dtype: str, shape: list
) -> np.ndarray:
    kind = np.dtype(dtype)
    if kind.hasobject or offset < 0 or offset % _ALIGN:
        raise ArrayFileError("damaged (array spec)")
    count = int(np.prod(shape, dtype=np.int64))
    if start + offset + count * kind.itemsize > size:
        raise ArrayFileError("damaged (an array past the end)")
    array = np.frombuffer(mapped, kind, count, start + offset).reshape(shape)
    array.flags.writeable = False
    return array


def _nbytes(spec: list) -> int:
    return int(np.prod(spec[2], dtype=np.int64)) * np.dtype(spec[1]).itemsize


def _aligned(offset: int) -> int:
    return -(-offset // _ALIGN) * _ALIGN
