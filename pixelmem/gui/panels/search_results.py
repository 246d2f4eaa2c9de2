"""Search hits in a list: a small model and a delegate that draws title, score and snippet.

A row's snippet and the words to mark are worked out on the search's worker
(:func:`result_rows`), and so is the picture of each row of the answer's first screenful
(:func:`row_pictures`: its HTML, escaped with matched words marked, laid out and drawn); the
GUI thread only puts pictures on the screen. Pictures are kept by what they show: the next
answer showing the same hit reuses one.

A row the view paints without a picture (rows scrolled to, the view's width changed, a
selection moved) is never laid out on the GUI thread: its last picture at another look, or
its title alone, stands in while a worker draws it (:meth:`ResultDelegate.paint`), and the
view repaints when the picture comes. Laying out a screenful of rich text there took 15-21
ms, once per typed search over 100k chunks (bench_ui --why).
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    QPointF,
    QRect,
    QSize,
    Qt,
    QTimer,
)
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetrics,
    QImage,
    QPainter,
    QPalette,
    QTextCharFormat,
    QTextLayout,
    QTextOption,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QListView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
)

from pixelmem.core.index.query import ParsedQuery, parse_query
from pixelmem.core.index.search import SearchHit
from pixelmem.gui import workers
from pixelmem.gui.memory_list.memory_delegate import small_font
from pixelmem.gui.panels.highlight import compact, highlight_spans
from pixelmem.gui.widgets import colors
from pixelmem.gui.widgets.offscreen_image import transparent_image

log = logging.getLogger(__name__)

HitRole = Qt.ItemDataRole.UserRole + 1
PAD_X, PAD_Y, SCORE_GAP = 12, 8, 10
KEPT_PICTURES = 200  # drawn rows kept for reuse: a few screenfuls at a few widths
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
    GUI thread for every answer while someone types). The query is read once for all rows
    (read per row and text, it was ~75 % of the work: 20 rows 1.9 → 0.5 ms)."""
    parsed = parse_query(query) if query else None
    return [_row(parsed, hit) for hit in hits]


def _row(query: ParsedQuery | None, hit: SearchHit) -> ResultRow:
    snippet = compact(hit.snippet or "")
    if query is None:
        return ResultRow(hit, (), snippet)
    # The index reports the longest matches in title + chunk ("数据库索引" from the title);
    # the snippet may hold only parts of them ("索引"), so look in each text on its own too.
    terms = [*hit.matched_terms, *query.highlight(hit.title), *query.highlight(snippet)]
    return ResultRow(hit, tuple(dict.fromkeys(terms)), snippet)


@dataclass(frozen=True)
class RowLook:
    """What a row's picture depends on besides the row: read from the view on the GUI thread,
    so a worker can draw the pictures of an answer's rows (:func:`row_pictures`)."""

    font: QFont
    palette: QPalette
    width: int  # of the row's content (title, score, snippet), in pixels
    ratio: float  # the view's device pixel ratio
    snippet_lines: int
    copies_text: Callable[[SearchHit], str]  # "3 copies" (ResultDelegate.copies_text)

    @property
    def height(self) -> int:
        title = QFontMetrics(self.font).height()
        return title + 4 + QFontMetrics(small_font(self.font)).lineSpacing() * self.snippet_lines


Picture = tuple[tuple[object, ...], QImage]  # (row_key, picture)


@dataclass(frozen=True)
class AnswerLooks:
    """The rows' look in a view that shows an answer: without and with a scroll bar."""

    few: RowLook  # at most ``fit`` rows: no scroll bar
    many: RowLook
    fit: int

    def first_screen(self, rows: Sequence[ResultRow]) -> list[Picture]:
        """Pictures of the rows the view shows first (any thread)."""
        look = self.few if len(rows) <= self.fit else self.many
        return row_pictures(rows[: self.fit + 1], look)


def row_key(row: ResultRow, look: RowLook, selected: bool) -> tuple[object, ...]:
    """Everything :func:`row_picture` draws from: the same key, the same pixels."""
    hit = row.hit
    colours = (
        look.palette.color(
            QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        ),
        colors.muted_text(look.palette, selected),
        colors.match_background(look.palette),
        colors.chip_background(look.palette, selected),
    )
    return (
        hit.title,
        score_text(hit),
        look.copies_text(hit),
        row.snippet,
        row.terms,
        look.width,
        look.height,
        look.ratio,
        selected,
        tuple(c.rgba() for c in colours),
        look.font.key(),
    )


