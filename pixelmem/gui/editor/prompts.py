"""The questions the editor asks. Module-level functions, so tests can answer them."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox, QWidget

OVERWRITE, KEEP_BOTH, RELOAD, CANCEL = "overwrite", "keep_both", "reload", "cancel"
SAVE, DISCARD = "save", "discard"


def ask_conflict(parent: QWidget | None, title: str) -> str:
    """The file changed on disk since it was opened: overwrite, keep both, reload or cancel."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(QCoreApplication.translate("prompts", "Changed on disk"))
    box.setText(
        QCoreApplication.translate(
            "prompts", "“{title}” was changed by another program since you opened it."
        ).format(title=title)
    )
    box.setInformativeText(
        QCoreApplication.translate(
            "prompts",
            "Overwrite replaces the file with your version. Keep both saves your version as a "
            "conflict copy next to it. Reload discards your edits and shows the file as it is now.",
        )
    )
    overwrite = box.addButton(
        QCoreApplication.translate("prompts", "Overwrite"), QMessageBox.ButtonRole.DestructiveRole
    )
    keep = box.addButton(
        QCoreApplication.translate("prompts", "Keep Both"), QMessageBox.ButtonRole.AcceptRole
    )
    reload = box.addButton(
        QCoreApplication.translate("prompts", "Reload"), QMessageBox.ButtonRole.ResetRole
    )
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(keep)
    box.exec()
    clicked = box.clickedButton()
    return {id(overwrite): OVERWRITE, id(keep): KEEP_BOTH, id(reload): RELOAD}.get(
        id(clicked), CANCEL
    )


def ask_unsaved(parent: QWidget | None, title: str) -> str:
    """Unsaved edits are about to be left: save, discard or cancel."""
    answer = QMessageBox.question(
        parent,
        QCoreApplication.translate("prompts", "Unsaved changes"),
        QCoreApplication.translate("prompts", "Save your changes to “{title}”?").format(
            title=title or QCoreApplication.translate("prompts", "Untitled")
        ),
        QMessageBox.StandardButton.Save
        | QMessageBox.StandardButton.Discard
        | QMessageBox.StandardButton.Cancel,
        QMessageBox.StandardButton.Save,
    )
    if answer == QMessageBox.StandardButton.Save:
        return SAVE
    if answer == QMessageBox.StandardButton.Discard:
        return DISCARD
    return CANCEL


def ask_trash_protected(parent: QWidget | None, message: str) -> bool:
    """A read-only note (or another user's) is about to be trashed: only on a clear yes."""
    answer = QMessageBox.question(
        parent,
        QCoreApplication.translate("prompts", "Protected file"),
        QCoreApplication.translate("prompts", "{reason}\n\nMove it to the trash anyway?").format(
            reason=message
        ),
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
        QMessageBox.StandardButton.Cancel,
    )
    return answer == QMessageBox.StandardButton.Yes
