"""The legal calendar: calendar days, clamped months, business days, roll-forward.

RULES.md section 1. Holidays come from the pack (a list of rules, see
`HolidayRule`); nothing here knows a particular holiday.
"""

from __future__ import annotations

import calendar as _calendar
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import NamedTuple
from zoneinfo import ZoneInfo

from fogkeeper.formats import unit_one, unit_words

WEEKDAYS = {"MO": 0, "TU": 1, "WE": 2, "TH": 3, "FR": 4, "SA": 5, "SU": 6}
UNITS = ("days", "business_days", "weeks", "months", "years", "hours")
_DURATION = re.compile(
    r"^\s*(\d+)\s+"
    r"(day|days|business_day|business_days|week|weeks|month|months|year|years|hour|hours)\s*$"
)
# RULES.md 11.1: where a period in months must be compared with one in days, a month is 30.
_DAYS_PER_UNIT = {"days": 1, "weeks": 7, "months": 30, "years": 12 * 30}


class Duration(NamedTuple):
    """A legal period: `n` units of calendar days, business days, weeks, months, years or
    hours."""

    n: int
    unit: str

    @classmethod
    def parse(cls, text: str) -> Duration:
        m = _DURATION.match(str(text))
        if not m:
            raise ValueError(
                f"not a duration: {text!r} (expected e.g. '10 days', '1 week', '3 months', "
                "'2 business_days')"
            )
        unit = m.group(2)
        if not unit.endswith("s"):
            unit += "s"
        return cls(int(m.group(1)), unit)

    def __str__(self) -> str:
        return f"{self.n} {unit_one(self.unit) if self.n == 1 else unit_words(self.unit)}"

    def days_equivalent(self) -> int:
        """The period as whole days for comparison only (a month counts as 30 days)."""
        if self.unit not in _DAYS_PER_UNIT:
            raise ValueError(f"{self} cannot be compared with a number of days")
        return self.n * _DAYS_PER_UNIT[self.unit]


