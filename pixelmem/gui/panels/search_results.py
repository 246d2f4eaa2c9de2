"""Search hits in a list: a small model and a delegate that draws title, score and snippet.

A row's snippet and the words to mark are worked out on the search's worker
(:func:`result_rows`); its HTML (escaped, matched words marked) is laid out once in a
``QTextDocument``, kept by what it shows: the next answer showing the same hit reuses it.
"""

from __future__ import annotations

import html
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
)
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QFont,
    QFontMetrics,
    QPainter,
    QPalette,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QListView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
)

from pixelmem.core.index.search import SearchHit
from pixelmem.gui.memory_list.memory_delegate import small_font
from pixelmem.gui.panels.highlight import compact, highlight_html, hit_terms
from pixelmem.gui.widgets import colors

HitRole = Qt.ItemDataRole.UserRole + 1
PAD_X, PAD_Y, SCORE_GAP = 12, 8, 10
KEPT_DOCUMENTS = 200  # laid-out rows kept for reuse: a few screenfuls at a few widths
AnyIndex = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True)
class ResultRow:
    hit: SearchHit
    terms: tuple[str, ...]
    snippet: str


def score_text(hit: SearchHit) -> str:
    """The hit's calibrated relevance, 0–1 (the same scale in every mode); a hit below the
    floor says it is weaker."""
    if getattr(hit, "weaker", False):
        weaker = QCoreApplication.translate("SearchResults", "weaker")
        return f"{hit.score:.2f} · {weaker}"
    return f"{hit.score:.2f}"


def score_tooltip(hit: SearchHit) -> str:
    """Asked for when shown (a model's data), so it is always in the current language: the
    score, and when the search explained it, its evidence line by line."""
    relevance = QCoreApplication.translate("SearchResults", "relevance {score}")
    evidence = getattr(hit, "evidence", None)
    if evidence is not None:
        return "\n".join([relevance.format(score=f"{hit.score:.3f}"), *evidence.lines()])
    parts = [relevance.format(score=f"{hit.score:.3f}")]
    semantic = getattr(hit, "semantic_score", None)
    keyword = getattr(hit, "keyword_score", None)
    if semantic is not None:
        cosine = QCoreApplication.translate("SearchResults", "cosine {score}")
        parts.append(cosine.format(score=f"{semantic:.3f}"))
    if keyword is not None:
        parts.append(f"BM25 {keyword:.2f}")
    return " · ".join(parts)


class SearchResultsModel(QAbstractListModel):
    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[ResultRow] = []
        self.query = ""

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008 - Qt default
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return row.hit.title
        if role == HitRole:
            return row
        if role == Qt.ItemDataRole.ToolTipRole:
            return score_tooltip(row.hit)
        return None

    def set_hits(self, query: str, hits: Sequence[SearchHit]) -> None:
        self.set_rows(query, result_rows(query, hits))

    def set_rows(self, query: str, rows: Sequence[ResultRow]) -> None:
        """Rows made by :func:`result_rows` (on a worker: the panel's search does)."""
        self.beginResetModel()
        self.query = query
        self._rows = list(rows)
        self.endResetModel()

    def remove_memory(self, memory_id: str) -> None:
        for row, item in enumerate(self._rows):
            if item.hit.memory_id == memory_id:
                self.beginRemoveRows(QModelIndex(), row, row)
                del self._rows[row]
                self.endRemoveRows()
                return

    def hit_at(self, row: int) -> SearchHit:
        return self._rows[row].hit


def result_rows(query: str, hits: Sequence[SearchHit]) -> list[ResultRow]:
    """The rows of ``hits``: their snippets compacted and the words to mark found. No Qt, so
    a worker makes them with the search (~3 ms of regular expressions for 20 hits, on the
    GUI thread for every answer while someone types)."""
    return [_row(query, hit) for hit in hits]


def _row(query: str, hit: SearchHit) -> ResultRow:
    snippet = compact(hit.snippet or "")
    if not query:
        return ResultRow(hit, (), snippet)
    # The index reports the longest matches in title + chunk ("数据库索引" from the title);
    # the snippet may hold only parts of them ("索引"), so look in each text on its own too.
    terms = [*hit.matched_terms, *hit_terms(query, hit.title), *hit_terms(query, snippet)]
    return ResultRow(hit, tuple(dict.fromkeys(terms)), snippet)


