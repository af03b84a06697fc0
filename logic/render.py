"""Write the AST out as AmP's FOL or Lisp, a Prolog term (Blackburn & Bos style), or a full
first-order dialect (`folio`, `nltk`, `tptp`: fol_render.py).

`parse(render(f, fmt), fmt) == f` for every AST whose connectives have two or more operands
(and, for AmP's formats, that lies inside AmP's fragment: `amp_misfit` names what does not).
"""

from __future__ import annotations

import re

from .ast import And, Atom, Const, Eq, Formula, Iff, Implies, Not, Or, Quant, Term, Var, Xor, subformulas
from .errors import RenderError
from .fol_render import render_dialect
from .quoting import quote


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
    """A Prolog term in Blackburn & Bos style: some(X,F), all(X,F), and(F,G), or(F,G).

    Bound variables become Prolog variables (`V_x`), constants quoted atoms (`'Mary'`),
    atoms `rel(Pred, [Args])` so predicate names never clash with Prolog built-ins.
    n-ary connectives become right-nested binary ones.
    """
    match f:
        case Atom(pred, args):
            return f"rel({quote(pred)}, [{', '.join(_prolog_term(a) for a in args)}])"
        case Quant(kind, var, body):
            q = "some" if kind == "exists" else "all"
            return f"{q}({_prolog_var(var)}, {to_prolog(body)})"
        case And(children) | Or(children):
            op = "and" if isinstance(f, And) else "or"
            out = to_prolog(children[-1])
            for c in reversed(children[:-1]):
                out = f"{op}({to_prolog(c)}, {out})"
            return out
    raise TypeError(f"not a formula: {f!r}")


def _prolog_var(name: str) -> str:
    return f"V_{name}"


def _prolog_term(t: Term) -> str:
    return _prolog_var(t.name) if isinstance(t, Var) else quote(t.name)


_CONNECTIVE_NAMES = {
    Not: "negation", Implies: "implication", Iff: "biconditional", Xor: "exclusive or", Eq: "equality",
}
_AMP_PRED = re.compile(r"[a-z][a-z0-9_]*\Z")
_AMP_VAR = re.compile(r"[a-z][0-9]*\Z")
_AMP_CONST = re.compile(r"[A-Z][A-Za-z0-9_]*\Z")


def amp_misfit(f: Formula) -> str | None:
    """What keeps `f` out of AmP's FOL/Lisp (a connective, an arity, a name AmP cannot spell),
    or None when it fits."""
    for n in subformulas(f):
        t = type(n)
        if t in _CONNECTIVE_NAMES:
            return _CONNECTIVE_NAMES[t]
        if t is Quant and not _AMP_VAR.match(n.var):
            return f"variable {n.var!r} (AmP variables are a lower-case letter and digits)"
        if t is Atom:
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
        misfit = amp_misfit(f)
        if misfit:
            fmt = writer.__name__[3:]
            raise RenderError(f"{misfit} does not fit AmP's {fmt} format", construct=misfit, fmt=fmt)
        return writer(f)

    return write


RENDERERS = {
    "fol": _amp(to_fol), "lisp": _amp(to_lisp), "prolog": to_prolog,
    "folio": lambda f: render_dialect(f, "folio"),
    "nltk": lambda f: render_dialect(f, "nltk"),
    "tptp": lambda f: render_dialect(f, "tptp"),
}


def render(f: Formula, fmt: str = "fol") -> str:
    """Render in `fol`, `lisp`, `prolog`, `folio`, `nltk` or `tptp`. RenderError (a ValueError)
    when the format cannot express `f`, naming the construct that does not fit."""
    try:
        writer = RENDERERS[fmt]
    except KeyError:
        raise ValueError(f"unknown output format {fmt!r}: expected one of {', '.join(RENDERERS)}") from None
    return writer(f)


__all__ = ["render", "amp_misfit", "to_fol", "to_lisp", "to_prolog", "Const", "Var"]
