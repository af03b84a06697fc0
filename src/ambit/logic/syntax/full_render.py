"""Write the AST in the full dialects with one precedence-driven writer, adding only the parentheses
reading needs, so that `parse(render(f, d), d) == f` whenever `d` can spell the names. Also Prolog
quoting (`escape`, `quote`): the one escaping of Prolog text in logic/."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Callable

from ambit.logic.syntax.ast import (And, Atom, Const, Eq, Formula, Func, Iff, Implies, Not, Or,
                                   Quant, Term, Var, Xor, subformulas)
from ambit.logic.errors import RenderError


def escape(text: str, newlines: bool = False) -> str:
    """`text` made safe in a single-quoted Prolog atom (`newlines`: `\\n` too, for goal text)."""
    text = text.replace("\\", "\\\\").replace("'", "\\'")
    return text.replace("\n", "\\n") if newlines else text


def quote(name: str) -> str:
    """A name as a quoted Prolog atom: the one quoting of every Prolog term logic/ writes."""
    return "'" + escape(name) + "'"


# precedence levels: a node of level L may stand unparenthesised where level >= L is required
_LEVEL = {Iff: 1, Xor: 3, Implies: 2, Or: 3, And: 4, Not: 5, Atom: 6, Eq: 6, Quant: 0}


@dataclass(frozen=True)
class _Syntax:
    forall: str
    exists: str
    neg: str
    ops: dict
    eq: str
    neq: str
    name: Callable[[str, str], str]  # (name, role) -> spelling; role in pred/func/const/var
    parenthesise_binaries: bool  # TPTP: every binary operand of a binary connective in ( )
    tight_quantifiers: bool  # TPTP: a quantifier's body is a unit formula
    spelled_variables: bool = False  # TPTP: variables are upper-case words (bound ones renamed to fit)
    truth_values: tuple[str, str] | None = None  # TPTP: $true, $false for TRUE and ¬TRUE
    nested_implications: bool = False  # NLTK (-> groups to the left): both sides of a nested -> in ( )
    lists: bool = False  # nltk, prover9: $cons/$nil terms written as Prover9's lists ([a, b], [a : rest])

    def quant(self, f: Quant, var: str, body: str) -> str:
        return (self.forall if f.kind == "forall" else self.exists).format(v=var) + body


_FOLIO_NAME = re.compile(r"[^\W_][\w\-'’.]*\Z")
_NLTK_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_']*\Z|[0-9]+(\.[0-9]+)+[A-Za-z0-9_']*\Z")  # nltk.lark's NAME
_NLTK_KEYWORDS = frozenset(("all", "forall", "exists", "exist", "some", "iota", "not", "and", "or", "implies", "iff"))
_TPTP_LOWER = re.compile(r"[a-z][A-Za-z0-9_]*\Z")
_TPTP_UPPER = re.compile(r"[A-Z][A-Za-z0-9_]*\Z")


@functools.lru_cache(maxsize=None)
def _variable_rule(fmt: str) -> Callable[[str], bool]:
    """Whether a name is spelled as a variable of `fmt` (looked up once per dialect)."""
    from ambit.logic.syntax.dialect import dialect

    return dialect(fmt).is_variable_name


def _spelled_as_variable(name: str, role: str, fmt: str) -> None:
    """A constant spelled as the dialect's variables would read back as a free variable."""
    if role == "const" and _variable_rule(fmt)(name):
        raise RenderError(f"the constant {name!r} would read as a variable in {fmt}", construct=name, fmt=fmt)


def _folio_name(name: str, role: str) -> str:
    if not _FOLIO_NAME.match(name):
        raise RenderError(f"the name {name!r} cannot be written in folio", construct=name, fmt="folio")
    _spelled_as_variable(name, role, "folio")
    return name


def _nltk_name(name: str, role: str) -> str:
    if not _NLTK_NAME.match(name) or name in _NLTK_KEYWORDS:
        raise RenderError(f"the name {name!r} cannot be written in nltk", construct=name, fmt="nltk")
    _spelled_as_variable(name, role, "nltk")
    return name


