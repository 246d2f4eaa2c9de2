"""Which chunks and memories a search snapshot holds: ids, owners and per-memory metadata.

The catalog hands out the integers both search sides speak (see
:mod:`~pixelmem.core.index.search_backend`): a *memory position* per memory (kept while the
memory lives, so ties keep their order across edits) and a *chunk id* per chunk (never reused
in one lineage of snapshots). It is persistent: :meth:`Catalog.updated` returns a new catalog
and leaves this one as it was, for searches still running on it.
"""

from __future__ import annotations

import bisect
import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from typing import Any

import numpy as np

from pixelmem.core.index import numpy_pieces
from pixelmem.core.index.chunking import Chunk, text_weight
from pixelmem.core.index.prose import chunks_prose, prose_of, words_weight
from pixelmem.core.index.scripts import CJK_RUN, CJK_SCRIPT, OTHER_SCRIPT, main_script
from pixelmem.core.index.text_tokens import name_key
from pixelmem.core.step_aside import step_aside
from pixelmem.core.vault import drawings
from pixelmem.core.vault.memory import Memory


@dataclass(frozen=True)
class MemoryChunks:
    """A memory (None when unknown: its chunks still index, with no metadata) and its chunks."""

    memory_id: str
    memory: Memory | None
    chunks: Sequence[Chunk]


