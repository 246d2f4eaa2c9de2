"""The two kinds of server pixelmem talks to: their default addresses and how messages name them.

Embeddings and chat both speak to Ollama and to OpenAI-compatible servers; only the settings
section a hint points to (``embedding`` or ``chat``) differs.
"""

from __future__ import annotations

from pixelmem.core.providers.http import Service

OLLAMA_BASE_URL = "http://localhost:11434"
OPENAI_BASE_URL = "https://api.openai.com/v1"


def ollama_service(base_url: str, section: str) -> Service:
    """Ollama at ``base_url`` (its default address if empty); hints name ``section``'s keys."""
    return Service(
        "Ollama",
        (base_url or OLLAMA_BASE_URL).rstrip("/"),
        not_running_hint="start it with `ollama serve`",
        pull_hint=" — pull it with `ollama pull {model}`",
        base_url_hint=f"check the Ollama address ({section}.base_url)",
        key_setting=f"{section}.api_key",
        timeout_setting=f"{section}.timeout",
    )


def openai_service(base_url: str, section: str) -> Service:
    """An OpenAI-compatible server at ``base_url`` (OpenAI itself if empty)."""
    return Service(
        "the OpenAI-compatible server",
        (base_url or OPENAI_BASE_URL).rstrip("/"),
        base_url_hint=f"check {section}.base_url (it usually ends in /v1)",
        key_setting=f"{section}.api_key",
        timeout_setting=f"{section}.timeout",
    )
