"""The scan cache: what the last scan read from each file, so a start skips re-parsing them.

``<vault>/.pixelmem/scan-cache-<host>.msgpack.zst`` is one zstd frame holding two msgpack maps,
one after the other::

    {"header": {"format": 4, "code": str, "titles": str, "stamp_ns": int, "count": n},
     "listing": [[vault-relative path, id, title, topics, importance, created, updated,
                  aliases, has_id, preview line (without topics)], ...]}
    {"entries": {vault-relative path: [mtime_ns, size, inode, ctime_ns, *result]},
     "first_seen": {vault-relative path: mtime_ns}}

The first map is what a list of the vault shows, ids de-duplicated and undated files dated as
the scan dates them (:func:`load_listing`): the app reads only it (~2 MB of the ~20 MB a 10k
vault decompresses to, 10× faster) to fill its list before the scan. The second one is what
the scan reuses.

``result`` is ``[reason]`` for a skipped file, or the parsed memory as ``[id, title, body,
topics, importance, created, updated, source, extra, has_id, disk_hash, aliases]`` (the fields a
cold parse would give before duplicate ids are resolved; ``path`` and ``disk_mtime_ns`` come from
the scan itself), or nothing for a file whose result cannot be stored exactly. ``code``
fingerprints the pixelmem version and the source of the modules that decide how a file is
read: any change there ignores the whole file. ``titles`` is the vault's title rule
(:mod:`titles`): a folder that becomes an Obsidian vault names its notes anew.

**When an entry is trusted.** The file's ``os.stat`` must still give the same mtime, size,
inode and ctime (ctime also catches ``chmod`` and ``os.utime`` setting an old mtime back), and
both its mtime and ctime must be older than the moment the scan that wrote the entry began,
by more than one tick of the filesystem's clock. The second rule is git's "racily clean"
problem: a file written again within the same tick *after* it was read can keep all four
values. The tick is taken generously: :data:`RACY_WINDOW_NS` (3 s) when a timestamp is a whole
second (FAT's 2 s, HFS+ and ext3's 1 s, or a time set by an unzip), else
:data:`FINE_RACY_WINDOW_NS` (0.1 s; ext4, APFS, NTFS, btrfs… stamp files with a clock of a
few ms at most). Entries that new are re-parsed until a later scan finds them old enough, and
that scan rewrites the cache. What remains is a same-size rewrite keeping mtime, inode and
ctime although made after that window, which only a filesystem whose clock disagrees with
this machine's (a network share with a skewed server) and that stamps both writes with the
same instant can produce.

**When the file is written.** Only when a scan's entries differ from the ones it started from
(a file added, changed or removed, or a racy entry that became trustworthy), atomically, so an
unchanged vault never pays for a write. Two processes saving at once are harmless: each
writes a complete, correct file and the last one wins.

**First seen.** A file whose frontmatter gives no date is shown with the date pixelmem first
saw it: its mtime at that moment, kept under ``first_seen`` for as long as the file stays
at that path (its mtime changes with every save; this date does not).

Anything wrong with the file (missing, cut short, damaged, another format or code) is logged
at debug level and ignored; the scan then parses every file and the cache is rebuilt. A file
whose result cannot be stored exactly (a value of a type YAML does not make) keeps only its
signature, and a file that could not be opened (possibly a passing condition) no entry: both
are read again on every scan, as without a cache, without causing a rewrite each time.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import logging
import os
import socket
import time
from datetime import date, datetime, timezone
from pathlib import Path
from typing import Any, NamedTuple

import msgpack
import yaml
import zstandard

from pixelmem import __version__
from pixelmem.core.files.atomic import atomic_write_bytes
from pixelmem.core.files.permissions import make_private_dirs
from pixelmem.core.files.safe_open import read_regular_bytes
from pixelmem.core.vault import frontmatter_io, ids
from pixelmem.core.vault.memory import Memory, preview_line

log = logging.getLogger(__name__)

# Per machine: a synced vault (Dropbox, Syncthing) carries .pixelmem/ to machines where inodes
# and ctimes never match, which would make each of them re-parse and rewrite one shared file.
_HOST_TAG = hashlib.blake2b(socket.gethostname().encode(), digest_size=4).hexdigest()
CACHE_FILENAME = f"scan-cache-{_HOST_TAG}.msgpack.zst"
FORMAT_VERSION = 4
# Entries whose mtime or ctime is this close to (or after) the start of the scan that wrote
# them are re-parsed. Timestamps in whole seconds: 2 s of FAT's granularity plus 1 s to spare;
# finer ones: a filesystem clock tick (<= 16 ms on Linux, Windows and macOS) with margin.
RACY_WINDOW_NS = 3_000_000_000
FINE_RACY_WINDOW_NS = 100_000_000
_ZSTD_LEVEL = 1  # text: ~4.5x smaller; level 3 saves 4 % more and compresses 15 % slower
_MAX_PAYLOAD = 1 << 31  # a header announcing more is damaged (10k memories take ~20 MB)
# Modules whose code decides what a file reads as; their source is part of ``code``.
_PARSER_MODULES = (
    "pixelmem.core.vault.frontmatter_fields",
    "pixelmem.core.vault.frontmatter_formats",
    "pixelmem.core.vault.frontmatter_io",
    "pixelmem.core.vault.ids",
    "pixelmem.core.vault.memory",
    "pixelmem.core.vault.scan_cache",
    "pixelmem.core.vault.simple_yaml",
    "pixelmem.core.vault.store",
    "pixelmem.core.vault.titles",
    "pixelmem.core.vault.vault_scan",
    "pixelmem.core.vault.yaml_guard",
)

Signature = list[int]  # [mtime_ns, size, inode, ctime_ns]; a list compares to decoded entries
_SIGNATURE_LEN = 4
_MEMORY_LEN = _SIGNATURE_LEN + 12
_SKIPPED_LEN = _SIGNATURE_LEN + 1
LISTED = (5, 6, 7, 8, 10, 15)  # an entry's title, body, topics, importance, updated, aliases


def signature(entry: os.DirEntry[str]) -> Signature | None:
    """What identifies a file's current contents without reading them; None if it vanished."""
    try:
        info = entry.stat()  # follows a symlink, like the read does
    except OSError:
        return None
    return [info.st_mtime_ns, info.st_size, info.st_ino, info.st_ctime_ns]