class Catalog:
    """Chunk ids → chunks and owners; memory positions → id, title and filterable metadata."""

    def __init__(
        self,
        chunks: Sequence[Chunk | None],
        owners: np.ndarray,
        ids: list[str | None],
        rows: list[np.ndarray],
        meta: _Metadata,
        flat: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
        scripts: tuple[np.ndarray, np.ndarray] | None = None,
    ) -> None:
        """Use :meth:`build`. ``flat``: :attr:`rows` as (starts, ends, table), when known;
        ``scripts``: (:attr:`chunk_scripts`, :attr:`mixed`), when known."""
        self.chunks, self.owners, self.ids, self.rows, self.meta = chunks, owners, ids, rows, meta
        # The script each chunk is written in, and which memories hold chunks in more than one
        # (a Chinese note with English code, an English note with a Chinese section): a search
        # measures such a memory where its best chunk lives (SearchIndex._where_they_live).
        if scripts is None:
            chunk_scripts = chunk_scripts_of(chunks, owners, meta.scripts)
            scripts = chunk_scripts, mixed_memories(chunk_scripts, owners, len(ids))
        self.chunk_scripts, self.mixed = scripts
        meta.look_ups()  # here, not in the first search (see there)
        # Every memory's chunk ids in one array (memory m's: table[starts[m]:ends[m]]), so a
        # search gathers the chunks of thousands of memories in a few numpy calls.
        if flat is None:
            counts = np.array([len(r) for r in rows], np.int64)
            ends = np.cumsum(counts)
            flat = (ends - counts, ends, numpy_pieces.concatenate(rows, np.int64))
        self._flat = flat
        self.position = {mid: i for i, mid in enumerate(ids) if mid is not None}
        self.live_ids = tuple(mid for mid in ids if mid is not None)
        # From the table's spans (a removed memory's is empty), not a Python step per memory.
        self.live_chunks = int((flat[1] - flat[0]).sum())

    @classmethod
    def build(cls, chunks: Sequence[Chunk], memories: Mapping[str, Memory]) -> Catalog:
        """Chunk id ``i`` is ``chunks[i]``; memories in order of their first chunk."""
        ids = list(dict.fromkeys(c.memory_id for c in chunks))
        position = {mid: i for i, mid in enumerate(ids)}
        owners = np.fromiter((position[c.memory_id] for c in chunks), np.int64, len(chunks))
        meta = _Metadata.of([memories.get(mid) for mid in ids])
        return cls(list(chunks), owners, list[str | None](ids), _rows(owners, len(ids)), meta)

    @classmethod
    def restored(
        cls,
        chunks: Sequence[Chunk],
        owners: np.ndarray,
        ids: list[str],
        fields: dict[str, Any],
        chunk_scripts: np.ndarray | None = None,
    ) -> Catalog:
        """A catalog of live memories only, from the parts :meth:`saved_fields` gave (and the
        chunks, their owners, the memory ids and, when saved, each chunk's script): what a
        saved index reads back."""
        meta = _Metadata(
            list(fields["titles"]),
            np.array(fields["importance"], dtype=object),
            np.asarray(fields["dates"], np.float64),
            np.asarray(fields["content"], np.int64),
            [tuple(t) for t in fields["topics"]],
            np.asarray(fields["scripts"], np.int8),
            [tuple(n) for n in fields["names"]],
        )
        owners = np.asarray(owners, np.int64)
        scripts = None
        if chunk_scripts is not None and len(chunk_scripts) == len(owners):
            chunk_scripts = np.asarray(chunk_scripts, np.int8)
            scripts = chunk_scripts, mixed_memories(chunk_scripts, owners, len(ids))
        rows = _rows(owners, len(ids))
        return cls(chunks, owners, list[str | None](ids), rows, meta, None, scripts)

    def saved_fields(self, positions: np.ndarray) -> dict[str, Any]:
        """The metadata of the memories at ``positions``, as plain lists and arrays."""
        meta, chosen = self.meta, positions.tolist()
        return {
            "titles": [meta.titles[m] for m in chosen],
            "importance": [str(meta.importance[m]) for m in chosen],
            "dates": meta.dates[positions],
            "content": meta.content[positions],
            "topics": [list(meta.topics[m]) for m in chosen],
            "scripts": meta.scripts[positions],
            "names": [list(meta.names[m]) for m in chosen],
        }

    # -- reading ---------------------------------------------------------------------------

    @property
    def size(self) -> int:
        """Memory positions handed out (dead ones included)."""
        return len(self.ids)

    @property
    def chunk_capacity(self) -> int:
        """Chunk ids handed out (dead ones included)."""
        return len(self.chunks)

    @property
    def dead_share(self) -> float:
        """Share of chunk ids that are dead: what a rebuild would reclaim."""
        total = len(self.chunks)
        return 1.0 - self.live_chunks / total if total else 0.0

    def chunk_ids_of(self, positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The chunk ids of the memories at ``positions``, memory after memory in that order
        (each memory's in :attr:`rows` order), and how many each has: ``np.concatenate([rows[m]
        for m in positions])`` without a Python step per memory."""
        positions = np.asarray(positions, np.int64)
        all_starts, all_ends, table = self._flat
        starts = all_starts[positions]
        counts = all_ends[positions] - starts
        total = int(counts.sum())
        if not total:
            return np.zeros(0, np.int64), counts
        # Element i of the output, in a memory whose chunks start at output offset o and at
        # ``start`` in the table, is table[start + i - o].
        shift = np.repeat(starts - (np.cumsum(counts) - counts), counts)
        return table[np.arange(total, dtype=np.int64) + shift], counts

    def rows_of(self, memory_id: str) -> np.ndarray:
        m = self.position.get(memory_id)
        return self.rows[m] if m is not None else np.zeros(0, np.int64)

    def alive_memories(self) -> np.ndarray:
        return np.array([mid is not None for mid in self.ids], bool)

    # -- changing --------------------------------------------------------------------------

    def updated(
        self, removed: Iterable[str], changed: Sequence[MemoryChunks], retitled: Sequence[Memory]
    ) -> tuple[Catalog, np.ndarray, np.ndarray, np.ndarray]:
        """A catalog without ``removed``, with ``changed`` memories' chunks replaced and the
        metadata of ``retitled`` (unchanged chunks) refreshed.

        Returns it, the chunk ids that left, the new chunk ids (in ``changed`` order) and their
        memory positions.
        """
        chunks, ids, rows = list(self.chunks), list(self.ids), list(self.rows)
        owners = self.owners
        meta = self.meta.copy()
        starts, ends, table = self._flat  # new rows go after the table's end
        moved: dict[int, np.ndarray] = {}  # memory position → its new rows (empty: removed)
        gone: list[np.ndarray] = []
        for mid in removed:
            m = self.position.get(mid)
            if m is not None:
                gone.append(rows[m])
                ids[m], rows[m] = None, np.zeros(0, np.int64)
                moved[m] = rows[m]
                meta.set(m, None)
        position = {mid: i for i, mid in enumerate(ids) if mid is not None}
        new_ids: list[int] = []
        new_owners: list[int] = []
        for item in changed:
            m = position.get(item.memory_id)
            if m is None:
                m = position[item.memory_id] = len(ids)
                ids.append(item.memory_id)
                rows.append(np.zeros(0, np.int64))
                meta.append()
            gone.append(rows[m])
            fresh = np.arange(len(chunks), len(chunks) + len(item.chunks), dtype=np.int64)
            chunks.extend(item.chunks)
            rows[m] = moved[m] = fresh
            new_ids.extend(fresh.tolist())
            new_owners.extend([m] * len(fresh))
            meta.set(m, item.memory)
        for memory in retitled:
            if (m := position.get(memory.id)) is not None:
                meta.set(m, memory)
        left = np.concatenate(gone) if gone else np.zeros(0, np.int64)
        for c in left.tolist():
            chunks[c] = None
        owners = np.concatenate((owners, np.array(new_owners, np.int64)))
        owners[left] = -1
        fresh_chunks = [c for item in changed for c in item.chunks]
        chunk_scripts = np.concatenate(
            (self.chunk_scripts, chunk_scripts_of(fresh_chunks, owners[len(self.chunks) :],
                                                  meta.scripts))
        )  # fmt: skip
        mixed = np.concatenate((self.mixed, np.zeros(len(ids) - len(self.mixed), bool)))
        for m in moved:  # only the memories that changed: a few µs each
            mine = rows[m]
            mixed[m] = bool(mixed_memories(chunk_scripts[mine], np.zeros(len(mine), int), 1)[0])
        catalog = Catalog(
            chunks, owners, ids, rows, meta, _moved(starts, ends, table, moved, len(ids)),
            (chunk_scripts, mixed),
        )  # fmt: skip
        return catalog, left, np.array(new_ids, np.int64), np.array(new_owners, np.int64)


# A chunk holds a Chinese (Japanese, Korean) passage when it has this many CJK characters or
# more — a sentence between code or formulas — whatever the rest of it is written in. A CJK
# question is measured against unrelated text in its script there (SearchIndex.
# _where_they_live): a chunk holding a sentence of it is close to any question in that script
# (e5 places CJK texts close together), and measured as an English chunk, across languages, it
# came out as strong evidence for questions it has nothing to do with. A question in an alphabet
# is measured by the chunk's main script: English words in a Chinese chunk (code, names) did not
# draw English questions to it (a public bilingual research vault: 3 of 200 unrelated English
# questions shown either way), and counted as held they ranked two English questions' Chinese
# answers lower.
HOLDS_CJK_CHARACTERS = 10
# ... or when they are this share of its words or more, however few (a glossary line: "Complete
# linear inner product space 完备线性内积空间", a short note naming its subject in Chinese): to
# the embedding the Chinese is much of such a chunk, and measured as English, across languages,
# it drew unrelated Chinese questions (a public research vault: 29 → 22 of 200 shown; another
# vault's 9 → 3; the written questions and development sets the same).
HOLDS_CJK_SHARE = 0.3
HOLDS_SHIFT = 2  # bits of a chunk's script entry above its main script: the scripts it holds


def chunk_scripts_of(
    chunks: Sequence[Chunk | None], owners: np.ndarray, memory_scripts: np.ndarray
) -> np.ndarray:
    """Per chunk, the script its prose is mostly written in (:func:`~pixelmem.core.index.
    scripts.main_script` of :func:`~pixelmem.core.index.prose.chunks_prose`: its code, link
    targets and attachments are no words; its memory's where it has no letters, a gone chunk
    0) in the low bits, and above them (:data:`HOLDS_SHIFT`) a bit per script it holds a
    passage in (:func:`script_held`: a CJK passage, or its main script; every script for a
    chunk that is mostly markup — as much of it as of its prose, in the model's tokens: a
    command under a heading, a row of screenshots, a web address — in no language, as close
    to a question in one as in another). Plain ASCII prose, most chunks of most vaults, is
    an alphabet without a look at its letters one by one."""
    out = np.zeros(len(chunks), np.int8)
    prose = chunks_prose(chunks, owners)
    for i, chunk in enumerate(chunks):
        if chunk is None:
            continue
        text = prose[i]
        if text.isascii():
            script, holds = (OTHER_SCRIPT if _has_letter(text) else 0), 0
        else:
            script = main_script(text)
            cjk = len(text) - len(CJK_RUN.sub("", text))
            share = cjk >= HOLDS_CJK_SHARE * (cjk + len(text.split()))
            holds = _bit(CJK_SCRIPT) if cjk >= HOLDS_CJK_CHARACTERS or share else 0
        if _mostly_markup(text, chunk.text):
            holds |= _EVERY_SCRIPT  # code, links, attachments: in no language
        script = script or (memory_scripts[owners[i]] if owners[i] >= 0 else 0)
        out[i] = script | holds | (_bit(script) if script else 0)
        if i % STEP_CHUNKS == STEP_CHUNKS - 1:
            step_aside()
    return out


def _mostly_markup(prose: str, text: str) -> bool:
    """Whether ``text``'s markup (what its ``prose`` lacks) weighs as much as its prose, in
    the model's tokens (:func:`~pixelmem.core.index.chunking.text_weight`), or its words
    (:func:`~pixelmem.core.index.prose.words_weight`) are under a third of it. A heading
    over a web address is the address to the embedding ("# 参考 http://www.imooc.com/read/
    27/…", read as Chinese, was the best hit of 23 of 200 unrelated English questions in a
    public Chinese vault, measured across languages); a clipped page's drawing ("L 191.9,35.0
    L 194.2,35.0 …") or a table of figures is numbers, and read as English it was the best
    hit of 20 of 200 unrelated Chinese questions in a public vault of clipped articles. (At
    a half, the words rule moved a Chinese paragraph over its C code to every script, and an
    English question on it lost its Chinese answer.)"""
    markup = len(prose) < len(text) and 2 * text_weight(prose) <= text_weight(text)
    return markup or 3 * words_weight(prose) <= text_weight(text)


def _bit(script: int) -> int:
    return 1 << (HOLDS_SHIFT + script - 1)


_EVERY_SCRIPT = _bit(CJK_SCRIPT) | _bit(OTHER_SCRIPT)


def main_of(entries: np.ndarray) -> np.ndarray:
    """The main scripts of :func:`chunk_scripts_of` entries."""
    return entries & ((1 << HOLDS_SHIFT) - 1)


def script_held(entries: np.ndarray | int, script: int) -> np.ndarray | bool:
    """Whether chunks of these entries hold a passage in ``script`` (never for 0)."""
    if not script:
        return np.zeros(np.shape(entries), bool) if np.ndim(entries) else False
    return (np.asarray(entries) & _bit(script)) != 0


def _has_letter(text: str) -> bool:
    return _ASCII_LETTER.search(text) is not None


_ASCII_LETTER = re.compile(r"[A-Za-z]")


def mixed_memories(chunk_scripts: np.ndarray, owners: np.ndarray, size: int) -> np.ndarray:
    """Per memory position: its chunks are written in, or hold passages in, more than one
    script (where a search may measure it in another than its own)."""
    live = owners >= 0
    kinds = main_of(chunk_scripts[live]).astype(np.int64)
    seen = np.zeros(size, np.int64)
    np.bitwise_or.at(seen, owners[live], (1 << kinds) | (chunk_scripts[live] >> HOLDS_SHIFT) << 1)
    seen &= ~1  # "no letters" is no script
    return (seen & (seen - 1)) != 0  # more than one bit


def _moved(
    starts: np.ndarray, ends: np.ndarray, table: np.ndarray, moved: dict[int, np.ndarray], size: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The flat rows after an update: each memory in ``moved`` points at its new rows,
    appended to the table (the old ones stay there, unused, until the next full build)."""
    starts = np.concatenate((starts, np.zeros(size - len(starts), np.int64)))
    ends = np.concatenate((ends, np.zeros(size - len(ends), np.int64)))
    at = len(table)
    for m, rows in moved.items():
        starts[m], ends[m] = at, at + len(rows)
        at += len(rows)
    return starts, ends, np.concatenate((table, *moved.values()))


