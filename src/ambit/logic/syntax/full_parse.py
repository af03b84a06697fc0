"""Read the full first-order dialects into the AST: the hand-written readers first, one Lark grammar
per dialect (one transformer for all) for the rest; free variables as the dialect says."""

from __future__ import annotations

import operator
import re
from functools import lru_cache
from typing import Callable

from ambit.logic.syntax.ast import And, Atom, Const, Eq, Formula, Func, Iff, Implies, Not, Or, Quant, Term, Var, Xor, depth, subformulas
from ambit.logic.errors import MAX_DEPTH, LFParseError
from ambit.logic.syntax.dialect import Dialect, dialect
from ambit.logic.syntax.grammar import FOL_DIALECTS, close, lark_error, too_deep
from ambit.logic.syntax.grouping import Group, extend, ungroup
from ambit.logic.syntax.readers import folio_read, nltk_read, tptp_read

DIALECTS = FOL_DIALECTS
_KIND = {"∀": "forall", "∃": "exists", "all": "forall", "forall": "forall", "exists": "exists", "exist": "exists",
         "some": "exists", "!": "forall", "?": "exists"}
TRUE = Eq(Const("⊤"), Const("⊤"))  # TPTP's $true (valid by reflexivity); $false is ¬TRUE
CONS, NIL = "$cons", Const("$nil")  # Prover9's list terms, named as LADR names them


def _binary(make: Callable[[Formula, Formula], Formula]) -> Callable:
    """The rule of a binary connective `A op B`: `make(A, B)`."""
    return lambda self, c: make(ungroup(c[0]), ungroup(c[2]))


class _Rules:
    """Tree -> AST for the full dialects: names `Const` (TPTP variables `Var`); `_Binding` binds."""

    def start(self, c):
        return ungroup(c[0])

    def annotated(self, c):  # fof(name, role, formula).  -- the formula alone
        return ungroup(c[2])

    def group(self, c):
        return Group(ungroup(c[0]))

    def _op(self, c):  # a keyword rule of nltk.lark (`!all_op: "all" | "forall"`): its token
        return c[0]

    all_op = exists_op = neg_op = and_op = or_op = imp_op = iff_op = eq_op = _op

    def quant(self, c):
        kind = _KIND[str(c[0])]
        f = ungroup(c[-1])
        for v in reversed(c[1:-1]):
            f = Quant(kind, str(v), f)
        return f

    iff, xor, imp = _binary(Iff), _binary(Xor), _binary(Implies)
    rimp = _binary(lambda a, b: Implies(b, a))
    nor = _binary(lambda a, b: Not(Or((a, b))))  # TPTP  A ~| B
    nand = _binary(lambda a, b: Not(And((a, b))))  # TPTP  A ~& B

    def true(self, c):  # TPTP $true
        return TRUE

    def false(self, c):  # TPTP $false
        return Not(TRUE)

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

    def empty_list(self, c):  # Prover9's [] (LADR: $nil)
        return NIL

    def list_term(self, c):  # Prover9's [a, b] and [a, b : rest] (LADR: $cons(a, $cons(b, ...)))
        rest = len(c) > 1 and getattr(c[-2], "type", None) == "COLON"
        items = [_term(t) for t in (c[:-2] if rest else c)]
        tail = _term(c[-1]) if rest else NIL
        for t in reversed(items):
            tail = Func(CONS, (t, tail))
        return tail


def _name(tok) -> str:
    s = str(tok)
    if tok.type == "QUOTED":
        return s[1:-1].replace("\\'", "'").replace("\\\\", "\\")
    if tok.type == "DQUOTED":  # Prover9's "quoted symbol": a constant whatever it spells
        # a quoted ordinary symbol keeps its quotes ("x" is not the variable x, as in LADR)
        return s if _ORDINARY.fullmatch(s[1:-1]) else s[1:-1]
    return s


