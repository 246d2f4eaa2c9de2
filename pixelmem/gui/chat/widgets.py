"""The pieces of the chat pane: a Markdown view, a message, the memories panel, chips, input.

Each widget only shows what it is given and emits what the person asked for; the pane
(:mod:`pixelmem.gui.chat.pane`) owns the conversation and decides what happens.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from PySide6.QtCore import QMimeData, QSize, Qt, QUrl, Signal
from PySide6.QtGui import (
    QColor,
    QDesktopServices,
    QGuiApplication,
    QKeyEvent,
    QPalette,
    QResizeEvent,
    QTextDocumentFragment,
)
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPlainTextEdit,
    QSizePolicy,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from pixelmem.core.assist.injection import InjectedPrompt, UsedMemory
from pixelmem.core.render_limits import bounded_markdown
from pixelmem.gui.chat.reasoning import ReasoningBox
from pixelmem.gui.widgets.colors import blend, muted_text
from pixelmem.gui.widgets.markdown_preview import SHOW_ALL_URL
from pixelmem.gui.widgets.resource_policy import ResourcePolicy

MEMORY_ID_MIME = "application/x-pixelmem-memory-id"  # one id per line, UTF-8
MEMORY_SCHEME = "pixelmem-memory"
_FENCE = re.compile(r"^(```|~~~)[ \t]*([\w+#.-]*)[^\n]*\n(.*?)^\1[ \t]*$", re.M | re.S)
_CITATION = re.compile(r"\[([^\[\]\n]{1,200})\](?![(\[])")  # not a link already


def memory_url(memory_id: str) -> str:
    return f"{MEMORY_SCHEME}:{bytes(QUrl.toPercentEncoding(memory_id).data()).decode()}"


def memory_id_of(url: QUrl) -> str | None:
    if url.scheme() != MEMORY_SCHEME:
        return None
    return QUrl.fromPercentEncoding(url.path(QUrl.ComponentFormattingOption.FullyEncoded).encode())


def link_citations(markdown: str, titles: dict[str, str]) -> str:
    """``[Title]`` citations of injected memories become links that open the memory."""
    by_title = {title.casefold(): memory_id for memory_id, title in titles.items()}

    def link(match: re.Match[str]) -> str:
        start, end = match.span()
        definition = markdown[end : end + 1] == ":" and (start == 0 or markdown[start - 1] == "\n")
        memory_id = by_title.get(match.group(1).strip().casefold())
        if memory_id is None or definition:  # "[x]: url" at a line start is a link definition
            return match.group(0)
        return f"[{match.group(1)}]({memory_url(memory_id)})"

    return _CITATION.sub(link, markdown) if by_title else markdown


def code_blocks(markdown: str) -> list[tuple[str, str]]:
    """The fenced code blocks of ``markdown``: (language, code), in order."""
    return [(m.group(2), m.group(3)) for m in _FENCE.finditer(markdown)]


def _copy(text: str) -> None:
    QGuiApplication.clipboard().setText(text)


def ids_from_mime(mime: QMimeData, is_known: Callable[[str], bool] | None = None) -> list[str]:
    """Memory ids in a drag: our own type, or plain text that is exactly a known id per line."""
    if mime.hasFormat(MEMORY_ID_MIME):
        text = bytes(mime.data(MEMORY_ID_MIME).data()).decode("utf-8", errors="replace")
        return [line.strip() for line in text.splitlines() if line.strip()]
    if mime.hasText() and is_known is not None:
        lines = [line.strip() for line in mime.text().splitlines() if line.strip()]
        if lines and len(lines) <= 50 and all(is_known(line) for line in lines):
            return lines
    return []


def muted(widget: QWidget) -> None:
    palette = widget.palette()
    palette.setColor(QPalette.ColorRole.WindowText, muted_text(palette))
    palette.setColor(QPalette.ColorRole.Text, muted_text(palette))
    widget.setPalette(palette)


class MarkdownView(QTextBrowser):
    """A read-only Markdown view as tall as its text; it never loads any resource."""

    memory_link_clicked = Signal(str)
    save_requested = Signal(str)  # the selection, or the whole text

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.viewport().setAutoFillBackground(False)
        self.setStyleSheet("QTextBrowser { background: transparent; }")
        self.document().setDocumentMargin(2)
        self.document().documentLayout().documentSizeChanged.connect(self._fit_height)
        self.anchorClicked.connect(self._open_link)
        self.source_text = ""
        self._titles: dict[str, str] = {}
        self.is_cut = False
        self.policy = ResourcePolicy(root=None, allow_data=False)  # refuses everything
        self._fit_height()

    def set_markdown(self, text: str, titles: dict[str, str] | None = None) -> None:
        self.source_text = text
        self._titles = titles or {}
        bounded = bounded_markdown(text)
        self.is_cut = bounded.cut
        shown = link_citations(bounded.text, self._titles)
        if bounded.cut:
            link = self.tr("Show all (may be slow)")
            shown += f"\n\n*…* [{link}]({SHOW_ALL_URL})\n"
        self.setMarkdown(shown)

    def show_all(self) -> None:
        self.is_cut = False
        self.setMarkdown(link_citations(self.source_text, self._titles))

    def set_plain(self, text: str) -> None:
        self.source_text = text
        self.setPlainText(text)

    def loadResource(self, kind: int, url: QUrl | str) -> object:
        # Answers are untrusted text: no remote (or local) image or style sheet is ever read.
        return self.policy.load(kind, QUrl(url), self.document().baseUrl())

    def _fit_height(self, *_: object) -> None:
        height = math.ceil(self.document().size().height()) + 2 * self.frameWidth()
        self.setFixedHeight(max(height, self.fontMetrics().height()))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_height()

    def _open_link(self, url: QUrl) -> None:
        if url.toString() == SHOW_ALL_URL:
            self.show_all()
            return
        memory_id = memory_id_of(url)
        if memory_id is not None:
            self.memory_link_clicked.emit(memory_id)
        elif url.scheme() in ("http", "https", "mailto"):
            QDesktopServices.openUrl(url)  # the person clicked it: their browser, not ours

    def contextMenuEvent(self, event) -> None:
        menu = self.createStandardContextMenu(event.pos())
        menu.addSeparator()
        selection = self.textCursor().selectedText().replace("\u2029", "\n").strip()
        if selection:
            menu.addAction(self.tr("Save Selection as Memory…"), lambda: self._save(selection))
        menu.addAction(self.tr("Save Message as Memory…"), lambda: self._save(self.source_text))
        menu.exec(event.globalPos())
        menu.deleteLater()

    def _save(self, text: str) -> None:
        if text.strip():
            self.save_requested.emit(text)


class MessageWidget(QFrame):
    """One message: who, a status, the text, an inline error; the memories panel goes below."""

    save_requested = Signal(str)
    settings_requested = Signal()
    regenerate_requested = Signal()
    view: MarkdownView  # made below the buttons whose actions reach it

    def __init__(self, role: str, sender: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.role = role
        self.setObjectName("chatMessage")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        palette = self.palette()
        base = palette.color(QPalette.ColorRole.Base)
        tint = QPalette.ColorRole.Highlight if role == "user" else QPalette.ColorRole.Text
        palette.setColor(QPalette.ColorRole.Window, blend(base, palette.color(tint), 0.06))
        self.setPalette(palette)

        self.sender_label = QLabel(sender)
        font = self.sender_label.font()
        font.setBold(True)
        self.sender_label.setFont(font)
        self.sender_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.sender_label.setToolTip(sender)
        self.status_label = QLabel()
        self.status_label.setWordWrap(True)  # a long status wraps instead of widening the chat
        muted(self.status_label)
        header = QHBoxLayout()
        header.setContentsMargins(0, 0, 0, 0)
        header.addWidget(self.sender_label, 1)
        header.addWidget(self.status_label, 2)
        self.copy_button = QToolButton()
        self.copy_button.clicked.connect(self.copy)
        self.regenerate_button = QToolButton()
        self.regenerate_button.clicked.connect(self.regenerate_requested)
        self.regenerate_button.setVisible(False)  # the pane shows it on the last answer
        self.code_button = QToolButton()  # one entry per code block of the answer
        self.code_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.code_button.setMenu(QMenu(self.code_button))
        self.code_button.setVisible(False)
        self.save_button = QToolButton()
        self.save_button.clicked.connect(lambda: self.view._save(self.view.source_text))
        actions = QHBoxLayout()
        actions.setContentsMargins(0, 0, 0, 0)
        buttons = (self.copy_button, self.code_button, self.regenerate_button, self.save_button)
        for button in buttons:
            button.setAutoRaise(True)
            actions.addWidget(button)
        actions.addStretch(1)

        self.reasoning = ReasoningBox()  # a thinking model's, collapsed above the answer
        self.view = MarkdownView()
        self.view.save_requested.connect(self.save_requested)
        self.error_label = QLabel()
        self.error_label.setWordWrap(True)
        self.error_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error_label.setObjectName("chatError")
        self.error_label.setStyleSheet("color: #d9534f;")
        self.settings_button = QToolButton()
        self.settings_button.clicked.connect(self.settings_requested)
        error_row = QHBoxLayout()
        error_row.addWidget(self.error_label, 1)
        error_row.addWidget(self.settings_button, 0, Qt.AlignmentFlag.AlignTop)
        self.error_box = QWidget()
        self.error_box.setLayout(error_row)
        error_row.setContentsMargins(0, 0, 0, 0)
        self.error_box.hide()

        self.body = QVBoxLayout(self)
        self.body.setContentsMargins(10, 6, 10, 8)
        self.body.setSpacing(4)
        self.body.addLayout(header)
        self.body.addWidget(self.reasoning)
        self.body.addWidget(self.view)
        self.body.addWidget(self.error_box)
        self.body.addLayout(actions)
        self.retranslate()

    def retranslate(self) -> None:
        if self.role == "user":  # the assistant's name is the model's: not translated
            self.sender_label.setText(self.tr("You"))
            self.sender_label.setToolTip(self.sender_label.text())
        self.copy_button.setText(self.tr("Copy"))
        self.copy_button.setToolTip(self.tr("Copy this message as Markdown"))
        self.code_button.setText(self.tr("Copy code"))
        self.code_button.setToolTip(self.tr("Copy one of the answer's code blocks"))
        self.regenerate_button.setText(self.tr("Regenerate"))
        self.regenerate_button.setToolTip(self.tr("Ask again and replace this answer"))
        self.save_button.setText(self.tr("Save as memory"))
        self.save_button.setToolTip(self.tr("Save this message (or the selected text) as a memory"))
        self.settings_button.setText(self.tr("Open Settings"))

    @property
    def text(self) -> str:
        return self.view.source_text

    def set_status(self, text: str) -> None:
        self.status_label.setText(text)

    def copy(self) -> None:
        _copy(self.text)

    def offer_code_blocks(self) -> None:
        """Fill the Copy code menu from the text's fenced blocks (hidden when there are none)."""
        menu = self.code_button.menu()
        menu.clear()
        blocks = code_blocks(self.text)
        for number, (language, code) in enumerate(blocks, 1):
            first = code.strip().splitlines()[0][:40] if code.strip() else ""
            label = f"{number}. {language or self.tr('code')}: {first}"
            action = menu.addAction(label)
            action.triggered.connect(
                lambda _on=False, c=code: QGuiApplication.clipboard().setText(c)
            )
        self.code_button.setVisible(bool(blocks))

    def show_error(self, message: str, *, offer_settings: bool) -> None:
        self.error_label.setText(message)
        self.settings_button.setVisible(offer_settings)
        self.error_box.show()

    def add_below(self, widget: QWidget) -> None:
        self.body.addWidget(widget)


