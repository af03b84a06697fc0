"""Write the AST as AmP's FOL or Lisp, a Prolog term, or a full dialect (full_render.py):
`parse(render(f, fmt), fmt) == f` within what `fmt` expresses (`amp_misfit`)."""

from __future__ import annotations

import re
from collections.abc import Callable

from ambit.logic.syntax.ast import And, Atom, Const, Eq, Formula, Func, Iff, Implies, Not, Or, Quant, Term, Var, Xor, subformulas
from ambit.logic.syntax.dialect import FOL, NAMES, Dialect, dialect
from ambit.logic.errors import RenderError
from ambit.logic.syntax.full_render import quote


def to_fol(f: Formula) -> str:
    """`exists x . man(x) AND ( a(x) OR b(x) )`: compound operands are parenthesised."""
    t = type(f)
    if t is Atom:
        return f.pred + "(" + ", ".join([a.name for a in f.args]) + ")"
    if t is Quant:
        return f"{f.kind} {f.var} . {to_fol(f.body)}"
    if t is And or t is Or:
        op = " AND " if t is And else " OR "
        return op.join([to_fol(c) if type(c) is Atom else f"( {to_fol(c)} )" for c in f.children])
    raise TypeError(f"not a formula: {f!r}")


def to_lisp(f: Formula) -> str:
    """`( exists x ( AND ( man x ) ( saw a ) ) )`."""
    match f:
        case Atom(pred, args):
            return f"( {pred} {' '.join(a.name for a in args)} )"
        case Quant(kind, var, body):
            return f"( {kind} {var} {to_lisp(body)} )"
        case And(children) | Or(children):
            op = "AND" if isinstance(f, And) else "OR"
            return f"( {op} {' '.join(to_lisp(c) for c in children)} )"
    raise TypeError(f"not a formula: {f!r}")


def to_prolog(f: Formula) -> str:
    """A Blackburn & Bos Prolog term (`some(X,F)`, `rel(Pred, [Args])`); AmP's fragment only."""
    return prolog_term(f, "names", sep=", ", full=False)


PROLOG_VARIABLES = ("names", "fresh", "numbered")
_PROLOG_QUANT = {"exists": "some(", "forall": "all("}
_PROLOG_BINARY = {Implies: "imp(", Iff: "iff(", Xor: "xor("}
# Past this many operands an and/or sent to Prolog is a balanced tree: SWI-Prolog 9 reads nested
# arguments by C recursion, and a term nested some 20,000 deep overflowed the worker's C stack.
BALANCE_FROM = 64


class _ByName(dict):
    """The variables of `names` mode: every variable (bound or free) is `V_<name>`."""

    __slots__ = ()

    def __missing__(self, name: str) -> str:
        return "V_" + name


def _prolog_arg(a: Term, env: dict[str, str], sep: str, full: bool) -> str:
    """A term of `prolog_term`: a variable as `env` writes it, a quoted constant, `fn(...)`."""
    t = type(a)
    if t is Var:
        return env[a.name]
    if t is Const:
        return quote(a.name)
    if not full:
        raise TypeError(f"a function term is outside AmP's fragment: {a!r}")
    return "fn(" + quote(a.name) + sep + "[" + sep.join([_prolog_arg(b, env, sep, full) for b in a.args]) + "])"


def _balanced(go: Callable, put: Callable, sep: str, head: str, cs: tuple, lo: int, hi: int, env: dict) -> None:
    """cs[lo:hi] as a balanced tree of `head` nodes (`prolog_term`): nesting log2(n) deep, not n."""
    if hi - lo == 1:
        go(cs[lo], env)
        return
    mid = (lo + hi) // 2
    put(head)
    _balanced(go, put, sep, head, cs, lo, mid, env)
    put(sep)
    _balanced(go, put, sep, head, cs, mid, hi, env)
    put(")")


