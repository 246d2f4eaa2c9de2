"""Dates and ranges in a query, English and Chinese: "last week", "in March 2024", "上个月",
"2023年5月", "3 days ago", "过去两周", "since 2023", "2024-03-05".

:func:`parse_time_query` finds the one time expression of a query (the longest; the first of
equals) and returns its range and the query without it. Ranges are half-open ``[start, end)``
in the person's local time zone (aware datetimes), a whole day, week (Monday first), month,
quarter or year as written; "past/last N days" and "最近N天" are rolling, up to the end of today.
A month or day without a year is the last one that has begun. "since/after X", "X以来/之后" run
from X to the end of today; "before/until X", "X之前/以前" from the beginning of time.

Why not a general date library: ``dateparser`` (measured: 11 MB with its dependencies, 94 ms to
import) returns a point, not a range ("last week" → 7 days ago), and its search in free text
reads "may I…", "march of the penguins" and "a note on sunday roast" as dates and
"我在2024年3月的旅行" as the year 4051. A word that is a date only in context ("may", "march",
"sunday", a bare year) counts here only with a preposition or a year/day beside it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta

MONTHS = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4,
    "apr": 4, "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8,
    "september": 9, "sept": 9, "sep": 9, "october": 10, "oct": 10, "november": 11, "nov": 11,
    "december": 12, "dec": 12,
}  # fmt: skip
WEEKDAYS = {
    "monday": 0,
    "mon": 0,
    "tuesday": 1,
    "tue": 1,
    "tues": 1,
    "wednesday": 2,
    "wed": 2,
    "thursday": 3,
    "thu": 3,
    "thurs": 3,
    "friday": 4,
    "fri": 4,
    "saturday": 5,
    "sunday": 6,
}  # fmt: skip (no "sat"/"sun": "on sun protection" is not a day)
NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "couple of": 2,
    "a couple of": 2, "few": 3, "a few": 3,
}  # fmt: skip
CN_DIGITS = {"〇": 0, "零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6,
             "七": 7, "八": 8, "九": 9}  # fmt: skip
CN_WEEKDAYS = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
MIN_YEAR, MAX_YEAR = 1900, 2199


@dataclass(frozen=True)
class TimeRange:
    """``[start, end)`` in local time; ``text`` is the expression as the query wrote it."""

    start: datetime
    end: datetime
    text: str = ""

    def contains(self, moment: datetime) -> bool:
        return self.start <= moment.astimezone(self.start.tzinfo) < self.end

    def label(self) -> str:
        """``2024-03-01 – 2024-03-31``, or one day, or ``since …`` / ``before …``."""
        first, last = self.start.date(), (self.end - timedelta(microseconds=1)).date()
        if self.start.year <= MIN_YEAR:
            return f"before {self.end.date().isoformat()}"
        if first == last:
            return first.isoformat()
        return f"{first.isoformat()} – {last.isoformat()}"


@dataclass(frozen=True)
class TimeQuery:
    """The query without its time expression, and the expression's range (None: none found)."""

    query: str
    range: TimeRange | None = None


def parse_time_query(query: str, now: datetime | None = None) -> TimeQuery:
    """The time expression in ``query`` (see the module docstring)."""
    if now is None or now.tzinfo is None:
        now = (now or datetime.now()).astimezone()  # the person's local time zone
    best: tuple[int, int, TimeRange] | None = None
    for pattern, resolve in _RULES:
        for match in pattern.finditer(query):
            try:
                found = resolve(match, now)
            except (ValueError, OverflowError):
                continue  # 31 February, year 0: not a date
            if found is None:
                continue
            span = match.span()
            if best is None or _better(span, best[:2]):
                best = (*span, TimeRange(found[0], found[1], match.group(0).strip()))
    if best is None:
        return TimeQuery(query)
    left, right, time_range = best
    return TimeQuery(_tidy(query[:left] + " " + query[right:]), time_range)


def _better(span: tuple[int, int], other: tuple[int, int]) -> bool:
    longer = span[1] - span[0] - (other[1] - other[0])
    return longer > 0 or (longer == 0 and span[0] < other[0])