_PROVER9_NAME = re.compile(r"[A-Za-z0-9_$]+\Z|[0-9]+(\.[0-9]+)+[A-Za-z0-9_$]*\Z")
_PROVER9_KEYWORDS = frozenset(("all", "exists"))
_PROVER9_QUOTED = re.compile(r'"[A-Za-z0-9_$.]+"\Z')


def _prover9_name(name: str, role: str) -> str:
    """An ordinary LADR symbol as it is, any other "quoted" (variable-like constants refused)."""
    _spelled_as_variable(name, role, "prover9")
    if _PROVER9_NAME.match(name) and name not in _PROVER9_KEYWORDS:
        return name
    if _PROVER9_QUOTED.match(name) and role != "var":  # a quoted symbol as read ("x": a constant)
        return name
    if '"' in name or "\n" in name:
        raise RenderError(f"the name {name!r} cannot be written in prover9", construct=name, fmt="prover9")
    return f'"{name}"'


def _tptp_name(name: str, role: str) -> str:
    if role == "var":
        if not _TPTP_UPPER.match(name):
            raise RenderError(f"the variable {name!r} is not a TPTP variable (an upper-case word)",
                              construct=name, fmt="tptp")
        return name
    if _TPTP_LOWER.match(name) and name != "fof":
        return name
    return quote(name)


SYNTAX = {
    "folio": _Syntax("∀{v} ", "∃{v} ", "¬",
                     {And: " ∧ ", Or: " ∨ ", Xor: " ⊕ ", Implies: " → ", Iff: " ↔ "}, " = ", " ≠ ",
                     _folio_name, False, False),
    "nltk": _Syntax("all {v}.", "exists {v}.", "-",
                    {And: " & ", Or: " | ", Implies: " -> ", Iff: " <-> "}, " = ", " != ",
                    _nltk_name, False, False, nested_implications=True, lists=True),
    "tptp": _Syntax("![{v}]: ", "?[{v}]: ", "~",
                    {And: " & ", Or: " | ", Xor: " <~> ", Implies: " => ", Iff: " <=> "}, " = ", " != ",
                    _tptp_name, True, True, True, ("$true", "$false")),
    "prover9": _Syntax("all {v} ", "exists {v} ", "-",
                       {And: " & ", Or: " | ", Implies: " -> ", Iff: " <-> "}, " = ", " != ",
                       _prover9_name, False, False, truth_values=("$T", "$F"), nested_implications=True,
                       lists=True),
}
_TRUE = Eq(Const("⊤"), Const("⊤"))  # how the readers hold TPTP's $true (full_parse.TRUE)


def render_dialect(f: Formula, fmt: str) -> str:
    """`f` written in `folio`, `nltk` or `tptp`."""
    syn = SYNTAX[str(fmt)]
    if syn.spelled_variables:
        f = tptp_variables(f)
    return _write(f, syn)


def _write(f: Formula, s: _Syntax) -> str:
    t = type(f)
    if t is Atom:
        head = s.name(f.pred, "pred")
        return head + "(" + ", ".join(_term(a, s) for a in f.args) + ")" if f.args else head
    if t is Eq:
        if s.truth_values and f == _TRUE:
            return s.truth_values[0]
        return _term(f.left, s) + s.eq + _term(f.right, s)
    if t is Not:
        if s.truth_values and f.body == _TRUE:
            return s.truth_values[1]
        if type(f.body) is Eq:
            return _term(f.body.left, s) + s.neq + _term(f.body.right, s)
        return s.neg + _operand(f.body, s, 5)
    if t is Quant:
        body = f.body
        if s.tight_quantifiers or type(body) not in (Atom, Eq, Not, Quant):
            text = _operand(body, s, 5) if s.tight_quantifiers else _paren(body, s)
        else:
            text = _write(body, s)
        return s.quant(f, s.name(f.var, "var"), text)
    if t is Xor and Xor not in s.ops:  # NLTK: A ⊕ B written as -(A <-> B)
        return s.neg + "(" + _write(Iff(f.left, f.right), s) + ")"
    op = s.ops[t]
    if t is And or t is Or:
        first = _operand(f.children[0], s, 3 if t is Or else 4, same=t)
        rest = [_operand(c, s, _LEVEL[t] + 1) for c in f.children[1:]]
        return op.join([first, *rest])
    if t is Implies:  # right-associative (NLTK: left; a nested implication is parenthesised there)
        return _operand(f.left, s, 3) + op + _operand(f.right, s, 3 if s.nested_implications else 2)
    # Iff and Xor: left-associative (Xor shares Or's level)
    return _operand(f.left, s, _LEVEL[t], same=None) + op + _operand(f.right, s, _LEVEL[t] + 1)