class ElidedTitle(QLabel):
    """A memory's title as a link, elided to the width it gets: it never widens the chat."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setMinimumWidth(0)
        self._parts: tuple[str, str, bool, QColor] | None = None

    def show_title(self, title: str, meta: str, *, struck: bool, muted: QColor) -> None:
        self._parts = (title, meta, struck, muted)
        self._render()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._render()

    def _render(self) -> None:
        if self._parts is None:
            return
        title, meta, struck, muted = self._parts
        metrics = self.fontMetrics()
        room = max(24, self.width() - metrics.horizontalAdvance(f" {meta}") - 4)
        shown = escape_html(metrics.elidedText(title, Qt.TextElideMode.ElideRight, room))
        if struck:
            shown = f"<s>{shown}</s>"
        self.setText(f'<a href="open">{shown}</a> <span style="color:{muted.name()}">{meta}</span>')

    def plain_title(self) -> str:
        """The title as shown (elided or not), for tests."""
        return QTextDocumentFragment.fromHtml(self.text()).toPlainText()


class MemoriesPanel(QFrame):
    """Under an answer: the memories injected, each clickable, with Pin and Exclude."""

    open_memory = Signal(str)
    pin_toggled = Signal(str, bool)  # (id, pin?)
    exclude_toggled = Signal(str, bool)  # (id, exclude?)
    show_prompt = Signal()

    def __init__(
        self,
        prompt: InjectedPrompt,
        titles: dict[str, str],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.prompt = prompt
        self.setObjectName("memoriesPanel")
        self.setFrameShape(QFrame.Shape.NoFrame)
        self._rows: dict[str, tuple[ElidedTitle, QToolButton, QToolButton, UsedMemory]] = {}
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.setSpacing(2)
        rule = QFrame()
        rule.setFrameShape(QFrame.Shape.HLine)
        rule.setFrameShadow(QFrame.Shadow.Plain)
        palette = rule.palette()
        base, text = palette.color(QPalette.ColorRole.Base), palette.color(QPalette.ColorRole.Text)
        palette.setColor(QPalette.ColorRole.WindowText, blend(base, text, 0.18))
        rule.setPalette(palette)
        layout.addWidget(rule)
        header = QHBoxLayout()
        self.heading = QLabel()
        muted(self.heading)
        self.prompt_button = QToolButton()
        self.prompt_button.setAutoRaise(True)
        self.prompt_button.clicked.connect(self.show_prompt)
        header.addWidget(self.heading, 1)
        header.addWidget(self.prompt_button)
        layout.addLayout(header)
        for used in prompt.used:
            layout.addLayout(self._row(used))
        self.notes = QLabel()
        self.notes.setWordWrap(True)
        muted(self.notes)
        layout.addWidget(self.notes)
        self._titles = titles
        self.retranslate()

    def _row(self, used: UsedMemory) -> QHBoxLayout:
        title = ElidedTitle()
        title.setToolTip(f"{used.title}\n{used.id}" if used.title else used.id)
        title.linkActivated.connect(lambda _link, mid=used.id: self.open_memory.emit(mid))
        pin = QToolButton()
        exclude = QToolButton()
        for button in (pin, exclude):
            button.setAutoRaise(True)
            button.setCheckable(True)
        pin.toggled.connect(lambda on, mid=used.id: self.pin_toggled.emit(mid, on))
        exclude.toggled.connect(lambda on, mid=used.id: self.exclude_toggled.emit(mid, on))
        self._rows[used.id] = (title, pin, exclude, used)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(title, 1)
        row.addWidget(pin)
        row.addWidget(exclude)
        return row

    def retranslate(self) -> None:
        count = len(self.prompt.used)
        if count:
            self.heading.setText(self.tr("Memories used (%n)", "", count))
        else:
            self.heading.setText(self.tr("No memory was relevant to this message."))
        self.prompt_button.setText(self.tr("Show prompt"))
        self.prompt_button.setToolTip(self.tr("Exactly what was sent to the model"))
        notes = []
        if self.prompt.dropped_for_budget:
            names = ", ".join(self._titles.get(i, i) for i in self.prompt.dropped_for_budget)
            notes.append(
                self.tr("Not sent (over the {budget}-character budget): {names}").format(
                    budget=f"{self.prompt.budget:,}", names=names
                )
            )
        if self.prompt.missing:
            notes.append(
                self.tr("Pinned but deleted: {ids}").format(ids=", ".join(self.prompt.missing))
            )
        self.notes.setText("\n".join(notes))
        self.notes.setVisible(bool(notes))
        for memory_id in self._rows:
            self._paint_row(memory_id)

    def update_state(self, pinned: set[str], excluded: set[str]) -> None:
        """Reflect the chat's current pins and exclusions (they apply to the next message)."""
        for memory_id, (_title, pin, exclude, _used) in self._rows.items():
            for button, on in ((pin, memory_id in pinned), (exclude, memory_id in excluded)):
                button.blockSignals(True)
                button.setChecked(on)
                button.blockSignals(False)
            self._paint_row(memory_id)

    def _paint_row(self, memory_id: str) -> None:
        title, pin, exclude, used = self._rows[memory_id]
        score = f"{used.score:.2f}" if used.score is not None else ""
        reason = self.tr("pinned") if used.reason == "pinned" else self.tr("automatic")
        extra = {"passage": self.tr("passage"), "truncated": self.tr("truncated")}.get(used.part)
        meta = " · ".join(part for part in (score, reason, extra) if part)
        title.show_title(
            used.title or used.id,
            meta,
            struck=exclude.isChecked(),
            muted=muted_text(self.palette()),
        )
        pin.setText(self.tr("Unpin") if pin.isChecked() else self.tr("Pin"))
        pin.setToolTip(self.tr("Send this memory with every message of this chat"))
        exclude.setText(self.tr("Include") if exclude.isChecked() else self.tr("Exclude"))
        exclude.setToolTip(self.tr("Exclude from this chat"))

    def buttons(self, memory_id: str) -> tuple[QToolButton, QToolButton]:
        """(pin, exclude) for one row: for tests and keyboard users' focus order."""
        _title, pin, exclude, _used = self._rows[memory_id]
        return pin, exclude