_DANGLING = re.compile(r"(^|\s)(in|on|from|during|of|at|for|since|before|after|until)\s*$", re.I)


def _tidy(text: str) -> str:
    text = re.sub(r"^\s*的", "", text)
    text = re.sub(r"\s+", " ", text).strip()
    return _DANGLING.sub("", text).strip(" ,;")


# ---------------------------------------------------------------- calendar arithmetic

Span = tuple[datetime, datetime]


def _day(d: date, now: datetime) -> datetime:
    return datetime(d.year, d.month, d.day, tzinfo=now.tzinfo)


def _days(first: date, count: int, now: datetime) -> Span:
    return _day(first, now), _day(first + timedelta(days=count), now)


def _month(year: int, month: int, now: datetime, count: int = 1) -> Span:
    _check_year(year)
    end_year, end_month = divmod(month - 1 + count, 12)
    return _day(date(year, month, 1), now), _day(date(year + end_year, end_month + 1, 1), now)


def _year(year: int, now: datetime) -> Span:
    _check_year(year)
    return _day(date(year, 1, 1), now), _day(date(year + 1, 1, 1), now)


def _week_of(d: date, now: datetime) -> Span:
    return _days(d - timedelta(days=d.weekday()), 7, now)


def _months_back(now: datetime, back: int) -> tuple[int, int]:
    total = now.year * 12 + now.month - 1 - back
    return total // 12, total % 12 + 1


def _check_year(year: int) -> None:
    if not MIN_YEAR <= year <= MAX_YEAR:
        raise ValueError(f"year {year} out of range")


def _recent_month(month: int, now: datetime) -> int:
    """The year of the last ``month`` that has begun."""
    return now.year if month <= now.month else now.year - 1


def _recent_day(month: int, day: int, now: datetime) -> date:
    candidate = date(now.year, month, day)
    return candidate if candidate <= now.date() else date(now.year - 1, month, day)


def _unit_back(unit: str, count: int, now: datetime) -> Span:
    """The day, week, month or year ``count`` of them before now."""
    today = now.date()
    if unit == "day":
        return _days(today - timedelta(days=count), 1, now)
    if unit == "week":
        return _week_of(today - timedelta(weeks=count), now)
    if unit == "month":
        return _month(*_months_back(now, count), now)
    return _year(now.year - count, now)


def _rolling(unit: str, count: int, now: datetime) -> Span:
    """The last ``count`` units up to the end of today ("past 3 weeks", "最近三天")."""
    today = now.date()
    tomorrow = _day(today + timedelta(days=1), now)
    if unit in ("day", "week"):
        days = count * (7 if unit == "week" else 1)
        return _day(today - timedelta(days=days - 1), now), tomorrow
    months = count * (12 if unit == "year" else 1)
    year, month = _months_back(now, months)
    day = min(today.day, 28)
    return _day(date(year, month, day), now), tomorrow


def _open(kind: str, span: Span, now: datetime) -> Span:
    """``since``/``after``: from the range to the end of today; ``before``/``until``: up to it."""
    tomorrow = _day(now.date() + timedelta(days=1), now)
    beginning = datetime(MIN_YEAR, 1, 1, tzinfo=now.tzinfo)
    if kind in ("since", "from"):
        return span[0], max(tomorrow, span[1])
    if kind == "after":
        return span[1], max(tomorrow, span[1])
    if kind in ("until", "till", "through"):
        return beginning, span[1]
    return beginning, span[0]  # before


# ---------------------------------------------------------------- English

_MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
_WEEKDAY = "|".join(sorted(WEEKDAYS, key=len, reverse=True))
_NUMBER = r"\d{1,3}|" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))
_UNIT = r"(day|week|month|year)s?"
_OPEN = r"(since|after|before|until|till|from)"
_YEAR = r"(1[9]\d\d|2[01]\d\d)"
_ORD = r"(?:st|nd|rd|th)?"


def _number(text: str) -> int:
    text = text.lower().strip()
    return int(text) if text.isdigit() else NUMBER_WORDS[text]


