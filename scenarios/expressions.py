"""A tiny, safe evaluator for the arithmetic that scenario files use in `derived` and
`constraints`: numbers, names, + - * / // %, comparisons, and/or/not, `a if c else b`,
abs/min/max/round/int. Nothing else parses, so a content file can never run code.

>>> evaluate("abs(x) + 1 if side == 'left' else -x", {"x": -3, "side": "left"})
4
"""

import ast
import operator
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

_BINARY = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}
_COMPARE = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}
_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "abs": abs,
    "min": min,
    "max": max,
    "round": round,
    "int": int,
}


class ExpressionError(ValueError):
    """An expression uses something the evaluator does not allow, or a name it does not know."""


@lru_cache(maxsize=2048)
def parse(source: str) -> ast.Expression:
    """Parse and vet an expression; ExpressionError if it uses anything not allowed.

    Cached: scenarios evaluate the same few expressions for every variant (the tree is only
    read, never changed)."""
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError as exc:
        raise ExpressionError(f"not an expression: {exc.msg}") from None
    for node in ast.walk(tree):
        allowed = (
            ast.Expression,
            ast.BinOp,
            ast.UnaryOp,
            ast.BoolOp,
            ast.Compare,
            ast.IfExp,
            ast.Name,
            ast.Constant,
            ast.Call,
            ast.Load,
            ast.USub,
            ast.UAdd,
            ast.Not,
            ast.And,
            ast.Or,
            *_BINARY,
            *_COMPARE,
        )
        if not isinstance(node, allowed):
            raise ExpressionError(f"{type(node).__name__} is not allowed")
        if isinstance(node, ast.Call) and not (
            isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS and not node.keywords
        ):
            raise ExpressionError("only abs, min, max, round and int may be called")
    return tree


def names(source: str) -> set[str]:
    """The variable names an expression reads."""
    return set(_names(source))


@lru_cache(maxsize=2048)
def _names(source: str) -> frozenset[str]:
    """Cached as `parse` is: every variant derives its values with the same few expressions,
    and walking their trees cost more than evaluating them."""
    return frozenset(
        node.id
        for node in ast.walk(parse(source))
        if isinstance(node, ast.Name) and node.id not in _FUNCTIONS
    )


def evaluate(source: str, values: Mapping[str, Any]) -> Any:
    return _eval(parse(source).body, values)


def _eval(node: ast.AST, values: Mapping[str, Any]) -> Any:
    match node:
        case ast.Constant(value=value):
            return value
        case ast.Name(id=name):
            if name not in values:
                raise ExpressionError(f"unknown name {name!r}")
            return values[name]
        case ast.BinOp(left=left, op=op, right=right):
            return _BINARY[type(op)](_eval(left, values), _eval(right, values))
        case ast.UnaryOp(op=ast.USub(), operand=operand):
            return -_eval(operand, values)
        case ast.UnaryOp(op=ast.UAdd(), operand=operand):
            return +_eval(operand, values)
        case ast.UnaryOp(op=ast.Not(), operand=operand):
            return not _eval(operand, values)
        case ast.BoolOp(op=ast.And(), values=operands):
            return all(_eval(v, values) for v in operands)
        case ast.BoolOp(op=ast.Or(), values=operands):
            return any(_eval(v, values) for v in operands)
        case ast.Compare(left=left, ops=ops, comparators=comparators):
            current = _eval(left, values)
            for comparison, right_node in zip(ops, comparators, strict=True):
                right = _eval(right_node, values)
                if not _COMPARE[type(comparison)](current, right):
                    return False
                current = right
            return True
        case ast.IfExp(test=test, body=body, orelse=orelse):
            return _eval(body, values) if _eval(test, values) else _eval(orelse, values)
        case ast.Call(func=ast.Name(id=func), args=args):
            return _FUNCTIONS[func](*(_eval(a, values) for a in args))
    raise ExpressionError(f"{type(node).__name__} is not allowed")  # pragma: no cover
