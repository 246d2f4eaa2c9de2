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
    embedder = create_embedder(settings.embedding)
    dim, latency = test_connection(embedder)
    print(f"{embedder.model_id}: dimension {dim}, {latency * 1000:.0f} ms")
    reranker = reranker_from_settings(settings.rerank)
    if reranker is not None:
        start = time.perf_counter()
        reranker.rerank("test", ["a test sentence", "something else"], 2)
        print(f"reranker {reranker.url}: ok, {(time.perf_counter() - start) * 1000:.0f} ms")
    return _test_chat(settings)


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
    if models and check.model.removesuffix(":latest") not in models:
        print(f"note: '{check.model}' is not among the listed models: {', '.join(models)}")
    for warning in check.warnings:
        print(f"pixelmem: {warning}", file=sys.stderr)
    return 1 if check.warnings else 0


def _shown(value: Any) -> str:
    return '""' if value == "" else str(value)
