"""The quick switcher (Ctrl+P, and Ctrl+O as Obsidian users expect): type, arrows, Enter.

A panel floating over the top of the window (a child widget, not a separate window, so no
window manager gets a say in focus or stacking): a line edit and the best matches by title,
alias or path in the vault
(:func:`pixelmem.core.vault.quick_switch.rank_memories`, run on a worker so a 10k-memory
vault never stalls typing). Matched characters are bold; an alias match shows the title it
belongs to. Enter opens the selected memory; Escape, or focus going elsewhere, closes it.
"""

from __future__ import annotations

import html
import threading
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QGraphicsDropShadowEffect,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from pixelmem.core.vault.memory import Memory
from pixelmem.core.vault.quick_switch import SwitchMatch, rank_memories
from pixelmem.gui.workers import LatestOnly

_ID_ROLE = Qt.ItemDataRole.UserRole + 1
MAX_ROWS = 50


class QuickSwitcher(QFrame):
    memory_chosen = Signal(str)
    results_shown = Signal(int)  # number of rows (tests wait on it)

    def __init__(
        self,
        memories: Callable[[], list[Memory]],
        parent: QWidget | None = None,
        root: Callable[[], Path | None] = lambda: None,
    ):
        super().__init__(parent)
        self._root = root
        self.setObjectName("quickSwitcher")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        shadow = QGraphicsDropShadowEffect(self)  # lifts it off the editor below
        shadow.setBlurRadius(24)
        shadow.setOffset(0, 4)
        self.setGraphicsEffect(shadow)
        self.hide()
        self._memories = memories
        self._listing = _Listing(memories)  # the memories as the popup opened
        self._latest = LatestOnly()
        self.query_edit = QLineEdit()
        self.query_edit.setObjectName("quickSwitcherQuery")
        self.query_edit.setClearButtonEnabled(True)
        self.list = QListWidget()
        self.list.setObjectName("quickSwitcherList")
        self.list.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # typing stays in the line edit
        self.list.setUniformItemSizes(True)
        self.hint = QLabel()
        self.hint.setEnabled(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(self.query_edit)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.hint)
        self.query_edit.textChanged.connect(self._search)
        self.query_edit.installEventFilter(self)
        self.list.itemActivated.connect(self._choose)
        self.list.itemClicked.connect(self._choose)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._focus_changed)
        self.retranslate()

    def retranslate(self) -> None:
        self.query_edit.setPlaceholderText(self.tr("Go to a memory by title, alias or file…"))
        self.hint.setText(self.tr("↑↓ to move · Enter to open · Esc to close"))

    def popup(self) -> None:
        """Show over the top of the parent window with an empty query and recent memories."""
        self._listing = _Listing(self._memories)  # listed again, by the first ranking's worker
        parent = self.parentWidget()
        if parent is not None:
            width = max(320, min(640, parent.width() - 40))
            height = max(240, min(420, parent.height() - 80))
            self.setGeometry((parent.width() - width) // 2, 60, width, height)
        self.query_edit.clear()
        self._search("")
        self.show()
        self.raise_()  # above the docks and the editor (a sibling, not a window)
        self.query_edit.setFocus(Qt.FocusReason.PopupFocusReason)

    def _search(self, text: str) -> None:
        listing, root = self._listing, self._root()

        def rank() -> list[SwitchMatch]:
            return rank_memories(listing.memories(), text, MAX_ROWS, root)

        self._latest.submit(rank, self._show, context=self)

    def _show(self, matches: list[SwitchMatch]) -> None:
        self.list.clear()
        for match in matches:
            item = QListWidgetItem()
            item.setData(_ID_ROLE, match.memory_id)
            note = self.tr("(alias of {title})") if match.alias else self.tr("({title})")
            label = QLabel(_rich(match, note))
            label.setTextFormat(Qt.TextFormat.RichText)
            label.setContentsMargins(6, 3, 6, 3)
            item.setSizeHint(label.sizeHint())
            item.setToolTip(match.title)
            self.list.addItem(item)
            self.list.setItemWidget(item, label)
        if matches:
            self.list.setCurrentRow(0)
        self.results_shown.emit(len(matches))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.query_edit and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            key = event.key()
            moves = {
                Qt.Key.Key_Down: 1,
                Qt.Key.Key_Up: -1,
                Qt.Key.Key_PageDown: 8,
                Qt.Key.Key_PageUp: -8,
            }
            if key in moves and self.list.count():
                row = self.list.currentRow() + moves[Qt.Key(key)]
                self.list.setCurrentRow(max(0, min(self.list.count() - 1, row)))
                return True
            if key == Qt.Key.Key_Escape:
                self.hide()
                return True
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                item = self.list.currentItem()
                if item is not None:
                    self._choose(item)
                return True
        return super().eventFilter(watched, event)

    def _focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        if self.isVisible() and (new is None or not self.isAncestorOf(new)):
            self.hide()  # clicked or tabbed elsewhere: close like a popup

    def _choose(self, item: QListWidgetItem) -> None:
        memory_id = item.data(_ID_ROLE)
        self.hide()
        if memory_id:
            self.memory_chosen.emit(str(memory_id))

    def chosen_ids(self) -> list[str]:
        """The ids listed, in order (tests)."""
        return [str(self.list.item(i).data(_ID_ROLE)) for i in range(self.list.count())]


class _Listing:
    """The memories of one popup, listed once by the first worker that ranks them; a ranking
    for a keystroke typed meanwhile waits for that listing instead of making its own (copying
    10k memories takes ~20 ms of a worker, with the GIL the window needs)."""

    def __init__(self, memories: Callable[[], list[Memory]]) -> None:
        self._list = memories
        self._lock = threading.Lock()
        self._listed: list[Memory] | None = None

    def memories(self) -> list[Memory]:
        with self._lock:
            if self._listed is None:
                self._listed = self._list()
            return self._listed


def _rich(match: SwitchMatch, alias_note: str) -> str:
    name = match.name
    marked = set(match.positions)
    text = "".join(
        f"<b>{html.escape(c)}</b>" if i in marked else html.escape(c) for i, c in enumerate(name)
    )
    if match.alias is not None or match.path is not None:
        note = html.escape(alias_note.format(title=match.title))
        # No colour of its own: grey would be unreadable on the selected row's highlight.
        text += f"&nbsp;&nbsp;<small>{note}</small>"
    return text