class ChatInput(QPlainTextEdit):
    """Enter sends, Shift+Enter starts a new line; dropped memories are pinned, not pasted."""

    submitted = Signal()
    memories_dropped = Signal(list)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTabChangesFocus(True)
        lines = 4
        self.setMaximumHeight(self.fontMetrics().lineSpacing() * lines + 16)
        # Two lines at least: a short screen (800×600) keeps the chat's column inside it.
        self.setMinimumHeight(self.fontMetrics().lineSpacing() * 2 + 12)

    def minimumSizeHint(self) -> QSize:
        return QSize(super().minimumSizeHint().width(), self.minimumHeight())

    def keyPressEvent(self, event: QKeyEvent) -> None:
        enter = event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if enter and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            self.submitted.emit()
            return
        if enter:  # Shift+Enter: a plain newline, not Qt's line separator
            self.insertPlainText("\n")
            return
        super().keyPressEvent(event)

    def canInsertFromMimeData(self, source: QMimeData) -> bool:
        return source.hasFormat(MEMORY_ID_MIME) or super().canInsertFromMimeData(source)

    def insertFromMimeData(self, source: QMimeData) -> None:
        ids = ids_from_mime(source)
        if ids:
            self.memories_dropped.emit(ids)
        else:
            super().insertFromMimeData(source)


def escape_html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