def settled_at(sig: Signature) -> int:
    """When a file with this signature has been left alone for one filesystem clock tick: an
    entry read by a scan that began later can be trusted (see the module docstring)."""
    mtime, ctime = sig[0], sig[3]
    coarse = mtime % 1_000_000_000 == 0 or ctime % 1_000_000_000 == 0
    return max(mtime, ctime) + (RACY_WINDOW_NS if coarse else FINE_RACY_WINDOW_NS)


class ScanCache:
    """The entries one scan produced, by vault-relative path; not changed once built."""

    def __init__(
        self,
        entries: dict[str, list[Any]] | None = None,
        stamp_ns: int = 0,
        first_seen: dict[str, int] | None = None,
        rule: str | None = None,
    ) -> None:
        self.entries: dict[str, list[Any]] = entries if entries is not None else {}
        self.rule = rule  # the title rule its titles were made by (None: no entries)
        self.stamp_ns = stamp_ns  # time.time_ns() when that scan began
        # When each undated file was first seen (its mtime then). The store adds files it
        # reads between scans here; the next scan carries them over.
        self.first_seen: dict[str, int] = first_seen if first_seen is not None else {}

    @classmethod
    def load(cls, path: Path) -> ScanCache:
        """The cache saved at ``path``, or an empty one if it is missing or unusable."""
        try:
            data = read_regular_bytes(path)
        except OSError as exc:
            log.debug("no usable scan cache at %s (%s); every file is parsed", path, exc)
            return cls()
        try:
            return cls._decode(data)
        except Exception as exc:  # anything wrong with the file: parse every file instead
            log.debug("ignoring the scan cache %s: %s", path, exc)
            return cls()

    def save(self, path: Path) -> bool:
        """Write the cache atomically; False if it could not be written. Never raises.

        An entry that cannot be stored exactly is replaced by a bare signature first (here
        and in the file): "known, but parse it every time".
        """
        try:
            data = self._encode()
            make_private_dirs(Path(path).parent)
            atomic_write_bytes(Path(path), data)
        except OSError as exc:  # read-only vault, disk full: the next start parses again
            log.debug("cannot save the scan cache %s: %s", path, exc)
            return False
        except Exception:  # a cache must never stop a scan
            log.warning("cannot save the scan cache %s", path, exc_info=True)
            return False
        return True

    @classmethod
    def _decode(cls, data: bytes) -> ScanCache:
        size = zstandard.get_frame_parameters(data).content_size
        if size == zstandard.CONTENTSIZE_UNKNOWN or size > _MAX_PAYLOAD:
            raise ValueError("damaged (no plausible content size)")
        raw = zstandard.ZstdDecompressor().decompress(data)  # checks the frame's checksum
        unpacker = _unpacker()
        unpacker.feed(raw)
        header = _checked_header(next(unpacker, None))
        if header.get("code") != code_fingerprint():
            raise ValueError("written by other pixelmem code")
        payload = next(unpacker, None)
        if not isinstance(payload, dict) or next(unpacker, None) is not None:
            raise ValueError("damaged (not two maps)")
        entries, stamp = payload.get("entries"), header.get("stamp_ns")
        if not isinstance(entries, dict) or not isinstance(stamp, int):
            raise ValueError("damaged (no entries)")
        if header.get("count") != len(entries):
            raise ValueError("damaged (entry count)")
        first_seen = payload.get("first_seen")
        if not isinstance(first_seen, dict):
            raise ValueError("damaged (no first-seen dates)")
        rule = header.get("titles")
        return cls(entries, stamp, first_seen, rule if isinstance(rule, str) else None)

    def _encode(self) -> bytes:
        header = {
            "format": FORMAT_VERSION,
            "code": code_fingerprint(),
            "titles": self.rule,
            "stamp_ns": self.stamp_ns,
            "count": len(self.entries),
        }
        try:
            raw = self._packed(header)
        except (TypeError, ValueError, OverflowError):  # UnicodeError is a ValueError
            for rel, entry in list(self.entries.items()):  # rare: find the culprits
                try:
                    _pack(rel)  # a file name that is not UTF-8: not cached at all
                except ValueError:
                    del self.entries[rel]
                    header["count"] = len(self.entries)
                    continue
                try:
                    _pack(entry)
                except (TypeError, ValueError, OverflowError) as exc:
                    log.debug("not caching %s: %s", rel, exc)
                    self.entries[rel] = entry[:_SIGNATURE_LEN]
            self.first_seen = {r: t for r, t in self.first_seen.items() if r in self.entries}
            raw = self._packed(header)
        return zstandard.ZstdCompressor(level=_ZSTD_LEVEL, write_checksum=True).compress(raw)

    def _packed(self, header: dict[str, Any]) -> bytes:
        """The two maps, packed a row or an entry per call: the same bytes as one ``packb``
        of each map, but one call over a 10k vault's listing and bodies kept the GIL from the
        window ~10-15 ms, and each piece here takes microseconds."""
        packer = _packer()
        rows = self.listing()
        out = [packer.pack_map_header(2), packer.pack("header"), packer.pack(header)]
        out += [packer.pack("listing"), packer.pack_array_header(len(rows))]
        out += [packer.pack(row) for row in rows]
        out.append(packer.pack_map_header(2))
        for name, table in (("entries", self.entries), ("first_seen", self.first_seen)):
            out += [packer.pack(name), packer.pack_map_header(len(table))]
            for key, value in table.items():
                out += [packer.pack(key), packer.pack(value)]
        return b"".join(out)

    def listing(self) -> list[list[Any]]:
        """The list's fields of each memory these entries hold, in the scan's order, with ids
        de-duplicated and undated memories dated as :func:`~.vault_scan.scan_vault` does."""
        rows: list[list[Any]] = []
        taken: set[str] = set()
        for rel in sorted(self.entries):
            entry = self.entries[rel]
            if type(entry) is not list or len(entry) != _MEMORY_LEN:
                continue
            memory_id, has_id, created = entry[4], entry[13], entry[9]
            if memory_id in taken:  # a second file with a taken id: its path-derived one
                memory_id, has_id = ids.path_id(rel), False
            taken.add(memory_id)
            if created is None:
                seen = self.first_seen.get(rel)
                created = first_seen_datetime(seen if type(seen) is int else entry[0])
            title, body, topics, importance, updated, aliases = (entry[i] for i in LISTED)
            preview = preview_line(body) if not topics and type(body) is str else ""
            rows.append([rel, memory_id, title, topics, importance, created, updated])
            rows[-1] += [aliases, has_id, preview]
        return rows


