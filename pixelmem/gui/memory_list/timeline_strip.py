"""A strip above the memory list: memories written per week, stacked by topic; click to filter.

The counts (:func:`~pixelmem.core.insight.timeline.build_timeline`) are computed on a worker
from the store, again a moment after each ``memory_updated``. A click picks a week, a drag a
range of weeks; the list then shows only the memories written in them (``period_selected``).
Clicking the chosen week again, Esc or "Show all" clears it. Hovering a bar tells its week,
its count and its topics.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import TYPE_CHECKING

from PySide6.QtCore import QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QKeyEvent, QMouseEvent, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QVBoxLayout, QWidget

from pixelmem.core.insight.timeline import (
    EMPTY_TIMELINE,
    NO_TOPIC,
    OTHER,
    WEEK,
    Timeline,
    build_timeline,
)
from pixelmem.gui.bus import MemoryBus
from pixelmem.gui.session import VaultSession
from pixelmem.gui.widgets.colors import HUES
from pixelmem.gui.widgets.filter_caption import FilterCaption
from pixelmem.gui.workers import LatestOnly

if TYPE_CHECKING:  # numpy is imported where bars are drawn: the empty strip is built before
    import numpy as np  # the window's first paint, which does without numpy

REFRESH_DELAY_MS = 400  # after a change set; a burst of saves is counted once
STRIP_HEIGHT = 44
MIN_BAR = 3.0  # px: narrower weeks share a bar
OTHER_COLOUR = QColor("#b0b0b0")
NO_TOPIC_COLOUR = QColor("#dddddd")

Period = tuple[date, date]  # first day, day after the last


def group_colour(timeline: Timeline, group: int) -> QColor:
    name = timeline.groups[group]
    if name == OTHER:
        return OTHER_COLOUR
    if name == NO_TOPIC:
        return NO_TOPIC_COLOUR
    return QColor(HUES[group % len(HUES)])


class TimelineBars(QWidget):
    """The painted bars; emits the chosen weeks as ``(first, last)`` indices, or (-1, -1)."""

    weeks_chosen = Signal(int, int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.timeline = EMPTY_TIMELINE
        self.chosen: tuple[int, int] | None = None
        self._press: tuple[int, int] | None = None
        self.setMouseTracking(True)
        self.setMinimumHeight(STRIP_HEIGHT)
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)

    def sizeHint(self) -> QSize:
        return QSize(240, STRIP_HEIGHT)

    def set_timeline(self, timeline: Timeline) -> None:
        self.timeline = timeline
        if self.chosen and self.chosen[1] >= len(timeline):
            self.chosen = None
        self.update()

    def week_at(self, x: float) -> int | None:
        n = len(self.timeline)
        if not n or self.width() <= 0:
            return None
        return int(min(max(x / self.width() * n, 0), n - 1))

    def bars(self) -> tuple[np.ndarray, np.ndarray]:
        """(first week, week after the last) of each bar drawn: one week, or neighbouring
        weeks sharing a bar when a week is narrower than MIN_BAR pixels."""
        import numpy as np

        n = len(self.timeline)
        per_week = self.width() / max(n, 1)
        columns = np.floor(np.arange(n) * per_week / MIN_BAR).astype(np.int64)
        starts = np.unique(columns, return_index=True)[1]
        return starts, np.append(starts[1:], n)

    def bar_at(self, x: float) -> tuple[int, int] | None:
        """The weeks (first, last) of the bar under ``x``; a click chooses all of them."""
        import numpy as np

        week = self.week_at(x)
        if week is None:
            return None
        starts, ends = self.bars()
        bar = int(np.searchsorted(starts, week, side="right")) - 1
        return int(starts[bar]), int(ends[bar]) - 1

    def paintEvent(self, event: QPaintEvent) -> None:
        with QPainter(self) as painter:  # ended here, whoever keeps the frame (a stack sampler)
            palette = self.palette()
            painter.fillRect(self.rect(), palette.color(QPalette.ColorRole.Base))
            timeline, n = self.timeline, len(self.timeline)
            if not n:
                return
            import numpy as np

            per_week = self.width() / n
            if self.chosen:
                first, last = self.chosen
                band = QRectF(first * per_week, 0, (last - first + 1) * per_week, self.height())
                painter.fillRect(band, palette.color(QPalette.ColorRole.Highlight).lighter(160))
            # Years of weeks in a narrow strip: neighbouring weeks share a bar at least MIN_BAR px
            # wide, so a paint draws at most (width / MIN_BAR) × groups rectangles (10 years at
            # 320 px: 17-23 ms one by one, 3 ms binned).
            starts, ends = self.bars()
            counts = np.add.reduceat(timeline.counts, starts, axis=0)
            tops = np.cumsum(counts, axis=1)
            height = self.height() - 2.0
            scale = height / max(int(tops[:, -1].max()), 1)
            gap = 1.0 if (ends - starts).min() * per_week >= 4 else 0.0  # a hairline where room
            # Plain floats: numpy scalars in this loop cost 20 ms a paint.
            xs = (starts * per_week).tolist()
            widths = np.maximum((ends - starts) * per_week - gap, 1.0).tolist()
            ys = (height + 2 - tops * scale).tolist()
            sizes = (counts * scale).tolist()
            painter.setPen(Qt.PenStyle.NoPen)
            for g in range(len(timeline.groups)):
                painter.setBrush(group_colour(timeline, g))
                for c in np.flatnonzero(counts[:, g]).tolist():
                    painter.drawRect(QRectF(xs[c], ys[c][g], widths[c], sizes[c][g]))

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self._press = self.bar_at(event.position().x())

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        x = event.position().x()
        bar, week = self.bar_at(x), self.week_at(x)
        if self._press is not None and bar is not None:
            self.chosen = (min(self._press[0], bar[0]), max(self._press[1], bar[1]))
            self.update()
        self.setToolTip(self.describe(week) if week is not None else "")

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if self._press is None or event.button() != Qt.MouseButton.LeftButton:
            return
        bar = self.bar_at(event.position().x())
        press, self._press = self._press, None
        if bar is None:
            return
        picked = (min(press[0], bar[0]), max(press[1], bar[1]))
        self.choose(None if picked == self.chosen and press == bar else picked)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape and self.chosen:
            self.choose(None)
        else:
            super().keyPressEvent(event)

    def choose(self, weeks: tuple[int, int] | None) -> None:
        self.chosen = weeks
        self.update()
        self.weeks_chosen.emit(*(weeks or (-1, -1)))

    def describe(self, week: int) -> str:
        """Tooltip: the week, how many memories and the topics among them."""
        import numpy as np

        timeline = self.timeline
        start = timeline.weeks[week]
        total = int(timeline.counts[week].sum())
        head = self.tr("Week of {day}: {count} memories").format(day=start.isoformat(), count=total)
        if total == 1:
            head = self.tr("Week of {day}: 1 memory").format(day=start.isoformat())
        lines = [head]
        for g in np.argsort(-timeline.counts[week], kind="stable").tolist():
            count = int(timeline.counts[week, g])
            if count:
                lines.append(f"{self.group_name(g)}: {count}")
        return "\n".join(lines)

    def group_name(self, group: int) -> str:
        name = self.timeline.groups[group]
        if name == OTHER:
            return self.tr("Other topics")
        if name == NO_TOPIC:
            return self.tr("No topic")
        return name


class TimelineStrip(QWidget):
    """The bars and a caption line; ``period_selected(period or None)`` filters the list."""

    period_selected = Signal(object)  # Period | None
    timeline_shown = Signal(int)  # weeks, after each refresh

    def __init__(
        self, session: VaultSession, bus: MemoryBus, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.bars = TimelineBars()
        self.caption = FilterCaption()  # a long date range never widens the list's dock
        self._latest = LatestOnly()
        self._timer = QTimer(self, singleShot=True, interval=REFRESH_DELAY_MS)
        self._timer.timeout.connect(self.refresh)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 4, 10, 2)
        layout.setSpacing(2)
        layout.addWidget(self.bars)
        layout.addWidget(self.caption)
        self.bars.weeks_chosen.connect(self._weeks_chosen)
        self.caption.cleared.connect(lambda: self.bars.choose(None))
        bus.memory_updated.connect(lambda *_: self._timer.start())
        self.retranslate()

    def retranslate(self) -> None:
        self._show_caption()

    def refresh(self) -> None:
        """Count again on a worker."""
        store = self.session.store
        self._latest.submit(lambda: build_timeline(store.view()), self._show)

    def _show(self, timeline: Timeline) -> None:
        chosen = self.period()
        self.bars.set_timeline(timeline)
        if chosen is not None:  # the same days stay chosen when weeks were added before them
            first, last = timeline.week_of(chosen[0]), timeline.week_of(chosen[1] - WEEK)
            self.bars.chosen = (first, last) if first is not None and last is not None else None
            if self.bars.chosen is None:
                self.period_selected.emit(None)
        self._show_caption()
        self.timeline_shown.emit(len(timeline))

    def period(self) -> Period | None:
        """The chosen days (first, day after the last), or None."""
        chosen, weeks = self.bars.chosen, self.bars.timeline.weeks
        if chosen is None or not weeks:
            return None
        return weeks[chosen[0]], weeks[chosen[1]] + WEEK

    def _weeks_chosen(self, first: int, last: int) -> None:
        self._show_caption()
        self.period_selected.emit(self.period())

    def _show_caption(self) -> None:
        period = self.period()
        timeline = self.bars.timeline
        if period is None:
            text = (
                self.tr("Per week, {first} to {last} · click to filter").format(
                    first=timeline.weeks[0].isoformat(),
                    last=(timeline.weeks[-1] + WEEK - timedelta(days=1)).isoformat(),
                )
                if len(timeline)
                else ""
            )
        else:
            first, last = period[0], period[1] - WEEK
            if first == last:
                text = self.tr("Week of {day}").format(day=first.isoformat())
            else:
                text = self.tr("{first} to {last}").format(
                    first=first.isoformat(), last=(period[1] - timedelta(days=1)).isoformat()
                )
        self.caption.show_text(text, filtering=period is not None)


def above_list(strip: TimelineStrip, panel: QWidget) -> QWidget:
    """``panel`` (the memory list) with the strip above it, as one widget for the dock."""
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(0)
    layout.addWidget(strip)
    layout.addWidget(panel, 1)
    return box
