"""An establishment's employees over the years, about ten, with their BMP trainings at the
pack's spacing and their signed attendance; some trainings missed, late or unsigned."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from .names import FIRST, LAST
from .ordinance import YEAR
from .tables import Table

if TYPE_CHECKING:
    from .program import _Generator


class People:
    def __init__(self, g: _Generator):
        from fogkeeper.training.models import Attendance, Employee, Training

        self.g = g
        self.t_employee = Table(
            Employee,
            [
                "id",
                "establishment_id",
                "code",
                "name",
                "hired_on",
                "left_on",
                "kitchen_duties",
                "contractor",
            ],
        )
        self.t_training = Table(Training, ["id", "establishment_id", "code", "date"])
        self.t_attendance = Table(Attendance, ["training_id", "employee_id", "signed"])
        refresher = g.ordinance.days("training.refresher_interval", YEAR)
        self.refresher = (refresher * 11 // 12, refresher)
        self.new_hire_window = g.ordinance.days("training.new_hire_window", 0)

    def add(self, fid, opened, end, bad) -> None:
        people = self._employees(fid, opened, end)
        g = self.g
        rng = g.rng
        rnd, ri = rng.random, rng.randint
        d = date.fromordinal
        sessions = []
        lo, hi = self.refresher
        when = max(opened, g.S) + ri(0, lo)
        while when <= end:
            sessions.append((when, [e for e, h, lft in people if h <= when < lft]))
            when += ri(lo, hi + 120 if bad(0.3) else hi)
        for emp_id, hired, left in people:
            if hired < g.S or bad(0.3) or rnd() < 0.1:
                continue
            when = hired + (ri(1, 60) if bad(0.5) else ri(0, self.new_hire_window))
            if when <= min(end, left - 1):
                sessions.append((when, [emp_id]))
        sessions.sort()
        t_rows, a_rows = self.t_training.rows, self.t_attendance.rows
        for k, (when, who) in enumerate(sessions, start=1):
            if not who:
                continue
            tid = g.new_id(self.t_training.model)
            t_rows.append((tid, fid, f"T-{k}", d(when)))
            for emp_id in who:
                a_rows.append((tid, emp_id, not bad(0.04)))

    def _employees(self, fid, opened, end) -> list[tuple[int, int, int]]:
        """(id, hired, left or never) of each employee over the years."""
        g = self.g
        rng = g.rng
        rnd, ri, choice = rng.random, rng.randint, rng.choice
        d = date.fromordinal
        first_day = max(opened, g.S - 3 * YEAR)
        people = []
        for k in range(1, ri(6, 14) + 1):
            hired = ri(first_day, max(first_day, end - 14))
            left = hired + int(rng.expovariate(1 / 700)) + 30 if rnd() < 0.75 else None
            if left is not None and left > end:
                left = None if end == g.A else end
            emp_id = g.new_id(self.t_employee.model)
            people.append((emp_id, hired, left or 10**7))
            self.t_employee.rows.append(
                (
                    emp_id,
                    fid,
                    f"E-{k}",
                    f"{choice(FIRST)} {choice(LAST)}",
                    d(hired),
                    d(left) if left else None,
                    rnd() > 0.1,
                    rnd() < 0.05,
                )
            )
        return people
