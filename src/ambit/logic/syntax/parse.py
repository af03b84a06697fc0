"""Read AmP's FOL and Lisp (the full dialects through full_parse.py): a hand-written reader, about
10x faster than Lark, falls back to Lark (readers/amp_lark.py) on whatever it rejects, so the error
a user sees is always Lark's."""

from __future__ import annotations

import re
from typing import Callable

from ambit.logic.syntax.ast import And, Atom, Const, Formula, Or, Quant, Term, Var
from ambit.logic.syntax.readers.amp_lark import read_with_lark
from ambit.logic.syntax.readers import gc_paused
from ambit.logic.syntax.dialect import FOL, Dialect, dialect, dialects
from ambit.logic.errors import MAX_DEPTH, LFParseError
from ambit.logic.syntax.grammar import DIALECTS, FORMATS  # noqa: F401 (re-exported: logic.DIALECTS, FORMATS)
from ambit.logic.syntax.grammar import FOL_DIALECTS, close, grammar_text, too_deep  # noqa: F401

_FOL_TOKEN = re.compile(
    r"exists |forall | \. | AND | OR |\( | \)|[a-z][a-z0-9_]*\(|, |\)|[a-z][0-9]*|[A-Z][A-Za-z0-9_]*"
)
_FOL_FIXED = {"exists ": "Q", "forall ": "Q", " . ": "DOT", " AND ": "AND", " OR ": "OR",
              "( ": "LP", " )": "RP", ", ": "COMMA", ")": "CLOSE"}
_LISP_TOKEN = re.compile(
    r"(?P<Q>\( exists |\( forall )|(?P<AND>\( AND )|(?P<OR>\( OR )|(?P<LP>\( )|(?P<RP> \))|(?P<SP> )"
    r"|(?P<NAME>[a-z][a-z0-9_]*)|(?P<CONST>[A-Z][A-Za-z0-9_]*)")
_VAR_RE = re.compile(r"[a-z][0-9]*\Z")

_TERMS: dict[tuple[type, str], Term] = {}  # terms are immutable values: one object per name is shared
_MAX_TERMS = 20_000  # past that many distinct names the table starts again (a bound on its memory)


def _shared_term(kind: type, name: str) -> Term:
    """`kind(name)` (a Var or a Const), one object per name across the formulas read."""
    t = _TERMS.get((kind, name))
    if t is None:
        if len(_TERMS) >= _MAX_TERMS:
            _TERMS.clear()
        t = _TERMS[(kind, name)] = kind(name)
    return t


class _Reject(Exception):
    """The fast reader gives up; Lark then reads the input and reports the error."""


def _tokens(pattern: re.Pattern, text: str) -> list[tuple[str, str]]:
    out = []
    pos = 0
    for m in pattern.finditer(text):
        if m.start() != pos:
            raise _Reject
        out.append((m.lastgroup, m.group()))
        pos = m.end()
    if pos != len(text):
        raise _Reject
    out.append(("END", ""))
    return out


def _fol_tokens(text: str) -> list[tuple[str, str]]:
    words = _FOL_TOKEN.findall(text)
    if sum(map(len, words)) != len(text):  # some character matched no token
        raise _Reject
    token = _FOL_WORDS.get
    out = [token(w) or _fol_word(w) for w in words]
    out.append(("END", ""))
    return out


_FOL_WORDS: dict[str, tuple[str, str]] = {w: (kind, w) for w, kind in _FOL_FIXED.items()}


def _fol_word(w: str) -> tuple[str, str]:
    """The token of a new word, then kept (words repeat; the table restarts past _MAX_TERMS)."""
    if len(_FOL_WORDS) >= _MAX_TERMS:
        _FOL_WORDS.clear()
        _FOL_WORDS.update({f: (kind, f) for f, kind in _FOL_FIXED.items()})
    _FOL_WORDS[w] = t = ("PRED" if w[-1] == "(" else "CONST" if w[0].isupper() else "VAR", w)
    return t


def _group_right(items: list[Formula], ops: list[str]) -> Formula:
    """A chain `items[0] ops[0] items[1] ...` grouped right, each run of one operator one node."""
    node, run_op, run = items[-1], "", []
    for op, item in zip(reversed(ops), reversed(items[:-1])):
        if op != run_op:
            if run_op:
                node = (And if run_op == "AND" else Or)(tuple(reversed(run)))
            run_op, run = op, [node]
        run.append(item)
    return (And if run_op == "AND" else Or)(tuple(reversed(run)))