def _rows(owners: np.ndarray, size: int) -> list[np.ndarray]:
    """Each memory position's chunk ids, in chunk id order."""
    order = np.argsort(owners, kind="stable")
    starts = np.searchsorted(owners[order], np.arange(size + 1))
    return [order[starts[m] : starts[m + 1]] for m in range(size)]


class _Metadata:
    """Per-memory-position title, importance, date, content key and topics, for filters; the
    script a memory is written in and its names (title, aliases, file name), for relevance."""

    def __init__(
        self,
        titles: list[str],
        importance: np.ndarray,
        dates: np.ndarray,
        content: np.ndarray,
        topics: list[tuple[str, ...]],
        scripts: np.ndarray,
        names: list[tuple[str, ...]],
    ) -> None:
        self.titles, self.importance, self.dates = titles, importance, dates
        self.content, self.topics = content, topics
        self.scripts, self.names = scripts, names
        self._members: dict[str, list[int]] | None = None
        self._named: dict[str, list[int]] | None = None

    @classmethod
    def of(cls, memories: Sequence[Memory | None]) -> _Metadata:
        # ~34 µs of Python per memory (0.34 s at 10k, on the indexing thread): in steps, so
        # a late window runs first (core/step_aside; bench_ui --why, indexing: the name keys).
        dates, content, scripts = [], [], []
        topics: list[tuple[str, ...]] = []
        names: list[tuple[str, ...]] = []
        for number, memory in enumerate(memories, 1):
            dates.append(timestamp(memory))
            # Same content → same key: an import made twice is one hit, never its own neighbour.
            content.append(_content_key(memory))
            topics.append(_topics(memory))
            scripts.append(_script(memory))
            names.append(_names(memory))
            if number % STEP_MEMORIES == 0:
                step_aside()
        return cls(
            [m.title if m else "" for m in memories],
            np.array([m.importance if m else "" for m in memories], dtype=object),
            np.array(dates, np.float64),
            np.array(content, np.int64),
            topics,
            np.array(scripts, np.int8),
            names,
        )

    def copy(self) -> _Metadata:
        """A copy to change: the look-ups are shared until a change replaces one's list."""
        copy = _Metadata(
            list(self.titles), self.importance.copy(), self.dates.copy(), self.content.copy(),
            list(self.topics), self.scripts.copy(), list(self.names),
        )  # fmt: skip
        if self._members is not None and self._named is not None:
            copy._members, copy._named = dict(self._members), dict(self._named)
        return copy

    def append(self) -> None:
        self.titles.append("")
        self.importance = np.append(self.importance, np.array([""], dtype=object))
        self.dates = np.append(self.dates, np.nan)
        self.content = np.append(self.content, np.int64(0))
        self.topics.append(())
        self.scripts = np.append(self.scripts, np.int8(0))
        self.names.append(())

    def set(self, m: int, memory: Memory | None) -> None:
        old_topics, old_names = self.topics[m], self.names[m]
        self.titles[m] = memory.title if memory else ""
        self.importance[m] = memory.importance if memory else ""
        self.dates[m] = timestamp(memory)
        self.content[m] = _content_key(memory)
        self.topics[m] = _topics(memory)
        self.scripts[m] = _script(memory)
        self.names[m] = _names(memory)
        if self._members is not None and self._named is not None:  # ~1 µs, not a rebuild
            _move(self._members, m, old_topics, self.topics[m])
            _move(self._named, m, old_names, self.names[m])

    def with_topic(self, topic: str) -> np.ndarray:
        """Positions of the memories that have ``topic`` (case-insensitive)."""
        return np.array(self.look_ups()[0].get(topic.casefold(), ()), np.int64)

    def named(self, key: str) -> np.ndarray:
        """Positions of the memories one of whose names has this :func:`name_key`."""
        return np.array(self.look_ups()[1].get(key, ()), np.int64)

    def look_ups(self) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
        """Topic → positions and name → positions, made once (the catalog makes them with
        the snapshot, on the indexing thread: made by the first search instead, over 33k
        memories, they took that search ~50 ms of Python, and two searches at once both
        made them while the window waited for the GIL: bench_ui, typing)."""
        if self._members is None or self._named is None:
            self._members = _positions_by(self.topics)
            self._named = _positions_by(self.names)
        return self._members, self._named


