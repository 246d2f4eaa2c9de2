"""``pixelmem ask``: injection, streaming to stdout, the memories used, and no provider.

One fake server on 127.0.0.1 answers both the embeddings (so the ONNX model is never loaded)
and the chat.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from fake_servers import FakeServer, free_port

from pixelmem.cli import main
from pixelmem.commands.chat import _stream_answer
from pixelmem.core.settings import Settings
from pixelmem.core.vault.store import MemoryStore

CHAT_PATHS = {"ollama": "/api/chat", "openai": "/v1/chat/completions"}
REPLY = "Your espresso ratio is 1:2 [Espresso ratio]."


@pytest.fixture
def server():
    with FakeServer(dim=8, chat_reply=REPLY) as fake:
        yield fake


@pytest.fixture
def memories(vault: Path) -> dict[str, str]:
    store = MemoryStore(vault)
    made = [
        store.create(
            "Espresso ratio", "Use 18 g of coffee for 36 g of espresso.", topics=["coffee"]
        ),
        store.create("Bike chain", "Lube the chain every 300 km.", topics=["bike"]),
        store.create("Passport", "Passport number is in the blue folder.", topics=["admin"]),
    ]
    return {m.title: m.id for m in made}


def configure(server: FakeServer, chat: str = "ollama") -> None:
    settings = Settings()
    settings.embedding.provider = "ollama"
    settings.embedding.base_url = server.url
    settings.chat.provider = chat
    settings.chat.base_url = server.url if chat == "ollama" else server.openai_url if chat else ""
    settings.chat.model = "chat-model" if chat else ""
    settings.save()


def ask(vault: Path, *args: str) -> int:
    return main(["ask", "--vault", str(vault), *args])


def sent_system(server: FakeServer, path: str = "/api/chat") -> str:
    (body,) = server.bodies(path)
    assert body["messages"][0]["role"] == "system"
    return body["messages"][0]["content"]


@pytest.mark.parametrize("chat", ["ollama", "openai"])
def test_the_answer_streams_to_stdout_then_the_memories_used_are_listed(
    chat: str, server: FakeServer, vault: Path, memories: dict[str, str], capsys
) -> None:
    configure(server, chat)
    assert ask(vault, "espresso", "ratio?", "--mode", "keyword") == 0
    out = capsys.readouterr().out
    answer, _, listing = out.partition("\n\nmemories used:\n")
    assert answer == REPLY
    espresso = memories["Espresso ratio"]
    assert "1. Espresso ratio  [" in listing and f", automatic]  {espresso}" in listing
    path = "/api/chat" if chat == "ollama" else "/v1/chat/completions"
    system = sent_system(server, path)
    assert f'<memory id="{espresso}" title="Espresso ratio"' in system
    assert "Use 18 g of coffee" in system
    assert "Bike chain" not in system
    assert server.bodies(path)[0]["messages"][-1] == {"role": "user", "content": "espresso ratio?"}


def test_a_pinned_memory_comes_first_and_is_marked_pinned(
    server: FakeServer, vault: Path, memories: dict[str, str], capsys
) -> None:
    configure(server)
    passport = memories["Passport"]
    assert ask(vault, "espresso ratio", "--mode", "keyword", "--pin", passport) == 0
    listing = capsys.readouterr().out.partition("memories used:\n")[2]
    assert listing.splitlines()[0] == f"  1. Passport  [—, pinned]  {passport}"
    assert "2. Espresso ratio" in listing
    system = sent_system(server)
    assert system.index("Passport number") < system.index("Use 18 g of coffee")


def test_pin_and_exclude_take_an_id_prefix(
    server: FakeServer, vault: Path, memories: dict[str, str], capsys
) -> None:
    configure(server)
    passport, espresso = memories["Passport"], memories["Espresso ratio"]
    assert ask(vault, "espresso ratio", "--mode", "keyword", "--pin", passport[:8],
               "--exclude", espresso[:8]) == 0  # fmt: skip
    out, err = capsys.readouterr()
    assert "not found" not in err
    listing = out.partition("memories used:\n")[2]
    assert listing.splitlines() == [f"  1. Passport  [—, pinned]  {passport}"]


def test_show_prompt_prints_exactly_what_is_sent_before_the_answer(
    server: FakeServer, vault: Path, memories: dict[str, str], capsys
) -> None:
    configure(server)
    assert ask(vault, "espresso ratio", "--mode", "keyword", "--show-prompt") == 0
    out = capsys.readouterr().out
    system = sent_system(server)
    assert out.startswith(f"── system ──\n{system}\n\n── user ──\nespresso ratio\n\n{REPLY}\n")


def test_nothing_relevant_says_so(
    server: FakeServer, vault: Path, memories: dict[str, str], capsys
) -> None:
    configure(server)
    assert ask(vault, "quantum", "chromodynamics", "--mode", "keyword") == 0
    out = capsys.readouterr().out
    assert out.endswith("memories used: none (nothing relevant in your memories)\n")
    assert "<memories>" not in sent_system(server)


def test_a_missing_pin_is_a_warning_not_a_failure(
    server: FakeServer, vault: Path, memories: dict[str, str], capsys
) -> None:
    configure(server)
    assert ask(vault, "espresso", "--mode", "keyword", "--pin", "deleted-id") == 0
    assert "warning: pinned memory deleted-id not found (deleted?)" in capsys.readouterr().err


def test_hybrid_is_the_default_mode(
    server: FakeServer, vault: Path, memories: dict[str, str], capsys
) -> None:
    configure(server)
    assert ask(vault, "espresso ratio coffee") == 0
    assert "Espresso ratio" in capsys.readouterr().out.partition("memories used:")[2]


def test_without_a_provider_one_line_and_exit_1(
    server: FakeServer, vault: Path, memories: dict[str, str], capsys
) -> None:
    configure(server, chat="")
    assert ask(vault, "espresso ratio") == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        "pixelmem: No chat model is configured — open Settings → Chat "
        "(or run `pixelmem config set chat.provider ollama`)\n"
    )
    assert server.requests == []  # not even indexed: nothing to wait for


def test_without_a_provider_show_prompt_still_prints_the_prompt(
    server: FakeServer, vault: Path, memories: dict[str, str], capsys
) -> None:
    configure(server, chat="")
    assert ask(vault, "espresso ratio", "--mode", "keyword", "--show-prompt") == 1
    captured = capsys.readouterr()
    assert captured.out.startswith("── system ──\n")
    assert "Use 18 g of coffee" in captured.out
    last_line = captured.err.splitlines()[-1]  # after the indexing progress
    assert last_line.startswith("pixelmem: No chat model is configured")


def test_a_provider_that_is_down_is_one_readable_error(
    server: FakeServer, vault: Path, memories: dict[str, str], capsys
) -> None:
    configure(server)
    settings = Settings.load()
    settings.chat.base_url = f"http://127.0.0.1:{free_port()}"
    settings.save()
    assert ask(vault, "espresso", "--mode", "keyword") == 1
    err = capsys.readouterr().err
    assert err.endswith("— start it with `ollama serve`\n")
    assert "Traceback" not in err


def test_an_error_mid_answer_starts_on_its_own_line(
    server: FakeServer, vault: Path, memories: dict[str, str], capsys
) -> None:
    configure(server)
    server.fail(disconnect=True, path="/api/chat")
    assert ask(vault, "espresso", "--mode", "keyword") == 1
    captured = capsys.readouterr()
    assert captured.out == "Your \n"
    assert captured.err.splitlines()[-1].startswith("pixelmem: error: the answer from Ollama")
    assert captured.err.splitlines()[-1].endswith(
        "was cut off: the connection broke (the server closed the connection)"
    )


@pytest.mark.parametrize("chat", ["ollama", "openai"])
def test_an_answer_without_a_finish_reason_exits_1(
    chat: str, server: FakeServer, vault: Path, memories: dict[str, str], capsys
) -> None:
    configure(server, chat)
    server.fail(ending="bare_done", path=CHAT_PATHS[chat])
    assert ask(vault, "espresso", "--mode", "keyword") == 1
    captured = capsys.readouterr()
    assert captured.out == REPLY + "\n"  # all the text came, but its end was never confirmed
    assert "was cut off" in captured.err.splitlines()[-1]
    assert "memories used" not in captured.out


@pytest.mark.parametrize("chat", ["ollama", "openai"])
def test_the_token_limit_is_a_note_not_an_error(
    chat: str, server: FakeServer, vault: Path, memories: dict[str, str], capsys
) -> None:
    configure(server, chat)
    server.fail(ending="length", path=CHAT_PATHS[chat])
    assert ask(vault, "espresso", "--mode", "keyword") == 0
    captured = capsys.readouterr()
    assert "note: stopped at the token limit (chat.max_tokens = 1,024)" in captured.err
    assert "memories used:" in captured.out


def test_each_token_is_flushed_as_it_arrives() -> None:
    class Recorder(io.StringIO):
        def __init__(self) -> None:
            super().__init__()
            self.flushed: list[str] = []

        def flush(self) -> None:
            self.flushed.append(self.getvalue())

    out = Recorder()
    _stream_answer(iter(["a ", "b ", "c"]), out)
    assert out.flushed == ["a ", "a b ", "a b c"]
    assert out.getvalue() == "a b c\n"


def test_a_thinking_models_reasoning_goes_to_stderr_and_the_answer_to_stdout(
    server: FakeServer, vault: Path, memories, capsys
) -> None:
    server.thinking = "Weigh the dose against the yield."
    configure(server, "openai")
    settings = Settings.load()
    settings.chat.think = "on"
    settings.save()
    assert ask(vault, "espresso ratio?") == 0
    out, err = capsys.readouterr()
    assert out.startswith(REPLY) and "Weigh the dose" not in out
    assert "thinking: Weigh the dose against the yield." in err


def test_an_empty_answer_names_its_cause_and_exits_1(
    server: FakeServer, vault: Path, memories, capsys
) -> None:
    server.thinking = " ".join(["hmm"] * 40)
    server.ignores_think = True
    configure(server)
    settings = Settings.load()
    settings.chat.max_tokens = 20
    settings.save()
    assert ask(vault, "espresso ratio?") == 1
    err = capsys.readouterr().err
    assert "thought anyway" in err and "Raise chat.max_tokens" in err
