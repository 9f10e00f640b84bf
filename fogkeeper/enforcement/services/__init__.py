"""Writes of enforcement: cases, their violations, the actions taken, the later facts about
them, hearings, appeals, court judgments and the operator's answers, each in its own
module; every name is imported here.

Every service checks first and refuses with one `ValidationError` citing the section that
forbids the step; then it saves inside one transaction together with its audit row, so a
refused step changes nothing. Deadlines and windows come from the engine: the action is put
in a minimal case file and evaluated, so no rule is written twice.
"""

from .actions import (
    action_deadlines,
    action_fact_record,
    action_final_on,
    action_take,
    filled_by_law,
)
from .answers import ANSWER_MAX, notice_answer
from .appeals import appeal_file
from .cases import CLOSING_REASONS, case_close, case_open, violation_add
from .courts import court_judgment_record
from .hearings import hearing_conclude, hearing_schedule, hearing_waive, hearing_window
from .shared import HEARD, day_of, plain_fields, sends_letter

__all__ = [
    "ANSWER_MAX",
    "CLOSING_REASONS",
    "case_close",
    "HEARD",
    "action_deadlines",
    "action_fact_record",
    "action_final_on",
    "action_take",
    "appeal_file",
    "case_open",
    "court_judgment_record",
    "filled_by_law",
    "hearing_conclude",
    "hearing_schedule",
    "hearing_waive",
    "hearing_window",
    "notice_answer",
    "sends_letter",
    "violation_add",
    "day_of",
    "plain_fields",
]
