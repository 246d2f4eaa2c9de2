"""``[[`` completion in the editor, as Obsidian offers it (issue 28): titles, aliases and,
after ``#``, the headings of the note named.

Typing ``[[`` (or going on typing after it) opens a popup of the vault's notes whose title or
alias contains what was typed (an alias shows the title it belongs to); Enter or Tab puts
``[[Title]]`` (``[[Title|alias]]`` for an alias) in place of what was typed, Esc closes it.
After ``[[Note#`` the popup lists that note's headings. The notes are listed on a worker
when the popup first opens and again after a change set — with their candidates sorted and
the link resolver built there too: made on the GUI thread at every keystroke after ``[[``
they took ~20 ms of it in a 10k-note vault (~35 ms after ``#``). A keystroke only sets the
prefix Qt's completer filters by (substring, case aside), and the list shown changes only
between the notes and one note's headings.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, QStringListModel, Qt
from PySide6.QtGui import QKeyEvent, QTextCursor
from PySide6.QtWidgets import QAbstractItemView, QCompleter, QPlainTextEdit

from pixelmem.core.vault.links import LinkResolver, link_target_for
from pixelmem.core.vault.memory import Memory
from pixelmem.gui import workers
from pixelmem.gui.bus import MemoryBus
from pixelmem.gui.session import VaultSession
from pixelmem.gui.workers import LatestOnly

# What was typed since the last "[[" on this line: the target, then maybe "#heading".
_TYPED = re.compile(r"\[\[([^\[\]|#\n]*)(?:#([^\[\]|\n]*))?$")
_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$", re.MULTILINE)
MAX_ROWS = 12


@dataclass(frozen=True)
class Candidate:
    shown: str  # what the popup lists
    inserted: str  # what goes between [[ and ]]


def link_candidates(memories: list[Memory]) -> list[Candidate]:
    """A title for each note, then each alias (``Title|alias``), titles sorted."""
    found: list[Candidate] = []
    for memory in sorted(memories, key=lambda m: m.title.casefold()):
        target = link_target_for(memory)
        found.append(Candidate(memory.title, target))
        for alias in memory.aliases:
            found.append(Candidate(f"{alias} → {memory.title}", f"{target}|{alias}"))
    return found


def heading_candidates(memory: Memory) -> list[Candidate]:
    return [Candidate(h, h) for h in dict.fromkeys(_HEADING.findall(memory.body))]


@dataclass(frozen=True)
class Listing:
    """The vault's notes as the popup offers them, made on a worker from one listing."""

    memories: dict[str, Memory]  # by id
    candidates: dict[str, Candidate]  # by what the popup shows, in the popup's order
    resolver: LinkResolver

    @classmethod
    def of(cls, memories: tuple[Memory, ...], root: Path) -> Listing:
        candidates = link_candidates(list(memories))
        return cls(
            {m.id: m for m in memories},
            {c.shown: c for c in candidates},
            LinkResolver(memories, root),
        )


class CompletingEdit(QPlainTextEdit):
    """The body editor: while a completion popup is open, Enter, Tab and Esc are the
    popup's (QCompleter hands every key to the editor first; one it ignores, the popup
    takes: the Qt "custom completer" pattern)."""

    popup_open: Callable[[], bool] = staticmethod(lambda: False)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if self.popup_open() and event.key() in _POPUP_KEYS:
            event.ignore()
            return
        super().keyPressEvent(event)


_POPUP_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Tab, Qt.Key.Key_Escape)


