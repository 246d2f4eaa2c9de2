"""Chinese word cut (jieba's dictionary, on rjieba), built without holding the GIL for long.

``import rjieba`` builds its segmenter from the dictionary compiled into its binary in one
call that holds Python's GIL: 88 ms on a quiet machine, up to 0.2 s under load. Loaded on a
worker while a vault indexes, that froze the window for as long (bench_ui --why, indexing 2k:
the one stall over 50 ms left). The app loads it with :func:`load_in_steps` instead: rjieba's
extension without its package (whose import builds that segmenter), an empty segmenter, and
the same dictionary (jieba 0.42.1's, shipped in ``pixelmem/models/jieba``: MIT) added a slice
at a time, stepping aside between slices (:mod:`pixelmem.core.step_aside`). The cuts are the
same (a test compares them). A command line, which has no window to keep smooth, takes the
quicker one-call load (:func:`word_cut`).
"""

from __future__ import annotations

import codecs
import importlib.machinery
import importlib.util
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from pixelmem.core.step_aside import step_aside

Cut = Callable[[str], list[str]]

DICTIONARY = Path(__file__).resolve().parents[2] / "models" / "jieba" / "dict.txt.zst"
WORDS_PER_STEP = 8192  # ~4 ms of add_word calls between two steps aside
_EXTENSION = "rjieba.rjieba"

_cut: Cut | None = None
_lock = threading.Lock()


def word_cut() -> Cut | None:
    """jieba's word cut, or None where ``rjieba`` is not installed; built at once if no one
    built it yet (GIL held ~0.1-0.2 s: for a command, or a caller that cannot wait)."""
    global _cut
    if _cut is None:
        with _lock:
            if _cut is None:
                try:
                    import rjieba  # type: ignore[import-not-found,unused-ignore]
                except ImportError:
                    return None
                _cut = rjieba.cut
    return _cut


def load_in_steps() -> bool:
    """Build the word cut a slice of the dictionary at a time (on a worker); True when a word
    cut is there afterwards. Falls back to :func:`word_cut` where rjieba's extension or the
    dictionary cannot be read apart."""
    global _cut
    if _cut is not None:
        return True
    cut = segmenter_in_steps()
    if cut is None:
        return word_cut() is not None
    with _lock:
        if _cut is None:
            _cut = cut
    return True


def segmenter_in_steps() -> Cut | None:
    """A new segmenter built from the shipped dictionary in steps (None: not possible here)."""
    segmenter_type = _segmenter_type()
    if segmenter_type is None or not DICTIONARY.is_file():
        return None
    segmenter = segmenter_type.empty()
    add = segmenter.add_word
    for lines in _dictionary_slices():
        for line in lines:
            word, freq, tag = [*line.split(" "), "", ""][:3]
            if word:
                add(word, int(freq) if freq else None, tag or None)
        step_aside()
    cut: Cut = segmenter.cut
    return cut


def _dictionary_slices() -> Iterator[list[str]]:
    """The dictionary's lines, :data:`WORDS_PER_STEP` at a time (decompressed in pieces: no
    one call on the whole 5 MB)."""
    import zstandard

    pending = ""
    decoder = codecs.getincrementaldecoder("utf-8")()  # a block may end inside a character
    with DICTIONARY.open("rb") as raw, zstandard.ZstdDecompressor().stream_reader(raw) as text:
        while block := text.read(1 << 16):
            lines = (pending + decoder.decode(block)).split("\n")
            pending = lines.pop()
            for start in range(0, len(lines), WORDS_PER_STEP):
                yield lines[start : start + WORDS_PER_STEP]
    if pending:
        yield [pending]


def _segmenter_type() -> Any:
    """rjieba's ``Jieba`` type from its extension module, loaded without running the package
    (whose ``__init__`` builds the default segmenter at once); None where that fails."""
    loaded = sys.modules.get(_EXTENSION)
    if loaded is not None:
        return loaded.Jieba
    try:
        package = importlib.util.find_spec("rjieba")  # finds, does not run, the package
    except (ImportError, ValueError):
        return None
    if package is None or not package.submodule_search_locations:
        return None
    folder = Path(next(iter(package.submodule_search_locations)))
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    found = [p for p in folder.glob("rjieba.*") if p.name.endswith(suffixes)]
    if not found:
        return None
    loader = importlib.machinery.ExtensionFileLoader(_EXTENSION, str(found[0]))
    spec = importlib.util.spec_from_file_location(_EXTENSION, found[0], loader=loader)
    if spec is None:
        return None
    try:
        module = importlib.util.module_from_spec(spec)
        loader.exec_module(module)
    except ImportError:
        return None
    sys.modules[_EXTENSION] = module  # once per process: a later `import rjieba` reuses it
    return getattr(module, "Jieba", None)
