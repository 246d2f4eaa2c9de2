"""First run asks where the vault lives; File → Recent Vaults; the vault path is never hidden."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog
from run_app import run_app_and_close

import pixelmem.gui.app as app_module
from pixelmem.core.index.engine import Engine
from pixelmem.core.settings import Settings
from pixelmem.core.vault.store import MemoryStore
from pixelmem.gui.dialogs.first_run import FirstRunDialog, VaultChoice
from pixelmem.gui.window.recent_vaults import RECENT_LIMIT, recent_vaults, remember_vault


def test_start_new_vault_shows_the_path_and_accepts_with_enter(qtbot, tmp_path: Path) -> None:
    dialog = FirstRunDialog(tmp_path / "memories")
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.path_label.text() == str(tmp_path / "memories")
    qtbot.keyClick(dialog, Qt.Key.Key_Return)  # the default button: a new vault here
    assert dialog.choice is not None
    assert dialog.choice.path == tmp_path / "memories" and dialog.choice.new


def test_change_then_start_uses_the_chosen_folder(qtbot, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a: str(tmp_path / "elsewhere"))
    dialog = FirstRunDialog(tmp_path / "memories")
    qtbot.addWidget(dialog)
    qtbot.mouseClick(dialog.change_button, Qt.MouseButton.LeftButton)
    assert dialog.path_label.text() == str(tmp_path / "elsewhere")
    qtbot.mouseClick(dialog.new_button, Qt.MouseButton.LeftButton)
    assert dialog.choice is not None and dialog.choice.path == tmp_path / "elsewhere"


def test_open_existing_folder_is_not_a_new_vault(qtbot, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a: str(tmp_path / "obsidian"))
    dialog = FirstRunDialog(tmp_path / "memories")
    qtbot.addWidget(dialog)
    qtbot.mouseClick(dialog.open_button, Qt.MouseButton.LeftButton)
    assert dialog.choice is not None
    assert dialog.choice.path == tmp_path / "obsidian" and not dialog.choice.new


def _fake_engine(monkeypatch, embedder) -> None:
    monkeypatch.setattr(
        app_module, "Engine", lambda vault, settings: Engine(vault, settings, embedder=embedder)
    )


def test_existing_obsidian_folder_gets_no_welcome_memory(
    qtbot, tmp_path: Path, monkeypatch, embedder
) -> None:
    folder = tmp_path / "Obsidian"
    folder.mkdir()
    (folder / "Reading list.md").write_text("---\ntags: [books]\n---\nDune\n", encoding="utf-8")
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    _fake_engine(monkeypatch, embedder)
    monkeypatch.delenv("PIXELMEM_VAULT", raising=False)

    def answer(dialog: FirstRunDialog) -> int:
        dialog.choice = VaultChoice(folder, new=False)
        return FirstRunDialog.DialogCode.Accepted

    monkeypatch.setattr(FirstRunDialog, "exec", answer)
    windows = run_app_and_close(monkeypatch, qtbot)
    assert len(windows) == 1 and windows[0].engine.vault == folder
    assert windows[0].list_model.rowCount() == 1  # no welcome memory added
    assert {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()} == before
    assert Settings.load().vault == str(folder)


def test_cancelling_the_first_run_question_opens_nothing(qtbot, monkeypatch, tmp_path) -> None:
    monkeypatch.delenv("PIXELMEM_VAULT", raising=False)
    monkeypatch.setattr(FirstRunDialog, "exec", lambda self: FirstRunDialog.DialogCode.Rejected)
    assert run_app_and_close(monkeypatch, qtbot) == []
    assert Settings.load().vault == ""


def test_recent_vaults_most_recent_first_and_bounded(tmp_path: Path) -> None:
    folders = [tmp_path / f"v{i}" for i in range(RECENT_LIMIT + 2)]
    for folder in folders:
        folder.mkdir()
        remember_vault(folder)
    remember_vault(folders[3])
    listed = recent_vaults()
    assert listed[0] == folders[3] and len(listed) == RECENT_LIMIT
    assert len(set(listed)) == len(listed)
    folders[-1].rmdir()
    assert folders[-1] not in recent_vaults()  # gone folders are not offered


def test_recent_vaults_menu_switches_vault(qtbot, window, tmp_path: Path) -> None:
    other = tmp_path / "other"
    MemoryStore(other, create=True)
    remember_vault(other)
    remember_vault(window.engine.vault)
    requested: list[str] = []
    window.open_vault_requested.connect(requested.append)
    window.recent_menu.fill()
    actions = window.recent_menu.actions()
    assert [a.text().split("  —  ")[1] for a in actions] == [str(other)]  # not the open one
    actions[0].trigger()
    qtbot.waitUntil(lambda: requested == [str(other)], timeout=3000)


def test_recent_menu_says_when_there_is_nothing(qtbot, window) -> None:
    window.recent_menu.fill()
    (only,) = window.recent_menu.actions()
    assert not only.isEnabled()


def test_status_bar_tooltip_and_title_name_the_vault(qtbot, window) -> None:
    assert str(window.engine.vault) in window.status.counts_button.toolTip()
    title = window.windowTitle()
    assert title.startswith(window.engine.vault.name) and "pixelmem" not in title


def test_recent_menu_sits_in_the_file_menu_before_settings(qtbot, window) -> None:
    file_actions = window.menus["file"].actions()
    position = file_actions.index(window.actions_by_name["settings"])
    assert file_actions[position - 1].menu() is window.recent_menu
