"""Typed errors, each carrying a sentence a person can act on.

The CLI prints ``str(error)`` on one line; the GUI shows it in the status bar or a dialog.
"""

from __future__ import annotations

from pathlib import Path


class PixelmemError(Exception):
    """Base class for every error pixelmem expects and explains."""


class VaultError(PixelmemError):
    """The vault folder is missing, not a folder, or cannot be written."""


class VaultNotWritable(VaultError):
    def __init__(self, path: Path, reason: str = "") -> None:
        detail = f": {reason}" if reason else ""
        super().__init__(f"the vault folder {path} cannot be written{detail}")
        self.path = path


class NoteNotWritable(VaultError):
    """A note the user may not change (read-only, or another user's): it is left as it is."""

    def __init__(self, path: Path, why: str, action: str = "saved") -> None:
        super().__init__(f"{Path(path).name} {why}, so it was not {action}; nothing was changed")
        self.path = path
        self.why = why
        self.action = action


class InvalidIdError(PixelmemError):
    def __init__(self, memory_id: str, reason: str = "") -> None:
        detail = f" ({reason})" if reason else ""
        super().__init__(f"invalid memory id {memory_id!r}{detail}")
        self.memory_id = memory_id


class MemoryNotFound(PixelmemError):
    def __init__(self, memory_id: str, *, unreadable: int = 0) -> None:
        hint = (
            f" ({unreadable} file{'s' if unreadable != 1 else ''} in the vault cannot be read: "
            "`pixelmem doctor` lists them)"
            if unreadable
            else ""
        )
        super().__init__(f"no memory with id {memory_id!r}{hint}")
        self.memory_id = memory_id


class MemoryUnreadable(MemoryNotFound):
    """The id names a file the scan skipped: say which and why, not just "no memory"."""

    def __init__(self, memory_id: str, name: str, reason: str) -> None:
        PixelmemError.__init__(
            self, f"{memory_id} is {name}, which pixelmem skipped: {reason} (`pixelmem doctor`)"
        )
        self.memory_id = memory_id


class InvalidMemoryError(PixelmemError):
    """A field value is not acceptable (empty title, unknown importance, …)."""


class ConflictError(PixelmemError):
    """The file changed on disk since it was read; saving would overwrite someone's work."""

    def __init__(self, path: Path, memory_id: str = "") -> None:
        super().__init__(
            f"{path.name} was changed on disk by another program since it was opened; "
            "not overwriting it (reload, overwrite or keep both)"
        )
        self.path = path
        self.memory_id = memory_id


class ImportFailed(PixelmemError):
    """A file given to import cannot be read or is of an unsupported kind.

    Raised as ``ImportFailed(path=…, reason="… {name} …", name=…)``: the message is
    "path: reason" in English (CLI, MCP, logs); ``reason`` and ``values`` let the app show
    the reason in the person's language (its template is translated, then filled in).
    """

    def __init__(
        self, message: str = "", *, path: object = None, reason: str = "", **values: object
    ) -> None:
        if reason:
            text = reason.format(**values)
            message = f"{path}: {text}" if path is not None else text
        super().__init__(message)
        self.path = path
        self.reason = reason
        self.values = values


class ImportSkipped(ImportFailed):
    """A file import leaves out on purpose: a kind it does not read, or text the vault has."""


class ProviderError(PixelmemError):
    """An embedding/chat/rerank provider failed; the message says what to do."""


class ProviderUnavailable(ProviderError):
    """The provider cannot be reached at all (not running, wrong URL, no network)."""


class ProviderAuthError(ProviderError):
    """The provider rejected the API key."""


class ProviderModelNotFound(ProviderError):
    """The provider does not know the configured model."""


class ProviderResponseError(ProviderError):
    """The provider answered with something that is not usable data."""


class AnswerCutOff(ProviderResponseError):
    """A streamed answer ended without a finish reason: what arrived is not the whole answer."""

    def __init__(self, where: str, reason: str) -> None:
        super().__init__(f"the answer from {where} was cut off: {reason}")
        self.reason = reason


class ContextExceeded(ProviderResponseError):
    """The server refused the prompt because it does not fit the model's context window."""


class ModelFileError(PixelmemError):
    """The bundled model file is missing or does not match its checksum."""


class IndexCancelled(PixelmemError):
    """An index run stopped at the user's request; what it computed is kept."""

    def __init__(self) -> None:
        super().__init__("indexing was cancelled; the vectors computed so far are kept")


class CacheError(PixelmemError):
    """The embedding cache could not be read; callers treat this as 'no cache'."""


class SettingsError(PixelmemError):
    """A setting key or value is not valid."""
