"""Wiki links: parsing, resolution by path/name/title/alias, backlinks, unlinked mentions, and
rewriting links when a title changes (on the Obsidian fixture vault)."""

from __future__ import annotations

from pathlib import Path

from pixelmem.core.vault.links import (
    LinkGraph,
    LinkResolver,
    heading_span,
    parse_links,
    plan_link_mention,
    plan_rename,
    plan_retarget,
    rewrite_links,
)
from pixelmem.core.vault.memory import Memory
from pixelmem.core.vault.store import MemoryStore
from pixelmem.core.writes import MemoryWrites


def _titles(store: MemoryStore) -> dict[str, Memory]:
    return {m.title: m for m in store.list()}


def test_parse_links_with_headings_aliases_and_embeds() -> None:
    text = (
        "See [[Coffee brewing#Ratios|ratio notes]], [[Plain]] and ![[diagram.png]].\n"
        "`[[in code]]` is text, so is\n```\n[[fenced]]\n```\n[[Folder/Deep note#Part]]"
    )
    links = parse_links(text)
    assert [(x.target, x.heading, x.alias, x.embed) for x in links] == [
        ("Coffee brewing", "Ratios", "ratio notes", False),
        ("Plain", None, None, False),
        ("diagram.png", None, None, True),
        ("Folder/Deep note", "Part", None, False),
    ]
    assert text[links[0].start : links[0].end] == "[[Coffee brewing#Ratios|ratio notes]]"
    assert links[0].shown == "ratio notes" and links[3].shown == "Folder/Deep note > Part"
    assert links[0].destination == "Coffee brewing#Ratios" and links[1].destination == "Plain"


def test_heading_span_finds_the_heading_line() -> None:
    body = "intro\n## Ratios ##\ntext\n### grinders\n"
    assert heading_span(body, "ratios") == (6, 18)  # "## Ratios ##"
    assert body[slice(*heading_span(body, "Grinders") or (0, 0))] == "### grinders"
    assert heading_span(body, "Missing") is None


def test_resolution_by_name_title_alias_and_path_is_case_insensitive(obsidian: Path) -> None:
    store = MemoryStore(obsidian)
    by_title = _titles(store)
    resolver = LinkResolver(store.list(), obsidian)
    assert resolver.resolve("reading list") == by_title["Reading list"].id  # file name
    assert resolver.resolve("Coffee  BREWING") == by_title["Coffee brewing"].id
    assert resolver.resolve("Espresso notes") == by_title["Coffee brewing"].id  # alias
    assert resolver.resolve("Book list") == by_title["Reading list"].id
    assert resolver.resolve("Projects/Garden plan") == by_title["Garden plan"].id  # path
    assert resolver.resolve("Garden plan.md") == by_title["Garden plan"].id
    assert resolver.resolve("Daily/2024-01-06") == by_title["2024-01-06"].id
    assert resolver.resolve("Missing note") is None
    assert resolver.resolve("diagram.png") is None  # an attachment, not a memory


def test_a_title_resolves_when_the_file_name_differs(vault: Path) -> None:
    store = MemoryStore(vault)
    memory = store.create("Quarterly plan", "numbers")
    resolver = LinkResolver(store.list(), vault)
    assert memory.path is not None and "Quarterly plan" not in memory.path.name
    assert resolver.resolve("quarterly plan") == memory.id


def test_backlinks_and_unlinked_mentions(obsidian: Path) -> None:
    store = MemoryStore(obsidian)
    by_title = _titles(store)
    graph = LinkGraph(store.list(), obsidian)
    coffee = by_title["Coffee brewing"].id
    sources = [by_title_of(store, m.source_id) for m in graph.backlinks(coffee)]
    # The daily note links twice (by name and by alias), the garden plan once.
    assert sources == ["2024-01-06", "2024-01-06", "Garden plan", "Reading list"]
    reading = by_title["Reading list"].id
    linked = {by_title_of(store, m.source_id) for m in graph.backlinks(reading)}
    assert linked == {"2024-01-06", "Hugo post"}
    unlinked = graph.unlinked_mentions(reading)
    assert [by_title_of(store, m.source_id) for m in unlinked] == ["Coffee brewing"]
    assert unlinked[0].context.startswith("Everything about brewing at home. My reading list")
    # Embeds and links inside code never count.
    assert graph.backlinks(by_title["Hugo post"].id) == []