def prolog_term(f: Formula, variables: str = "names", tag: str = "", sep: str = ", ", full: bool = True) -> str:
    """`f` as a term of logic/engine/prolog/*.pl, and/or balanced past BALANCE_FROM operands outside
    `names` mode. `variables`: `names` (`V_<name>`), `fresh` (`V<tag>_<n>` per quantifier) or
    `numbered` (`all(N, F)`, `v(N)`); `full` False: AmP's fragment only."""
    if variables not in PROLOG_VARIABLES:
        raise ValueError(f"variables must be one of {PROLOG_VARIABLES}, not {variables!r}")
    by_name = variables == "names"
    numbered = variables == "numbered"
    out: list[str] = []
    put = out.append
    count = [0]  # quantifiers written so far

    def go(g: Formula, env: dict[str, str]) -> None:
        t = type(g)
        if t is Atom:
            put("rel(" + quote(g.pred) + sep + "[" + sep.join([_prolog_arg(a, env, sep, full) for a in g.args]) + "])")
        elif t is Quant:
            if by_name:
                name = "V_" + g.var
            else:
                n = count[0]
                count[0] = n + 1
                if numbered:
                    name = str(n + 1)
                    env = {**env, g.var: f"v({name})"}
                else:
                    name = f"V{tag}_{n}"
                    env = {**env, g.var: name}
            put(_PROLOG_QUANT[g.kind] + name + sep)
            go(g.body, env)
            put(")")
        elif t is And or t is Or:
            head = "and(" if t is And else "or("
            cs = g.children
            if by_name or len(cs) <= BALANCE_FROM:
                for c in cs[:-1]:
                    put(head)
                    go(c, env)
                    put(sep)
                go(cs[-1], env)
                put(")" * (len(cs) - 1))
            else:
                _balanced(go, put, sep, head, cs, 0, len(cs), env)
        elif not full:
            raise TypeError(f"not a formula: {g!r}")
        elif t is Not:
            put("not(")
            go(g.body, env)
            put(")")
        elif t is Eq:
            put("eq(" + _prolog_arg(g.left, env, sep, full) + sep + _prolog_arg(g.right, env, sep, full) + ")")
        elif t is Implies or t is Iff or t is Xor:
            put(_PROLOG_BINARY[t])
            go(g.left, env)
            put(sep)
            go(g.right, env)
            put(")")
        else:
            raise TypeError(f"not a formula: {g!r}")

    try:
        go(f, _ByName() if by_name else {})
    finally:
        go = None  # a recursive closure is a reference cycle: broken here, not by the collector
    return "".join(out)


_CONNECTIVE_NAMES = {Not: "negation", Implies: "implication", Iff: "biconditional",
                     Xor: "exclusive or", Eq: "equality"}
_AMP_PRED = re.compile(r"[a-z][a-z0-9_]*\Z")
_AMP_VAR = re.compile(r"[a-z][0-9]*\Z")
_AMP_CONST = re.compile(r"[A-Z][A-Za-z0-9_]*\Z")


def amp_misfit(f: Formula) -> str | None:
    """What keeps `f` out of AmP's FOL/Lisp (connective, arity, spelling), or None when it fits."""
    for n in subformulas(f):
        t = type(n)
        if t in _CONNECTIVE_NAMES:
            return _CONNECTIVE_NAMES[t]
        if t is Quant and not _AMP_VAR.match(n.var):
            return f"variable {n.var!r} (AmP variables are a lower-case letter and digits)"
        if t is Atom:
            if any(type(a) is Func for a in n.args):
                return "function term"
            if not 1 <= len(n.args) <= 2:
                return f"predicate {n.pred!r} with {len(n.args)} arguments (AmP has arity 1 or 2)"
            if not _AMP_PRED.match(n.pred):
                return f"predicate name {n.pred!r} (AmP predicates are [a-z][a-z0-9_]*)"
            for a in n.args:
                if type(a) is Const and not _AMP_CONST.match(a.name):
                    return f"constant {a.name!r} (AmP constants are capitalised: [A-Z][A-Za-z0-9_]*)"
    return None


def _amp(writer):
    def write(f: Formula) -> str:
        if misfit := amp_misfit(f):
            fmt = writer.__name__[3:]
            raise RenderError(f"{misfit} does not fit AmP's {fmt} format", construct=misfit, fmt=fmt)
        return writer(f)

    return write


write_fol = _amp(to_fol)  # the fol dialect's renderer (dialect.py names it): AmP's FOL, checked against AmP's fragment
write_lisp = _amp(to_lisp)  # the lisp dialect's renderer


def render(f: Formula, fmt: "str | Dialect" = FOL) -> str:
    """`f` in a dialect (by name or `Dialect`) or `prolog`; RenderError naming what does not fit."""
    if isinstance(fmt, Dialect):
        return fmt.render(f)
    if fmt == "prolog":
        return to_prolog(f)
    try:
        d = dialect(fmt)
    except ValueError:
        raise ValueError(f"unknown output format {fmt!r}: expected one of {', '.join((*NAMES, 'prolog'))}") from None
    return d.render(f)


__all__ = ["render", "amp_misfit", "to_fol", "to_lisp", "write_fol", "write_lisp", "to_prolog", "prolog_term", "Const", "Var"]