class ResultDelegate(QStyledItemDelegate):
    """Title (bold) and score on the first line, the snippet below, matches highlighted."""

    def __init__(self, view: QListView, *, snippet_lines: int = 3) -> None:
        super().__init__(view)
        self._view = view
        self._snippet_lines = snippet_lines
        # Laying out rich text is the costly part of a row (~1 ms each, a screenful per
        # answer): a document is kept by what it shows, not by row, so the next keystroke's
        # answer, often the same hits with the same words marked, reuses it.
        self._docs: OrderedDict[tuple[object, ...], QTextDocument] = OrderedDict()

    def sizeHint(self, option: QStyleOptionViewItem, index: AnyIndex) -> QSize:
        # One height for every row: the view then lays out only what is visible, and no
        # rich text is laid out just to be measured.
        return QSize(200, self._max_height(option) + 2 * PAD_Y)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        row = index.data(HitRole)
        if not isinstance(row, ResultRow):
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""
        if opt.widget is not None:
            opt.widget.style().drawControl(
                QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget
            )
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        painter.save()
        self._paint_score(painter, opt, row, selected)
        doc = self._document(opt, row, selected)
        rect = opt.rect.adjusted(PAD_X, PAD_Y, -PAD_X, -PAD_Y)
        painter.translate(rect.topLeft())
        clip = QRect(0, 0, rect.width(), min(rect.height(), self._max_height(opt)))
        painter.setClipRect(clip)
        context = QAbstractTextDocumentLayout.PaintContext()
        text_role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        context.palette.setColor(QPalette.ColorRole.Text, opt.palette.color(text_role))
        doc.documentLayout().draw(painter, context)
        painter.restore()
        painter.save()
        painter.setPen(colors.chip_background(opt.palette))
        y = opt.rect.bottom()
        painter.drawLine(opt.rect.left() + PAD_X, y, opt.rect.right() - PAD_X, y)
        painter.restore()

    def _paint_score(
        self, painter: QPainter, opt: QStyleOptionViewItem, row: ResultRow, selected: bool
    ) -> None:
        font = small_font(opt.font)
        metrics = QFontMetrics(font)
        text = score_text(row.hit)
        width = metrics.horizontalAdvance(text) + 12
        height = metrics.height() + 2
        title_height = QFontMetrics(opt.font).height()
        top = opt.rect.top() + PAD_Y + (title_height - height) // 2 + 2
        rect = QRect(opt.rect.right() - PAD_X - width, top, width, height)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(colors.chip_background(opt.palette, selected))
        painter.drawRoundedRect(rect, height / 2, height / 2)
        painter.setFont(font)
        painter.setPen(colors.muted_text(opt.palette, selected))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)

    def _text_width(self, option: QStyleOptionViewItem) -> int:
        width = self._view.viewport().width() if self._view is not None else option.rect.width()
        return max(120, width - 2 * PAD_X)

    def _max_height(self, option: QStyleOptionViewItem) -> int:
        title = QFontMetrics(option.font).height()
        return title + 4 + QFontMetrics(small_font(option.font)).lineSpacing() * self._snippet_lines

    def _document(
        self, option: QStyleOptionViewItem, row: ResultRow, selected: bool
    ) -> QTextDocument:
        hit = row.hit
        key = (
            hit.title,
            score_text(hit),
            self._copies_text(hit),
            row.snippet,
            row.terms,
            self._text_width(option),
            selected,
            option.palette.cacheKey(),
            option.font.key(),
        )  # everything _build_document reads
        doc = self._docs.get(key)
        if doc is not None:
            self._docs.move_to_end(key)
            return doc
        doc = self._build_document(option, row, selected)
        self._docs[key] = doc
        if len(self._docs) > KEPT_DOCUMENTS:  # the least recently painted goes
            self._docs.popitem(last=False)
        return doc

    def _copies_text(self, hit: SearchHit) -> str:
        """ "3 copies" for a hit standing for other memories with the same content, else ""."""
        copies = len(getattr(hit, "copies", ()))
        return self.tr("%n copies", "", copies + 1) if copies else ""

    def _build_document(
        self, option: QStyleOptionViewItem, row: ResultRow, selected: bool
    ) -> QTextDocument:
        palette = option.palette
        doc = QTextDocument()
        doc.setDocumentMargin(0)
        doc.setDefaultFont(option.font)
        doc.setTextWidth(self._text_width(option))
        mark = f"background-color: {colors.match_background(palette).name()}; font-weight: 600;"
        if selected:
            mark = "text-decoration: underline; font-weight: 700;"
        muted = colors.muted_text(palette, selected).name()
        badge = QFontMetrics(small_font(option.font)).horizontalAdvance(score_text(row.hit))
        room = badge + 12 + SCORE_GAP  # keeps the title clear of the score badge
        bold = QFont(option.font)
        bold.setWeight(QFont.Weight.DemiBold)
        shown_title = QFontMetrics(bold).elidedText(
            row.hit.title, Qt.TextElideMode.ElideRight, self._text_width(option) - room
        )
        title = highlight_html(shown_title, row.terms, mark)
        count = self._copies_text(row.hit)
        if count:  # an import made twice is one row
            title += f' <span style="color:{muted}; font-weight:400;">· {html.escape(count)}</span>'

        snippet = highlight_html(row.snippet, row.terms, mark)
        size = small_font(option.font).pointSizeF()
        doc.setHtml(
            f'<div style="font-weight:600; margin-bottom:3px; margin-right:{room}px;">{title}</div>'
            f'<div style="color:{muted}; font-size:{size:.1f}pt;">{snippet}</div>'
        )
        return doc


def results_view(model: SearchResultsModel, *, snippet_lines: int = 3) -> QListView:
    """A frameless list of ``model``'s hits drawn by :class:`ResultDelegate`."""
    view = QListView()
    view.setModel(model)
    view.setItemDelegate(ResultDelegate(view, snippet_lines=snippet_lines))
    view.setResizeMode(QListView.ResizeMode.Adjust)
    view.setUniformItemSizes(True)
    view.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
    view.setFrameShape(QListView.Shape.NoFrame)
    return view


def placeholder_label(top_margin: int) -> QLabel:
    """The greyed, wrapped text shown in place of the list when there is nothing to list."""
    label = QLabel()
    label.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
    label.setWordWrap(True)
    label.setEnabled(False)
    label.setContentsMargins(16, top_margin, 16, 16)
    return label