class Listing(NamedTuple):
    """The first map of a scan cache file: what the vault's list showed at ``stamp_ns``."""

    stamp_ns: int
    rows: list[list[Any]]  # see the module docstring
    rule: str | None = None  # the title rule of its titles


def load_listing(path: Path) -> Listing | None:
    """The listing saved at ``path`` without decompressing the rest of the file (the entries'
    bodies); None if there is none or it is unusable. Not checked against the frame checksum
    or this code's fingerprint (that needs the whole file): a picture for the list until the
    scan, which reads the whole file, confirms or corrects it."""
    try:
        data = read_regular_bytes(path)  # the compressed file: a few MB, read in ~2 ms
        reader = zstandard.ZstdDecompressor().stream_reader(data)
        first: Any = next(_unpacker(reader), None)
        header = _checked_header(first)
        rows, stamp = first["listing"], header.get("stamp_ns")
        if not isinstance(rows, list) or not isinstance(stamp, int):
            raise ValueError("damaged (no listing)")
        rule = header.get("titles")
        return Listing(stamp, rows, rule if isinstance(rule, str) else None)
    except Exception as exc:  # anything wrong: no picture, the scan will show the vault
        log.debug("no listing in the scan cache %s: %s", path, exc)
        return None


def _checked_header(first: Any) -> dict[str, Any]:
    header = first.get("header") if isinstance(first, dict) else None
    if not isinstance(header, dict):
        raise ValueError("damaged (no header)")
    if header.get("format") != FORMAT_VERSION:
        raise ValueError(f"another format ({header.get('format')!r})")
    return header


