"""Hand-written readers that stand in front of the Lark grammars for the common input of a
dialect (tptp_read.py: TPTP FOF). Each accepts only what it surely reads, building the tree the
grammar's transformer builds, and raises `Reject` on anything else, so that Lark reads it and
gives the error with its position and expectations."""

from __future__ import annotations

from typing import Callable

from ambit.logic.syntax.ast import Const, Term, Var


class Reject(Exception):
    """Input a hand-written reader does not take; Lark decides."""


class Binder:
    """What a reader that binds as it reads keeps (`read_bound`): the quantified variables in
    scope and the free names spelled as variables; `spelled` None keeps every name a constant."""

    def __init__(self, spelled: Callable[[str], bool] | None = None) -> None:
        self.spelled = spelled  # None: names stay constants (`read`); else bind as read (`read_bound`)
        self.bound: list[str] = []  # the quantified variables in scope, innermost last
        self.free: dict[str, None] = {}  # names spelled as variables that no quantifier binds

    def constant(self, name: str) -> Term:
        """A name in a term's place: a variable where a quantifier binds it (`read_bound`)."""
        if self.spelled is None:
            return Const(name)
        if name in self.bound:
            return Var(name)
        if name not in self.free and self.spelled(name):
            self.free[name] = None
        return Const(name)