def _fast_fol(text: str) -> tuple[Formula, bool]:
    """The formula, and whether some variable in it is not bound (the reader checks as it reads)."""
    toks = _fol_tokens(text)
    i = 0
    bound: list[str] = []  # variables in scope, innermost last
    unbound = False

    def formula(depth: int) -> tuple[Formula, bool]:
        """Returns (node, is_unparenthesised_chain)."""
        nonlocal i
        if depth > MAX_DEPTH:
            raise _TooDeep
        kind, val = toks[i]
        if kind == "Q":
            if toks[i + 1][0] != "VAR" or toks[i + 2][0] != "DOT":
                raise _Reject
            var = toks[i + 1][1]
            i += 3
            bound.append(var)
            body = formula(depth + 1)[0]
            bound.pop()
            return Quant(val[:-1], var, body), False
        # an unparenthesised chain `u1 OP u2 OP ... [quant]`, read iteratively, grouped right
        items = [unit(depth)]
        ops: list[str] = []
        while toks[i][0] in ("AND", "OR"):
            ops.append(toks[i][0])
            i += 1
            if toks[i][0] == "Q":
                items.append(formula(depth + 1)[0])
                break
            items.append(unit(depth))
        if not ops:
            return items[0], False
        return _group_right(items, ops), True

    def unit(depth: int) -> Formula:
        nonlocal i
        kind, val = toks[i]
        if kind == "LP":
            i += 1
            f, _ = formula(depth + 1)
            if toks[i][0] != "RP":
                raise _Reject
            i += 1
            return f
        if kind != "PRED":
            raise _Reject
        i += 1
        args = [term()]
        if toks[i][0] == "COMMA":
            i += 1
            args.append(term())
        if toks[i][0] != "CLOSE":
            raise _Reject
        i += 1
        return Atom(val[:-1], tuple(args))

    def term() -> Term:
        nonlocal i, unbound
        kind, val = toks[i]
        i += 1
        if kind == "VAR":
            if val not in bound:
                unbound = True
            return _shared_term(Var, val)
        if kind == "CONST":
            return _shared_term(Const, val)
        raise _Reject

    try:
        f, _ = formula(0)
    finally:
        formula = unit = term = None  # closures that call one another are a reference cycle: broken here
    if toks[i][0] != "END":
        raise _Reject
    return f, unbound


def _fast_lisp(text: str) -> tuple[Formula, bool]:
    toks = _tokens(_LISP_TOKEN, text)
    i = 0

    def expect(kind: str) -> str:
        nonlocal i
        k, v = toks[i]
        if k != kind:
            raise _Reject
        i += 1
        return v

    def formula(depth: int) -> Formula:
        nonlocal i
        if depth > MAX_DEPTH:
            raise _TooDeep
        kind, val = toks[i]
        i += 1
        if kind == "Q":
            var = expect("NAME")
            if not _VAR_RE.match(var):
                raise _Reject
            expect("SP")
            body = formula(depth + 1)
            expect("RP")
            return Quant(val[2:-1], var, body)
        if kind in ("AND", "OR"):
            children = [formula(depth + 1)]
            while toks[i][0] == "SP":
                i += 1
                children.append(formula(depth + 1))
            expect("RP")
            if len(children) < 2:
                raise _Reject
            return (And if kind == "AND" else Or)(tuple(children))
        if kind == "LP":
            pred = expect("NAME")
            args = []
            while toks[i][0] == "SP" and len(args) < 2:
                i += 1
                args.append(term())
            expect("RP")
            if not args:
                raise _Reject
            return Atom(pred, tuple(args))
        raise _Reject

    def term() -> Term:
        nonlocal i
        kind, val = toks[i]
        i += 1
        if kind == "CONST":
            return Const(val)
        if kind == "NAME" and _VAR_RE.match(val):
            return Var(val)
        raise _Reject

    f = formula(0)
    if toks[i][0] != "END":
        raise _Reject
    return f, True  # not checked as it reads: `close` looks


class _TooDeep(Exception):
    pass


_FAST: dict[bool, Callable[[str], tuple[Formula, bool]]] = {False: _fast_fol, True: _fast_lisp}  # by d.s_expression

# from this size on the cyclic collector is paused while reading (readers.gc_paused)
GC_PAUSE_CHARS = 65_536


def parse(text: str, fmt: str | Dialect = FOL, *, free_variables: str | None = None) -> Formula:
    """Parse one logical form in `fmt`, free variables as `free_variables` says; LFParseError."""
    return read(text, fmt, free_variables)[0]


def read(text: str, fmt: str | Dialect = FOL, free_variables: str | None = None) -> tuple[Formula, tuple[str, ...]]:
    """`parse`, with the names of the free variables it closed under ∀ (empty: none)."""
    d = dialect(fmt, free_variables)
    if not isinstance(text, str):
        raise TypeError(f"expected an LF string, got {type(text).__name__}")
    if not text.strip():
        raise LFParseError("empty logical form", text=text, pos=0, kind="empty", fmt=d.name)
    return d.reader(text, d)


def read_amp(text: str, d: Dialect) -> tuple[Formula, tuple[str, ...]]:
    """One of AmP's formats: the fast reader, or Lark where it gives up."""
    try:
        if len(text) < GC_PAUSE_CHARS:
            f, unbound = _FAST[d.s_expression](text)
        else:
            with gc_paused():
                f, unbound = _FAST[d.s_expression](text)
    except _TooDeep:
        raise too_deep(text, d) from None
    except (_Reject, IndexError):
        return read_with_lark(text, d)
    return close(f, text, d) if unbound else (f, ())


def detect_format(text: str) -> str:
    """'fol' when the text has an FOL atom (`pred(`), else 'lisp' when it opens with '('."""
    lisp = not re.search(r"[a-z0-9_]\(", text) and text.lstrip().startswith("(")
    return next(d.name for d in dialects() if d.amp and d.s_expression == lisp)