def first_seen_datetime(mtime_ns: int) -> datetime:
    """A first-seen stamp as the date shown."""
    return frontmatter_io.mtime_datetime(mtime_ns)


class ScanSession:
    """Builds the next :class:`ScanCache` during one scan, reusing what ``previous`` holds.

    For each file: :meth:`cached` gives its cached result (a :class:`Memory` or a skip
    reason) or None, and after a miss the scan parses the file and calls :meth:`record`.
    """

    def __init__(self, previous: ScanCache, rule: str | None = None) -> None:
        self.previous = previous
        self.rule = rule or previous.rule  # the title rule of the entries it records
        self.stamp_ns = time.time_ns()  # before any file is looked at
        self._entries: dict[str, list[Any]] = {}
        self._first_seen: dict[str, int] = {}
        self._changed = False
        self.hits = 0
        self.misses = 0

    def cached(self, rel: str, sig: Signature | None, path: Path) -> Memory | str | None:
        """The cached result for the file at ``rel`` if its entry can be trusted."""
        old = self.previous.entries.get(rel)
        if (
            type(old) is not list
            or sig is None
            or old[:_SIGNATURE_LEN] != sig
            or settled_at(sig) >= self.previous.stamp_ns  # racy: see the module docstring
        ):
            self.misses += 1
            return None
        try:
            result = _result(old, path)
        except (TypeError, ValueError, IndexError):
            result = None  # an entry this code did not write: parse the file instead
        if result is None:
            self.misses += 1
            return None
        self._entries[rel] = old
        self.hits += 1
        return result

    def first_seen(self, rel: str, sig: Signature | None) -> datetime:
        """When the undated file at ``rel`` was first seen: kept from earlier scans, else now
        (its mtime, which from then on may change while this date stays)."""
        seen = self.previous.first_seen.get(rel)
        if type(seen) is not int:
            seen = sig[0] if sig is not None else time.time_ns()
            self._changed = True
        self._first_seen[rel] = seen
        return first_seen_datetime(seen)

    def record(self, rel: str, sig: Signature | None, result: Memory | str | None) -> None:
        """Remember what a parse of ``rel`` gave (a memory before de-duplication, or why the
        file was skipped; None: a result not to be stored, so the file is parsed every time);
        call it before the memory's id may be changed.

        The entry shares ``topics`` and ``extra`` with the memory: the store never changes
        its memories in place (callers get copies), and entries are never changed either.
        """
        if sig is None:
            return
        old = self.previous.entries.get(rel)
        if old == sig:  # known as one that cannot be stored: it stays that way
            self._entries[rel] = old
            return
        entry: list[Any]
        if isinstance(result, Memory):
            m = result
            entry = [*sig, m.id, m.title, m.body, m.topics, m.importance, m.created, m.updated]
            entry += [m.source, m.extra, m.has_id, m.disk_hash, m.aliases]
        elif result is None:
            entry = list(sig)
        else:
            entry = [*sig, result]
        self._entries[rel] = entry
        if old != entry or settled_at(sig) < self.stamp_ns:
            self._changed = True  # new, changed, or a racy entry that is now trustworthy

    @property
    def changed(self) -> bool:
        """True if the entries differ from the ones the scan started from."""
        return (
            self._changed
            or len(self._entries) != len(self.previous.entries)
            or len(self._first_seen) != len(self.previous.first_seen)
        )

    @property
    def unchanged(self) -> bool:
        """True if every file came from the previous cache as it was: the scan's memories are
        exactly :func:`cached_result` of each previous entry (no file read, none gone)."""
        return not self.changed and self.misses == 0

    def finish(self, path: Path) -> ScanCache:
        """The new cache, saved to ``path`` first if it differs from the previous one."""
        cache = ScanCache(self._entries, self.stamp_ns, self._first_seen, self.rule)
        if self.rule != self.previous.rule and (self._entries or self.previous.entries):
            self._changed = True  # titles made by another rule
        if self.changed:
            cache.save(path)
        return cache


