"""Errors the engine raises for bad input and bad packs."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with an input, at the path of its field."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


class CaseFileError(ValueError):
    """A case file that cannot be evaluated; `problems` lists every reason."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("; ".join(str(p) for p in problems))


class PackError(ValueError):
    """A jurisdiction pack that breaks the pack format (e.g. an uncited value)."""


class ParameterNotInForce(LookupError):
    """A parameter looked up for a date on which it has no value."""
