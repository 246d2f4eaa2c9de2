"""Index status, always visible: counts, progress with Cancel, why semantic search is off,
the Undo of the last deletion, and the one place messages and errors appear."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QLocale, QTimer, Signal
from PySide6.QtWidgets import QLabel, QProgressBar, QStatusBar, QToolButton, QWidget

from pixelmem.core.index.engine import EngineStatus
from pixelmem.core.writes import TrashRecord

MESSAGE_MS = 4000
ERROR_MS = 10000
UNDO_MS = 15000


class StatusBar(QStatusBar):
    cancel_requested = Signal()
    skipped_requested = Signal()
    undo_requested = Signal(object)  # TrashRecord
    multilingual_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._record: TrashRecord | None = None
        self._status: EngineStatus | None = None
        self._vault: Path | None = None
        self.undo_button = QToolButton()
        self.undo_button.setAutoRaise(True)
        self.undo_button.hide()
        self.semantic_label = QLabel()
        self.semantic_label.setObjectName("semanticStatus")
        self.semantic_label.hide()
        # Shown when the vault holds notes the English model cannot read: one click switches.
        self.model_button = QToolButton()
        self.model_button.setObjectName("useMultilingual")
        self.model_button.setAutoRaise(True)
        self.model_button.hide()
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(160)
        self.progress.setTextVisible(False)
        self.progress.hide()
        self.cancel_button = QToolButton()
        self.cancel_button.setAutoRaise(True)
        self.cancel_button.hide()
        self.counts_button = QToolButton()
        self.counts_button.setObjectName("indexCounts")
        self.counts_button.setAutoRaise(True)
        # Where search runs: the local index, or the team's PostgreSQL (search.backend).
        self.backend_label = QLabel()
        self.backend_label.setObjectName("searchBackend")
        self.backend_label.hide()
        for widget in (
            self.undo_button,
            self.model_button,
            self.semantic_label,
            self.progress,
            self.cancel_button,
            self.backend_label,
            self.counts_button,
        ):
            self.addPermanentWidget(widget)
        self._undo_timer = QTimer(self, singleShot=True, interval=UNDO_MS)
        self._undo_timer.timeout.connect(self._hide_undo)
        self.undo_button.clicked.connect(self._undo)
        self.cancel_button.clicked.connect(self.cancel_requested)
        self.counts_button.clicked.connect(self.skipped_requested)
        self.model_button.clicked.connect(self.multilingual_requested)
        self.retranslate()
        self.counts_button.setText(self.tr("Opening vault…"))

    def set_vault(self, vault: Path) -> None:
        """The vault's folder in the counts' tooltip: where the files are is never a guess."""
        self._vault = vault
        self.counts_button.setToolTip(
            self.tr("Vault: {path}\nClick to see the files that could not be read").format(
                path=vault
            )
        )

    def retranslate(self) -> None:
        self.undo_button.setText(self.tr("Undo"))
        self.undo_button.setToolTip(self.tr("Restore the memory from the trash"))
        self.cancel_button.setText(self.tr("Cancel"))
        self.cancel_button.setToolTip(self.tr("Stop indexing; vectors computed so far are kept"))
        self.counts_button.setToolTip(self.tr("Show the files that could not be read"))
        if self._vault is not None:
            self.set_vault(self._vault)
        self.model_button.setText(self.tr("Read Chinese notes too"))
        if self._status is not None:
            self.show_status(self._status)

    # -- indexing --------------------------------------------------------------------------

    def indexing_started(self) -> None:
        self.counts_button.setText(self.tr("Indexing…"))

    def show_progress(self, done: int, total: int) -> None:
        if total <= 0:
            return
        self.progress.setRange(0, total)
        self.progress.setValue(done)
        self.progress.setVisible(done < total)
        self.cancel_button.setVisible(done < total)
        locale = QLocale()
        self.counts_button.setText(
            self.tr("Embedding {done} of {total}…").format(
                done=locale.toString(done), total=locale.toString(total)
            )
        )

    def indexing_stopped(self, status: EngineStatus | None, *, cancelled: bool = False) -> None:
        self.progress.hide()
        self.cancel_button.hide()
        if status is not None:
            self.show_status(status)
        if cancelled:
            self.counts_button.setText(self.tr("Indexing cancelled"))

    def show_status(self, status: EngineStatus) -> None:
        self._status = status
        locale = QLocale()
        self.counts_button.setText(
            self.tr("{indexed} indexed · {skipped} skipped").format(
                indexed=locale.toString(status.memories),
                skipped=locale.toString(len(status.skipped)),
            )
        )
        self.model_button.setVisible(bool(status.model_suggestion))
        self.model_button.setToolTip(
            self.tr(
                "Some notes are in Chinese, Japanese or Korean, which the English model cannot "
                "read. Click to switch this vault to the multilingual model (re-embeds it)."
            )
        )
        self._show_backend(status)
        if status.semantic_error:
            self.semantic_label.setText(self.tr("⚠ Keyword search only"))
            self.semantic_label.setToolTip(
                self.tr("Semantic search is unavailable: {reason}").format(
                    reason=status.semantic_error
                )
            )
            self.semantic_label.show()
        else:
            self.semantic_label.hide()

    def _show_backend(self, status: EngineStatus) -> None:
        if status.backend == "local":
            self.backend_label.setText(self.tr("Local index"))
            self.backend_label.setToolTip(
                self.tr("Search runs on an index in this computer's memory (search.backend)")
            )
        elif status.backend_error:
            self.backend_label.setText(self.tr("⚠ PostgreSQL unreachable"))
            self.backend_label.setToolTip(
                self.tr("{reason}\nThe local keyword index answers meanwhile.").format(
                    reason=status.backend_error
                )
            )
        else:
            where = status.backend.partition(" ")[2].strip("()")
            self.backend_label.setText(self.tr("PostgreSQL"))
            self.backend_label.setToolTip(
                self.tr("Search runs on the shared PostgreSQL index at {where}").format(where=where)
            )
        self.backend_label.show()

    # -- messages --------------------------------------------------------------------------

    def show_message(self, text: str) -> None:
        self.showMessage(text, MESSAGE_MS)

    def show_error(self, text: str) -> None:
        self.showMessage("⚠ " + text, ERROR_MS)

    def show_trashed(self, record: TrashRecord) -> None:
        self._record = record
        self.showMessage(
            self.tr("Moved “{title}” to the trash").format(title=record.title), UNDO_MS
        )
        self.undo_button.show()
        self._undo_timer.start()

    def _undo(self) -> None:
        record, self._record = self._record, None
        self._hide_undo()
        if record is not None:
            self.undo_requested.emit(record)

    def _hide_undo(self) -> None:
        self.undo_button.hide()

    @property
    def last_trashed(self) -> TrashRecord | None:
        return self._record