def cached_result(entry: Any, path: Path) -> Memory | str | None:
    """What a cache entry says the file at ``path`` reads as (a memory or a skip reason), or
    None for an entry that holds no result or that this code did not write."""
    if type(entry) is not list:
        return None
    try:
        return _result(entry, path)
    except (TypeError, ValueError, IndexError):
        return None


def _result(entry: list[Any], path: Path) -> Memory | str | None:
    if len(entry) == _SKIPPED_LEN:
        reason = entry[4]
        return reason if type(reason) is str else None
    if len(entry) != _MEMORY_LEN:
        return None
    return Memory(
        id=entry[4],
        title=entry[5],
        body=entry[6],
        topics=list(entry[7]),
        importance=entry[8],
        created=entry[9],
        updated=entry[10],
        source=entry[11],
        path=path,
        extra=dict(entry[12]),
        has_id=entry[13],
        disk_mtime_ns=entry[0],
        disk_hash=entry[14],
        aliases=list(entry[15]),
    )


@functools.cache
def code_fingerprint() -> str:
    """The pixelmem version plus a digest of the code that turns a file into a memory."""
    digest = hashlib.blake2b(digest_size=12)
    loader = getattr(frontmatter_io, "_Loader", None)
    digest.update(f"{yaml.__version__} {getattr(loader, '__name__', '?')}".encode())
    for name in _PARSER_MODULES:
        spec = importlib.util.find_spec(name)  # its source only: no import (no circle)
        module_file = spec.origin if spec is not None else None
        try:
            digest.update(Path(module_file).read_bytes() if module_file else b"?")
        except OSError:  # a frozen app may ship no source: the version alone then decides
            digest.update(b"?")
    return f"{__version__} {digest.hexdigest()}"