def _en_relative(match: re.Match[str], now: datetime) -> Span | None:
    which, unit = match.group("which").lower(), match.group("unit").lower()
    today = now.date()
    if unit == "weekend":  # the Saturday and Sunday of this week, or of the week before
        saturday = today - timedelta(days=today.weekday()) + timedelta(days=5)
        if which in ("last", "past", "previous"):
            saturday -= timedelta(weeks=1)
        return _days(saturday, 2, now)
    if which in ("this", "current"):
        return _unit_back(unit, 0, now)
    if which == "past":
        return _rolling(unit, 1, now)
    return _unit_back(unit, 1, now)  # last, previous


def _en_earlier_this(match: re.Match[str], now: datetime) -> Span:
    start = _unit_back(match.group("unit").lower(), 0, now)[0]
    return start, _day(now.date() + timedelta(days=1), now)


def _en_days(match: re.Match[str], now: datetime) -> Span:
    word = match.group(0).lower()
    back = 2 if "before" in word else 1 if "yesterday" in word else 0
    return _days(now.date() - timedelta(days=back), 1, now)


def _en_rolling(match: re.Match[str], now: datetime) -> Span:
    return _rolling(match.group("unit").lower(), _number(match.group("n")), now)


def _en_ago(match: re.Match[str], now: datetime) -> Span:
    return _unit_back(match.group("unit").lower(), _number(match.group("n")), now)


def _en_weekday(match: re.Match[str], now: datetime) -> Span:
    wanted = WEEKDAYS[match.group("day").lower()]
    today = now.date()
    back = (today.weekday() - wanted) % 7
    if match.group("which") and match.group("which").lower() == "last" and back == 0:
        back = 7
    return _days(today - timedelta(days=back), 1, now)


def _en_month(match: re.Match[str], now: datetime) -> Span | None:
    month = MONTHS[match.group("month").lower()]
    year = match.group("year")
    day = match.group("day")
    lead = (match.group("lead") or "").lower().strip()
    if not (year or day or lead) or (not (year or lead) and _is_may(match)):
        return None  # "may", "march" alone are words; "you may 5…" too
    if day:
        d = date(int(year), month, int(day)) if year else _recent_day(month, int(day), now)
        span = _days(d, 1, now)
    else:
        span = _month(int(year) if year else _recent_month(month, now), month, now)
    return _open(lead, span, now) if lead in _OPEN_WORDS else span


def _is_may(match: re.Match[str]) -> bool:
    return match.group("month").lower() == "may"


def _en_day_month(match: re.Match[str], now: datetime) -> Span | None:
    if not (match.group("year") or match.group("lead")) and _is_may(match):
        return None  # "version 2 may break"
    month, day = MONTHS[match.group("month").lower()], int(match.group("day"))
    year = match.group("year")
    d = date(int(year), month, day) if year else _recent_day(month, day, now)
    return _with_lead(match, _days(d, 1, now), now)


def _en_year(match: re.Match[str], now: datetime) -> Span:
    return _with_lead(match, _year(int(match.group("year")), now), now)


def _en_quarter(match: re.Match[str], now: datetime) -> Span:
    quarter = int(match.group("q") or match.group("q2"))
    year = int(match.group("year") or match.group("year2"))
    return _with_lead(match, _month(year, 3 * quarter - 2, now, count=3), now)


def _iso(match: re.Match[str], now: datetime) -> Span:
    year, month = int(match.group("y")), int(match.group("m"))
    day = match.group("d")
    span = _days(date(year, month, int(day)), 1, now) if day else _month(year, month, now)
    return _with_lead(match, span, now)


_OPEN_WORDS = ("since", "after", "before", "until", "till", "from", "through")


def _with_lead(match: re.Match[str], span: Span, now: datetime) -> Span:
    lead = (match.groupdict().get("lead") or "").lower().strip()
    return _open(lead, span, now) if lead in _OPEN_WORDS else span


_EN_LEAD = r"(?:(?P<lead>in|on|during|of|since|after|before|until|till|from|through)\s+)?"

# ---------------------------------------------------------------- Chinese

_CN_NUM = r"[0-9〇零一二两三四五六七八九十]{1,4}"


