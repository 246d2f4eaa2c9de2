"""The app and ``pixelmem config set`` share the settings file (issue 17): a key set from the
command line while the Settings dialog is open survives the dialog's Save, and the app
reloads settings another process changed."""

from __future__ import annotations

from pixelmem.cli import main
from pixelmem.core.settings import Settings
from pixelmem.gui.dialogs import settings_dialog


def test_a_key_set_by_the_cli_while_the_dialog_is_open_survives_its_save(
    qtbot, window, capsys
) -> None:
    window.settings.save()
    dialog = settings_dialog.SettingsDialog(window.settings, str(window.engine.vault), window)
    qtbot.addWidget(dialog)

    assert main(["config", "set", "chat.api_key", "sk-set-from-the-cli"]) == 0
    capsys.readouterr()
    dialog.top_k_spin.setValue(window.settings.search.top_k + 2)  # the user's own change
    dialog.accept()
    new = dialog.result_settings()
    assert new is not None
    window.commands.apply_settings(new, base=dialog.settings)

    on_disk = Settings.load()
    assert on_disk.chat.api_key == "sk-set-from-the-cli"
    assert on_disk.search.top_k == dialog.settings.search.top_k + 2
    assert window.settings.chat.api_key == "sk-set-from-the-cli"


def test_the_app_reloads_settings_changed_on_disk(qtbot, window, capsys) -> None:
    window.settings.save()
    seen: list[Settings] = []
    window.bus.settings_changed.connect(seen.append)
    assert main(["config", "set", "chat.model", "llama-from-the-cli"]) == 0
    capsys.readouterr()
    qtbot.waitUntil(lambda: window.settings.chat.model == "llama-from-the-cli", timeout=5000)
    assert seen and seen[-1].chat.model == "llama-from-the-cli"

    # a second change: the watcher follows the file across the atomic rename
    assert main(["config", "set", "chat.model", "second"]) == 0
    capsys.readouterr()
    qtbot.waitUntil(lambda: window.settings.chat.model == "second", timeout=5000)


def test_the_apps_own_save_is_not_echoed_back(qtbot, window) -> None:
    window.settings.save()
    seen: list[Settings] = []
    window.bus.settings_changed.connect(seen.append)
    new = window.settings.copy()
    new.chat.model = "mine"
    window.commands.apply_settings(new)
    assert len(seen) == 1
    qtbot.wait(400)  # longer than the watcher's debounce
    assert len(seen) == 1
