"""AmP's FOL and Lisp read by Lark (LALR), for what parse.py's fast readers give up on."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from ambit.logic.syntax.ast import And, Atom, Const, Formula, Or, Quant, Term, Var
from ambit.logic.syntax.dialect import Dialect, dialect
from ambit.logic.syntax.grammar import close, lark_error
from ambit.logic.syntax.grouping import Group, ungroup

if TYPE_CHECKING:
    import lark

# Lark is imported only when needed: it is most of the import time of a short-lived process.


class _Rules:
    """Lark tree -> AST; in FOL an unparenthesised one-operator chain is one node."""

    def __init__(self, merge: bool) -> None:
        super().__init__()
        self.merge = merge

    def start(self, c):
        return c[0]

    def group(self, c):
        return Group(c[0])

    def atom(self, c):
        return Atom(str(c[0]).rstrip("("), tuple(_term(t) for t in c[1:]))

    def quant(self, c):
        return Quant(str(c[0]).strip(" (").strip(), str(c[1]), ungroup(c[2]))

    def conj(self, c):
        return _chain(And, c) if self.merge else And(tuple(c))

    def disj(self, c):
        return _chain(Or, c) if self.merge else Or(tuple(c))


def _chain(cls, children):
    """n-ary node from `unit OP formula`: an unparenthesised same-op tail is merged."""
    *init, last = children
    tail = list(last.children) if type(last) is cls else [ungroup(last)]  # a Group is never merged
    return cls(tuple([ungroup(c) for c in init] + tail))


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
    """Parse one of AmP's formats with Lark only; LFParseError with Lark's expectations."""
    return read_with_lark(text, dialect(fmt))[0]


def read_with_lark(text: str, d: Dialect) -> tuple[Formula, tuple[str, ...]]:
    import lark

    parser = lark_parser(d)
    try:
        tree = parser.parse(text)
    except lark.exceptions.UnexpectedInput as e:
        raise lark_error(parser, text, d, e) from None
    # AmP's FOL merges chains; Lisp nests
    f = ungroup(_transformer()(not d.s_expression).transform(tree))
    return close(f, text, d)
