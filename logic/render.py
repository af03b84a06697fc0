"""Write the AST out as FOL, Lisp, or a Prolog term (Blackburn & Bos style).

`parse(render(f, fmt), fmt) == f` for every AST whose connectives have two or more operands.
"""

from __future__ import annotations

from .ast import And, Atom, Const, Formula, Or, Quant, Term, Var


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
            return f"rel({_quote(pred)}, [{', '.join(_prolog_term(a) for a in args)}])"
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
    return _prolog_var(t.name) if isinstance(t, Var) else _quote(t.name)


def _quote(name: str) -> str:
    return "'" + name.replace("\\", "\\\\").replace("'", "\\'") + "'"


RENDERERS = {"fol": to_fol, "lisp": to_lisp, "prolog": to_prolog}


def render(f: Formula, fmt: str = "fol") -> str:
    """Render in `fol`, `lisp` or `prolog`."""
    try:
        return RENDERERS[fmt](f)
    except KeyError:
        raise ValueError(f"unknown output format {fmt!r}: expected one of {', '.join(RENDERERS)}") from None


__all__ = ["render", "to_fol", "to_lisp", "to_prolog", "Const", "Var"]
