"""What an import left out, file by file: a message box whose details name every file.

The status bar says how many were imported; when files were skipped (already in the vault,
a kind pixelmem does not read) or failed, this box lists each with its reason.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox, QWidget

from pixelmem.core.vault.writes import ImportResult


def import_report(parent: QWidget | None, result: ImportResult) -> QMessageBox | None:
    """A (not yet shown) box listing every skipped and failed file; None if there are none."""
    if not result.skipped and not result.failed:
        return None
    box = QMessageBox(parent)
    box.setObjectName("importReport")
    box.setIcon(QMessageBox.Icon.Warning if result.failed else QMessageBox.Icon.Information)
    box.setWindowTitle(QCoreApplication.translate("import_report", "Import"))
    created, skipped, failed = len(result.created), len(result.skipped), len(result.failed)
    parts = [
        QCoreApplication.translate("import_report", "Imported 1 file.")
        if created == 1
        else QCoreApplication.translate("import_report", "Imported {count} files.").format(
            count=created
        )
    ]
    if skipped:
        parts.append(
            QCoreApplication.translate(
                "import_report", "1 file was skipped (already there, or not a kind pixelmem reads)."
            )
            if skipped == 1
            else QCoreApplication.translate(
                "import_report",
                "{count} files were skipped (already there, or not a kind pixelmem reads).",
            ).format(count=skipped)
        )
    if failed:
        parts.append(
            QCoreApplication.translate("import_report", "1 file could not be imported.")
            if failed == 1
            else QCoreApplication.translate(
                "import_report", "{count} files could not be imported."
            ).format(count=failed)
        )
    box.setText(" ".join(parts))
    lines = [*result.failed, *result.skipped]
    box.setInformativeText("\n".join(lines[:5]) + ("\n…" if len(lines) > 5 else ""))
    box.setDetailedText("\n".join(lines))
    box.setStandardButtons(QMessageBox.StandardButton.Ok)
    return box
