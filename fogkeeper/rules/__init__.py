"""The compliance engine: plain Python, no Django. See RULES.md and CASEFILE.md."""

from .casefile import CaseFile, parse_case
from .engine import evaluate
from .errors import CaseFileError, PackError, ParameterNotInForce, Problem
from .report import Report

__all__ = [
    "CaseFile",
    "CaseFileError",
    "PackError",
    "ParameterNotInForce",
    "Problem",
    "Report",
    "evaluate",
    "parse_case",
]