_MONTH_DAYS = (0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def add_months(d: date, n: int) -> date:
    """Same day of month `n` months later, clamped to the month's last day."""
    month0 = d.month - 1 + n
    year = d.year + month0 // 12
    month = month0 % 12 + 1
    if d.day <= 28:
        return date(year, month, d.day)
    last = _MONTH_DAYS[month] + (month == 2 and _calendar.isleap(year))
    return date(year, month, min(d.day, last))


@dataclass(frozen=True, slots=True)
class HolidayRule:
    """One holiday: a fixed date (observed on a weekday) or the nth weekday of a month."""

    name: str
    month: int
    day: int | None = None
    weekday: int | None = None
    nth: int | None = None  # 1..5, or -1 for the last
    offset_days: int = 0

    def date_in(self, year: int) -> date:
        if self.day is not None:
            return date(year, self.month, self.day) + timedelta(days=self.offset_days)
        weekday = self.weekday if self.weekday is not None else 0
        if self.nth and self.nth > 0:
            first = date(year, self.month, 1)
            shift = (weekday - first.weekday()) % 7
            d = first + timedelta(days=shift + 7 * (self.nth - 1))
        else:
            last = date(year, self.month, _calendar.monthrange(year, self.month)[1])
            d = last - timedelta(days=(last.weekday() - weekday) % 7)
        return d + timedelta(days=self.offset_days)


class Sums(dict[date, date]):
    """A date -> the date a period after it, computed the first time it is asked for."""

    def __init__(self, calendar: LegalCalendar, period: Duration, roll: bool):
        super().__init__()
        self.calendar, self.period, self.roll = calendar, period, roll

    def __missing__(self, start: date) -> date:
        if len(self) > 100_000:
            self.clear()
        result = self[start] = self.calendar._add(start, self.period, self.roll)
        return result


class LegalCalendar:
    """Business days over a pack's holiday list, with weekend observance of fixed dates."""

    def __init__(self, rules: list[HolidayRule], saturday_shift: int, sunday_shift: int, tz: str):
        self.rules = rules
        self.saturday_shift = saturday_shift
        self.sunday_shift = sunday_shift
        self.tz = ZoneInfo(tz)
        self._years: set[int] = set()
        self._covered: set[int] = set()
        self._holidays: set[date] = set()
        self._added: dict[tuple[Duration, bool], Sums] = {}  # see sums()

    def _observed(self, rule: HolidayRule, year: int) -> date:
        d = rule.date_in(year)
        if rule.day is None:
            return d
        if d.weekday() == 5:
            return d + timedelta(days=self.saturday_shift)
        if d.weekday() == 6:
            return d + timedelta(days=self.sunday_shift)
        return d

    def _ensure(self, year: int) -> None:
        # An observed date can fall in the year before (New Year's Day on a Saturday).
        self._covered.add(year)
        for y in (year - 1, year, year + 1):
            if y not in self._years:
                self._years.add(y)
                self._holidays.update(self._observed(r, y) for r in self.rules)

    def is_holiday(self, d: date) -> bool:
        if d.year not in self._covered:
            self._ensure(d.year)
        return d in self._holidays

    def holidays(self, year: int) -> list[date]:
        self._ensure(year)
        return sorted(d for d in self._holidays if d.year == year)

    def is_business_day(self, d: date) -> bool:
        return d.weekday() < 5 and not self.is_holiday(d)

    def add_business_days(self, d: date, n: int) -> date:
        """The nth business day after d; d itself never counts."""
        while n > 0:
            d += timedelta(days=1)
            if self.is_business_day(d):
                n -= 1
        return d

    def roll_forward(self, d: date) -> date:
        """A procedural deadline on a weekend or holiday moves to the next business day."""
        while not self.is_business_day(d):
            d += timedelta(days=1)
        return d

    def add(self, start: date | datetime, period: Duration, roll: bool = False) -> date | datetime:
        if period.unit == "hours":
            return self.add_hours(start, period.n)
        if isinstance(start, datetime):  # its day
            start = start.date()
        return self.sums(period, roll)[start]

    def sums(self, period: Duration, roll: bool = False) -> Sums:
        """start -> `add(start, period, roll)` for dates (not date-times), remembered: the
        same dates recur across a whole sweep, and a lookup beats even making a timedelta."""
        sums = self._added.get((period, roll))
        if sums is None:
            if period.unit == "hours":
                raise ValueError("hours are added to a date-time: use add_hours")
            sums = self._added[(period, roll)] = Sums(self, period, roll)
        return sums

    def _add(self, start: date, period: Duration, roll: bool) -> date:
        if period.unit == "days":
            result = start + timedelta(days=period.n)
        elif period.unit == "business_days":
            result = self.add_business_days(start, period.n)
        elif period.unit == "weeks":
            result = start + timedelta(days=7 * period.n)
        elif period.unit == "months":
            result = add_months(start, period.n)
        else:
            result = add_months(start, 12 * period.n)
        return self.roll_forward(result) if roll else result

    def subtract(self, end: date, period: Duration) -> date:
        """The date `period` before `end` (a duty to act N days *before* a date never rolls)."""
        if period.unit == "days":
            return end - timedelta(days=period.n)
        if period.unit == "weeks":
            return end - timedelta(days=7 * period.n)
        if period.unit == "months":
            return add_months(end, -period.n)
        if period.unit == "years":
            return add_months(end, -12 * period.n)
        raise ValueError(f"cannot count {period.unit} backwards")

    def add_hours(self, start: date | datetime, hours: int) -> datetime:
        """Elapsed hours in the pack's time zone (a DST change does not stretch 48 hours)."""
        if not isinstance(start, datetime):
            start = datetime(start.year, start.month, start.day)
        aware = start if start.tzinfo else start.replace(tzinfo=self.tz)
        end = (aware.astimezone(UTC) + timedelta(hours=hours)).astimezone(aware.tzinfo)
        return end if start.tzinfo else end.replace(tzinfo=None)
