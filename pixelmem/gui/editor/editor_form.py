"""The editor's widgets: fields, toolbar, body/preview, banner and file line; no saving logic."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import cast

from PySide6.QtCore import QEvent, QSize, Qt, QUrl, Signal
from PySide6.QtGui import (
    QDesktopServices,
    QFont,
    QKeySequence,
    QPalette,
    QResizeEvent,
    QShortcut,
    QTextCharFormat,
    QTextOption,
)
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLayout,
    QLineEdit,
    QPlainTextEdit,
    QStackedWidget,
    QTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from pixelmem.core.vault.drawings import is_drawing
from pixelmem.core.vault.memory import IMPORTANCE_LEVELS, Memory
from pixelmem.gui.editor.link_completion import CompletingEdit
from pixelmem.gui.editor.markdown_highlighter import MarkdownHighlighter
from pixelmem.gui.editor.properties import PropertiesBox
from pixelmem.gui.editor.wiki_link_clicks import WikiLinkClicks
from pixelmem.gui.widgets import colors
from pixelmem.gui.widgets.dates import full_date
from pixelmem.gui.widgets.elided_label import ElidedLabel
from pixelmem.gui.widgets.flow_layout import FlowLayout
from pixelmem.gui.widgets.markdown_preview import MarkdownPreview

_TOPIC_SPLIT = re.compile(r"[,，、;；]")


def parse_aliases(text: str) -> list[str]:
    """Other names from a comma list (Chinese commas too), trimmed, without repeats."""
    names = (" ".join(n.split()) for n in _TOPIC_SPLIT.split(text))
    return list(dict.fromkeys(n for n in names if n))


def parse_topics(text: str) -> list[str]:
    """Topics from a comma list (Chinese commas too), trimmed, without repeats."""
    topics = (t.strip().lstrip("#").strip() for t in _TOPIC_SPLIT.split(text))
    return list(dict.fromkeys(t for t in topics if t))


def _open_outside(url: QUrl) -> None:
    """A web link, or an attachment of the vault (a PDF, a canvas), clicked in the preview:
    the system's browser or viewer opens it (the preview itself never loads it)."""
    if url.scheme() in ("http", "https", "mailto", "file"):
        QDesktopServices.openUrl(url)