def row_pictures(
    rows: Sequence[ResultRow], look: RowLook, *, selected_first: bool = True
) -> list[Picture]:
    """Pictures of ``rows`` (an answer's first screenful): any thread. The view selects the
    first row when an answer comes, so it is drawn selected (and plain, for when it is not)."""
    pictures = [(row_key(row, look, False), row_picture(row, look, False)) for row in rows]
    if rows and selected_first:
        pictures.append((row_key(rows[0], look, True), row_picture(rows[0], look, True)))
    return pictures


def row_picture(row: ResultRow, look: RowLook, selected: bool) -> QImage:
    """Title, score and snippet, matches marked, drawn into a transparent image ``look.width``
    by ``look.height`` pixels. Any thread: QPainter on a QImage needs no GUI thread, and the
    laid-out text stays on the thread that made it (its glyphs belong to that thread's font
    cache; only the pixels leave).

    Laid out with :class:`QTextLayout`, which is no QObject: a ``QTextDocument`` connects its
    layout's signals when it makes one, under Qt's signal lock, while the worker held Python's
    GIL — and the GUI thread, disconnecting a signal under that lock, waited for the GIL to
    ask whether Python overrides ``disconnectNotify``: the window froze for good (seen once in
    the test suite, a search panel drawing rows while a test disconnected its signal)."""
    image = transparent_image(look.width, look.height, look.ratio)
    with QPainter(image) as painter:
        _paint_score(painter, look, row.hit, selected)
        painter.setClipRect(QRect(0, 0, look.width, look.height))
        bottom = _paint_title(painter, row, look, selected)
        _paint_snippet(painter, row, look, selected, bottom + TITLE_GAP)
    return image


TITLE_GAP = 3  # pixels between the title's line and the snippet


def _mark(look: RowLook, selected: bool, base: QFont) -> QTextCharFormat:
    """How a matched word is marked: tinted and bolder, underlined on a selected row."""
    mark = QTextCharFormat()
    bolder = QFont(base)
    if selected:
        bolder.setWeight(QFont.Weight.Bold)
        bolder.setUnderline(True)
    else:
        bolder.setWeight(QFont.Weight.DemiBold)
        mark.setBackground(colors.match_background(look.palette))
    mark.setFont(bolder)
    return mark


def _ranges(spans: list[tuple[int, int]], form: QTextCharFormat) -> list[QTextLayout.FormatRange]:
    out = []
    for start, length in spans:
        item = QTextLayout.FormatRange()
        item.start, item.length, item.format = start, length, form
        out.append(item)
    return out


def _paint_title(painter: QPainter, row: ResultRow, look: RowLook, selected: bool) -> float:
    """The title, elided clear of the score badge, and a muted copies count; its bottom."""
    bold = QFont(look.font)
    bold.setWeight(QFont.Weight.DemiBold)
    badge = QFontMetrics(small_font(look.font)).horizontalAdvance(score_text(row.hit))
    room = badge + 12 + SCORE_GAP  # keeps the title clear of the score badge
    shown = QFontMetrics(bold).elidedText(
        row.hit.title, Qt.TextElideMode.ElideRight, look.width - room
    )
    formats = _ranges(highlight_spans(shown, row.terms), _mark(look, selected, bold))
    text = shown
    count = look.copies_text(row.hit)
    if count:  # an import made twice is one row
        muted = QTextCharFormat()
        muted.setFont(look.font)
        muted.setForeground(colors.muted_text(look.palette, selected))
        formats += _ranges([(len(text) + 1, len(count) + 2)], muted)
        text += f" · {count}"
    return _paint_lines(painter, text, bold, formats, look, selected, 0.0, max_lines=1)


def _paint_snippet(
    painter: QPainter, row: ResultRow, look: RowLook, selected: bool, top: float
) -> None:
    small = small_font(look.font)
    formats = _ranges(highlight_spans(row.snippet, row.terms), _mark(look, selected, small))
    muted = colors.muted_text(look.palette, selected)
    _paint_lines(painter, row.snippet, small, formats, look, selected, top, color=muted)


