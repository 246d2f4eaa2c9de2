"""Two-line rows for the memory list: importance dot, bold title, date; topic chips below.

The title has the first claim on its line: when the date beside it would cut the title to
less than :data:`TITLE_SHARE` of the row ("Cat…" beside "18 分钟前" at 800×600), the date
moves to the end of the second line, where the chips or the preview make room for it.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QFont, QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from pixelmem.core.vault.memory import Memory, preview_line
from pixelmem.gui.memory_list.memory_list_model import MemoryRole
from pixelmem.gui.widgets import colors
from pixelmem.gui.widgets.dates import relative_date

PAD_X, PAD_Y, LINE_GAP, CHIP_PAD, CHIP_GAP, DOT = 12, 9, 5, 7, 5, 8
TITLE_SHARE = 0.6  # of the row's width, before the date gives way
AnyIndex = QModelIndex | QPersistentModelIndex


def small_font(font: QFont) -> QFont:
    small = QFont(font)
    small.setPointSizeF(max(7.0, font.pointSizeF() * 0.86))
    return small


def title_room(title_width: int, date_width: int, line: int) -> tuple[int, bool]:
    """(the title's width, whether the date goes to the second line) on a line ``line`` px
    wide: the date stays beside the title while the title fits whole or keeps
    :data:`TITLE_SHARE` of the line."""
    beside = line - date_width - 10
    if title_width > beside and beside < TITLE_SHARE * line:
        return max(0, line), True
    return max(0, beside), False


class MemoryDelegate(QStyledItemDelegate):
    def sizeHint(self, option: QStyleOptionViewItem, index: AnyIndex) -> QSize:
        title = QFontMetrics(option.font).height()
        small = QFontMetrics(small_font(option.font)).height()
        # Narrow on purpose: rows take the view's width, and the title elides to fit it.
        return QSize(160, PAD_Y * 2 + title + LINE_GAP + small + 4)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        memory = index.data(MemoryRole)
        if not isinstance(memory, Memory):
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""
        style = opt.widget.style() if opt.widget else None
        if style is not None:  # background, selection and focus, as the style draws them
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        rect = opt.rect.adjusted(PAD_X, PAD_Y, -PAD_X, -PAD_Y)
        bottom, date_below = self._paint_first_line(painter, opt, memory, rect, selected)
        second = QRect(rect.left() + DOT + 8, bottom + LINE_GAP, rect.width() - DOT - 8, 0)
        if date_below:
            second = self._paint_date_below(painter, opt, date_below, second, selected)
        self._paint_second_line(painter, opt, memory, second, selected)
        self._paint_separator(painter, opt)
        painter.restore()

    def _paint_first_line(
        self,
        painter: QPainter,
        opt: QStyleOptionViewItem,
        memory: Memory,
        rect: QRect,
        selected: bool,
    ) -> tuple[int, str]:
        """Draw the dot, the title and (if it leaves the title room) the date; the line's
        bottom, and the date when it goes to the second line instead."""
        palette = opt.palette
        metrics = QFontMetrics(opt.font)
        height = metrics.height()
        dot = QRectF(rect.left(), rect.top() + (height - DOT) / 2, DOT, DOT)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(colors.importance_color(palette, memory.importance))
        painter.drawEllipse(dot)
        small = small_font(opt.font)
        date = relative_date(memory.updated or memory.created)
        date_width = QFontMetrics(small).horizontalAdvance(date)
        title_font = QFont(opt.font)
        title_font.setWeight(QFont.Weight.DemiBold)
        left = rect.left() + DOT + 8
        line = rect.right() - left
        wanted = QFontMetrics(title_font).horizontalAdvance(memory.title)
        width, below = title_room(wanted, date_width, line)
        date_below = date if below else ""
        if not date_below:
            painter.setFont(small)
            painter.setPen(colors.muted_text(palette, selected))
            date_rect = QRect(rect.right() - date_width, rect.top(), date_width, height)
            painter.drawText(
                date_rect, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, date
            )
        painter.setFont(title_font)
        text_role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        painter.setPen(palette.color(text_role))
        title = QFontMetrics(title_font).elidedText(
            memory.title, Qt.TextElideMode.ElideRight, width
        )
        painter.drawText(
            QRect(left, rect.top(), width, height), Qt.AlignmentFlag.AlignVCenter, title
        )
        return rect.top() + height, date_below

    def _paint_date_below(
        self, painter: QPainter, opt: QStyleOptionViewItem, date: str, rect: QRect, selected: bool
    ) -> QRect:
        """The date at the end of the second line; the room left of it for the rest."""
        small = small_font(opt.font)
        metrics = QFontMetrics(small)
        date_width = metrics.horizontalAdvance(date)
        painter.setFont(small)
        painter.setPen(colors.muted_text(opt.palette, selected))
        painter.drawText(
            QRect(rect.right() - date_width, rect.top(), date_width, metrics.height() + 4),
            Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
            date,
        )
        return rect.adjusted(0, 0, -(date_width + 10), 0)

    def _paint_second_line(
        self,
        painter: QPainter,
        opt: QStyleOptionViewItem,
        memory: Memory,
        rect: QRect,
        selected: bool,
    ) -> None:
        small = small_font(opt.font)
        metrics = QFontMetrics(small)
        painter.setFont(small)
        height = metrics.height() + 4
        x, right = rect.left(), rect.right()
        for topic in memory.topics:
            width = metrics.horizontalAdvance(topic) + 2 * CHIP_PAD
            if x + width > right:
                break
            chip = QRectF(x, rect.top(), width, height)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(colors.chip_background(opt.palette, selected))
            painter.drawRoundedRect(chip, height / 2, height / 2)
            painter.setPen(colors.muted_text(opt.palette, selected))
            painter.drawText(chip, Qt.AlignmentFlag.AlignCenter, topic)
            x += width + CHIP_GAP
        if x == rect.left():  # no topics: a line of the body says what the memory is about
            painter.setPen(colors.muted_text(opt.palette, selected))
            text = metrics.elidedText(
                preview_line(memory.body), Qt.TextElideMode.ElideRight, right - x
            )
            painter.drawText(
                QRect(x, rect.top(), right - x, height), Qt.AlignmentFlag.AlignVCenter, text
            )

    def _paint_separator(self, painter: QPainter, opt: QStyleOptionViewItem) -> None:
        painter.setPen(colors.chip_background(opt.palette))
        y = opt.rect.bottom()
        painter.drawLine(opt.rect.left() + PAD_X, y, opt.rect.right() - PAD_X, y)