# ---------------------------------------------------------------- exact msgpack round trips
#
# strict_types sends every value whose type is not exactly a msgpack one here, so a subclass
# or an unexpected type is refused (the entry is not cached) instead of coming back changed.
# (bytearray and memoryview are the exception: msgpack packs them as bytes. YAML makes
# neither, and the parser is the only source of values.)

_EXT_DATETIME, _EXT_DATE, _EXT_SET, _EXT_TUPLE, _EXT_BIGINT = 1, 2, 3, 4, 5


def _set_order(item: Any) -> tuple[str, str]:
    return type(item).__name__, repr(item)


def _default(value: Any) -> msgpack.ExtType:
    kind = type(value)
    if kind is datetime and value.fold == 0 and _plain_tz(value.tzinfo):
        return msgpack.ExtType(_EXT_DATETIME, value.isoformat().encode())
    if kind is date:
        return msgpack.ExtType(_EXT_DATE, value.isoformat().encode())
    if kind is set:  # in one order: a set's iteration order depends on how it was built
        return msgpack.ExtType(_EXT_SET, _pack(sorted(value, key=_set_order)))
    if kind is tuple:
        return msgpack.ExtType(_EXT_TUPLE, _pack(list(value)))
    if kind is int:  # beyond 64 bits
        return msgpack.ExtType(_EXT_BIGINT, str(value).encode())
    raise TypeError(f"a {kind.__name__} value cannot be cached")


def _plain_tz(tz: Any) -> bool:
    """No zone, or a fixed offset without a name: what isoformat/fromisoformat carry back."""
    if tz is None:
        return True
    return type(tz) is timezone and str(tz) == str(timezone(tz.utcoffset(None)))


def _ext_hook(code: int, data: bytes) -> Any:
    if code == _EXT_DATETIME:
        return datetime.fromisoformat(data.decode())
    if code == _EXT_DATE:
        return date.fromisoformat(data.decode())
    if code == _EXT_SET:
        return set(_unpack(data))
    if code == _EXT_TUPLE:
        return tuple(_unpack(data))
    if code == _EXT_BIGINT:
        return int(data)
    raise ValueError(f"unknown msgpack extension {code}")


def _pack(value: Any) -> bytes:
    return msgpack.packb(value, default=_default, strict_types=True, use_bin_type=True)


def _packer() -> msgpack.Packer:
    """Packs as :func:`_pack` does, one value (or a map or array header) per call."""
    return msgpack.Packer(default=_default, strict_types=True, use_bin_type=True)


def _unpack(data: bytes) -> Any:
    return msgpack.unpackb(data, raw=False, strict_map_key=False, ext_hook=_ext_hook)


def _unpacker(source: Any = None) -> msgpack.Unpacker:
    """Reads the maps of a cache one after the other (from ``source``, or as fed)."""
    return msgpack.Unpacker(
        source,
        raw=False,
        strict_map_key=False,
        ext_hook=_ext_hook,
        max_buffer_size=_MAX_PAYLOAD,
        read_size=1 << 16,
    )
