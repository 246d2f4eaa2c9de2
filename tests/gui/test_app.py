"""Start-up: which vault opens, the first-run welcome memory, the settings dialog."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QIcon

from pixelmem.core.index.engine import Engine
from pixelmem.core.settings import Settings
from pixelmem.gui.app import AppController, choose_vault
from pixelmem.gui.dialogs import settings_dialog


def test_vault_precedence(monkeypatch, tmp_path: Path) -> None:
    settings = Settings()
    settings.vault = str(tmp_path / "remembered")
    monkeypatch.setenv("PIXELMEM_VAULT", str(tmp_path / "env"))
    assert choose_vault(str(tmp_path / "arg"), settings) == (tmp_path / "arg", False)
    assert choose_vault(None, settings) == (tmp_path / "env", False)
    monkeypatch.delenv("PIXELMEM_VAULT")
    assert choose_vault(None, settings) == (tmp_path / "remembered", False)
    vault, first_run = choose_vault(None, Settings())
    assert first_run and vault.name == "memories"


def test_first_run_seeds_a_welcome_memory_and_remembers_the_vault(
    qtbot, tmp_path: Path, embedder, monkeypatch
) -> None:
    import pixelmem.gui.app as app_module

    monkeypatch.setattr(
        app_module, "Engine", lambda vault, settings: Engine(vault, settings, embedder=embedder)
    )
    controller = AppController(Settings())
    assert controller.open(tmp_path / "fresh", first_run=True)
    window = controller.window
    qtbot.addWidget(window)
    window._closing_ok = True
    qtbot.waitUntil(lambda: window.editor.is_open, timeout=5000)
    assert window.list_model.rowCount() == 1
    assert "Ctrl+K" in window.editor.form.body_edit.toPlainText()
    assert Settings.load().vault == str(tmp_path / "fresh")
    qtbot.waitUntil(lambda: window.session.index_ready, timeout=5000)
    window.session.shutdown()


class _Fake:
    model_id, dim = "fake", 3


def test_settings_dialog_tests_the_connection_on_a_worker(qtbot, monkeypatch) -> None:
    monkeypatch.setattr(settings_dialog, "create_embedder", lambda _s: _Fake())
    monkeypatch.setattr(settings_dialog, "test_connection", lambda _e: (384, 0.042))
    dialog = settings_dialog.SettingsDialog(Settings(), "/tmp/vault")
    qtbot.addWidget(dialog)
    dialog._test_connection()
    qtbot.waitUntil(lambda: "384" in dialog.test_label.text())
    assert "42 ms" in dialog.test_label.text()


def test_settings_dialog_reports_a_readable_error(qtbot, monkeypatch) -> None:
    from pixelmem.core.errors import ProviderAuthError

    def refuse(_e):
        raise ProviderAuthError("the API key was rejected (401)")

    monkeypatch.setattr(settings_dialog, "create_embedder", lambda _s: _Fake())
    monkeypatch.setattr(settings_dialog, "test_connection", refuse)
    dialog = settings_dialog.SettingsDialog(Settings(), "/tmp/vault")
    qtbot.addWidget(dialog)
    dialog._test_connection()
    qtbot.waitUntil(lambda: "401" in dialog.test_label.text())


def test_settings_dialog_validates_and_saving_reindexes(qtbot, window) -> None:
    dialog = settings_dialog.SettingsDialog(window.settings, str(window.engine.vault))
    qtbot.addWidget(dialog)
    assert dialog.embed_key.echoMode() == dialog.embed_key.EchoMode.Password
    dialog.chunk_overlap_spin.setValue(900)
    dialog.accept()
    assert dialog.result_settings() is None and "overlap" in dialog.error_label.text()
    dialog.chunk_overlap_spin.setValue(50)
    dialog.chunk_size_spin.setValue(400)
    dialog.accept()
    new = dialog.result_settings()
    assert new is not None and new.chunk.size == 400
    with qtbot.waitSignal(window.session.indexing_finished, timeout=5000):
        window.commands.apply_settings(new)
    assert window.engine.settings.chunk.size == 400
    assert Settings.load().chunk.size == 400


@pytest.mark.parametrize("language", ["zh_CN"])
def test_chinese_translation_loads(qtbot, window, language: str) -> None:
    from pixelmem.gui import i18n

    try:
        assert i18n.install_translator(language) == "zh_CN"
        window.retranslate()
        assert window.search_dock.windowTitle() == "搜索"
        assert window.menus["file"].title().startswith("文件")
        assert "条记忆" in window.list_panel.count_label.text()
    finally:
        i18n.install_translator("en")
        window.retranslate()
    assert window.search_dock.windowTitle() == "Search"


def test_the_ts_file_works_without_lrelease(qtbot) -> None:
    from PySide6.QtCore import QCoreApplication

    from pixelmem.gui.i18n import I18N_DIR, TsTranslator

    translator = TsTranslator(I18N_DIR / "pixelmem_zh_CN.ts")
    assert not translator.isEmpty()
    app = QCoreApplication.instance()
    app.installTranslator(translator)
    try:
        assert QCoreApplication.translate("SearchPanel", "Keyword") == "关键词"
    finally:
        app.removeTranslator(translator)


def test_import_creates_memories_and_reports(qtbot, window, tmp_path: Path, monkeypatch) -> None:
    from PySide6.QtWidgets import QMessageBox

    note = tmp_path / "trip.txt"
    note.write_text("Lisbon trip\n\nTram 28 early in the morning.", encoding="utf-8")
    bad = tmp_path / "image.bmp"
    bad.write_bytes(b"BM")
    messages: list[str] = []
    reports: list[QMessageBox] = []
    monkeypatch.setattr(QMessageBox, "open", lambda box: reports.append(box))
    window.bus.message_reported.connect(messages.append)
    with qtbot.waitSignal(window.bus.memory_updated, timeout=5000) as created:
        window.session.import_files([note, bad])
    assert len(created.args[0].created) == 1  # one change set per import
    qtbot.waitUntil(lambda: bool(reports))
    assert "Imported 1 file; 1 skipped" in messages
    assert "image.bmp: .bmp is not a supported file type" in reports[0].detailedText()
    qtbot.waitUntil(lambda: window.list_model.row_of(created.args[0].created[0]) >= 0)


def test_open_vault_replaces_the_window(qtbot, tmp_path: Path, embedder, monkeypatch) -> None:
    import pixelmem.gui.app as app_module

    monkeypatch.setattr(
        app_module, "Engine", lambda vault, settings: Engine(vault, settings, embedder=embedder)
    )
    controller = AppController(Settings())
    assert controller.open(tmp_path / "one")
    first = controller.window
    qtbot.addWidget(first)
    qtbot.waitUntil(lambda: first.session.index_ready, timeout=5000)
    first.open_vault_requested.emit(str(tmp_path / "two"))
    second = controller.window
    qtbot.addWidget(second)
    assert second is not first and second.engine.vault == tmp_path / "two"
    qtbot.waitUntil(lambda: not first.isVisible() and second.session.index_ready, timeout=5000)
    assert Settings.load().vault == str(tmp_path / "two")
    second._closing_ok = True
    second.close()


def test_status_bar_offers_the_multilingual_model_in_one_click(qtbot, engine, settings) -> None:
    from pixelmem.core.index.model_choice import ENGLISH, ModelChoice
    from pixelmem.gui.window.main_window import MainWindow

    engine.model_choice = ModelChoice(ENGLISH, "chosen before the Chinese notes came")
    win = MainWindow(engine, settings)
    qtbot.addWidget(win)
    win._closing_ok = True
    applied: list[Settings] = []
    win.session.reconfigure = applied.append  # the real one would load the multilingual model
    with qtbot.waitSignal(win.session.indexing_finished, timeout=10_000):
        win.start()
    button = win.status.model_button
    assert not button.isHidden() and "Chinese" in button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert [s.embedding.provider for s in applied] == ["local-multilingual"]
    assert Settings.load().embedding.provider == "local-multilingual"  # saved
    assert button.isHidden()
    win.session.shutdown()


def test_the_app_icon_arrives_once_the_window_has_painted_its_list(
    qtbot, tmp_path: Path, embedder, monkeypatch
) -> None:
    """Drawn after the list's first paint (not before: QtSvg is slow to load), when the
    window's other views come; every window then shows it, the main window included."""
    from PySide6.QtWidgets import QApplication

    import pixelmem.gui.app as app_module

    monkeypatch.setattr(
        app_module, "Engine", lambda vault, settings: Engine(vault, settings, embedder=embedder)
    )
    QApplication.setWindowIcon(QIcon())
    controller = AppController(Settings())
    assert controller.open(tmp_path / "vault")
    window = controller.window
    qtbot.addWidget(window)
    window._closing_ok = True
    assert window._views is None and QApplication.windowIcon().isNull()

    with qtbot.waitSignal(window.views_ready, timeout=5000):
        pass

    assert QApplication.windowIcon().availableSizes()
    assert not window.windowIcon().isNull()
    qtbot.waitUntil(lambda: window.session.index_ready, timeout=5000)
    window.session.shutdown()
