"""``pixelmem import-chats | chats | propose-memories``: chat histories and the memories in them.

``import-chats FILE`` reads a ChatGPT or Claude export (``conversations.json`` or the ``.zip``)
into the vault's conversations (the app's chat pane lists them); ``--propose`` then asks the
chat model for memories from each imported conversation. ``propose-memories`` does that for
saved conversations. Proposals wait in the review inbox: nothing reaches the vault until it
is accepted in the app.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pixelmem.commands.common import ProgressBar, require_vault_folder, vault_from_args
from pixelmem.core.assist.conversations import Conversation, ConversationStore
from pixelmem.core.errors import PixelmemError
from pixelmem.core.settings import Settings


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "import-chats",
        parents=[common],
        help="import a ChatGPT or Claude export (conversations.json or .zip) as conversations",
    )
    p.add_argument("file", type=Path, help="the export's conversations.json, or its .zip")
    p.add_argument(
        "--propose",
        action="store_true",
        help="then propose memories from each imported conversation (into the review inbox)",
    )
    p.set_defaults(handler=cmd_import_chats)

    p = subparsers.add_parser("chats", parents=[common], help="list the saved conversations")
    p.set_defaults(handler=cmd_chats)

    p = subparsers.add_parser(
        "propose-memories",
        parents=[common],
        help="ask the chat model for memories from saved conversations (review inbox)",
    )
    p.add_argument("ids", nargs="*", metavar="ID", help="conversation ids (see `pixelmem chats`)")
    p.add_argument("--latest", action="store_true", help="the most recently updated conversation")
    p.set_defaults(handler=cmd_propose)


def _store(args: argparse.Namespace, settings: Settings) -> tuple[Path, ConversationStore]:
    vault = vault_from_args(args, settings)
    require_vault_folder(vault)
    return vault, ConversationStore(vault)


def cmd_import_chats(args: argparse.Namespace) -> int:
    from pixelmem.core.assist.chat_exports import import_chat_export

    settings = Settings.load()
    vault, store = _store(args, settings)
    result = import_chat_export(args.file, store)
    messages = sum(len(c.messages) for c in result.imported)
    service = result.service or "the export"
    print(
        f"imported {len(result.imported):,} conversations ({messages:,} messages) from {service}"
        f" · {result.already:,} already imported · {result.empty:,} without text"
    )
    if args.propose and result.imported:
        return _propose(vault, settings, result.imported, store)
    return 0


def cmd_chats(args: argparse.Namespace) -> int:
    _, store = _store(args, Settings.load())
    for conversation in store.list():
        turns = len(conversation.messages) // 2
        print(f"{conversation.id}  {conversation.updated[:10]}  {turns:>3} turns  "
              f"{conversation.named()}")  # fmt: skip
    return 0


def cmd_propose(args: argparse.Namespace) -> int:
    settings = Settings.load()
    vault, store = _store(args, settings)
    chosen: list[Conversation] = []
    if args.latest:
        chosen = store.list()[:1]
    for conversation_id in args.ids:
        try:
            chosen.append(store.load(conversation_id))
        except (OSError, ValueError) as exc:
            raise PixelmemError(f"no readable conversation {conversation_id!r} ({exc})") from None
    if not chosen:
        raise PixelmemError("name conversations by id (see `pixelmem chats`) or use --latest")
    return _propose(vault, settings, chosen, store)


def _propose(
    vault: Path, settings: Settings, conversations: list[Conversation], store: ConversationStore
) -> int:
    from pixelmem.core.archive.inbox import Inbox
    from pixelmem.core.assist.extraction import propose_from_messages
    from pixelmem.core.index.engine import Engine
    from pixelmem.core.providers.chat import ChatNotConfigured, create_chat_client

    try:
        create_chat_client(settings.chat).close()
    except ChatNotConfigured as exc:
        raise PixelmemError(f"{exc} (or run `pixelmem config set chat.provider ollama`)") from None
    engine = Engine(vault, settings)
    engine.open(progress=ProgressBar("indexing"))
    inbox = Inbox(vault)
    total = 0
    for conversation in conversations:
        report = propose_from_messages(
            engine, inbox, settings.chat, conversation.messages, conversation=conversation
        )
        total += len(report.drafts)
        conversation.proposed = len(conversation.messages)  # the app proposes from it no more
        store.save(conversation, touch=False)
        kinds = [d.extra.get("proposal", "new") for d in report.drafts]
        summary = ", ".join(f"{kinds.count(k)} {k}" for k in ("new", "update", "supersede"))
        print(f"{conversation.named()}: {len(report.drafts)} proposed ({summary})")
        for reason in report.dropped:
            print(f"  set aside {reason}", file=sys.stderr)
    print(f"{total} proposals wait in the review inbox: accept or reject them in the app")
    return 0
