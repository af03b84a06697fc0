"""Read full first-order logic in the `folio`, `nltk` and `tptp` dialects into the AST.

Each dialect is one grammar file in `logic/grammars/` (Lark, LALR); one transformer serves all
three, since their rules share names. FOLIO and NLTK tell variables from constants by binding (a
name no quantifier binds is a constant); TPTP by spelling (upper-case words are variables), so
there an unbound variable is an error.
"""

from __future__ import annotations

from functools import lru_cache

from .ast import And, Atom, Const, Eq, Formula, Func, Iff, Implies, Not, Or, Quant, Term, Var, Xor, depth, subformulas
from .errors import MAX_DEPTH, LFParseError
from .grammar import FOL_DIALECTS, check_closed, grammar_text, lark_error, too_deep
from .grouping import Group, extend, ungroup

DIALECTS = FOL_DIALECTS
_KIND = {"∀": "forall", "∃": "exists", "all": "forall", "exists": "exists", "!": "forall", "?": "exists"}


class _Rules:
    """Tree -> AST for the three dialects. Names become `Const` here (TPTP variables `Var`);
    `_bind` then turns the names a quantifier binds into variables. (Mixed into a
    `lark.Transformer` in `dialect_parser`: Lark is imported only when a grammar is needed.)"""

    def start(self, c):
        return ungroup(c[0])

    def annotated(self, c):  # fof(name, role, formula).  -- the formula alone
        return ungroup(c[2])

    def group(self, c):
        return Group(ungroup(c[0]))

    def quant(self, c):
        kind = _KIND[str(c[0])]
        f = ungroup(c[-1])
        for v in reversed(c[1:-1]):
            f = Quant(kind, str(v), f)
        return f

    def iff(self, c):
        return Iff(ungroup(c[0]), ungroup(c[2]))

    def xor(self, c):
        return Xor(ungroup(c[0]), ungroup(c[2]))

    def imp(self, c):
        return Implies(ungroup(c[0]), ungroup(c[2]))

    def rimp(self, c):
        return Implies(ungroup(c[2]), ungroup(c[0]))

    def disj(self, c):
        return extend(Or, c[0], c[2])

    def conj(self, c):
        return extend(And, c[0], c[2])

    def neg(self, c):
        return Not(ungroup(c[1]))

    def eq(self, c):
        return Eq(_term(c[0]), _term(c[2]))

    def neq(self, c):
        return Not(Eq(_term(c[0]), _term(c[2])))

    def atom(self, c):
        return Atom(_name(c[0]), tuple(_term(t) for t in c[1:]))

    def func(self, c):
        return Func(_name(c[0]), tuple(_term(t) for t in c[1:]))


def _name(tok) -> str:
    s = str(tok)
    if tok.type == "QUOTED":
        return s[1:-1].replace("\\'", "'").replace("\\\\", "\\")
    return s


def _term(tok) -> Term:
    if type(tok) is Func:
        return tok
    return Var(str(tok)) if tok.type == "VARIABLE" else Const(_name(tok))


def _bind(f: Formula, bound: frozenset[str]) -> Formula:
    """`f` with every constant named by an enclosing quantifier turned into that variable."""
    t = type(f)
    if t is Atom:
        if bound and f.args:
            return Atom(f.pred, tuple(_bind_term(a, bound) for a in f.args))
        return f
    if t is Eq:
        return Eq(_bind_term(f.left, bound), _bind_term(f.right, bound))
    if t is Quant:
        return Quant(f.kind, f.var, _bind(f.body, bound | {f.var}))
    if t is Not:
        return Not(_bind(f.body, bound))
    if t is And or t is Or:
        return t(tuple(_bind(c, bound) for c in f.children))
    return t(_bind(f.left, bound), _bind(f.right, bound))


def _bind_term(a: Term, bound: frozenset[str]) -> Term:
    if type(a) is Func:
        return Func(a.name, tuple(_bind_term(b, bound) for b in a.args))
    return Var(a.name) if type(a) is Const and a.name in bound else a


@lru_cache(maxsize=None)
def dialect_parser(fmt: str) -> lark.Lark:
    """The LALR parser of a dialect's grammar file, transforming straight into the AST.
    (The grammars leave shift/reduce choices to Lark's shift preference on purpose: that is
    what makes a quantifier's scope reach as far right as possible.)"""
    import lark

    class _ToAST(_Rules, lark.Transformer):
        pass

    return lark.Lark(grammar_text(fmt), parser="lalr", maybe_placeholders=False, transformer=_ToAST())


def parse_dialect(text: str, fmt: str) -> Formula:
    """Parse one formula in `folio`, `nltk` or `tptp`; LFParseError says where and what was expected."""
    if fmt == "folio":
        from . import folio_read  # the hand-written reader of the common input; Lark for the rest

        try:
            return _finish(folio_read.read(text), text, fmt)
        except folio_read.Reject:
            pass
    import lark

    if _parenthesis_depth(text) > MAX_DEPTH:
        raise too_deep(text, fmt)
    parser = dialect_parser(fmt)
    try:
        f = parser.parse(text)
    except lark.exceptions.UnexpectedInput as e:
        raise lark_error(parser, text, fmt, e) from None
    return _finish(f, text, fmt)


def _parenthesis_depth(text: str) -> int:
    """How deeply the parentheses of `text` nest (a lower bound when they do not balance)."""
    if text.count("(") <= MAX_DEPTH:
        return 0
    d = deepest = 0
    for ch in text:
        if ch == "(":
            d += 1
            if d > deepest:
                deepest = d
        elif ch == ")":
            d -= 1
    return deepest


def _no_dotted_variable(f: Formula, text: str) -> None:
    """FOLIO names may contain `.`, so `∀x. P(x)` would bind a variable `x.` and leave `x` a
    constant: refused, with the reason (FOLIO writes `∀x P(x)`)."""
    for g in subformulas(f):
        if type(g) is Quant and g.var.endswith("."):
            pos = max(text.find(g.var), 0)
            raise LFParseError(f"the quantified variable {g.var!r} ends with '.': FOLIO writes ∀x P(x), with no dot",
                               text=text, pos=pos + len(g.var) - 1, token=".", kind="syntax", fmt="folio")


def _finish(f: Formula, text: str, fmt: str) -> Formula:
    """A parsed tree with FOLIO/NLTK's bound names made variables, checked to be closed.
    (FOLIO and NLTK readers write every name as a constant and `_bind` makes variables only of
    bound ones, so their trees are closed by construction; TPTP spells variables, so its
    trees are checked.) A tree nested deeper than MAX_DEPTH is refused first (the readers
    build it without recursion; what comes after recurses)."""
    if depth(f, MAX_DEPTH) > MAX_DEPTH:
        raise too_deep(text, fmt)
    if fmt == "folio":
        _no_dotted_variable(f, text)
    if fmt != "tptp":
        return _bind(f, frozenset())
    check_closed(f, text, fmt)
    return f


__all__ = ["DIALECTS", "parse_dialect", "dialect_parser"]
