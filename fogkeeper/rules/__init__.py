"""The compliance engine: plain Python, no Django. See RULES.md and CASEFILE.md."""

from . import native

native.use_sources_unless_current()  # before the modules it may have compiled are imported

from .casefile import CaseFile, parse_case  # noqa: E402
from .engine import evaluate  # noqa: E402
from .errors import CaseFileError, PackError, ParameterNotInForce, Problem  # noqa: E402
from .report import Report  # noqa: E402

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