def _operand(c: Formula, s: _Syntax, level: int, same: type | None = None) -> str:
    """`c` as an operand of at least `level`: a `same` chain and a quantifier get ( )."""
    t = type(c)
    if s.parenthesise_binaries:
        bare = t in (Atom, Eq, Not, Quant)
    else:
        bare = t is not Quant and _LEVEL[t] >= level and t is not same
    return _write(c, s) if bare else _paren(c, s)


def _paren(c: Formula, s: _Syntax) -> str:
    return "(" + _write(c, s) + ")"


def _list(a: Term, s: _Syntax) -> str | None:
    """A $cons/$nil term in Prover9's list notation; None for any other term."""
    items = []
    while type(a) is Func and a.name == "$cons" and len(a.args) == 2:
        items.append(a.args[0])
        a = a.args[1]
    if not items and not (type(a) is Const and a.name == "$nil"):
        return None
    body = ", ".join(_term(t, s) for t in items)
    if type(a) is Const and a.name == "$nil":
        return f"[{body}]"
    if s.name is _nltk_name:
        raise RenderError("a list with a tail ([a : rest]) cannot be written in nltk", construct="$cons", fmt="nltk")
    return f"[{body} : {_term(a, s)}]"


def _term(a: Term, s: _Syntax) -> str:
    if s.lists and (written := _list(a, s)) is not None:
        return written
    if type(a) is Func:
        return s.name(a.name, "func") + "(" + ", ".join(_term(b, s) for b in a.args) + ")"
    return s.name(a.name, "var" if type(a) is Var else "const")


def tptp_variables(f: Formula) -> Formula:
    """`f` with every bound variable an upper-case word (`x` -> `X`, else `V`, `V1`, ...)."""
    taken = {n.var for n in subformulas(f) if type(n) is Quant and _TPTP_UPPER.match(n.var)}
    mapping: dict[str, str] = {}
    for n in subformulas(f):
        if type(n) is Quant and n.var not in mapping and not _TPTP_UPPER.match(n.var):
            cand = n.var[:1].upper() + n.var[1:]
            k = 0
            while not _TPTP_UPPER.match(cand) or cand in taken:
                k += 1
                cand = f"V{k}"
            taken.add(cand)
            mapping[n.var] = cand
    return _rename(f, mapping) if mapping else f


def _rename_term(a: Term, m: dict[str, str]) -> Term:
    if type(a) is Var:
        return Var(m.get(a.name, a.name))
    if type(a) is Func:
        return Func(a.name, tuple(_rename_term(b, m) for b in a.args))
    return a


def _rename(f: Formula, m: dict[str, str]) -> Formula:
    t = type(f)
    if t is Atom:
        return Atom(f.pred, tuple(_rename_term(a, m) for a in f.args))
    if t is Eq:
        return Eq(_rename_term(f.left, m), _rename_term(f.right, m))
    if t is Quant:
        return Quant(f.kind, m.get(f.var, f.var), _rename(f.body, m))
    if t is Not:
        return Not(_rename(f.body, m))
    if t is And or t is Or:
        return t(tuple(_rename(c, m) for c in f.children))
    return t(_rename(f.left, m), _rename(f.right, m))


__all__ = ["render_dialect", "tptp_variables", "SYNTAX", "Const", "escape", "quote"]