def _cn_number(text: str) -> int:
    if text.isdigit():
        return int(text)
    if "十" in text:
        tens, _, ones = text.partition("十")
        return (CN_DIGITS[tens] if tens else 1) * 10 + (CN_DIGITS[ones] if ones else 0)
    if len(text) == 4:  # 二〇二三: a year, digit by digit
        return int("".join(str(CN_DIGITS[c]) for c in text))
    return CN_DIGITS[text] if len(text) == 1 else int("".join(str(CN_DIGITS[c]) for c in text))


_CN_UNITS = {"天": "day", "日": "day", "周": "week", "星期": "week", "礼拜": "week",
             "月": "month", "年": "year"}  # fmt: skip


def _cn_unit(text: str) -> str:
    return _CN_UNITS[text.removeprefix("个")]


def _cn_named(match: re.Match[str], now: datetime) -> Span:
    word = match.group("word")
    today = now.date()
    days = {"今天": 0, "今日": 0, "昨天": 1, "昨日": 1, "前天": 2, "大前天": 3}
    if word in days:
        span = _days(today - timedelta(days=days[word]), 1, now)
    elif word in ("本周", "这周", "这个星期", "这星期", "本星期", "这礼拜", "这个礼拜", "本週"):
        span = _unit_back("week", 0, now)
    elif word in ("上周", "上个星期", "上星期", "上礼拜", "上个礼拜", "上週"):
        span = _unit_back("week", 1, now)
    elif word in ("上上周", "上上个星期"):
        span = _unit_back("week", 2, now)
    elif word in ("本月", "这个月", "这月"):
        span = _unit_back("month", 0, now)
    elif word in ("上个月", "上月"):
        span = _unit_back("month", 1, now)
    elif word == "上上个月":
        span = _unit_back("month", 2, now)
    elif word == "今年":
        span = _unit_back("year", 0, now)
    elif word == "去年":
        span = _unit_back("year", 1, now)
    else:  # 前年
        span = _unit_back("year", 2, now)
    return _cn_tail(match, span, now)


def _cn_rolling(match: re.Match[str], now: datetime) -> Span | None:
    if not match.group("n") and match.group("unit") in ("天", "日"):
        return None  # 最近天气, 近日: not a count of days
    count = _cn_number(match.group("n")) if match.group("n") else 1
    return _rolling(_cn_unit(match.group("unit")), count, now)


def _cn_ago(match: re.Match[str], now: datetime) -> Span:
    return _unit_back(_cn_unit(match.group("unit")), _cn_number(match.group("n")), now)


def _cn_date(match: re.Match[str], now: datetime) -> Span | None:
    year = _cn_number(match.group("y")) if match.group("y") else None
    month = _cn_number(match.group("m")) if match.group("m") else None
    day = _cn_number(match.group("d")) if match.group("d") else None
    if year is None and month is None:
        return None
    if month is None:
        assert year is not None
        span = _year(year, now)
    elif day is None:
        span = _month(year if year is not None else _recent_month(month, now), month, now)
    else:
        d = date(year, month, day) if year is not None else _recent_day(month, day, now)
        span = _days(d, 1, now)
    return _cn_tail(match, span, now)


def _cn_weekday(match: re.Match[str], now: datetime) -> Span:
    wanted = CN_WEEKDAYS[match.group("day")]
    today = now.date()
    if match.group("which"):  # 上周一: the Monday of last week
        monday = today - timedelta(days=today.weekday() + 7)
        return _days(monday + timedelta(days=wanted), 1, now)
    return _days(today - timedelta(days=(today.weekday() - wanted) % 7), 1, now)


def _cn_tail(match: re.Match[str], span: Span, now: datetime) -> Span:
    tail = match.groupdict().get("tail") or ""
    if tail in ("以来", "之后", "以后"):
        return _open("since" if tail == "以来" else "after", span, now)
    if tail in ("之前", "以前"):
        return _open("before", span, now)
    return span


_CN_TAIL = r"(?P<tail>以来|之后|以后|之前|以前)?"
_CN_NAMED = (
    "大前天|前天|昨天|昨日|今天|今日|上上个星期|上上周|上个星期|上星期|上礼拜|上个礼拜|上周|上週"
    "|这个星期|这星期|本星期|这个礼拜|这礼拜|本周|这周|本週|上上个月|上个月|上月|这个月|本月|这月"
    "|今年|去年|前年"
)

