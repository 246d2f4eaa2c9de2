"""``pixelmem config show|set|test``: read, change and check the user settings."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from pixelmem.core.errors import PixelmemError
from pixelmem.core.settings import Settings, settings_path


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    parser = subparsers.add_parser(
        "config", parents=[common], help="show, change or test the settings"
    )
    parser.set_defaults(handler=_show, json=False)
    actions = parser.add_subparsers(dest="config_action", metavar="ACTION")

    show = actions.add_parser("show", parents=[common], help="print the settings (keys masked)")
    show.add_argument("--json", action="store_true", help="print JSON")
    show.set_defaults(handler=_show)

    change = actions.add_parser(
        "set",
        parents=[common],
        help="change one setting",
        epilog="keys: " + ", ".join(Settings.valid_keys()),
    )
    change.add_argument("key", help="a dotted key such as embedding.provider")
    change.add_argument(
        "value", help="the new value; '-' reads it from standard input (keeps keys out of history)"
    )
    change.set_defaults(handler=_set)

    test = actions.add_parser(
        "test",
        parents=[common],
        help="embed one sentence, and ask the chat model for one token, with the settings",
    )
    test.set_defaults(handler=_test)


def _show(args: argparse.Namespace) -> int:
    settings = Settings.load()
    if args.json:
        print(json.dumps(settings.to_display_dict(), indent=2, ensure_ascii=False))
        return 0
    print(f"# {settings_path()}")
    width = max(len(key) for key in Settings.valid_keys())
    for key in Settings.valid_keys():
        print(f"{key:<{width}} = {_shown(settings.display_value(key))}")
    return 0


def _set(args: argparse.Namespace) -> int:
    value = sys.stdin.read().strip() if args.value == "-" else args.value
    before = Settings.load()
    settings = before.copy()
    settings.set_key(args.key, value)
    settings = settings.save_changes(before)  # the app's own changes meanwhile are kept
    print(f"{args.key} = {_shown(settings.display_value(args.key))}")
    return 0


def _test(args: argparse.Namespace) -> int:
    from pixelmem.core.providers.embeddings.factory import create_embedder, test_connection
    from pixelmem.core.providers.rerank import reranker_from_settings

    settings = Settings.load()
    embedder = create_embedder(_vault_embedding(args, settings))
    dim, latency = test_connection(embedder)
    print(f"{embedder.model_id}: dimension {dim}, {latency * 1000:.0f} ms")
    reranker = reranker_from_settings(settings.rerank)
    if reranker is not None:
        start = time.perf_counter()
        reranker.rerank("test", ["a test sentence", "something else"], 2)
        print(f"reranker {reranker.url}: ok, {(time.perf_counter() - start) * 1000:.0f} ms")
    return _test_chat(settings)


def _vault_embedding(args: argparse.Namespace, settings: Settings) -> Any:
    """The embedding settings the vault really uses: ``auto`` resolved for this vault (the
    multilingual model for a vault that chose it), as the app and the index do."""
    wanted = settings.embedding
    if wanted.provider != "auto":
        return wanted
    import copy

    from pixelmem.commands.common import vault_from_args
    from pixelmem.core.index import model_choice
    from pixelmem.core.vault.store import MemoryStore

    vault = vault_from_args(args, settings)
    memories = MemoryStore(vault).list() if vault.is_dir() else []
    choice = model_choice.resolve(vault, memories)
    print(f"embedding.provider auto: {choice.provider} for {vault} ({choice.reason})")
    resolved = copy.copy(wanted)
    resolved.provider = choice.provider
    return resolved


def _test_chat(settings: Settings) -> int:
    """The chat model: listed by the server, and a one-token completion from the same model."""
    from pixelmem.core.providers.chat import create_chat_client

    if not settings.chat.provider:
        print("chat: not configured (chat.provider)")
        return 0
    client = create_chat_client(settings.chat)
    try:
        try:
            models = client.list_models()
        except PixelmemError as exc:
            models = []
            print(f"note: cannot list the chat models ({exc})")
        check = client.check()
    finally:
        client.close()
    print(f"chat {client.label}: ok, one token in {check.seconds * 1000:.0f} ms")
    _chat_model_notes(settings)
    if models and check.model.removesuffix(":latest") not in models:
        print(f"note: '{check.model}' is not among the listed models: {', '.join(models)}")
    for warning in check.warnings:
        print(f"pixelmem: {warning}", file=sys.stderr)
    return 1 if check.warnings else 0


def _chat_model_notes(settings: Settings) -> None:
    """Ollama: the window the chat is planned for, and whether the model can chat/think."""
    if settings.chat.provider != "ollama":
        return
    from pixelmem.core.providers.chat_window import fitted_settings, model_facts

    facts = model_facts(settings.chat)
    fitted = fitted_settings(settings.chat)
    sent = "sent as num_ctx" if fitted.context_window_mode == "pinned" else "Ollama's own"
    print(f"chat context window: {fitted.context_window:,} tokens ({sent})")
    if not facts.can_chat:
        print(f"note: '{settings.chat.model}' cannot chat (its capabilities: "
              f"{', '.join(facts.capabilities or ())}) — choose another chat.model")  # fmt: skip
    if settings.chat.think == "on" and facts.capabilities and "thinking" not in facts.capabilities:
        print(f"note: '{settings.chat.model}' does not think; chat.think on changes nothing")


def _shown(value: Any) -> str:
    return '""' if value == "" else str(value)
