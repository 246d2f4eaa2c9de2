"""Short relative dates for lists ("5 min ago", "yesterday", "12 Mar")."""

from __future__ import annotations

from datetime import UTC, datetime

from PySide6.QtCore import QCoreApplication, QDateTime, QLocale


def relative_date(value: datetime | None, now: datetime | None = None) -> str:
    """A compact, human date: relative when recent, a day and month when older."""
    if value is None:
        return ""
    now = now or datetime.now(UTC)
    seconds = (now - value).total_seconds()
    if seconds < 60:
        return QCoreApplication.translate("dates", "just now")
    if seconds < 3600:
        return QCoreApplication.translate("dates", "{n} min ago").format(n=int(seconds // 60))
    local = value.astimezone()
    days = (now.astimezone().date() - local.date()).days
    if days == 0:
        return QCoreApplication.translate("dates", "{n} h ago").format(n=int(seconds // 3600))
    if days == 1:
        return QCoreApplication.translate("dates", "yesterday")
    if days < 7:
        return QCoreApplication.translate("dates", "{n} days ago").format(n=days)
    stamp = QDateTime.fromSecsSinceEpoch(int(value.timestamp()))
    fmt = "MMM d" if local.year == now.year else "MMM d, yyyy"
    if QLocale().language() == QLocale.Language.Chinese:
        fmt = "M月d日" if local.year == now.year else "yyyy年M月d日"
    return QLocale().toString(stamp, fmt)


def full_date(value: datetime | None) -> str:
    if value is None:
        return ""
    stamp = QDateTime.fromSecsSinceEpoch(int(value.timestamp()))
    return stamp.toString("yyyy-MM-dd HH:mm")  # unambiguous in every language