def _paint_lines(
    painter: QPainter,
    text: str,
    font: QFont,
    formats: list[QTextLayout.FormatRange],
    look: RowLook,
    selected: bool,
    top: float,
    *,
    max_lines: int = 1 << 30,
    color: QColor | None = None,
) -> float:
    """``text`` wrapped to the row's width from ``top`` while lines fit; the bottom drawn to."""
    layout = QTextLayout(text, font)
    layout.setFormats(formats)
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
    layout.setTextOption(option)
    layout.beginLayout()
    y = top
    for _ in range(max_lines):
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(look.width)
        if y + line.height() > look.height and y > top:
            line.setNumColumns(0)  # the rest would be cut off: not laid out
            break
        line.setPosition(QPointF(0.0, y - top))
        y += line.height()
    layout.endLayout()
    role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
    painter.setPen(color if color is not None else look.palette.color(role))
    layout.draw(painter, QPointF(0.0, top))
    return y


def _paint_score(painter: QPainter, look: RowLook, hit: SearchHit, selected: bool) -> None:
    """The relevance in a rounded chip at the right end of the title's line."""
    font = small_font(look.font)
    metrics = QFontMetrics(font)
    text = score_text(hit)
    width = metrics.horizontalAdvance(text) + 12
    height = metrics.height() + 2
    top = (QFontMetrics(look.font).height() - height) // 2 + 2
    rect = QRect(look.width - width, top, width, height)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(colors.chip_background(look.palette, selected))
    painter.drawRoundedRect(rect, height / 2, height / 2)
    painter.setFont(font)
    painter.setPen(colors.muted_text(look.palette, selected))
    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)


