"""Which server answered, and the hint worded for it: a flag that server really has.

The OpenAI-compatible protocol is spoken by servers with different command lines. An answer's
``Server`` header tells the common local ones apart: llama.cpp's ``llama-server`` says
``llama.cpp``; llama-cpp-python's server runs on ``uvicorn``; Ollama (Go) sends none, and is
known by the provider setting anyway.
"""

from __future__ import annotations

LLAMA_SERVER, LLAMA_CPP_PYTHON, OLLAMA = "llama-server", "llama-cpp-python", "Ollama"


def server_kind(server_header: str, service_name: str = "") -> str:
    """``llama-server``, ``llama-cpp-python``, ``Ollama``, or "" when it cannot be told."""
    header = server_header.lower()
    if "llama.cpp" in header or "llama-server" in header:
        return LLAMA_SERVER
    if "uvicorn" in header:
        return LLAMA_CPP_PYTHON
    if service_name == OLLAMA:
        return OLLAMA
    return ""


def pooling_hint(kind: str) -> str:
    """What to do about an embeddings answer of one vector per token."""
    if kind == LLAMA_SERVER:
        return "start llama-server with --embeddings --pooling mean (or the model card's pooling)"
    if kind == LLAMA_CPP_PYTHON:
        return (
            "llama-cpp-python's server has no pooling option: serve an embedding model whose "
            "GGUF sets its pooling type, or use llama-server with --embeddings --pooling mean"
        )
    return "start it with pooling enabled (e.g. --pooling mean)"


def context_size_hint(kind: str) -> str:
    """How to start the server with a larger context, in its own words ("" if unknown)."""
    return {
        LLAMA_SERVER: "start llama-server with a larger --ctx-size (-c)",
        LLAMA_CPP_PYTHON: "start llama-cpp-python's server with a larger --n_ctx",
        OLLAMA: "set OLLAMA_CONTEXT_LENGTH for `ollama serve`, or chat.context_window_mode pinned",
    }.get(kind, "")


__all__ = [
    "LLAMA_CPP_PYTHON",
    "LLAMA_SERVER",
    "OLLAMA",
    "context_size_hint",
    "pooling_hint",
    "server_kind",
]
