"""A row of widgets that wraps onto more lines when it is narrow (Qt's flow layout example).

Used for toolbars and filter rows, so a narrow window (800 px with the docks open) gets two
short lines instead of being pushed wider than the screen or cutting labels to "Topi…".
Differences from the Qt example, all so that a row reads like an ordinary ``QHBoxLayout``
when there is room:

- a line is filled while its items fit at :data:`SHRINK` of their preferred widths (never
  below their minimum), then the line's room is shared: each item grows towards its
  preferred width (in proportion to what it lacks), and an item whose horizontal size policy
  expands (a line edit, a stretchy combo box) takes what is left. So a row shrinks a little
  (a combo box elides a few letters) before it wraps, but wraps before "Any i…";
- hidden widgets take no room; the minimum width is that of the widest single item.
"""

from __future__ import annotations

from typing import NamedTuple

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QWidget, QWidgetItem

SHRINK = 0.6  # an item on a shared line keeps at least this much of its preferred width


class FlowLayout(QLayout):
    def __init__(self, parent: QWidget | None = None, spacing: int = 4) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._spacing = spacing
        # heightForWidth by width, and each item's (preferred, least) width, until the layout
        # is invalidated (an item added, shown, hidden or its hints changed): Qt asks for the
        # height dozens of times per layout pass, and each arrangement read every item's
        # hints five times (a widget's sizeHint is not cached by a plain QWidgetItem).
        self._heights: dict[int, int] = {}
        self._hints: dict[int, _Hint] = {}

    def addWidget(self, widget: QWidget) -> None:
        """Wrap ``widget`` in an item made here: the wrapper of one Qt's ``addWidget`` makes
        goes stale once Python drops a wrapper above it ("QWidgetItem already deleted")."""
        self.addChildWidget(widget)
        self.addItem(QWidgetItem(widget))

    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)
        self.invalidate()

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        if not 0 <= index < len(self._items):
            return None
        self.invalidate()
        return self._items.pop(index)

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        height = self._heights.get(width)
        if height is None:
            height = self._heights[width] = self._arrange(QRect(0, 0, width, 0), move=False)
        return height

    def invalidate(self) -> None:
        self._heights.clear()
        self._hints.clear()
        super().invalidate()

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._arrange(rect, move=True)

    def sizeHint(self) -> QSize:
        return self.minimumSize()

    def one_line_width(self) -> int:
        """The width that fits every item on one line at its preferred size."""
        hints = [item.sizeHint().width() for item in self._shown()]
        margins = self.contentsMargins()
        gaps = self._spacing * max(len(hints) - 1, 0)
        return sum(hints) + gaps + margins.left() + margins.right()

    def minimumSize(self) -> QSize:
        """As narrow as the widest item; as tall as the lines need at the current width, so
        a dock asks for the room its wrapped rows take (docks do not ask heightForWidth)."""
        size = QSize()
        for item in self._shown():
            size = size.expandedTo(item.minimumSize())
        margins = self.contentsMargins()
        size += QSize(margins.left() + margins.right(), margins.top() + margins.bottom())
        width = self.geometry().width()
        if width > 0:
            size.setHeight(max(size.height(), self.heightForWidth(width)))
        return size

    def _shown(self) -> list[QLayoutItem]:
        return [i for i in self._items if (w := i.widget()) is None or not w.isHidden()]

    def _lines(self, width: int) -> list[list[QLayoutItem]]:
        """The items of each line: as many as fit at :data:`SHRINK` of their preferred width."""
        lines: list[list[QLayoutItem]] = [[]]
        used = 0
        for item in self._shown():
            hint = self._hint(item)
            wanted = max(hint.least, round(hint.preferred * SHRINK))
            if lines[-1] and used + self._spacing + wanted > width:
                lines.append([])
                used = 0
            used += (self._spacing if lines[-1] else 0) + wanted
            lines[-1].append(item)
        return [line for line in lines if line]

    def _widths(self, line: list[QLayoutItem], width: int) -> list[int]:
        """Share a line's room: minimums first, then towards preferred, then to expanders."""
        hints = [self._hint(item) for item in line]
        least = [hint.least for hint in hints]
        lacking = [max(hint.preferred - hint.least, 0) for hint in hints]
        room = max(width - sum(least) - self._spacing * (len(line) - 1), 0)
        if sum(lacking) > room:
            return [
                low + lack * room // sum(lacking) for low, lack in zip(least, lacking, strict=True)
            ]
        widths = [low + lack for low, lack in zip(least, lacking, strict=True)]
        stretchy = [bool(i.expandingDirections() & Qt.Orientation.Horizontal) for i in line]
        if any(stretchy):
            extra = (room - sum(lacking)) // sum(stretchy)
            widths = [w + (extra if s else 0) for w, s in zip(widths, stretchy, strict=True)]
        return widths

    def _hint(self, item: QLayoutItem) -> _Hint:
        """The item's hints, read once per invalidation."""
        hint = self._hints.get(id(item))
        if hint is None:
            preferred, least = item.sizeHint(), item.minimumSize()
            hint = self._hints[id(item)] = _Hint(
                preferred.width(),
                least.width(),
                preferred.height(),
                least.height(),
                item.hasHeightForWidth(),
            )
        return hint

    def _height(self, item: QLayoutItem, width: int) -> int:
        """An item's height at ``width``: a word-wrapped label is taller when narrower."""
        hint = self._hint(item)
        if hint.for_width:
            return max(item.heightForWidth(width), hint.least_height)
        return hint.height

    def _arrange(self, rect: QRect, *, move: bool) -> int:
        margins = self.contentsMargins()
        area = rect.adjusted(margins.left(), margins.top(), -margins.right(), -margins.bottom())
        y = area.y()
        lines = self._lines(area.width())
        for number, line in enumerate(lines):
            widths = self._widths(line, area.width())
            heights = [self._height(item, w) for item, w in zip(line, widths, strict=True)]
            height = max(heights)
            if move:
                x = area.x()
                for item, width, item_height in zip(line, widths, heights, strict=True):
                    top = y + (height - item_height) // 2
                    item.setGeometry(QRect(QPoint(x, top), QSize(width, item_height)))
                    x += width + self._spacing
            y += height + (self._spacing if number < len(lines) - 1 else 0)
        return y - rect.y() + margins.bottom()


class _Hint(NamedTuple):
    preferred: int  # widths
    least: int
    height: int  # preferred
    least_height: int
    for_width: bool  # its height depends on its width (a word-wrapped label)
