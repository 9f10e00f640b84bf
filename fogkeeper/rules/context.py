"""What every check reads: the case on its date, the pack's parameters, and the report so far.

Records dated after `as_of` are dropped here, once, so no check can see them
(RULES.md section 1).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from datetime import date, timedelta
from functools import cache
from operator import attrgetter
from typing import Any

from .calendar import Duration, LegalCalendar
from .casefile import CaseFile
from .packmodel import Pack, ParamSet
from .report import Finding, ScheduleItem

ONE_DAY = timedelta(days=1)
BY_ID = attrgetter("id")
_DATE = attrgetter("date")
Message = str | Callable[[], str]


@cache
def _days(n: int) -> Duration:
    return Duration(n, "days")


def _upto(d: date | None, as_of: date) -> date | None:
    return d if d is not None and d <= as_of else None


def _dated_upto(records: list[Any], as_of: date) -> list[Any]:
    """The records whose `date` is on or before as_of, sorted by date, then id (most files
    and the sweep give them in that order already: then they are not sorted again)."""
    out = []
    ordered = True
    previous: Any = None
    last = as_of
    for record in records:
        day = record.date
        if day > as_of:
            continue
        if (
            ordered
            and previous is not None
            and (day < last or (day == last and record.id < previous.id))
        ):
            ordered = False
        previous, last = record, day
        out.append(record)
    if not ordered:
        out.sort(key=BY_ID)  # then stably by date: by (date, id) without a tuple for each
        out.sort(key=_DATE)
    return out


class Context:
    def __init__(self, case: CaseFile, as_of: date):
        m = case.model
        self.case = m
        self.case_actions = case.actions
        self.pack: Pack = case.pack
        self.as_of = as_of
        self.params: ParamSet = self.pack.params_on(as_of)
        self._cited = self.pack.cited()
        self.rules = self.pack.rules  # `rule in ctx.rules`: the pack has the rule
        self.cal: LegalCalendar = self.pack.calendar
        self.effective: date = self.pack.effective
        self.cutoff = as_of - timedelta(days=self.params["report.lookback_days"])
        self.findings: list[Finding] = []
        self.schedule: list[ScheduleItem] = []

        est = m.establishment
        self.est = est
        self.est_id = est.id
        self.operating = est.opened_on <= as_of
        self.category = est.category or self.pack.default_category
        permit = m.permit
        self.permit = permit if permit is not None and permit.issued_on <= as_of else None
        # A revoked permit is no permit (RULES.md 11.8), though its frequencies still apply.
        self.revoked_on = self.act(self.permit.revoked_on) if self.permit is not None else None
        self.devices = sorted([d for d in m.devices if d.installed_on <= as_of], key=BY_ID)
        self.device_ids = {d.id for d in self.devices}
        self.haulers = {h.id: h for h in m.haulers}
        # the haulers whose licence may have lapsed on the day of a service
        self.lapsing_haulers = {
            h.id: h for h in m.haulers if not h.licensed or h.licence_expires_on is not None
        }
        self.services = services = _dated_upto(m.services, as_of)
        if len(self.device_ids) < len(m.devices):
            services[:] = [s for s in services if s.device in self.device_ids]
        self.services_by_device: dict[str, list[Any]] = defaultdict(list)
        if len(self.device_ids) == 1:  # most often: every service is of the one device
            self.services_by_device.update(dict.fromkeys(self.device_ids, services))
        else:
            for s in services:
                self.services_by_device[s.device].append(s)
        self.employees = sorted([e for e in m.employees if e.hired_on <= as_of], key=BY_ID)
        self.trainings = _dated_upto(m.trainings, as_of)
        self.inspections = _dated_upto(m.inspections, as_of)
        self.incidents = _dated_upto(m.incidents, as_of)
        self.samples = _dated_upto(m.samples, as_of)
        self.measurements_by_device: dict[str, list[Any]] = defaultdict(list)
        for insp in self.inspections:
            for r in insp.measurements:
                self.measurements_by_device[r.device].append((insp.date, insp.id, r))

    def last_pickup(self) -> date | None:
        """The day of the latest waste cooking oil pickup by as_of (one check asks)."""
        days = [p.date for p in self.case.yellow_grease_pickups if p.date <= self.as_of]
        return max(days, default=None)

    def act(self, d: date | None) -> date | None:
        """An act's date, or None when it has not happened by as_of."""
        return _upto(d, self.as_of)

    def clamp(self, d: date) -> date:
        """No obligation falls due before the pack's effective date."""
        return d if d >= self.effective else self.effective

    def permit_subject(self) -> str:
        return self.permit.number if self.permit is not None else self.est_id

    def frequency(self, device: Any) -> tuple[Duration | None, str]:
        """The device's effective service frequency, and where it comes from. Frequencies set
        on a device or a permit are whole days; the pack's may be weeks or months (11.1)."""
        if device.service_frequency_days is not None:
            return _days(device.service_frequency_days), "device"
        if self.permit is not None and self.permit.service_frequency_days is not None:
            return _days(self.permit.service_frequency_days), "permit"
        default = (self.params.get("gcd.default_service_frequency") or {}).get(device.kind)
        if default is None:
            return None, "pack"
        return self.pack.duration(f"gcd.default_service_frequency.{device.kind}", default), "pack"

    def finding(
        self,
        rule: str,
        subject: str,
        since: date,
        message: Message,
        *,
        open: bool = True,
        due: date | None = None,
        resolved_on: date | None = None,
        evidence: dict[str, Any] | None = None,
        citation: str | None = None,
    ) -> None:
        if since > self.as_of:
            return
        if not open and resolved_on is not None and resolved_on < self.cutoff:
            return
        severity, cited = self._cited[rule]
        citation = citation or cited
        if callable(message):
            message = message()
        resolved_on = None if open else resolved_on
        self.findings.append(
            Finding(
                rule,
                subject,
                severity,
                open,
                since,
                citation,
                message,
                due,
                resolved_on,
                evidence or {},
            )
        )

    def overdue(
        self,
        rule: str,
        subject: str,
        due: date,
        met_on: date | None,
        message: Message,
        *,
        ends_on: date | None = None,
        evidence: dict[str, Any] | None = None,
        citation: str | None = None,
    ) -> None:
        """An obligation due on `due`, met (or not yet) on `met_on`; ends when a duty ends."""
        if met_on is not None and met_on <= due:
            return
        since = due + ONE_DAY
        if ends_on is not None and since >= ends_on:
            return
        if ends_on is not None and (met_on is None or met_on > ends_on):
            met_on = ends_on  # the duty ended before it was met
        if met_on is None:
            if self.as_of > due:
                self.finding(
                    rule, subject, since, message, due=due, evidence=evidence, citation=citation
                )
            return
        if met_on < self.cutoff:
            return  # met before the look-back: not reported (as in `finding`)
        self.finding(
            rule,
            subject,
            since,
            message,
            open=False,
            due=due,
            resolved_on=met_on,
            evidence=evidence,
            citation=citation,
        )

    def plan(self, obligation: str, subject: str, due: date, rule: str) -> None:
        self.schedule.append(ScheduleItem(obligation, subject, due, self._cited[rule][1]))

    def add(self, start: date, period_param: str, roll: bool = False) -> date:
        return self.cal.add(start, self.params.duration(period_param), roll)