class LinkCompleter(QObject):
    """Completes ``[[links]]`` in ``editor`` from ``session``'s notes."""

    def __init__(self, editor: CompletingEdit, session: VaultSession, bus: MemoryBus) -> None:
        super().__init__(editor)
        self.editor = editor
        editor.popup_open = self._popup_open
        self.session = session
        self.model = QStringListModel(self)
        self.completer = QCompleter(self.model, self)
        self.completer.setWidget(editor)
        self.completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self.completer.setMaxVisibleItems(MAX_ROWS)
        self.completer.activated[str].connect(self._insert)  # type: ignore[index]
        self._listing: Listing | None = None
        self._listing_due = False  # a listing is being made on a worker
        self._vault_changes = 0  # the vault's change sets so far: a listing made before is stale
        self._candidates: dict[str, Candidate] = {}  # what the model lists now, by shown
        self._latest = LatestOnly()
        editor.textChanged.connect(self._typed)
        bus.memory_updated.connect(self._stale)

    def _popup_open(self) -> bool:
        return self._popup().isVisible()

    def _popup(self) -> QAbstractItemView:
        popup = self.completer.popup()
        assert popup is not None  # a completer made with a model has its popup
        return popup

    def _stale(self, *_: object) -> None:
        self._listing = None
        self._vault_changes += 1

    def _typed(self) -> None:
        typed = self._context()
        if typed is None:
            self._popup().hide()
            return
        if self._listing is None:
            self._make_listing()
            return
        self._offer(*typed)

    def _make_listing(self) -> None:
        """The notes listed on a worker, once: keystrokes while it is made do not ask again
        (each asked anew: on a busy machine four listings for one popup, all but the last
        dropped); it is offered for what is typed when it comes."""
        if self._listing_due:
            return
        self._listing_due = True
        store, changes = self.session.store, self._vault_changes
        # Read only: the store's own memories (a copy of 10k sets off long collections).
        self._latest.submit(
            lambda: Listing.of(store.view(), store.root),
            lambda listing: self._listed(listing, changes),
            self._not_listed,
            context=self,
        )

    def _not_listed(self, exc: BaseException) -> None:
        self._listing_due = False
        workers.report(exc)

    def _listed(self, listing: Listing, changes: int) -> None:
        self._listing_due = False
        if changes != self._vault_changes:  # the vault changed while it was made: again
            if self._context() is not None:
                self._make_listing()
            return
        self._listing = listing
        typed = self._context()
        if typed is not None:
            self._offer(*typed)

    def _context(self) -> tuple[str, str | None] | None:
        """(the target typed, the heading typed or None) when the cursor is in a ``[[``."""
        cursor = self.editor.textCursor()
        if cursor.hasSelection():
            return None
        block = cursor.block().text()[: cursor.positionInBlock()]
        match = _TYPED.search(block)
        if match is None:
            return None
        return match.group(1), match.group(2)

    def _offer(self, target: str, heading: str | None) -> None:
        listing = self._listing
        assert listing is not None
        if heading is None:
            self._list(listing.candidates)  # the same list as the last keystroke's: kept
            prefix = target
        else:
            note = listing.memories.get(listing.resolver.resolve(target) or "")
            self._list({c.shown: c for c in heading_candidates(note)} if note else {})
            prefix = heading
        self.completer.setCompletionPrefix(prefix)
        if not self._candidates or self.completer.completionCount() == 0:
            self._popup().hide()
            return
        rect = self.editor.cursorRect()
        rect.setWidth(max(240, self._popup().sizeHintForColumn(0) + 24))
        self.completer.complete(rect)
        self._popup().setCurrentIndex(self.completer.completionModel().index(0, 0))

    def _list(self, candidates: dict[str, Candidate]) -> None:
        """Let the popup list ``candidates`` (set again only when they changed)."""
        if candidates is not self._candidates and candidates != self._candidates:
            self.model.setStringList(list(candidates))
        self._candidates = candidates

    def _insert(self, shown: str) -> None:
        candidate = self._candidates.get(shown)
        typed = self._context()
        if candidate is None or typed is None:
            return
        target, heading = typed
        cursor = self.editor.textCursor()
        back = len(heading) if heading is not None else len(target)
        cursor.movePosition(QTextCursor.MoveOperation.Left, QTextCursor.MoveMode.KeepAnchor, back)
        after = cursor.block().text()[cursor.positionInBlock() + back :]
        closing = "" if after.startswith("]]") else "]]"
        cursor.insertText(candidate.inserted + closing)
        if closing == "":  # jump past the "]]" that was there
            cursor.movePosition(QTextCursor.MoveOperation.Right, n=2)
        self.editor.setTextCursor(cursor)
