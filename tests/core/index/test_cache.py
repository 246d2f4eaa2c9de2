"""Embedding cache: round trip, every kind of bad file, purge, atomic and merge-safe saves."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import textwrap
import threading
from collections.abc import Callable
from pathlib import Path

import msgpack
import numpy as np
import pytest
import zstandard

from pixelmem.core.index import cache as cache_module
from pixelmem.core.index.cache import CACHE_FILENAME, EmbeddingCache, content_hash

MODEL = "local:test-model"
DIM = 8
CHUNKER = {"size": 800, "overlap": 100}


def vectors(n: int, seed: int = 0) -> np.ndarray:
    matrix = np.random.default_rng(seed).standard_normal((n, DIM)).astype(np.float32)
    return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)


def hashes(n: int, prefix: str = "chunk") -> list[bytes]:
    return [content_hash(f"{prefix} {i}") for i in range(n)]


def new_cache(path: Path, **overrides: object) -> EmbeddingCache:
    args: dict = {"model_id": MODEL, "dim": DIM, "chunker": CHUNKER, **overrides}
    return EmbeddingCache(path, args["model_id"], args["dim"], args["chunker"])


@pytest.fixture
def path(vault: Path) -> Path:
    return vault / ".pixelmem" / CACHE_FILENAME


def saved_cache(path: Path, n: int = 20) -> tuple[list[bytes], np.ndarray]:
    keys, vecs = hashes(n), vectors(n)
    cache = new_cache(path)
    cache.put_many(keys, vecs)
    cache.save()
    return keys, vecs


def test_content_hash_is_16_byte_blake2b_of_the_exact_text() -> None:
    h = content_hash("Hello 世界")
    assert h == hashlib.blake2b("Hello 世界".encode(), digest_size=16).digest()
    assert len(h) == 16
    assert content_hash("Hello 世界 ") != h


def test_round_trip(path: Path) -> None:
    keys, vecs = saved_cache(path, 50)
    loaded = new_cache(path)
    assert loaded.load() == []
    assert len(loaded) == 50 and not loaded.dirty
    assert keys[7] in loaded and content_hash("other") not in loaded
    np.testing.assert_array_equal(loaded.get(keys[7]), vecs[7])
    assert loaded.get(content_hash("other")) is None
    query = [keys[3], content_hash("miss a"), keys[0], content_hash("miss b"), keys[49]]
    found, misses = loaded.get_many(query)
    assert misses == [1, 3]
    np.testing.assert_array_equal(found, vecs[[3, 0, 49]])
    assert found.dtype == np.float32


def test_file_layout_is_msgpack_in_zstd_with_raw_float32(path: Path) -> None:
    keys, vecs = saved_cache(path, 3)
    data = msgpack.unpackb(zstandard.ZstdDecompressor().decompress(path.read_bytes()))
    assert data["header"] == {
        "format": 1,
        "model_id": MODEL,
        "dim": DIM,
        "chunker": CHUNKER,
        "hash_size": 16,
        "count": 3,
    }
    assert data["hashes"] == b"".join(keys)
    assert data["vectors"] == vecs.astype("<f4").tobytes()


def test_put_many_replaces_and_appends_after_load(path: Path) -> None:
    keys, vecs = saved_cache(path, 10)
    cache = new_cache(path)
    cache.load()
    fresh = vectors(3, seed=9)
    cache.put_many([keys[2], content_hash("new"), content_hash("new")], fresh)
    assert len(cache) == 11 and cache.dirty
    np.testing.assert_array_equal(cache.get(keys[2]), fresh[0])
    np.testing.assert_array_equal(cache.get(content_hash("new")), fresh[2])
    np.testing.assert_array_equal(cache.get(keys[3]), vecs[3])
    cache.put_many(hashes(3000, "bulk"), np.tile(vecs[:1], (3000, 1)))  # grows the matrix
    assert len(cache) == 3011
    np.testing.assert_array_equal(cache.get(keys[9]), vecs[9])


@pytest.mark.parametrize(
    ("bad_hashes", "bad_vectors", "message"),
    [
        (hashes(2), vectors(3), "shape"),
        (hashes(2), np.full((2, DIM), np.nan, dtype=np.float32), "NaN"),
        ([b"short", b"x" * 16], vectors(2), "16 bytes"),
    ],
)
def test_put_many_rejects_bad_input(
    path: Path, bad_hashes: list[bytes], bad_vectors: np.ndarray, message: str
) -> None:
    cache = new_cache(path)
    with pytest.raises(ValueError, match=message):
        cache.put_many(bad_hashes, bad_vectors)
    assert len(cache) == 0 and not cache.dirty


def test_get_many_on_an_empty_cache(path: Path) -> None:
    found, misses = new_cache(path).get_many(hashes(4))
    assert found.shape == (0, DIM) and misses == [0, 1, 2, 3]


def _write_payload(payload: object) -> Callable[[Path], None]:
    def write(path: Path) -> None:
        path.write_bytes(zstandard.ZstdCompressor().compress(msgpack.packb(payload)))

    return write


def _valid_payload(**header_changes: object) -> dict:
    header = {"format": 1, "model_id": MODEL, "dim": DIM, "chunker": CHUNKER}
    header |= {"hash_size": 16, "count": 2, **header_changes}
    return {"header": header, "hashes": b"".join(hashes(2)), "vectors": vectors(2).tobytes()}


def _truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _flip_a_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))


BAD_FILES: dict[str, tuple[Callable[[Path], object], str]] = {
    "missing": (lambda p: p.unlink(), "no embedding cache yet"),
    "empty": (lambda p: p.write_bytes(b""), "damaged"),
    "truncated": (_truncate, "damaged"),
    "flipped byte": (_flip_a_byte, "damaged"),
    "random bytes": (lambda p: p.write_bytes(os.urandom(5000)), "damaged"),
    "zstd of non-msgpack": (
        lambda p: p.write_bytes(zstandard.ZstdCompressor().compress(b"\xc1" * 100)),
        "damaged",
    ),
    "top level not a map": (_write_payload([1, 2, 3]), "damaged"),
    "header not a map": (_write_payload({"header": "v1", "hashes": b""}), "damaged"),
    "wrong value types": (
        _write_payload({**_valid_payload(), "hashes": "text", "vectors": [0.5] * 16}),
        "damaged",
    ),
    "count disagrees with blobs": (_write_payload(_valid_payload(count=5)), "damaged"),
    "negative count": (_write_payload(_valid_payload(count=-1)), "damaged"),
    "other format version": (_write_payload(_valid_payload(format=2)), "another pixelmem version"),
    "other model": (_write_payload(_valid_payload(model_id="ollama:x")), "another embedding model"),
    "other dim": (_write_payload(_valid_payload(dim=DIM * 2)), "another vector dimension"),
    "other chunker": (
        _write_payload(_valid_payload(chunker={"size": 400, "overlap": 50})),
        "other chunk settings",
    ),
}


@pytest.mark.parametrize("kind", BAD_FILES)
def test_bad_file_gives_a_warning_and_an_empty_cache(path: Path, kind: str) -> None:
    saved_cache(path)
    spoil, expected = BAD_FILES[kind]
    spoil(path)
    cache = new_cache(path)
    warnings = cache.load()
    assert len(warnings) == 1 and expected in warnings[0] and str(path) in warnings[0]
    assert len(cache) == 0
    # ...and the cache fills and saves again over the bad file.
    cache.put_many(hashes(1, "fresh"), vectors(1))
    cache.save()
    again = new_cache(path)
    assert again.load() == [] and len(again) == 1


def test_a_valid_payload_of_our_own_loads(path: Path) -> None:
    path.parent.mkdir(parents=True)
    _write_payload(_valid_payload())(path)
    cache = new_cache(path)
    assert cache.load() == [] and len(cache) == 2


def test_load_never_raises_even_for_a_folder(path: Path) -> None:
    path.mkdir(parents=True)
    warnings = new_cache(path).load()
    assert len(warnings) == 1


def test_save_purges_entries_not_kept(path: Path) -> None:
    keys, vecs = saved_cache(path, 10)
    cache = new_cache(path)
    cache.load()
    cache.save(keep=[*keys[:4], content_hash("never cached")])
    assert len(cache) == 4 and not cache.dirty
    np.testing.assert_array_equal(cache.get(keys[3]), vecs[3])
    reloaded = new_cache(path)
    assert reloaded.load() == [] and len(reloaded) == 4
    assert keys[5] not in reloaded
    _, misses = reloaded.get_many(keys)
    assert misses == list(range(4, 10))


def test_save_leaves_no_temp_files_and_skips_unchanged_writes(path: Path) -> None:
    saved_cache(path)
    assert sorted(p.name for p in path.parent.iterdir()) == [
        CACHE_FILENAME,
        f"{CACHE_FILENAME}.lock",
    ]
    cache = new_cache(path)
    cache.load()
    before = path.stat()
    cache.save()
    after = path.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_failed_save_keeps_the_old_file(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    saved_cache(path, 5)
    old_bytes = path.read_bytes()
    cache = new_cache(path)
    cache.load()
    cache.put_many(hashes(1, "new"), vectors(1))

    def disk_full(handle_path: Path, data: bytes) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(cache_module, "atomic_write_bytes", disk_full)
    with pytest.raises(OSError, match="No space left"):
        cache.save()
    assert path.read_bytes() == old_bytes
    assert cache.dirty, "unsaved entries stay marked"


def test_save_where_the_folder_cannot_exist_is_an_os_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    cache = new_cache(tmp_path / "file" / CACHE_FILENAME)
    cache.put_many(hashes(1), vectors(1))
    with pytest.raises(OSError):
        cache.save()
    assert cache.dirty


def test_deleted_file_is_written_again(path: Path) -> None:
    saved_cache(path, 3)
    cache = new_cache(path)
    cache.load()
    path.unlink()
    cache.save()
    assert new_cache(path).load() == []


def test_two_instances_merge_and_ours_win(path: Path) -> None:
    a, b = new_cache(path), new_cache(path)
    a.load()
    b.load()
    shared = content_hash("shared chunk")
    va, vb = vectors(2, seed=1)
    a.put_many([content_hash("only a"), shared], np.stack([va, va]))
    b.put_many([content_hash("only b"), shared], np.stack([vb, vb]))
    a.save()
    b.save()
    assert len(b) == 3
    merged = new_cache(path)
    merged.load()
    assert content_hash("only a") in merged and content_hash("only b") in merged
    np.testing.assert_array_equal(merged.get(shared), vb)  # the last saver's own vector
    a.save()  # a learns b's entries; its own vector for `shared` wins in its file
    np.testing.assert_array_equal(a.get(shared), va)
    assert len(a) == 3


def test_get_many_sees_what_another_process_saved_meanwhile(path: Path) -> None:
    ours, theirs = new_cache(path), new_cache(path)
    ours.load()
    theirs.load()
    theirs.put_many(hashes(3, "theirs"), vectors(3))
    theirs.save()
    found, misses = ours.get_many([*hashes(3, "theirs"), content_hash("nobody")])
    assert misses == [3] and len(found) == 3
    assert not ours.dirty, "merged entries are already on disk"
    assert ours.refresh() is False


def test_keep_never_purges_what_only_another_process_added(path: Path) -> None:
    ours, theirs = new_cache(path), new_cache(path)
    ours.put_many(hashes(2, "ours"), vectors(2))
    ours.save()
    theirs.load()
    ours.load()
    theirs.put_many(hashes(2, "theirs"), vectors(2))
    theirs.save()
    ours.put_many(hashes(1, "new"), vectors(1))
    ours.save(keep=hashes(1, "ours") + hashes(1, "new"))  # has not seen their memories yet
    on_disk = new_cache(path)
    on_disk.load()
    assert all(h in on_disk for h in hashes(2, "theirs"))
    assert hashes(2, "ours")[1] not in on_disk, "our own stale entry is purged"
    # Once this process uses a merged entry, it is its own and purged when it goes stale.
    ours.save(keep=hashes(1, "ours") + hashes(1, "theirs"))
    ours.save(keep=hashes(1, "ours"))
    assert hashes(1, "theirs")[0] not in ours and hashes(2, "theirs")[1] in ours


def test_another_models_file_is_read_once_then_replaced(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ours = new_cache(path)
    ours.load()
    other = new_cache(path, model_id="ollama:other")
    other.put_many(hashes(2), vectors(2))
    other.save()
    reads = []
    real_read = EmbeddingCache._read_file

    def counting(self: EmbeddingCache) -> object:
        reads.append(1)
        return real_read(self)

    monkeypatch.setattr(EmbeddingCache, "_read_file", counting)
    for _ in range(3):
        assert ours.get_many(hashes(2))[1] == [0, 1]
    assert len(reads) == 1
    ours.put_many(hashes(1, "ours"), vectors(1))
    ours.save()
    fresh = new_cache(path)
    assert fresh.load() == [] and len(fresh) == 1


def test_concurrent_saves_from_threads_lose_nothing(path: Path) -> None:
    caches = [new_cache(path) for _ in range(4)]
    for cache in caches:
        cache.load()
    errors: list[BaseException] = []

    def work(k: int) -> None:
        try:
            for round_ in range(5):
                caches[k].put_many(hashes(10, f"t{k} r{round_}"), vectors(10, seed=k))
                caches[k].save()
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    final = new_cache(path)
    assert final.load() == [] and len(final) == 4 * 5 * 10


def test_concurrent_save_with_another_process(path: Path) -> None:
    path.parent.mkdir(parents=True)
    script = textwrap.dedent(
        f"""
        import sys
        from pathlib import Path
        import numpy as np
        from pixelmem.core.index.cache import EmbeddingCache, content_hash
        cache = EmbeddingCache(Path(sys.argv[1]), {MODEL!r}, {DIM}, {CHUNKER!r})
        cache.load()
        for r in range(10):
            keys = [content_hash(f"process {{r}} {{i}}") for i in range(20)]
            cache.put_many(keys, np.ones((20, {DIM}), dtype=np.float32))
            cache.save()
        """
    )
    child = subprocess.Popen([sys.executable, "-c", script, str(path)], stderr=subprocess.PIPE)
    ours = new_cache(path)
    ours.load()
    for r in range(10):
        ours.put_many(hashes(20, f"main {r}"), vectors(20, seed=r))
        ours.save()
    _, stderr = child.communicate(timeout=60)
    assert child.returncode == 0, stderr.decode()
    ours.save(keep=None)
    final = new_cache(path)
    assert final.load() == [] and len(final) == 400
    _, misses = final.get_many([*hashes(20, "main 9"), content_hash("process 9 19")])
    assert misses == []


def test_concurrent_readers_and_writers_in_one_process(path: Path) -> None:
    cache = new_cache(path)
    keys = hashes(2000)
    vecs = vectors(2000)
    stop = threading.Event()
    seen: list[int] = []

    def reader() -> None:
        while not stop.is_set():
            found, misses = cache.get_many(keys[:100])
            assert len(found) + len(misses) == 100
            seen.append(len(found))

    t = threading.Thread(target=reader)
    t.start()
    for i in range(0, 2000, 100):
        cache.put_many(keys[i : i + 100], vecs[i : i + 100])
    stop.set()
    t.join()
    assert len(cache) == 2000
    np.testing.assert_array_equal(cache.get_many(keys)[0], vecs)
