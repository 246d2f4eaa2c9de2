"""Start the desktop app: ``pixelmem`` (or ``pixelmem app --vault DIR``) ends up here."""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from pixelmem.core.errors import PixelmemError
from pixelmem.core.index.engine import Engine
from pixelmem.core.paths import VAULT_ENV, default_vault_dir
from pixelmem.core.settings import Settings, update_settings
from pixelmem.gui import i18n, workers
from pixelmem.gui.window.main_window import MainWindow
from pixelmem.gui.window.recent_vaults import remember_vault

if TYPE_CHECKING:
    from pixelmem.core.providers.chat_setup import ChatChoice

log = logging.getLogger(__name__)

# Set by the packaging smoke test: open the window, let it paint once, exit 0.
QUIT_AFTER_SHOW_ENV = "PIXELMEM_QUIT_AFTER_SHOW"


def choose_vault(explicit: str | None, settings: Settings) -> tuple[Path, bool]:
    """The vault to open and whether this is a first run (nothing chosen, ever)."""
    for candidate in (explicit, os.environ.get(VAULT_ENV), settings.vault):
        if candidate:
            return Path(candidate).expanduser(), False
    return default_vault_dir(), True


class AppController(QObject):
    """Owns the main window; "Open vault…" replaces it with a window on the other folder."""

    def __init__(self, settings: Settings) -> None:
        super().__init__()
        self.settings = settings
        self.window: MainWindow | None = None

    def open(self, vault: Path, *, first_run: bool = False) -> bool:
        if self.window is not None:  # settings saved in the old window are the current ones
            self.settings = self.window.settings
        try:
            engine = Engine(vault, self.settings)
        except PixelmemError as exc:
            QMessageBox.critical(self.window, "pixelmem", str(exc))
            return False
        self._remember(engine.vault)
        remember_vault(engine.vault)
        old, self.window = self.window, MainWindow(engine, self.settings, first_run=first_run)
        self.window.open_vault_requested.connect(lambda folder: self.open(Path(folder)))
        app = QApplication.instance()
        assert isinstance(app, QApplication)
        self.window.views_ready.connect(lambda: set_icon(app))
        self.window.show()
        self.window.start()  # the window is on screen before the scan starts
        if old is not None:
            old.close()
        return True

    def _remember(self, vault: Path) -> None:
        if self.settings.vault == str(vault):
            return
        self.settings.vault = str(vault)
        try:
            update_settings({"vault": str(vault)})
        except (OSError, PixelmemError) as exc:
            log.warning("could not save the settings: %s", exc)


def save_chat_choice(chat: ChatChoice, settings: Settings) -> Settings:
    """Save the first run's chat model (a merged save, like the settings dialog's); the
    settings now in use. A failed save keeps the choice for this session and says why."""
    try:
        return update_settings(chat.settings_changes())
    except (OSError, PixelmemError) as exc:
        log.warning("could not save the chat settings: %s", exc)
        for key, value in chat.settings_changes().items():
            settings.set_key(key, value)
        return settings


GIL_SWITCH_SECONDS = 0.0002


def create_application(argv: list[str] | None = None) -> QApplication:
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        app = QApplication(argv if argv is not None else sys.argv[:1])
    app.setApplicationName("pixelmem")
    app.setOrganizationName("pixelmem")
    app.setApplicationDisplayName("pixelmem")
    app.setDesktopFileName("pixelmem")
    # A thread waiting for the GIL gets it after at most this long (Python's default: 5 ms).
    # The window's thread asks for it once per Python call Qt makes (a proxy's
    # filterAcceptsRow per row on a model reset, a delegate's paint): with a worker busy
    # in Python, 10k such calls queued ~0.2 s behind 5 ms turns (bench_ui --why, indexing
    # 10k: set_memories' endResetModel). 1 ms: that stall is gone from the ranking.
    # 0.2 ms: a worker tokenising or hashing in Python (the keyword-first snapshot) still
    # cost each of the window's Python calls up to 1 ms, 60-120 ms in all for a busy turn
    # (bench_ui --only index --embedder fake, 7 alternating runs: longest stall without CPU
    # waits 23-123 ms at 1 ms, 16-29 ms at 0.2 ms). It forces a switch only while another
    # thread waits: a worker running alone, or in onnxruntime, is not slowed.
    sys.setswitchinterval(GIL_SWITCH_SECONDS)
    # ... and background work that takes steps (core/step_aside) lets it run when it is late.
    workers.install_pulse(app)
    return app


def set_icon(app: QApplication) -> None:
    """Every window takes the application's icon. Drawn once the window's list has painted
    (its views_ready): QtSvg and rendering seven sizes cost ~20-40 ms of a launch otherwise."""
    if app.windowIcon().isNull():
        from pixelmem.gui.app_icon import app_icon

        app.setWindowIcon(app_icon())


def run_app(vault: str | None = None) -> int:
    """Create the app, open the vault, run the event loop; the process exit code."""
    app = create_application()
    settings = Settings.load()
    i18n.install_translator(settings.language)
    path, first_run = choose_vault(vault, settings)
    if first_run:  # nothing chosen ever: ask where, and show where; maybe a chat model
        from pixelmem.gui.dialogs.first_run import (
            FirstRunDialog,  # and the chat providers: only now
        )

        set_icon(app)
        dialog = FirstRunDialog(path, ask_chat=not settings.chat.provider)
        if dialog.exec() != FirstRunDialog.DialogCode.Accepted or dialog.choice is None:
            return 0
        path, first_run = dialog.choice.path, dialog.choice.new
        if dialog.chat is not None:
            settings = save_chat_choice(dialog.chat, settings)
    controller = AppController(settings)
    if not controller.open(path, first_run=first_run):
        folder = QFileDialog.getExistingDirectory(None, "pixelmem", str(Path.home()))
        if not folder or not controller.open(Path(folder)):
            return 1
    if os.environ.get(QUIT_AFTER_SHOW_ENV):
        QTimer.singleShot(0, app.quit)
    code = app.exec()
    workers.wait_for_all()  # queued saves finish before the process ends
    return code
