"""Property: a provider message that echoes the API key in any case or %-encoding never
shows it (issue 18, item 10)."""

from __future__ import annotations

import random
import string
from urllib.parse import quote, unquote

from pixelmem.core.providers.http import MASK, redact

KEY_CHARS = string.ascii_letters + string.digits + "-_.~+/=:!$&'()*,;@%?#[]"


def _disguise(rng: random.Random, key: str) -> str:
    form = rng.choice(["upper", "lower", "swap", "quote", "quote-lower", "partial", "twice"])
    if form in ("upper", "lower", "swap"):
        return getattr(key, "swapcase" if form == "swap" else form)()
    if form == "quote":
        return quote(key, safe="")
    if form == "quote-lower":
        return "".join(p.lower() if p.startswith("%") else p for p in _pieces(key))
    if form == "partial":
        return "".join(rng.choice([c, f"%{ord(c):02X}"]) for c in key)
    return quote(quote(key, safe=""), safe="")


def _pieces(key: str) -> list[str]:
    return [quote(c, safe="") for c in key]


def test_no_disguise_of_the_key_survives_redaction() -> None:
    rng = random.Random(10)
    for _ in range(400):
        key = "sk-" + "".join(rng.choice(KEY_CHARS) for _ in range(rng.randint(8, 40)))
        echo = _disguise(rng, key)
        text = f"error {rng.randrange(1000)}: invalid key {echo!s} (see https://x/?k={echo})"
        shown = redact(text, [key])
        assert shown.count(MASK) == 2, (key, echo, shown)
        for view in (shown, unquote(shown), unquote(unquote(shown))):
            assert key.casefold() not in view.casefold()


def test_redaction_leaves_other_text_alone() -> None:
    rng = random.Random(11)
    for _ in range(300):
        key = "".join(rng.choice(string.ascii_letters) for _ in range(24))
        text = "".join(rng.choice(string.printable) for _ in range(200))
        if key.casefold() not in unquote(unquote(text)).casefold():
            assert redact(text, [key]) == text
