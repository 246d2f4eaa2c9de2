"""The inbox pane: drafts from MCP clients listed with a count, edited, accepted, rejected."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from PySide6.QtWidgets import QPlainTextEdit

from pixelmem.core.archive.inbox import Inbox
from pixelmem.core.index.engine import Engine
from pixelmem.gui.bus import MemoryBus
from pixelmem.gui.panels.inbox_view import InboxView
from pixelmem.gui.session import VaultSession


@pytest.fixture
def bus(qtbot) -> MemoryBus:
    return MemoryBus()


@pytest.fixture
def view(qtbot, engine: Engine, bus: MemoryBus) -> InboxView:
    Inbox(engine.vault).add("Espresso grind", "Finer for light roasts.", ["coffee"], "low", "mcp")
    widget = InboxView(VaultSession(engine, bus), bus)
    qtbot.addWidget(widget)
    qtbot.waitUntil(lambda: len(widget.drafts) == 1)
    return widget


def test_drafts_are_listed_with_their_count(qtbot, view: InboxView) -> None:
    assert view.list.count() == 1
    assert "1 draft" in view.count_label.text()
    assert view.title_edit.text() == "Espresso grind"
    assert view.topics_edit.text() == "coffee" and view.importance_box.currentData() == "low"
    assert "mcp" in view.source_label.text()


def test_a_draft_written_by_another_process_shows_up(qtbot, view: InboxView) -> None:
    Inbox(view.engine.vault).add("Second", "From the server.", [], "medium", "mcp:claude-code")
    with qtbot.waitSignal(view.count_changed, timeout=5000) as counted:
        view.poll()  # the timer does this every 1.5 s
    assert counted.args == [2]
    assert sorted(d.title for d in view.drafts) == ["Espresso grind", "Second"]


def test_polling_lists_the_folder_on_a_worker_and_reads_only_a_changed_one(
    qtbot, view: InboxView, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pixelmem.gui.panels import inbox_view

    threads: list[threading.Thread] = []
    reads: list[int] = []

    def listing_of(folder: Path) -> inbox_view.Listing:
        threads.append(threading.current_thread())
        return real_listing(folder)

    def read() -> list:
        reads.append(1)
        return real_read()

    real_listing, real_read = inbox_view.listing_of, view.inbox.list
    monkeypatch.setattr(inbox_view, "listing_of", listing_of)
    monkeypatch.setattr(view.inbox, "list", read)
    view.poll()
    qtbot.waitUntil(lambda: not view._in_flight)
    assert threads and threading.main_thread() not in threads
    assert reads == []  # nothing changed: the drafts are not read again
    Inbox(view.engine.vault).add("Second", "From the server.", [], "medium", "mcp")
    with qtbot.waitSignal(view.drafts_loaded, timeout=5000):
        view.poll()
    assert reads == [1] and len(view.drafts) == 2


def test_the_editor_is_built_in_the_next_turn_of_the_event_loop(
    qtbot, engine: Engine, bus: MemoryBus
) -> None:
    widget = InboxView(VaultSession(engine, bus), bus)
    qtbot.addWidget(widget)
    assert widget.findChild(QPlainTextEdit) is None  # only the list and its count so far
    qtbot.waitUntil(lambda: widget.findChild(QPlainTextEdit) is not None)
    assert not widget.save_button.isEnabled() and "No drafts" in widget.count_label.text()


def test_accept_creates_the_memory_and_announces_it(qtbot, view: InboxView, bus: MemoryBus) -> None:
    draft_id = view.current_id()
    view.title_edit.setText("Espresso grind size")  # edited before accepting
    with qtbot.waitSignal(bus.memory_updated, timeout=5000) as announced:
        view.accept_current()
    assert announced.args[0].pairs() == [("created", draft_id)]
    assert announced.args[1] is view
    memory = view.engine.store.get(draft_id)
    assert memory.title == "Espresso grind size" and memory.body == "Finer for light roasts.\n"
    qtbot.waitUntil(lambda: view.drafts == [])
    assert Inbox(view.engine.vault).list() == []
    assert not view.accept_button.isEnabled()


def test_reject_moves_the_draft_to_the_trash(qtbot, view: InboxView, bus: MemoryBus) -> None:
    announced: list[tuple[str, str]] = []
    bus.memory_updated.connect(lambda c, _i: announced.extend(c.pairs()))
    with qtbot.waitSignal(view.count_changed, timeout=5000) as counted:
        view.reject_current()
    assert counted.args == [0] and announced == []
    trash = Path(view.engine.vault) / ".pixelmem" / "trash"
    assert len(list(trash.glob("*.md"))) == 1
    assert "No drafts" in view.count_label.text()


def test_typing_is_not_wiped_when_a_new_draft_arrives(qtbot, view: InboxView) -> None:
    view.body_edit.setPlainText("Half-typed edit")
    Inbox(view.engine.vault).add("Another", "x", [], "medium", "mcp")
    with qtbot.waitSignal(view.drafts_loaded, timeout=5000):
        view.poll()
    assert view.body_edit.toPlainText() == "Half-typed edit"
    with qtbot.waitSignal(view.drafts_loaded, timeout=5000):
        view.save_current()
    assert Inbox(view.engine.vault).get(view.current_id()).body == "Half-typed edit\n"
    assert not view.has_unsaved_edits()


def test_the_main_window_has_an_inbox_dock(window) -> None:
    assert window.inbox_dock is not None
    assert isinstance(window.inbox_dock.widget(), InboxView)


def test_an_update_proposal_shows_its_diff_and_accepting_updates_the_memory(
    qtbot, engine: Engine, bus: MemoryBus
) -> None:
    from pixelmem.core.archive.proposals import UPDATE, proposal_extra

    engine.store.scan()
    target = engine.store.list()[0]
    new_body = target.body.rstrip() + "\n\nAlso: my sister Anna runs with me.\n"
    extra = dict(proposal_extra(UPDATE, target), kind="fact")
    draft = Inbox(engine.vault).add(target.title, new_body, source="chat", extra=extra)
    widget = InboxView(VaultSession(engine, bus), bus)
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitUntil(lambda: len(widget.drafts) == 1)
    assert widget.proposal.isVisible() and widget.proposal.diff.isVisible()
    assert target.title in widget.proposal.label.text()
    assert "+ Also: my sister Anna runs with me." in widget.proposal.diff.toPlainText()
    widget.title_edit.setText(target.title + " ")  # an edit keeps it a proposal
    with qtbot.waitSignal(bus.memory_updated, timeout=5000) as announced:
        widget.accept_current()
    assert announced.args[0].pairs() == [("updated", target.id)]
    assert "Anna" in engine.store.get(target.id).body
    assert draft.id not in engine.store


def test_a_supersede_proposal_says_what_accepting_does(
    qtbot, engine: Engine, bus: MemoryBus
) -> None:
    from pixelmem.core.archive.proposals import SUPERSEDE, proposal_extra

    engine.store.scan()
    old = engine.store.list()[0]
    extra = proposal_extra(SUPERSEDE, old)
    Inbox(engine.vault).add("New fact", "It changed.", source="chat", extra=extra)
    widget = InboxView(VaultSession(engine, bus), bus)
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitUntil(lambda: len(widget.drafts) == 1)
    assert "superseded" in widget.proposal.label.text() and not widget.proposal.diff.isVisible()
    with qtbot.waitSignal(bus.memory_updated, timeout=5000) as announced:
        widget.accept_current()
    created = announced.args[0].created[0]
    assert announced.args[0].updated == (old.id,)
    assert engine.store.get(old.id).extra["superseded_by"] == created