def _move(found: dict[str, list[int]], m: int, old: tuple[str, ...], new: tuple[str, ...]) -> None:
    """Position ``m``'s keys were ``old`` and are ``new``: the lists of ``found`` changed
    (replaced, never edited: an older catalog may share them), as a new build makes them."""
    for key in old:
        if key not in new:
            left = [i for i in found[key] if i != m]
            if left:
                found[key] = left
            else:
                del found[key]
    for key in new:
        if key not in old:
            now = list(found.get(key, ()))
            bisect.insort(now, m)
            found[key] = now


def _positions_by(keys_of: list[tuple[str, ...]]) -> dict[str, list[int]]:
    """Each key → the positions whose keys hold it, in order."""
    found: dict[str, list[int]] = {}
    for i, keys in enumerate(keys_of):
        for key in keys:
            found.setdefault(key, []).append(i)
    return found


STEP_MEMORIES = 128  # memories between two steps of a metadata build (~4 ms)
STEP_CHUNKS = 2048  # chunks between two steps of their scripts' reading
SCRIPT_SAMPLE = 600  # characters of a memory that say which script it is written in


def _script(memory: Memory | None) -> int:
    if memory is None:
        return 0
    text = drawings.readable_text(memory.extra, memory.body)  # a drawing: its words
    return main_script(prose_of(f"{memory.title}\n{text[:SCRIPT_SAMPLE]}"))