# ---------------------------------------------------------------- the rules

Rule = tuple[re.Pattern[str], Callable[[re.Match[str], datetime], Span | None]]
_I = re.IGNORECASE
_RULES: list[Rule] = [
    (
        re.compile(
            r"\b(?P<which>this|current|last|past|previous)\s+(?P<unit>week|month|year|weekend)\b",
            _I,
        ),
        _en_relative,
    ),
    (re.compile(r"\bearlier\s+this\s+(?P<unit>week|month|year)\b", _I), _en_earlier_this),
    (re.compile(r"\b(?:the\s+day\s+before\s+yesterday|yesterday|today)\b", _I), _en_days),
    (
        re.compile(
            rf"\b(?:in\s+)?(?:the\s+)?(?:last|past|previous)\s+(?P<n>{_NUMBER})\s+(?P<unit>day|week|month|year)s?\b",
            _I,
        ),
        _en_rolling,
    ),
    (re.compile(rf"\b(?P<n>{_NUMBER})\s+(?P<unit>day|week|month|year)s?\s+ago\b", _I), _en_ago),
    (re.compile(rf"\b(?:(?P<which>on|last|this)\s+)(?P<day>{_WEEKDAY})\b", _I), _en_weekday),
    (
        re.compile(
            rf"\b{_EN_LEAD}(?P<month>{_MONTH})\.?(?:\s+(?P<day>[0-3]?\d){_ORD}\b)?(?:,?\s+(?P<year>{_YEAR[1:-1]}))?\b",
            _I,
        ),
        _en_month,
    ),
    (
        re.compile(
            rf"\b{_EN_LEAD}(?:the\s+)?(?P<day>[0-3]?\d){_ORD}\s+(?:of\s+)?(?P<month>{_MONTH})\.?(?:,?\s+(?P<year>{_YEAR[1:-1]}))?\b",
            _I,
        ),
        _en_day_month,
    ),
    (
        re.compile(
            rf"\b(?P<lead>in|during|since|after|before|until|till|from|of|through)\s+(?:the\s+year\s+)?(?P<year>{_YEAR[1:-1]})\b(?![-/.]\d)",
            _I,
        ),
        _en_year,
    ),
    (
        re.compile(
            rf"\b{_EN_LEAD}(?:q(?P<q>[1-4])\s*(?P<year>{_YEAR[1:-1]})|(?P<year2>{_YEAR[1:-1]})\s*q(?P<q2>[1-4]))\b",
            _I,
        ),
        _en_quarter,
    ),
    (
        re.compile(
            rf"(?<![\d.]){_EN_LEAD}(?P<y>{_YEAR[1:-1]})[-/.](?P<m>0?[1-9]|1[0-2])(?:[-/.](?P<d>[0-3]?\d))?(?![\d])"
        ),
        _iso,
    ),
    (re.compile(rf"(?P<word>{_CN_NAMED}){_CN_TAIL}"), _cn_named),
    (
        re.compile(
            rf"(?:最近|过去|近)(?:的)?(?P<n>{_CN_NUM})?(?P<unit>个月|个星期|星期|礼拜|天|日|周|年)"
        ),
        _cn_rolling,
    ),
    (
        re.compile(rf"(?P<n>{_CN_NUM})(?P<unit>个月|个星期|个礼拜|星期|天|日|周|年)(?:以)?前"),
        _cn_ago,
    ),
    (
        re.compile(
            rf"(?:(?P<y>\d{{4}}|[〇零一二三四五六七八九]{{4}})年)?(?:(?P<m>{_CN_NUM})月(?:份)?(?:(?P<d>{_CN_NUM})[日号])?)?{_CN_TAIL}"
        ),
        _cn_date,
    ),
    (
        re.compile(
            r"(?:(?P<which>上)(?:个星期|星期|礼拜|周)|周|星期|礼拜)(?P<day>[一二三四五六日天])"
        ),
        _cn_weekday,
    ),
]


__all__ = ["TimeQuery", "TimeRange", "parse_time_query"]
