"""The saved index's container: arrays and a header back as written, damage refused."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pixelmem.core.index.array_file import ArrayFileError, read_array_file, write_array_file


def test_arrays_and_meta_come_back_read_only(tmp_path: Path) -> None:
    arrays = {
        "vectors": np.arange(12, dtype=np.float32).reshape(3, 4),
        "empty": np.zeros(0, np.int64),
        "bytes": np.frombuffer("数据库".encode(), np.uint8),
        "odd": np.arange(7, dtype=np.int8),
    }
    path = tmp_path / "a" / "file.pxm"
    write_array_file(path, {"name": "x", "n": [1, 2]}, arrays)
    meta, back = read_array_file(path)
    assert meta == {"name": "x", "n": [1, 2]}
    for name, array in arrays.items():
        assert np.array_equal(back[name], array) and back[name].dtype == array.dtype
        assert not back[name].flags.writeable
    assert [p.name for p in path.parent.iterdir()] == ["file.pxm"]  # no temp file left


@pytest.mark.parametrize("damage", ["magic", "header", "short", "long"])
def test_a_damaged_file_is_refused(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "file.pxm"
    write_array_file(path, {"k": "v" * 100}, {"a": np.arange(100, dtype=np.int64)})
    data = bytearray(path.read_bytes())
    if damage == "magic":
        data[0] ^= 1
    elif damage == "header":
        data[60] ^= 1
    elif damage == "short":
        data = data[:-8]
    else:
        data += b"\0" * 64
    path.write_bytes(bytes(data))
    with pytest.raises(ArrayFileError):
        read_array_file(path)
