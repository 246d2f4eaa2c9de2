"""What an import left out, file by file: a message box whose details name every file.

The status bar says how many were imported; when files were skipped (already in the vault,
a kind pixelmem does not read) or failed, this box lists each with its reason.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtWidgets import QMessageBox, QWidget

from pixelmem.core.writes import ImportResult


class ImportCounts(QObject):
    """The report's counts in Qt plural forms ("1 file", "2 files"; lupdate reads the
    plural ``tr(text, "", n)`` only as a method of a class)."""

    def imported(self, n: int) -> str:
        return self.tr("Imported %n files.", "", n)

    def skipped(self, n: int) -> str:
        return self.tr(
            "%n files were skipped (already there, or not a kind pixelmem reads).", "", n
        )

    def failed(self, n: int) -> str:
        return self.tr("%n files could not be imported.", "", n)


def import_report(parent: QWidget | None, result: ImportResult) -> QMessageBox | None:
    """A (not yet shown) box listing every skipped and failed file; None if there are none."""
    if not result.skipped and not result.failed:
        return None
    box = QMessageBox(parent)
    box.setObjectName("importReport")
    box.setIcon(QMessageBox.Icon.Warning if result.failed else QMessageBox.Icon.Information)
    box.setWindowTitle(QCoreApplication.translate("import_report", "Import"))
    created, skipped, failed = len(result.created), len(result.skipped), len(result.failed)
    counts = ImportCounts()
    parts = [counts.imported(created)]
    if skipped:
        parts.append(counts.skipped(skipped))
    if failed:
        parts.append(counts.failed(failed))
    box.setText(" ".join(parts))
    lines = [*result.failed, *result.skipped]
    box.setInformativeText("\n".join(lines[:5]) + ("\n…" if len(lines) > 5 else ""))
    box.setDetailedText("\n".join(lines))
    box.setStandardButtons(QMessageBox.StandardButton.Ok)
    return box