_ORDINARY = re.compile(r"[A-Za-z0-9_$]+|[0-9]+(\.[0-9]+)+[A-Za-z0-9_$]*")  # an unquoted LADR symbol


def _term(tok) -> Term:
    if type(tok) is Func or type(tok) is Const:  # a function term, or Prover9's [] ($nil)
        return tok
    return Var(str(tok)) if tok.type == "VARIABLE" else Const(_name(tok))


class _Binding:
    """One walk of a FOLIO or NLTK tree: bound names made variables, free names and a dotted
    variable found."""

    __slots__ = ("spelled", "free", "dotted", "ask_dotted")

    def __init__(self, d: Dialect) -> None:
        self.spelled = _spelling(d.variable_spelling)
        self.free: dict[str, None] = {}
        self.dotted: Quant | None = None
        self.ask_dotted = d.dotted_names

    def formula(self, f: Formula, bound: frozenset[str]) -> Formula:
        t = type(f)
        if t is Atom:
            if not f.args:
                return f
            args = tuple([self.term(a, bound) for a in f.args])
            return f if all(map(operator.is_, args, f.args)) else Atom(f.pred, args)
        if t is Eq:
            return Eq(self.term(f.left, bound), self.term(f.right, bound))
        if t is Quant:
            if self.ask_dotted and self.dotted is None and f.var.endswith("."):
                self.dotted = f
            return Quant(f.kind, f.var, self.formula(f.body, bound | {f.var}))
        if t is Not:
            return Not(self.formula(f.body, bound))
        if t is And or t is Or:
            return t(tuple([self.formula(c, bound) for c in f.children]))
        return t(self.formula(f.left, bound), self.formula(f.right, bound))

    def term(self, a: Term, bound: frozenset[str]) -> Term:
        t = type(a)
        if t is Const:
            name = a.name
            if name in bound:
                return Var(name)
            if name not in self.free and self.spelled(name):
                self.free[name] = None
            return a
        if t is Func:
            return Func(a.name, tuple([self.term(b, bound) for b in a.args]))
        return a


@lru_cache(maxsize=None)
def _spelling(pattern: str) -> Callable[[str], bool]:
    """Whether a name is spelled as a variable: compiled once, answers cached per name."""
    match = re.compile(pattern).fullmatch
    return lru_cache(maxsize=1 << 14)(lambda name: match(name) is not None)


def dialect_parser(fmt: str | Dialect) -> lark.Lark:
    """A dialect's LALR parser into the AST (Lark's shift preference is the folio scope rule)."""
    return _dialect_parser(dialect(fmt).name)


@lru_cache(maxsize=None)
def _dialect_parser(name: str) -> lark.Lark:
    import lark

    class _ToAST(_Rules, lark.Transformer):
        pass

    return lark.Lark(dialect(name).grammar_text(), parser="lalr", maybe_placeholders=False, transformer=_ToAST())


def parse_dialect(text: str, fmt: str | Dialect) -> Formula:
    """Parse one formula in `folio`, `nltk` or `tptp`; LFParseError says where and what was expected."""
    return read_dialect(text, dialect(fmt))[0]


def read_folio(text: str, d: Dialect) -> tuple[Formula, tuple[str, ...]]:
    """`read_dialect` for folio: the hand-written reader of the common input first, Lark for the rest."""
    try:
        if d.variable_spelling is None:
            return _finish(folio_read.read(text), text, d)
        f, free, dotted = folio_read.read_bound(text, _spelling(d.variable_spelling))
    except folio_read.Reject:
        return read_dialect(text, d)
    if len(text) > MAX_DEPTH and depth(f, MAX_DEPTH) > MAX_DEPTH:  # in `_finish`'s order: depth first
        raise too_deep(text, d)
    if dotted is not None and d.dotted_names:
        _dotted_variable_error(dotted, text)
    return close(f, text, d, names=free)


# terms shared with the formulas read before (they are immutable): a name read again is a look-up
_TPTP_TERMS: dict[str, Term] = {}
_MAX_TERMS = 20_000


