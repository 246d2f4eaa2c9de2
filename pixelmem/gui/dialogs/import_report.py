"""What an import left out, file by file: a message box whose details name every file.

The status bar says how many were imported; when files were skipped (already in the vault,
a kind pixelmem does not read) or failed, this box lists each with its reason, in the
person's language: the core gives each reason as an English template with its values
(:class:`~pixelmem.core.archive.folder_import.ImportProblem`); :data:`REASONS` marks every
template for translation (a test checks that it names each one the core raises).
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject
from PySide6.QtWidgets import QMessageBox, QWidget

from pixelmem.core.archive.folder_import import ImportProblem
from pixelmem.core.writes import ImportResult

REASONS = (
    QT_TRANSLATE_NOOP(
        "import_reasons", "{kind} is not a supported file type (pixelmem imports {kinds})"
    ),
    QT_TRANSLATE_NOOP("import_reasons", "larger than {mb} MB"),
    QT_TRANSLATE_NOOP("import_reasons", "cannot be read: {why}"),
    QT_TRANSLATE_NOOP("import_reasons", "already in the vault"),
    QT_TRANSLATE_NOOP("import_reasons", "already there (the text of “{title}”)"),
    QT_TRANSLATE_NOOP("import_reasons", "already there (the same file)"),
    QT_TRANSLATE_NOOP("import_reasons", "binary file, not text"),
    QT_TRANSLATE_NOOP("import_reasons", "cannot read the PDF ({why})"),
    QT_TRANSLATE_NOOP("import_reasons", "cannot read the Word file ({why})"),
    QT_TRANSLATE_NOOP("import_reasons", "could not be read back"),
    QT_TRANSLATE_NOOP("import_reasons", "empty file"),
    QT_TRANSLATE_NOOP("import_reasons", "no such file"),
    QT_TRANSLATE_NOOP("import_reasons", "not UTF-8 text; save it as UTF-8 and import again"),
    QT_TRANSLATE_NOOP("import_reasons", "the PDF has no extractable text (a scan? run OCR first)"),
    QT_TRANSLATE_NOOP("import_reasons", "the PDF is password-protected"),
    QT_TRANSLATE_NOOP("import_reasons", "the Word file has no text"),
)


def translated(problem: ImportProblem) -> str:
    """``path: reason`` with the reason in the current language."""
    reason = QCoreApplication.translate("import_reasons", problem.reason)
    try:
        text = reason.format(**problem.values)
    except (KeyError, IndexError, ValueError):  # a translation that lost a placeholder
        text = problem.reason.format(**problem.values)
    return f"{problem.path}: {text}"


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
    counts = ImportCounts()
    parts = [counts.imported(len(result.created))]
    if result.skipped:
        parts.append(counts.skipped(len(result.skipped)))
    if result.failed:
        parts.append(counts.failed(len(result.failed)))
    box.setText(" ".join(parts))
    failed = [translated(p) for p in result.problems if not p.skipped]
    lines = [*failed, *(translated(p) for p in result.problems if p.skipped)]
    if not result.problems:  # a result made without problems (older callers)
        lines = [*result.failed, *result.skipped]
    box.setInformativeText("\n".join(lines[:5]) + ("\n…" if len(lines) > 5 else ""))
    box.setDetailedText("\n".join(lines))
    box.setStandardButtons(QMessageBox.StandardButton.Ok)
    return box