class ResultDelegate(QStyledItemDelegate):
    """Title (bold) and score on the first line, the snippet below, matches highlighted.

    A row is drawn from its picture (:func:`row_picture`): laying out rich text is the costly
    part of a row (~0.3-1 ms each, a screenful per answer while someone types), so the search's
    worker draws the first screenful of its answer (:meth:`look`, :func:`row_pictures`) and the
    view only puts them on the screen (:meth:`adopt`). Pictures are kept by what they show:
    the next answer showing the same hit reuses one; a row without one is drawn here."""

    def __init__(self, view: QListView, *, snippet_lines: int = 3) -> None:
        super().__init__(view)
        self._view = view
        self._snippet_lines = snippet_lines
        self._pictures: OrderedDict[tuple[object, ...], QImage] = OrderedDict()
        # The last picture of each row's content, whatever its look: it stands in for the
        # row while the picture at the view's look is drawn on a worker.
        self._latest: OrderedDict[tuple[object, ...], QImage] = OrderedDict()
        self._wanted: dict[tuple[object, ...], tuple[ResultRow, RowLook, bool]] = {}
        self._drawing: set[tuple[object, ...]] = set()  # asked of the worker, not back yet
        self.stood_in = 0  # rows painted with a stand-in while a worker drew them (tests)

    def look(self, option: QStyleOptionViewItem | None = None, width: int = -1) -> RowLook:
        """What rows look like in the view now (GUI thread); ``width``: of the viewport, when
        it is not the one it has now."""
        font = option.font if option is not None else self._view.font()
        palette = option.palette if option is not None else self._view.palette()
        width = width if width >= 0 else self._view.viewport().width()
        ratio = self._view.devicePixelRatioF()
        return RowLook(QFont(font), QPalette(palette), max(120, width - 2 * PAD_X), ratio,
                       self._snippet_lines, self.copies_text)  # fmt: skip

    def copies_text(self, hit: SearchHit) -> str:
        """ "3 copies" for a hit standing for other memories with the same content, else ""
        (any thread: a translation look-up only)."""
        copies = len(getattr(hit, "copies", ()))
        return self.tr("%n copies", "", copies + 1) if copies else ""

    def answer_looks(self, size: QSize) -> AnswerLooks:
        """How the next answer's rows will look in the view once it is ``size`` (the room it
        is given: hidden behind a placeholder, it has not been laid out): with few rows, and
        with enough for a scroll bar, which takes width from them (GUI thread)."""
        bar = self._view.verticalScrollBar()
        style = self._view.style()
        overlay = style.styleHint(QStyle.StyleHint.SH_ScrollBar_Transient, None, bar)
        extent = 0 if overlay else style.pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
        few = self.look(width=size.width())
        fit = max(1, size.height() // (few.height + 2 * PAD_Y))
        return AnswerLooks(few, self.look(width=size.width() - extent), fit)

    def adopt(self, pictures: Sequence[Picture]) -> None:
        """Keep pictures a worker drew, for the rows painted next."""
        for key, image in pictures:
            self._keep(key, image)

    def sizeHint(self, option: QStyleOptionViewItem, index: AnyIndex) -> QSize:
        # One height for every row: the view then lays out only what is visible, and no
        # rich text is laid out just to be measured.
        return QSize(200, self.look(option).height + 2 * PAD_Y)

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
        at = opt.rect.topLeft() + QPoint(PAD_X, PAD_Y)
        look = self.look(opt)
        key = row_key(row, look, selected)
        image = self._pictures.get(key)
        painter.save()
        if image is not None:
            self._pictures.move_to_end(key)
            painter.drawImage(at, image)
        else:  # drawn on a worker (see the module's docstring); something stands in meanwhile
            self._ask_worker(key, row, look, selected)
            self._stand_in(painter, opt, at, row, look, selected)
        painter.restore()
        painter.save()
        painter.setPen(colors.chip_background(opt.palette))
        y = opt.rect.bottom()
        painter.drawLine(opt.rect.left() + PAD_X, y, opt.rect.right() - PAD_X, y)
        painter.restore()

    def _stand_in(
        self,
        painter: QPainter,
        opt: QStyleOptionViewItem,
        at: QPoint,
        row: ResultRow,
        look: RowLook,
        selected: bool,
    ) -> None:
        """The row's last picture at another look, clipped to the row; else its title, plain
        (no rich text laid out: a line of one font)."""
        self.stood_in += 1
        painter.setClipRect(opt.rect.adjusted(PAD_X, PAD_Y, -PAD_X, -PAD_Y))
        stale = self._latest.get(_content_key(row, selected))
        if stale is not None:
            painter.drawImage(at, stale)
            return
        bold = QFont(look.font)
        bold.setWeight(QFont.Weight.DemiBold)
        painter.setFont(bold)
        role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        painter.setPen(look.palette.color(role))
        line = QRect(at, QSize(look.width, QFontMetrics(bold).height()))
        title = QFontMetrics(bold).elidedText(
            row.hit.title, Qt.TextElideMode.ElideRight, look.width
        )
        painter.drawText(
            line, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), title
        )

    def _ask_worker(
        self, key: tuple[object, ...], row: ResultRow, look: RowLook, selected: bool
    ) -> None:
        """Draw the picture on the drawing worker; the rows painted in one go are asked for
        together (the next turn of the event loop sends them)."""
        if key in self._drawing or key in self._wanted:
            return
        if not self._wanted:
            QTimer.singleShot(0, self._send_wanted)
        self._wanted[key] = (row, look, selected)

    def _send_wanted(self) -> None:
        wanted, self._wanted = self._wanted, {}
        if not wanted:
            return
        self._drawing.update(wanted)

        def draw() -> list[Picture]:
            return [(key, row_picture(*args)) for key, args in wanted.items()]

        def failed(exc: BaseException) -> None:
            self._drawing.difference_update(wanted)
            log.warning("drawing %d result rows failed: %s", len(wanted), exc, exc_info=exc)

        _drawing_lane().submit(draw, self._drawn, failed, context=self)

    def _drawn(self, pictures: list[Picture]) -> None:
        for key, image in pictures:
            self._drawing.discard(key)
            self._keep(key, image)
        self._view.viewport().update()

    def _keep(self, key: tuple[object, ...], image: QImage) -> None:
        self._pictures[key] = image
        self._pictures.move_to_end(key)
        if len(self._pictures) > KEPT_PICTURES:  # the least recently painted goes
            self._pictures.popitem(last=False)
        latest = _content_key_of(key)
        self._latest[latest] = image
        self._latest.move_to_end(latest)
        if len(self._latest) > KEPT_PICTURES:
            self._latest.popitem(last=False)


def _content_key(row: ResultRow, selected: bool) -> tuple[object, ...]:
    """What a row shows whatever its look: its title, snippet and selection."""
    return (row.hit.title, row.snippet, selected)


def _content_key_of(key: tuple[object, ...]) -> tuple[object, ...]:
    """:func:`_content_key` of a :func:`row_key`."""
    return (key[0], key[3], key[8])


_lane: workers.SerialLane | None = None


def _drawing_lane() -> workers.SerialLane:
    """One thread drawing result rows for every view: never queued behind indexing or the map
    (the global pool), and one at a time (a few ms each)."""
    global _lane
    if _lane is None:
        _lane = workers.SerialLane()
    return _lane


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
