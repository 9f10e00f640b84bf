"""A pack's sizing formula (`seats * meals_per_seat * gallons_per_meal`): arithmetic of numbers
and named inputs read with `ast` and evaluated by walking the tree, never with `eval`, so a
pack can say no more than + - * /, parentheses, min() and max()."""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

MAX_LENGTH = 500
MAX_NODES = 200
_BINARY: dict[type, Callable[[float, float], float]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
}
_FUNCTIONS: dict[str, Callable[..., float]] = {"min": min, "max": max}


class FormulaError(ValueError):
    """A formula that cannot be read or worked out, said in words."""


@dataclass(frozen=True, slots=True)
class Formula:
    text: str
    tree: ast.expr
    names: frozenset[str]

    def evaluate(self, values: Mapping[str, float]) -> float:
        """The formula's value; FormulaError names a missing input or a division by zero."""
        missing = sorted(self.names - set(values))
        if missing:
            raise FormulaError(f"no value for {', '.join(missing)}")
        result = _value(self.tree, values)
        if not math.isfinite(result):
            raise FormulaError(f"{self.text} is not a finite number with these inputs")
        return result


def parse(text: object) -> Formula:
    """Read a formula; FormulaError says what in it is not allowed."""
    if not isinstance(text, str) or not text.strip():
        raise FormulaError("a formula is a line of arithmetic, as seats * 5 * 1.5")
    if len(text) > MAX_LENGTH:
        raise FormulaError(f"a formula is at most {MAX_LENGTH} characters")
    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        raise FormulaError(
            f"{text!r} is not arithmetic (numbers, names, + - * /, parentheses)"
        ) from None
    nodes = list(ast.walk(tree))
    if len(nodes) > MAX_NODES:
        raise FormulaError(f"{text!r} is too long a formula")
    for node in nodes:
        problem = _refused(node)
        if problem:
            raise FormulaError(f"{text!r}: {problem}")
    called = {id(n.func) for n in nodes if isinstance(n, ast.Call)}
    names = {n.id for n in nodes if isinstance(n, ast.Name) and id(n) not in called}
    return Formula(text.strip(), tree, frozenset(names))


def _refused(node: ast.AST) -> str | None:
    """What is not allowed in a node of the formula (None: it is allowed)."""
    if isinstance(node, ast.BinOp):
        return None if type(node.op) in _BINARY else "only + - * / are allowed"
    if isinstance(node, ast.UnaryOp):
        return None if isinstance(node.op, ast.USub | ast.UAdd) else "only + - * / are allowed"
    if isinstance(node, ast.Constant):
        v = node.value
        ok = isinstance(v, int | float) and not isinstance(v, bool)
        return None if ok else f"{v!r} is not a number"
    if isinstance(node, ast.Name):
        return None if isinstance(node.ctx, ast.Load) else "not arithmetic"
    if isinstance(node, ast.Call):
        func = node.func
        if not (isinstance(func, ast.Name) and func.id in _FUNCTIONS) or node.keywords:
            return "the only functions are min(...) and max(...)"
        return None if node.args else "min() and max() need at least one value"
    if isinstance(node, ast.operator | ast.unaryop | ast.expr_context):
        return None
    return "only numbers, names, + - * /, parentheses, min() and max() are allowed"


def _value(node: ast.expr, values: Mapping[str, float]) -> float:
    if isinstance(node, ast.Constant):
        return float(node.value)  # type: ignore[arg-type]  # _refused() lets only numbers by
    if isinstance(node, ast.Name):
        return float(values[node.id])
    if isinstance(node, ast.UnaryOp):
        v = _value(node.operand, values)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.BinOp):
        left, right = _value(node.left, values), _value(node.right, values)
        if isinstance(node.op, ast.Div) and right == 0:
            raise FormulaError("it divides by zero with these inputs")
        return _BINARY[type(node.op)](left, right)
    assert isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    return _FUNCTIONS[node.func.id](*(_value(a, values) for a in node.args))


@lru_cache(maxsize=256)
def parse_cached(text: str) -> Formula:
    return parse(text)


def sizing_values(spec: Mapping[Any, Any], inputs: Mapping[str, float]) -> dict[str, float]:
    """The values a sizing rule's formula reads: the pack's constants, then the device's own
    inputs (only those the rule names)."""
    values = {k: float(v) for k, v in (spec.get("constants") or {}).items()}
    named = spec.get("inputs") or {}
    values.update({k: float(v) for k, v in inputs.items() if k in named})
    return values


def required_size(spec: Mapping[Any, Any], inputs: Mapping[str, float]) -> float | None:
    """The size a pack's sizing rule (`gcd.sizing` of a device kind) requires of a device
    with these inputs, or None while an input it names is not on record."""
    formula = parse_cached(spec["formula"])
    values = sizing_values(spec, inputs)
    if formula.names - set(values):
        return None
    return formula.evaluate(values)