class EditorForm(QWidget):
    changed = Signal()
    save_requested = Signal()
    delete_requested = Signal()
    link_requested = Signal(str)  # a [[wiki link]] target: Ctrl+click in the body or the preview

    def __init__(self, vault: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.vault = vault
        self._filling = False
        # One "sheet of paper": title, fields and body on the palette's base colour.
        self.setBackgroundRole(QPalette.ColorRole.Base)
        self.setAutoFillBackground(True)
        self._build()
        self._layout()
        self._connect()
        self.retranslate()

    # -- building --------------------------------------------------------------------------

    def _build(self) -> None:
        self.title_edit = QLineEdit()
        self.title_edit.setObjectName("titleEdit")
        self.title_edit.setFrame(False)
        font = QFont(self.title_edit.font())
        font.setPointSizeF(font.pointSizeF() * 1.45)
        font.setWeight(QFont.Weight.DemiBold)
        self.title_edit.setFont(font)
        self.aliases_edit = QLineEdit()  # Obsidian's `aliases:`, as a comma list
        self.aliases_edit.setObjectName("aliasesEdit")
        self.topics_edit = QLineEdit()
        self.importance_combo = QComboBox()
        self.dirty_label = QLabel()
        self.dirty_label.setObjectName("dirtyLabel")
        self.preview_button = QToolButton()
        self.preview_button.setCheckable(True)
        self.properties_button = QToolButton()  # opens the other frontmatter keys
        self.properties_button.setCheckable(True)
        self.properties = PropertiesBox()
        self.properties.hide()
        self.save_button = QToolButton()
        self.delete_button = QToolButton()
        buttons = (self.properties_button, self.preview_button)
        for button in (*buttons, self.save_button, self.delete_button):
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            button.setAutoRaise(True)
        self.banner = QLabel()
        self.banner.setWordWrap(True)
        self.banner.setObjectName("editorBanner")
        self.banner.hide()
        self.body_edit = CompletingEdit()  # [[ completion: editor.LinkCompleter
        self.body_edit.setObjectName("bodyEdit")
        self.body_edit.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.body_edit.setFrameShape(QPlainTextEdit.Shape.NoFrame)
        self.body_edit.document().setDocumentMargin(12)
        self.link_clicks = WikiLinkClicks(self.body_edit)
        self.highlighter = MarkdownHighlighter(self.body_edit.document(), self.palette())
        self.preview = MarkdownPreview()
        self.preview.setFrameShape(QPlainTextEdit.Shape.NoFrame)
        self.body_stack = QStackedWidget()
        self.body_stack.addWidget(self.body_edit)
        self.body_stack.addWidget(self.preview)
        self.meta_label = ElidedLabel()  # a long file name is cut, never widening the window
        self.meta_label.setEnabled(False)
        self.meta_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.preview_shortcut = QShortcut(QKeySequence("Ctrl+E"), self)
        self.preview_shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)

    def _layout(self) -> None:
        # Two groups that sit on one row when there is room and on two rows in a narrow
        # window (800 px with the docks open), instead of squeezing labels to "Topi…".
        self.topics_label = QLabel()
        self.topics_label.setBuddy(self.topics_edit)
        self.importance_label = QLabel()
        self.importance_label.setBuddy(self.importance_combo)
        self.aliases_label = QLabel()
        self.aliases_label.setBuddy(self.aliases_edit)
        self.topics_edit.setMinimumWidth(self.fontMetrics().horizontalAdvance("x" * 12))
        self.aliases_edit.setMinimumWidth(self.fontMetrics().horizontalAdvance("x" * 12))
        # Topics and importance are two pairs that also wrap onto two lines when narrower.
        self.field_group = QWidget()
        self.field_flow = FlowLayout(self.field_group, spacing=8)
        self.field_flow.setContentsMargins(0, 0, 0, 0)
        for label, field in (
            (self.topics_label, self.topics_edit),
            (self.aliases_label, self.aliases_edit),
            (self.importance_label, self.importance_combo),
        ):
            pair = QWidget()
            pair_row = QHBoxLayout(pair)
            pair_row.setContentsMargins(0, 0, 0, 0)
            pair_row.setSpacing(8)
            pair_row.addWidget(label)
            pair_row.addWidget(field, 1)
            self.field_flow.addWidget(pair)
        self.action_group = QWidget()
        action_row = QHBoxLayout(self.action_group)
        action_row.setContentsMargins(0, 0, 0, 0)
        action_row.setSpacing(8)
        action_row.addWidget(self.dirty_label)
        action_row.addWidget(self.properties_button)
        action_row.addWidget(self.preview_button)
        action_row.addWidget(self.save_button)
        action_row.addWidget(self.delete_button)
        self.fields = fields = QGridLayout()
        fields.setHorizontalSpacing(16)
        fields.setVerticalSpacing(6)
        fields.addWidget(self.field_group, 0, 0)
        fields.addWidget(self.action_group, 0, 1, Qt.AlignmentFlag.AlignRight)
        fields.setColumnStretch(0, 1)
        head = QVBoxLayout()
        head.setContentsMargins(14, 10, 14, 6)
        head.setSpacing(6)
        head.addWidget(self.title_edit)
        head.addLayout(fields)
        head.addWidget(self.properties)
        head.addWidget(self.banner)
        foot = QHBoxLayout()
        foot.setContentsMargins(14, 4, 14, 6)
        foot.addWidget(self.meta_label, 1)
        layout = QVBoxLayout(self)
        layout.setSizeConstraint(QLayout.SizeConstraint.SetNoConstraint)  # see minimumSizeHint
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addLayout(head)
        layout.addWidget(self.body_stack, 1)
        layout.addLayout(foot)
        self.setTabOrder(self.title_edit, self.topics_edit)
        self.setTabOrder(self.topics_edit, self.aliases_edit)
        self.setTabOrder(self.aliases_edit, self.importance_combo)
        self.setTabOrder(self.importance_combo, self.properties.edit)
        self.setTabOrder(self.properties.edit, self.body_edit)

    def _two_rows_needed(self, width: int) -> bool:
        margins = 28 + self.fields.horizontalSpacing()
        wanted = self.field_flow.one_line_width() + self.action_group.sizeHint().width() + margins
        return width < wanted

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._place_actions(event.size().width())

    def _place_actions(self, width: int) -> None:
        row, column = (1, 0) if self._two_rows_needed(width) else (0, 1)
        # (row, column, row span, column span); the stubs say object
        position = cast(
            tuple[int, ...], self.fields.getItemPosition(self.fields.indexOf(self.action_group))
        )
        if position[:2] == (row, column):
            return
        self.fields.removeWidget(self.action_group)
        self.fields.addWidget(self.action_group, row, column, Qt.AlignmentFlag.AlignRight)

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        narrow = max(
            self.field_group.minimumSizeHint().width(), self.action_group.sizeHint().width()
        )
        return QSize(min(hint.width(), narrow + 28), hint.height())

    def _connect(self) -> None:
        self.title_edit.textChanged.connect(self._edited)
        self.topics_edit.textChanged.connect(self._edited)
        self.aliases_edit.textChanged.connect(self._edited)
        self.properties.edited.connect(self._edited)
        self.properties_button.toggled.connect(self.properties.setVisible)
        self.importance_combo.currentIndexChanged.connect(self._edited)
        self.body_edit.document().modificationChanged.connect(self._edited)
        self.preview_button.toggled.connect(self.show_preview)
        self.link_clicks.link_clicked.connect(self.link_requested)
        self.preview.wiki_link_clicked.connect(self.link_requested)
        self.preview.link_clicked.connect(_open_outside)
        self.preview_shortcut.activated.connect(self.preview_button.toggle)
        self.save_button.clicked.connect(self.save_requested)
        self.delete_button.clicked.connect(self.delete_requested)

    def retranslate(self) -> None:
        self.title_edit.setPlaceholderText(self.tr("Title"))
        self.topics_label.setText(self.tr("&Topics"))
        self.topics_edit.setPlaceholderText(self.tr("comma, separated, topics"))
        self.importance_label.setText(self.tr("&Importance"))
        current = self.importance_combo.currentData()
        self.importance_combo.blockSignals(True)
        self.importance_combo.clear()
        labels = (self.tr("Low"), self.tr("Medium"), self.tr("High"))
        for level, label in zip(IMPORTANCE_LEVELS, labels, strict=True):
            self.importance_combo.addItem(label, level)
        self.importance_combo.setCurrentIndex(max(0, self.importance_combo.findData(current)))
        self.importance_combo.blockSignals(False)
        self.dirty_label.setText(self.tr("● Unsaved"))
        self.dirty_label.setToolTip(self.tr("This memory has changes that are not saved yet"))
        self.preview_button.setText(self.tr("Preview"))
        self.preview_button.setToolTip(self.tr("Show the rendered Markdown (Ctrl+E)"))
        self.save_button.setText(self.tr("Save"))
        self.save_button.setToolTip(self.tr("Save (Ctrl+S)"))
        self.delete_button.setText(self.tr("Delete"))
        self.delete_button.setToolTip(self.tr("Move this memory to the trash (undoable)"))
        self.body_edit.setPlaceholderText(self.tr("Write in Markdown…"))
        if getattr(self, "_meta_memory", None) is not None:
            self._show_meta(self._meta_memory)
        self.body_edit.setToolTip(self.tr("Ctrl+click a [[link]] to open the memory it names"))
        self.aliases_label.setText(self.tr("&Aliases"))
        self.aliases_edit.setPlaceholderText(self.tr("other names, comma separated"))
        self.properties_button.setText(self.tr("Properties"))
        self.properties_button.setToolTip(
            self.tr("The note's other properties (publish, cssclasses, …) as YAML lines")
        )
        if getattr(self, "_placeholder", None) is not None:
            self._placeholder.setText(
                self.tr("Select a memory on the left, or press Ctrl+N to write a new one.")
            )

    def placeholder_page(self) -> QWidget:
        """What the editor shows with no memory open (kept here so it is re-translated)."""
        self._placeholder = QLabel()
        self._placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._placeholder.setWordWrap(True)
        self._placeholder.setEnabled(False)
        self.retranslate()
        return self._placeholder

    # -- showing a memory ------------------------------------------------------------------

    def fill(self, memory: Memory) -> None:
        self._filling = True
        self.title_edit.setText(memory.title)
        self.aliases_edit.setText(", ".join(memory.aliases))
        self.properties.fill(memory.extra)
        self.topics_edit.setText(", ".join(memory.topics))
        index = self.importance_combo.findData(memory.importance)
        self.importance_combo.setCurrentIndex(max(0, index))
        self.body_edit.setExtraSelections([])
        self.body_edit.setPlainText(memory.body)
        self.body_edit.document().setModified(False)
        self._filling = False
        self._reset_banner(memory)
        self._show_meta(memory)
        if self.preview_button.isChecked():
            self._render_preview()

    def _reset_banner(self, memory: Memory) -> None:
        """No banner, but over an Excalidraw drawing: what it is and where to edit it."""
        self.banner.hide()
        if is_drawing(memory.extra, memory.body):
            self.show_banner(self.drawing_notice())

    def drawing_notice(self) -> str:
        """What the banner says over an Excalidraw drawing (core.vault.drawings)."""
        return self.tr(
            "An Excalidraw drawing: the preview, search and chat read the words on it. "
            "Draw and edit it in Obsidian; changing its data here can damage the drawing."
        )

    def refill(self, memory: Memory) -> None:
        """Show a newer version of the open memory without losing the reading position."""
        cursor = self.body_edit.textCursor().position()
        scroll = self.body_edit.verticalScrollBar().value()
        self.fill(memory)
        text_cursor = self.body_edit.textCursor()
        text_cursor.setPosition(min(cursor, self.body_edit.document().characterCount() - 1))
        self.body_edit.setTextCursor(text_cursor)
        self.body_edit.verticalScrollBar().setValue(scroll)

    def accept_saved(self, memory: Memory, sent: Memory) -> None:
        """After a save: what still equals what was sent is clean; later typing stays dirty."""
        self._filling = True
        if not self.title_edit.text().strip():
            self.title_edit.setText(memory.title)
        if self.body_edit.toPlainText() == sent.body.replace("\r\n", "\n"):
            self.body_edit.document().setModified(False)
        self._filling = False
        self._reset_banner(memory)
        self._show_meta(memory)

    def differs_from(self, memory: Memory | None) -> bool:
        title = self.title_edit.text().strip()
        topics = parse_topics(self.topics_edit.text())
        body_changed = self.body_edit.document().isModified()
        if memory is None:  # a draft is worth keeping once anything is written
            return bool(title or topics or self.body_edit.toPlainText().strip())
        importance = self.importance_combo.currentData()
        return (
            title != memory.title
            or topics != list(memory.topics)
            or parse_aliases(self.aliases_edit.text()) != list(memory.aliases)
            or importance != memory.importance
            or self.properties.changed()
            or body_changed
        )

    def body_text(self, memory: Memory | None) -> str:
        """The body to save; the original string when untouched (keeps ``\\r\\n`` and all)."""
        if memory is not None and not self.body_edit.document().isModified():
            return memory.body
        return self.body_edit.toPlainText()

    def mark_terms(self, terms: Sequence[str], start: int, end: int) -> None:
        """Tint every match of ``terms`` between the Qt positions ``start`` and ``end``."""
        body, selections = self.body_edit, []
        fmt = QTextCharFormat()
        fmt.setBackground(colors.match_background(self.palette()))
        for term in sorted({t for t in terms if t.strip()}, key=len, reverse=True):
            found = body.document().find(term, start)
            while not found.isNull() and found.selectionEnd() <= end:
                selection = QTextEdit.ExtraSelection()
                selection.cursor, selection.format = found, fmt
                selections.append(selection)
                found = body.document().find(term, found.selectionEnd())
        body.setExtraSelections(selections)

    def show_dirty(self, dirty: bool) -> None:
        self.dirty_label.setVisible(dirty)
        self.save_button.setEnabled(dirty)

    def show_banner(self, text: str) -> None:
        self.banner.setText(text)
        self.banner.show()

    def show_preview(self, on: bool) -> None:
        if self.preview_button.isChecked() != on:
            self.preview_button.setChecked(on)  # re-enters through toggled
            return
        if on:
            self._render_preview()
            self.body_stack.setCurrentWidget(self.preview)
        else:
            self.body_stack.setCurrentWidget(self.body_edit)

    def _render_preview(self) -> None:
        folder = None
        meta = self.meta_label.property("folder")
        if isinstance(meta, str) and meta:
            folder = Path(meta)
        memory = getattr(self, "_meta_memory", None)
        self.preview.show_markdown(
            self.body_edit.toPlainText(),
            folder or self.vault,
            self.vault,
            note_id=memory.id if memory is not None and memory.path is not None else None,
        )

    def _show_meta(self, memory: Memory) -> None:
        self._meta_memory = memory  # shown again in the new language by retranslate()
        if memory.path is None:
            self.meta_label.setText(self.tr("New memory — not saved yet"))
            self.meta_label.setProperty("folder", "")
            return
        try:
            shown = memory.path.relative_to(self.vault)
        except ValueError:
            shown = memory.path
        parts = [str(shown)]
        if memory.updated:
            parts.append(self.tr("updated {date}").format(date=full_date(memory.updated)))
        if memory.created:
            parts.append(self.tr("created {date}").format(date=full_date(memory.created)))
        self.meta_label.setText("  ·  ".join(parts))
        self.meta_label.setProperty("folder", str(memory.path.parent))

    def changeEvent(self, event: QEvent) -> None:
        highlighter = getattr(self, "highlighter", None)  # Qt calls this during __init__ too
        if event.type() == QEvent.Type.PaletteChange and highlighter is not None:
            highlighter.set_palette(self.palette())  # light/dark switch while running
        super().changeEvent(event)

    def _edited(self, *_: object) -> None:
        if not self._filling:
            self.changed.emit()