def read_tptp(text: str, d: Dialect) -> tuple[Formula, tuple[str, ...]]:
    """`read_dialect` for tptp: readers/tptp_read.py first, Lark for the rest and every error."""
    if len(_TPTP_TERMS) >= _MAX_TERMS:  # a bound on the table's memory
        _TPTP_TERMS.clear()
    try:
        f, free = tptp_read.read(text, _TPTP_TERMS)
    except tptp_read.Reject:
        return read_dialect(text, d)
    if not free and len(text) <= MAX_DEPTH:  # nothing to close, and too short to nest past MAX_DEPTH
        return f, ()
    return _finish(f, text, d)


def read_nltk(text: str, d: Dialect) -> tuple[Formula, tuple[str, ...]]:
    """`read_dialect` for nltk: readers/nltk_read.py first, Lark for the rest and every error."""
    try:
        if d.variable_spelling is None or d.dotted_names:
            return _finish(nltk_read.read(text), text, d)
        f, free = nltk_read.read_bound(text, _spelling(d.variable_spelling))  # `_finish`'s walk, done reading
    except nltk_read.Reject:
        return read_dialect(text, d)
    if len(text) > MAX_DEPTH and depth(f, MAX_DEPTH) > MAX_DEPTH:  # in `_finish`'s order: depth first
        raise too_deep(text, d)
    return close(f, text, d, names=free)


def read_dialect(text: str, d: Dialect) -> tuple[Formula, tuple[str, ...]]:
    """One formula of a full dialect (Lark), and the free variables it closed under ∀."""
    import lark

    if _parenthesis_depth(text) > MAX_DEPTH:
        raise too_deep(text, d)
    parser = dialect_parser(d)
    try:
        f = parser.parse(text)
    except lark.exceptions.UnexpectedInput as e:
        raise lark_error(parser, text, d, e) from None
    return _finish(f, text, d)


def _parenthesis_depth(text: str) -> int:
    """How deeply the parentheses of `text` nest (a lower bound when they do not balance)."""
    if text.count("(") <= MAX_DEPTH:
        return 0
    d = deepest = 0
    for ch in text:
        if ch == "(":
            d += 1
            deepest = max(deepest, d)
        elif ch == ")":
            d -= 1
    return deepest


def _no_dotted_variable(f: Formula, text: str) -> None:
    """Refuse `∀x. P(x)`: FOLIO names may contain `.`, so it would bind `x.`."""
    for g in subformulas(f):
        if type(g) is Quant and g.var.endswith("."):
            _dotted_variable_error(g.var, text)


def _dotted_variable_error(var: str, text: str):
    """`_no_dotted_variable`'s error for the quantified variable `var`."""
    pos = max(text.find(var), 0)
    raise LFParseError(f"the quantified variable {var!r} ends with '.': FOLIO writes ∀x P(x), with no dot",
                       text=text, pos=pos + len(var) - 1, token=".", kind="syntax", fmt="folio")


def _finish(f: Formula, text: str, d: Dialect) -> tuple[Formula, tuple[str, ...]]:
    """A tree with bound names made variables and free ones closed; too deep: refused first."""
    if len(text) > MAX_DEPTH and depth(f, MAX_DEPTH) > MAX_DEPTH:  # each level of a tree takes a character
        raise too_deep(text, d)
    if d.variable_spelling is None:  # TPTP
        if d.dotted_names:
            _no_dotted_variable(f, text)
        return close(f, text, d)
    binding = _Binding(d)  # binding, the dotted variable and the free names: one walk
    f = binding.formula(f, frozenset())
    if binding.dotted is not None:
        _dotted_variable_error(binding.dotted.var, text)
    return close(f, text, d, names=list(binding.free))


__all__ = ["DIALECTS", "parse_dialect", "read_dialect", "read_folio", "read_nltk", "read_tptp", "dialect_parser"]
