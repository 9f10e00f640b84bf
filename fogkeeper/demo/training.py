"""The demo establishments' employees and their BMP trainings: the opening crew trained the
day it opened, refreshers at the written program's spacing, each new hire trained within the
program's days of hiring."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

from .data import Shape, _years


class _Training:
    """The employees and trainings of builder.py's `_Builder`, which this is a part of."""

    # What the builder (demo_builder._Builder) gives the parts it is made of.
    rng: random.Random
    start: date
    A: date
    shape: Shape
    ago: Callable[[int], date]
    between: Callable[[date, date], date]
    person: Callable[[], str]

    def _people(self, rec, opened_on, end, employees, last_training) -> None:
        staff = self._employees(opened_on, end, employees)
        sessions = self._refreshers(opened_on, end, last_training)
        self._leavers(staff, sessions, end)
        rec["employees"] = sorted(staff, key=lambda e: int(e["id"][2:]))
        rec["trainings"] = self._trainings(staff, sessions, opened_on)

    def _employees(self, opened_on: date, end: date, n: int | None) -> list[dict]:
        rng = self.rng
        n = n if n is not None else rng.randint(5, 10)
        staff = []
        for k in range(1, n + 1):
            if opened_on >= self.start and k <= n // 2:
                hired = opened_on  # the opening crew
            elif opened_on < self.start and rng.random() < 0.5:
                hired = self.between(max(opened_on, _years(self.start, -6)), self.start)
            else:
                hired = self.between(max(opened_on, self.start), end - timedelta(days=30))
            e = {
                "id": f"E-{k}",
                "name": self.person(),
                "hired_on": hired,
                "left_on": None,
                "kitchen_duties": rng.random() > 0.1,
                "contractor": rng.random() < 0.05,
            }
            staff.append(e)
        return staff

    def _refreshers(self, opened_on: date, end: date, last_training: int | None) -> list[date]:
        """The refresher trainings' days at the program's spacing, the last one recent."""
        rng = self.rng
        lo, hi = self.shape.refresher_days
        if last_training is None:
            last_training = rng.randint(15, hi - 20)
        sessions = []
        when = (
            self.ago(last_training) if end == self.A else end - timedelta(days=rng.randint(5, 30))
        )
        first = max(self.start, opened_on)
        while when >= first:
            sessions.append(when)
            when -= timedelta(days=rng.randint(lo, hi))
        sessions.reverse()
        return sessions

    def _leavers(self, staff: list[dict], sessions: list[date], end: date) -> None:
        """Some left, after their first session and not in the last weeks; everyone left when
        the establishment closed."""
        for e in staff:
            if self.rng.random() < 0.25:
                trained = [s for s in sessions if s >= e["hired_on"]]
                if trained and trained[0] + timedelta(days=40) < end - timedelta(days=15):
                    e["left_on"] = self.between(
                        trained[0] + timedelta(days=40), end - timedelta(days=15)
                    )
            if e["left_on"] is None and end < self.A:
                e["left_on"] = end

    def _trainings(self, staff: list[dict], sessions: list[date], opened_on: date) -> list[dict]:
        """The refreshers for those on staff that day, each new hire's own training and the
        opening crew's, in date order."""
        trainings: list[dict[str, Any]] = []
        trainer = self.person()
        for when in sessions:
            attendees = [
                {"employee": e["id"], "signed": True}
                for e in staff
                if e["hired_on"] <= when and (e["left_on"] is None or when < e["left_on"])
            ]
            if attendees:
                trainings.append({"date": when, "attendees": attendees, "_trainer": trainer})
        # new hires: trained the program's number of days after hiring
        delay = self.shape.new_hire_training_days
        for e in staff:
            if e["hired_on"] < self.start or e["hired_on"] <= opened_on:
                continue
            days = self.rng.randint(*delay) if isinstance(delay, list) else delay
            when = e["hired_on"] + timedelta(days=days)
            if when <= self.A and (e["left_on"] is None or when < e["left_on"]):
                trainings.append(
                    {
                        "date": when,
                        "attendees": [{"employee": e["id"], "signed": True}],
                        "_trainer": trainer,
                    }
                )
        # everyone on staff the day the establishment opened is trained that week
        opening = [e for e in staff if e["hired_on"] <= opened_on]
        if opened_on >= self.start and opening:
            trainings.append(
                {
                    "date": opened_on,
                    "attendees": [{"employee": e["id"], "signed": True} for e in opening],
                    "_trainer": trainer,
                }
            )
        trainings.sort(key=lambda t: t["date"])
        for k, t in enumerate(trainings, start=1):
            t["id"] = f"T-{k}"
        return [
            {
                "id": t["id"],
                "date": t["date"],
                "attendees": t["attendees"],
                "_trainer": t["_trainer"],
            }
            for t in trainings
        ]

    def unsigned(self, rec: dict) -> None:
        """The last training's attendance, not signed by one of the kitchen staff."""
        kitchen = {e["id"] for e in rec["employees"] if e["kitchen_duties"]}
        for t in reversed(rec["trainings"]):
            for a in t["attendees"]:
                if a["employee"] in kitchen:
                    a["signed"] = False
                    return
        raise ValueError(f"{rec['establishment']['name']} has no training to leave unsigned")
