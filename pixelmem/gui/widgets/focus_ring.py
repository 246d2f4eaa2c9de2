"""A clear keyboard focus frame, the same in every style and in light and dark palettes.

Styles draw focus faintly (Fusion: a thin tinted line edit border, nothing on a list), and
not at all on some widgets. :class:`FocusRing` draws a 2 px frame in the palette's highlight
colour around the widget that has keyboard focus. It is a transparent child of that widget,
so it moves and clips with it; it is shown when focus arrives from the keyboard (Tab, a
shortcut), not when a click put it there: the click already says where the person is.
"""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import QEvent, QObject, QRectF, Qt
from PySide6.QtGui import QPainter, QPaintEvent, QPalette, QPen
from PySide6.QtWidgets import QApplication, QWidget

WIDTH = 2


class FocusRing(QWidget):
    """One per window; follows ``QApplication.focusChanged``."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.setObjectName("focusRing")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.hide()
        self._window = window
        self._target: QWidget | None = None
        app = QApplication.instance()
        assert isinstance(app, QApplication)
        app.focusChanged.connect(self._focus_changed)

    @property
    def target(self) -> QWidget | None:
        """The widget the ring is shown around, if it is shown."""
        return self._target if self.isVisible() else None

    def _focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        if not shiboken6.isValid(self):
            return
        self._release()
        mouse = QApplication.mouseButtons() != Qt.MouseButton.NoButton
        if new is None or mouse or not shiboken6.isValid(new) or new is self:
            return
        if new.window() is not self._window:
            return
        self._target = new
        new.installEventFilter(self)
        self.setParent(new)
        self._fit()
        self.show()
        self.raise_()

    def _release(self) -> None:
        target, self._target = self._target, None
        self.hide()
        if target is not None and shiboken6.isValid(target):
            target.removeEventFilter(self)
        if shiboken6.isValid(self._window) and self.parent() is not self._window:
            self.setParent(self._window)  # never deleted with a widget it was around

    def _fit(self) -> None:
        if self._target is not None:
            self.setGeometry(self._target.rect())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._target:
            if event.type() == QEvent.Type.Resize:
                self._fit()
            elif event.type() == QEvent.Type.ChildAdded:
                self.raise_()  # stay above children added later
            elif event.type() in (QEvent.Type.Hide, QEvent.Type.DeferredDelete):
                self._release()
        return False

    def paintEvent(self, _event: QPaintEvent) -> None:
        with QPainter(self) as painter:  # ended here, whoever keeps the frame (a stack sampler)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            color = self.palette().color(QPalette.ColorGroup.Active, QPalette.ColorRole.Highlight)
            painter.setPen(QPen(color, WIDTH))
            inset = WIDTH / 2
            painter.drawRoundedRect(
                QRectF(self.rect()).adjusted(inset, inset, -inset, -inset), 3, 3
            )