def by_title_of(store: MemoryStore, memory_id: str) -> str:
    return store.get(memory_id).title


def test_rewrite_keeps_headings_aliases_and_every_other_byte() -> None:
    text = "a [[Old#H|shown]] b ![[Old]] c [[old]]\r\nd [[Other]]"
    out, count = rewrite_links(
        text, lambda link: "New" if link.target.lower() == "old" and not link.embed else None
    )
    assert out == "a [[New#H|shown]] b ![[Old]] c [[New]]\r\nd [[Other]]" and count == 2


def test_a_rename_rewrites_only_links_that_would_break(vault: Path) -> None:
    store = MemoryStore(vault)
    target = store.create("Espresso", "shots", aliases=["Coffee shots"])
    linking = store.create("Log", "By title [[espresso#Dose|dose]], alias [[Coffee shots]].\n")
    untouched = store.create("Other", "No links here; espresso is mentioned only.\n")
    updates = plan_rename(store.list(), vault, target.id, "Espresso basics")
    assert [u.memory_id for u in updates] == [linking.id]
    assert updates[0].body == ("By title [[Espresso basics#Dose|dose]], alias [[Coffee shots]].\n")
    before_other = untouched.path.read_bytes() if untouched.path else b""
    written = MemoryWrites(store).apply_link_updates(updates)
    assert written.changes.updated == (linking.id,) and written.value.failed == ()
    assert store.get(linking.id).body == updates[0].body
    assert untouched.path is not None and untouched.path.read_bytes() == before_other


def test_link_updates_skip_a_memory_changed_since_the_plan(vault: Path) -> None:
    store = MemoryStore(vault)
    target = store.create("Espresso", "shots")
    linking = store.create("Log", "[[Espresso]]\n")
    updates = plan_rename(store.list(), vault, target.id, "Espresso basics")
    assert linking.path is not None
    linking.path.write_text(linking.path.read_text() + "edited elsewhere\n")
    store.scan()
    written = MemoryWrites(store).apply_link_updates(updates)
    assert written.value.updated == () and "changed since" in written.value.failed[0]
    assert "[[Espresso]]" in store.get(linking.id).body


def test_retarget_points_links_to_merged_memories_at_the_survivor(obsidian: Path) -> None:
    store = MemoryStore(obsidian)
    by_title = _titles(store)
    reading, hugo = by_title["Reading list"], by_title["Hugo post"]
    updates = plan_retarget(store.list(), obsidian, {reading.id: hugo})
    bodies = {u.title: u.body for u in updates}
    assert set(bodies) == {"2024-01-06", "Hugo post"}
    assert "from the [[Hugo post]]" in bodies["2024-01-06"]
    assert "Links back to [[Hugo post]]." in bodies["Hugo post"]


def test_an_unlinked_mention_becomes_a_link(obsidian: Path) -> None:
    store = MemoryStore(obsidian)
    by_title = _titles(store)
    graph = LinkGraph(store.list(), obsidian)
    reading = by_title["Reading list"]
    [mention] = graph.unlinked_mentions(reading.id)
    source = store.get(mention.source_id)
    update = plan_link_mention(source, mention, reading)
    assert update is not None
    assert "My [[Reading list|reading list]] has two coffee books." in update.body
    MemoryWrites(store).apply_link_updates([update])
    assert LinkGraph(store.list(), obsidian).unlinked_mentions(reading.id) == []
    stale = plan_link_mention(store.get(source.id), mention, reading)
    assert stale is None  # the words are no longer there as found


def test_a_big_graph_is_built_in_steps(monkeypatch, tmp_path) -> None:
    """The resolver's paths, the graph's links: each a step every 256 memories, so a late
    window or a search someone types goes first (core/step_aside)."""
    from pixelmem.core.vault import links
    from pixelmem.core.vault.links import LinkGraph

    steps: list[int] = []
    monkeypatch.setattr(links, "step_aside", lambda: steps.append(1))
    memories = [
        Memory(f"m{i}", f"Note {i}", body=f"see [[Note {i + 1}]]", path=tmp_path / f"n{i}.md")
        for i in range(512)
    ]
    graph = LinkGraph(memories, tmp_path)
    assert len(steps) == 6  # paths, names and links: two steps each
    assert graph.resolver.resolve("n7") == "m7" and graph.resolver.resolve("Note 8") == "m8"
