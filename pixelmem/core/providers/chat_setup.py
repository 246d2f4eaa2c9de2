"""Choosing a chat server on first run: a running Ollama found on this computer, or an
OpenAI-compatible server the person names, and the models it offers.

Both questions go over HTTP, so callers run them off the GUI thread. The probe for Ollama uses
short timeouts and no retries: a computer without Ollama refuses the connection at once, and a
first-run window must not wait long for an answer that is usually "not here".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx

from pixelmem.core.errors import ProviderError
from pixelmem.core.providers.chat import create_chat_client
from pixelmem.core.providers.http import RetryPolicy, make_timeout
from pixelmem.core.providers.servers import OLLAMA_BASE_URL
from pixelmem.core.settings import ChatSettings

PROBE_TIMEOUT = make_timeout(connect=0.5, read=2.0)
LIST_TIMEOUT = make_timeout(connect=5.0, read=15.0)
_NO_RETRIES = RetryPolicy(max_retries=0, max_500_retries=0, max_timeout_retries=0)


@dataclass(frozen=True)
class ChatServer:
    """Where to chat: ``provider`` is "ollama" or "openai" (as in the settings)."""

    provider: str
    base_url: str = ""
    api_key: str = ""

    def settings(self, model: str = "") -> ChatSettings:
        return ChatSettings(
            provider=self.provider, base_url=self.base_url, model=model, api_key=self.api_key
        )


@dataclass(frozen=True)
class ChatChoice:
    """A server and one of its models, as the first-run window saves them."""

    server: ChatServer
    model: str

    def settings_changes(self) -> dict[str, Any]:
        """The chat settings to save (``update_settings`` keys); Ollama at its default
        address is saved as the default (an empty URL), like the settings dialog does."""
        base_url = self.server.base_url
        if self.server.provider == "ollama" and base_url.rstrip("/") == OLLAMA_BASE_URL:
            base_url = ""
        return {
            "chat.provider": self.server.provider,
            "chat.base_url": base_url,
            "chat.model": self.model,
            "chat.api_key": self.server.api_key,
        }


def list_models(server: ChatServer, timeout: httpx.Timeout = LIST_TIMEOUT) -> list[str]:
    """The chat models ``server`` offers, sorted; a :class:`ProviderError` says why not."""
    client = create_chat_client(server.settings(), timeout=timeout, retry=_NO_RETRIES)
    try:
        return client.list_models()
    finally:
        client.close()


def find_ollama(
    base_url: str = OLLAMA_BASE_URL, timeout: httpx.Timeout = PROBE_TIMEOUT
) -> list[str] | None:
    """The models of an Ollama answering at ``base_url``; None if none answers there."""
    try:
        return list_models(ChatServer("ollama", base_url), timeout)
    except ProviderError:
        return None
