"""The context window a chat is planned for, as the server says it (Ollama), and what it can do.

Ollama picks a model's window itself (4k–256k by memory, ``OLLAMA_CONTEXT_LENGTH``, a
Modelfile's ``num_ctx``) and reloads the model whenever a request asks for a different
``num_ctx`` — so two clients with different ``num_ctx`` make it reload on every alternation.
The rules, with ``chat.context_window_mode``:

- ``auto`` (default): the model loaded now (``/api/ps`` ``context_length``) sets the window,
  raised or lowered from ``chat.context_window``, and no ``num_ctx`` is sent. Not loaded: a
  Modelfile ``num_ctx`` is Ollama's own choice (used, not sent); otherwise pixelmem plans for
  ``chat.context_window`` (at most the model's trained length, ``/api/show``) and sends it,
  because an older Ollama would silently cut the prompt at its 2,048 default.
- ``pinned``: ``chat.context_window`` is sent every time, lowered only to the trained length.

``/api/show`` is asked once per server and model; ``/api/ps`` at most every
:data:`LOADED_TTL` seconds. A server without these endpoints (an OpenAI-compatible one, a
proxy, an old Ollama) leaves the settings as they are. ``capabilities`` (``completion``,
``embedding``, ``thinking``, ``tools``) tell a chat model from an embedding-only one.
"""

from __future__ import annotations

import dataclasses
import re
import threading
import time
from dataclasses import dataclass
from typing import Any

from pixelmem.core.errors import ProviderError
from pixelmem.core.providers.chat import OllamaChat
from pixelmem.core.providers.http import RetryPolicy, make_timeout
from pixelmem.core.settings import ChatSettings

LOADED_TTL = 15.0  # seconds an /api/ps answer is trusted
_NUM_CTX = re.compile(r"^num_ctx\s+(\d+)", re.MULTILINE)


@dataclass(frozen=True)
class ModelFacts:
    """What ``/api/show`` says: the trained window, a Modelfile ``num_ctx``, capabilities."""

    trained: int = 0
    modelfile_window: int = 0
    capabilities: tuple[str, ...] | None = None  # None: the server does not say

    @property
    def can_chat(self) -> bool:
        return self.capabilities is None or "completion" in self.capabilities


def facts_from_show(body: dict[str, Any]) -> ModelFacts:
    """:class:`ModelFacts` from an ``/api/show`` answer."""
    match = _NUM_CTX.search(str(body.get("parameters") or ""))
    info = body.get("model_info")
    lengths = [
        int(v)
        for k, v in (info.items() if isinstance(info, dict) else [])
        if k.endswith(".context_length") and isinstance(v, int | float)
    ]
    caps = body.get("capabilities")
    capabilities = tuple(str(c) for c in caps) if isinstance(caps, list) else None
    return ModelFacts(max(lengths, default=0), int(match.group(1)) if match else 0, capabilities)


def loaded_window(running: list[dict[str, Any]], model: str) -> int:
    """The ``context_length`` Ollama loaded ``model`` with (0: not loaded, or not said)."""
    wanted = {model, f"{model}:latest", model.removesuffix(":latest")}
    for entry in running:
        if {str(entry.get("name")), str(entry.get("model"))} & wanted:
            value = entry.get("context_length")
            return int(value) if isinstance(value, int | float) and value > 0 else 0
    return 0


class _Cache:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.facts: dict[tuple[str, str], ModelFacts] = {}
        self.loaded: dict[tuple[str, str], tuple[float, int]] = {}


_cache = _Cache()


def forget_windows() -> None:
    """Ask the servers again next time (tests; a changed server)."""
    with _cache.lock:
        _cache.facts.clear()
        _cache.loaded.clear()


def model_facts(settings: ChatSettings) -> ModelFacts:
    """``/api/show`` for the chat model (once per server and model); empty facts on error."""
    key = (settings.base_url, settings.model)
    with _cache.lock:
        known = _cache.facts.get(key)
    if known is not None:
        return known
    client = _probe_client(settings)
    try:
        facts = facts_from_show(client.show())
    except ProviderError:
        facts = ModelFacts()  # an old Ollama, or a proxy without /api/show
    finally:
        client.close()
    with _cache.lock:
        _cache.facts[key] = facts
    return facts


def current_loaded_window(settings: ChatSettings) -> int:
    """The window Ollama runs the model with now (``/api/ps``; 0: not loaded or not said)."""
    key = (settings.base_url, settings.model)
    now = time.monotonic()
    with _cache.lock:
        seen = _cache.loaded.get(key)
    if seen is not None and now - seen[0] < LOADED_TTL:
        return seen[1]
    client = _probe_client(settings)
    try:
        window = loaded_window(client.running(), client.model)
    except ProviderError:
        window = 0
    finally:
        client.close()
    with _cache.lock:
        _cache.loaded[key] = (now, window)
    return window


def fitted_settings(settings: ChatSettings) -> ChatSettings:
    """``settings`` with the window the chat is planned for (module docstring); the returned
    ``context_window_mode`` is ``pinned`` exactly when the client must send ``num_ctx``."""
    if settings.provider != "ollama":
        return settings
    facts = model_facts(settings)
    asked = settings.context_window
    capped = min(asked, facts.trained) if facts.trained else asked
    if settings.context_window_mode == "pinned":
        return dataclasses.replace(settings, context_window=capped)
    loaded = current_loaded_window(settings)
    if loaded:
        return dataclasses.replace(settings, context_window=loaded, context_window_mode="auto")
    if facts.modelfile_window:
        window = facts.modelfile_window
        return dataclasses.replace(settings, context_window=window, context_window_mode="auto")
    return dataclasses.replace(settings, context_window=capped, context_window_mode="pinned")


def _probe_client(settings: ChatSettings) -> OllamaChat:
    return OllamaChat(
        settings.base_url,
        settings.model,
        api_key=settings.effective_api_key(),
        timeout=make_timeout(read=min(settings.timeout, 10.0)),
        retry=RetryPolicy(max_retries=0),
    )


__all__ = [
    "ModelFacts",
    "current_loaded_window",
    "facts_from_show",
    "fitted_settings",
    "forget_windows",
    "loaded_window",
    "model_facts",
]
