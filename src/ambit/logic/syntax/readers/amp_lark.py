"""AmP's FOL and Lisp read by Lark (LALR) from the grammar files in `logic/grammars/`: the reader
that validates, gives parse trees and reports errors with their position and expectations, and
reads whatever the hand-written fast readers of logic/syntax/parse.py give up on."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from ambit.logic.syntax.ast import And, Atom, Const, Formula, Or, Quant, Term, Var
from ambit.logic.syntax.dialect import Dialect, dialect
from ambit.logic.syntax.grammar import close, lark_error

if TYPE_CHECKING:
    import lark

# Lark is imported only when it is needed (an input the fast readers reject, an error to
# describe, a grammar to build): it is most of the import time of a short-lived process.


class _Rules:
    """Lark tree -> AST, for both grammars (same rule names). In FOL an unparenthesised
    right-hand chain of the same operator is merged into one n-ary node; in Lisp every
    `( AND ...)` is its own node. (Mixed into a `lark.Transformer` by `_transformer`.)"""

    def __init__(self, merge: bool) -> None:
        super().__init__()
        self.merge = merge

    def start(self, c):
        return c[0]

    def group(self, c):
        return _Group(c[0])

    def atom(self, c):
        pred = str(c[0]).rstrip("(")
        return Atom(pred, tuple(_term(t) for t in c[1:]))

    def quant(self, c):
        return Quant(str(c[0]).strip(" (").strip(), str(c[1]), _ungroup(c[2]))

    def conj(self, c):
        return _chain(And, c) if self.merge else And(tuple(c))

    def disj(self, c):
        return _chain(Or, c) if self.merge else Or(tuple(c))


class _Group:
    """A parenthesised FOL formula: kept as its own node, never merged into a chain."""

    __slots__ = ("f",)

    def __init__(self, f: Formula) -> None:
        self.f = f


def _ungroup(x):
    return x.f if isinstance(x, _Group) else x


def _chain(cls, children):
    """n-ary node from `unit OP formula`: an unparenthesised same-op tail is merged."""
    out = []
    for i, c in enumerate(children):
        last = i == len(children) - 1
        if last and type(c) is cls and not isinstance(c, _Group):
            out.extend(c.children)
        else:
            out.append(_ungroup(c))
    return cls(tuple(out))


def _term(tok) -> Term:
    s = str(tok)
    return Const(s) if tok.type == "CONST" or s[:1].isupper() else Var(s)


@lru_cache(maxsize=None)
def _transformer() -> type:
    import lark

    class _ToAST(_Rules, lark.Transformer):
        pass

    return _ToAST


def lark_parser(fmt: str | Dialect) -> lark.Lark:
    """The LALR parser built from the grammar file (trees, no transformer)."""
    return _lark_parser(dialect(fmt).name)


@lru_cache(maxsize=None)
def _lark_parser(name: str) -> lark.Lark:
    import lark

    return lark.Lark(dialect(name).grammar_text(), parser="lalr", maybe_placeholders=False)


def parse_with_lark(text: str, fmt: str | Dialect) -> Formula:
    """Parse one of AmP's formats with Lark only; raises `LFParseError` with Lark's position
    and expectations."""
    return read_with_lark(text, dialect(fmt))[0]


def read_with_lark(text: str, d: Dialect) -> tuple[Formula, tuple[str, ...]]:
    import lark

    parser = lark_parser(d)
    try:
        tree = parser.parse(text)
    except lark.exceptions.UnexpectedInput as e:
        raise lark_error(parser, text, d, e) from None
    f = _ungroup(_transformer()(not d.s_expression).transform(tree))  # AmP's FOL merges chains; Lisp nests
    return close(f, text, d)
