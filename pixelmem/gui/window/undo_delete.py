"""Ctrl+Z brings back the last memory moved to the trash, without taking Ctrl+Z from text.

Edit → Undo Delete has the platform's Undo shortcut. A line edit or text editor claims that
key for itself whenever it has focus (Qt's ``ShortcutOverride``), even with nothing to undo;
a filter on the text widgets of the window lets the key through to the action only when the
widget has nothing of its own to undo and a deletion is waiting to be undone.
"""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import QEvent, QObject, SignalInstance
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QApplication, QLineEdit, QPlainTextEdit, QTextEdit, QWidget

_FILTERED = "pixelmemUndoDeleteFilter"


def has_own_undo(widget: QWidget) -> bool:
    """Whether a text widget has typing of its own to undo."""
    if isinstance(widget, QLineEdit):
        return widget.isUndoAvailable() and not widget.isReadOnly()
    if isinstance(widget, QPlainTextEdit | QTextEdit):
        return widget.document().isUndoAvailable() and not widget.isReadOnly()
    return False


class UndoDeleteKey(QObject):
    """Installed on each text widget of ``window`` as it gets focus. ``action`` is enabled
    from ``trashed`` (a memory went to the trash) until ``restored``."""

    def __init__(
        self,
        window: QWidget,
        action: QAction,
        trashed: SignalInstance,
        restored: SignalInstance,
    ) -> None:
        super().__init__(window)
        self.window = window
        self.action = action
        action.setEnabled(False)
        # Bound methods: Qt drops the connections when this object goes, a lambda would keep
        # calling a deleted action (the signals' owner may outlive the window).
        trashed.connect(self._enable)
        restored.connect(self._disable)
        app = QApplication.instance()
        assert isinstance(app, QApplication)
        app.focusChanged.connect(self._focus_changed)

    def _enable(self, *_args: object) -> None:
        self.action.setEnabled(True)

    def _disable(self, *_args: object) -> None:
        self.action.setEnabled(False)

    def _focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        text_widget = isinstance(new, QLineEdit | QPlainTextEdit | QTextEdit)
        if not (text_widget and new is not None and shiboken6.isValid(self)):
            return  # this window is gone (a test's, a switched vault's)
        if not shiboken6.isValid(new):
            return  # nor is the widget
        if new.property(_FILTERED) or new.window() is not self.window:
            return
        new.setProperty(_FILTERED, True)
        new.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            event.type() == QEvent.Type.ShortcutOverride
            and isinstance(event, QKeyEvent)
            and event.matches(QKeySequence.StandardKey.Undo)
            and self.action.isEnabled()
            and isinstance(watched, QWidget)
            and shiboken6.isValid(watched)
            and not has_own_undo(watched)
        ):
            event.ignore()  # the widget does not claim the key: the Undo Delete action runs
            return True
        return False