def _names(memory: Memory | None) -> tuple[str, ...]:
    """What a person may type to find this memory by name: its title, aliases and file name."""
    if memory is None:
        return ()
    stem = [memory.path.stem] if memory.path is not None else []
    keys = (name_key(n) for n in [memory.title, *memory.aliases, *stem])
    return tuple(dict.fromkeys(k for k in keys if k))


def _topics(memory: Memory | None) -> tuple[str, ...]:
    return tuple(dict.fromkeys(t.casefold() for t in (memory.topics if memory else ())))


def _content_key(memory: Memory | None) -> int:
    """Equal for memories whose body (or, without one, title) is the same text."""
    if memory is None:
        return 0
    text = " ".join(memory.body.split()) or f"title:{memory.title}"
    # Not hash(): a saved index (saved_index) is read by other processes, whose str hashes
    # differ, and its keys must meet those of memories indexed since.
    digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "little", signed=True)


def timestamp(memory: Memory | None) -> float:
    when = memory and (memory.updated or memory.created)
    return as_utc(when, time.min).timestamp() if when else np.nan


def as_utc(value: datetime | date, day_time: time) -> datetime:
    if not isinstance(value, datetime):
        value = datetime.combine(value, day_time)
    return value if value.tzinfo else value.replace(tzinfo=UTC)
