"""Trees under construction in the Lark transformers: a parenthesised formula stays one operand
(`Group`); a run of one n-ary operator grows in place (`Run`: linear in n)."""

from __future__ import annotations

from ambit.logic.syntax.ast import Formula


class Group:
    """A parenthesised formula: kept as one operand, never merged into an enclosing chain."""

    __slots__ = ("f",)

    def __init__(self, f: Formula) -> None:
        self.f = f


class Run:
    """An unparenthesised chain of one n-ary operator (`cls` is And or Or), operands in order."""

    __slots__ = ("cls", "items")

    def __init__(self, cls: type, items: list[Formula]) -> None:
        self.cls, self.items = cls, items


def ungroup(x) -> Formula:
    """The AST node of a formula, a Group or a Run."""
    t = type(x)
    if t is Group:
        return x.f
    if t is Run:
        return x.cls(tuple(x.items))
    return x


def extend(cls: type, left, right) -> Run:
    """`left OP right` for an n-ary OP (`cls`): a Run of `cls` on the left is extended in place."""
    if type(left) is Run and left.cls is cls:
        left.items.append(ungroup(right))
        return left
    return Run(cls, [ungroup(left), ungroup(right)])


__all__ = ["Group", "Run", "extend", "ungroup"]
