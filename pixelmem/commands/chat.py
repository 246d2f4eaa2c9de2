"""``pixelmem ask``: one question to the chat model, with the relevant memories injected.

The same injection as the app's chat pane (:mod:`pixelmem.core.assist.injection`); the answer
streams
to standard output, then the memories it was given are listed. Without a chat provider the
command says so in one line and exits 1 (``--show-prompt`` still prints the prompt first).
An answer that was cut off (no finish reason from the server) is an error: exit 1 after the
text that arrived. One that stopped at ``chat.max_tokens`` is complete, with a note on stderr.
An answer with no text at all says why (thinking used the budget, the prompt filled the
context…) and exits 1. With ``chat.think on`` the model's reasoning goes to stderr as it
arrives; stdout stays the answer.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from pixelmem.commands.common import ProgressBar, vault_from_args
from pixelmem.core.assist.conversation import prepare
from pixelmem.core.assist.injection import DEFAULT_MODE, InjectedPrompt
from pixelmem.core.errors import PixelmemError
from pixelmem.core.providers.chat import (
    TOKEN_LIMIT,
    AnswerStream,
    ChatNotConfigured,
    create_chat_client,
)
from pixelmem.core.providers.thinking import empty_answer_message, reasoning_tokens
from pixelmem.core.search_mode import SearchMode, uses_meaning
from pixelmem.core.settings import Settings

CONFIGURE_HINT = " (or run `pixelmem config set chat.provider ollama`)"


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "ask",
        parents=[common],
        help="ask the chat model; relevant memories are added to the prompt",
    )
    p.add_argument("question", nargs="+", help="what to ask")
    p.add_argument(
        "--pin", action="append", default=[], metavar="ID", help="always include this memory"
    )
    p.add_argument(
        "--exclude", action="append", default=[], metavar="ID", help="never include this memory"
    )
    p.add_argument(
        "--show-prompt", action="store_true", help="print the exact prompt sent to the model"
    )
    p.add_argument(
        "--mode", choices=tuple(SearchMode), default=DEFAULT_MODE, help="memory search (hybrid)"
    )
    p.set_defaults(handler=cmd_ask)


def cmd_ask(args: argparse.Namespace) -> int:
    settings = Settings.load()
    try:
        client = create_chat_client(settings.chat)
        problem = ""
    except ChatNotConfigured as exc:
        client, problem = None, f"pixelmem: {exc}{CONFIGURE_HINT}"
    if client is None and not args.show_prompt:
        print(problem, file=sys.stderr)  # before indexing anything: nothing to wait for
        return 1

    from pixelmem.core.index.engine import Engine  # numpy and the model load lazily

    engine = Engine(vault_from_args(args, settings), settings)
    engine.open(progress=ProgressBar("indexing"))
    if engine.semantic_error and uses_meaning(args.mode):
        print(f"note: semantic search unavailable ({engine.semantic_error})", file=sys.stderr)
    question = " ".join(args.question)
    pinned = [_full_id(engine, key) for key in args.pin]
    excluded = {_full_id(engine, key) for key in args.exclude}
    # The same turn preparation as the app's chat pane; the model's own window is asked only
    # when there is a model to answer.
    prepared = prepare(
        engine,
        question,
        pinned=pinned,
        excluded=excluded,
        history=[],
        chat=settings.chat if client is not None else None,
        mode=args.mode,
    )
    prompt = prepared.prompt
    if client is not None:  # the window the model really has (Ollama says it), and num_ctx
        client.close()
        client = create_chat_client(prepared.chat)
    for memory_id in prompt.missing:
        print(f"warning: pinned memory {memory_id} not found (deleted?)", file=sys.stderr)
    if args.show_prompt:
        print(prompt.as_text(), end="\n\n", flush=True)
    if client is None:
        print(problem, file=sys.stderr)
        return 1
    try:
        stream = client.stream_chat(prompt.messages)
        reasoning = _ReasoningOut(sys.stderr) if prepared.chat.think == "on" else None
        if reasoning is not None:
            stream.on_reasoning = reasoning.write
        text = _stream_answer(stream, sys.stdout, reasoning)
    finally:
        client.close()
    if not text.strip():
        print(f"pixelmem: {no_answer_message(stream, prepared.chat)}", file=sys.stderr)
        return 1
    if stream.hit_token_limit:
        print(f"note: {token_limit_note(settings)}", file=sys.stderr)
    print_used(prompt, sys.stdout)
    return 0


def no_answer_message(stream: AnswerStream, chat) -> str:
    """Why the answer has no text, by its real cause."""
    return empty_answer_message(
        stream.finish_reason,
        reasoning_tokens(stream.reasoning),
        max_tokens=chat.max_tokens,
        context_window=chat.context_window,
        think=chat.think,
    )


class _ReasoningOut:
    """The reasoning on stderr after ``thinking:``, its line ended when the answer starts."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.open = False

    def write(self, piece: str) -> None:
        if not self.open:
            self.out.write("thinking: ")
            self.open = True
        self.out.write(piece)
        self.out.flush()

    def end(self) -> None:
        if self.open:
            self.out.write("\n")
            self.out.flush()
            self.open = False


def token_limit_note(settings: Settings) -> str:
    """What to say when an answer stopped at ``chat.max_tokens``."""
    return f"{TOKEN_LIMIT} (chat.max_tokens = {settings.chat.max_tokens:,})"


def _stream_answer(tokens, out: TextIO, reasoning: _ReasoningOut | None = None) -> str:
    ended_with_newline = True
    text = []
    try:
        for token in tokens:
            if reasoning is not None:
                reasoning.end()  # the answer starts on a line of its own
            out.write(token)
            out.flush()
            text.append(token)
            ended_with_newline = token.endswith("\n")
    except PixelmemError:
        if not ended_with_newline:
            out.write("\n")  # the error line starts on a line of its own
        raise
    if not ended_with_newline:
        out.write("\n")
    return "".join(text)


def print_used(prompt: InjectedPrompt, out: TextIO) -> None:
    """The memories the answer was given: title, id, score, pinned or automatic."""
    out.write("\n")
    if not prompt.used:
        out.write("memories used: none (nothing relevant in your memories)\n")
    else:
        out.write("memories used:\n")
        for rank, used in enumerate(prompt.used, 1):
            score = f"{used.score:.3f}" if used.score is not None else "—"
            part = "" if used.part == "whole" else f", {used.part}"
            out.write(f"  {rank}. {used.title}  [{score}, {used.reason}{part}]  {used.id}\n")
    if prompt.dropped_for_budget:
        ids = ", ".join(prompt.dropped_for_budget)
        out.write(f"not sent (over the {prompt.budget:,}-character budget): {ids}\n")
    out.flush()


def _full_id(engine: Any, key: str) -> str:
    """An id as typed, or the memory's whole id when it is a unique prefix (as everywhere the
    CLI takes ids); an id no memory has stays as typed (the pin is then reported missing)."""
    try:
        return str(engine.store.find(key).id)
    except PixelmemError:
        return key
