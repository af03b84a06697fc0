"""What every reader shares: the grammar files, the LFParseErrors they raise (in the dialect's own
tokens), and the one treatment of free variables (`close`)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ambit.logic.syntax.ast import (And, Atom, Const, Eq, Formula, Func, Iff, Implies, Not,
                                   Or, Quant, Term, Var, Xor, children, depth, free_vars,
                                   subformulas, subterms, terms)
from ambit.logic.syntax.dialect import AMP_NAMES, FULL_NAMES, NAMES, Dialect, dialect
from ambit.logic.errors import MAX_DEPTH, LFParseError

if TYPE_CHECKING:
    import lark

FORMATS = AMP_NAMES  # AmP's formats (the ones decoding is constrained to)
FOL_DIALECTS = FULL_NAMES  # full first-order logic
DIALECTS = NAMES  # every format `parse` reads and `render` writes


def grammar_text(fmt: "str | Dialect") -> str:
    """The Lark grammar of a format (`logic/grammars/<fmt>.lark`)."""
    return dialect(fmt).grammar_text()


_TERMINAL_NAMES = {
    "QUANT": "a quantifier ('exists ' or 'forall ')", "PRED": "a predicate", "$END": "end of input",
    "VAR": "a variable (x, y, z, a, e, i, ...)", "NAME": "a name", "NUMBER": "a number",
    "CONST": "a name (a capitalised constant such as Mary)", "QUOTED": "a 'quoted' name",
    "VARIABLE": "a variable (an upper-case word)", "LPAR": "'('", "RPAR": "')'", "COMMA": "','",
}


def _describe_terminal(parser: lark.Lark, name: str, d: Dialect | None = None) -> str:
    import lark

    names = {**_TERMINAL_NAMES, **dict(d.terminal_names)} if d is not None else _TERMINAL_NAMES
    if name in names:
        return names[name]
    try:
        pattern = parser.get_terminal(name).pattern
    except KeyError:
        return name
    return repr(pattern.value) if isinstance(pattern, lark.lexer.PatternStr) else name


def lark_error(parser: lark.Lark, text: str, fmt: "str | Dialect", e: lark.exceptions.UnexpectedInput) -> LFParseError:
    import lark

    d = dialect(fmt)
    pos = len(text) if (p := getattr(e, "pos_in_stream", None)) is None else p
    if isinstance(e, lark.exceptions.UnexpectedToken):
        end = e.token.type == "$END"
        token, pos = ("", len(text)) if end else (str(e.token), pos)
        expected = sorted(e.expected)
        reason = "unexpected end of input" if end else "unexpected token"
    elif isinstance(e, lark.exceptions.UnexpectedCharacters):
        token = text[pos : pos + 1]
        expected = sorted(e.allowed or ())
        reason = "unexpected character"
    else:
        token, expected, reason = "", [], "unexpected end of input"
    descr = tuple(_describe_terminal(parser, n, d) for n in expected)
    kind = "syntax"
    if "VAR" in expected and token[:1].isupper() and _after_quantifier(text, pos):
        reason, kind = f"a quantifier must bind a variable, not the constant {token!r}", "quantified_constant"
    elif (op := _dangling(text, d)) is not None and pos >= op[0]:
        if pos < op[0] + len(op[1]):  # Lark stopped on the operator itself: its expectations
            descr = ()                  # are what would have continued before it, not after
        pos, token = op[0] + len(op[1]) - len(op[1].lstrip()), op[1].strip()
        reason, kind = f"dangling operator {token!r} at the end: an operand must follow it", "dangling_operator"
    return LFParseError(f"{d.name.upper()} {reason}", text=text, pos=pos, token=token, expected=descr, kind=kind,
                        fmt=d.name)


def _dangling(text: str, d: Dialect) -> tuple[int, str] | None:
    """(position, operator) when `text` ends with one of the dialect's operators, else None."""
    body = text.rstrip()
    return next(((len(body) - len(op), op) for op in d.operators if body.endswith(op)), None)


def _after_quantifier(text: str, pos: int) -> bool:
    return text[:pos].endswith(("exists ", "forall "))


def _first_use(text: str, name: str, f: Formula | None = None, d: Dialect | None = None) -> int:
    """Where `name` is first used free in `text`: the k-th written occurrence, k counted over `f`
    (the first when counts disagree, as TPTP's `<=` reverses operands)."""
    word = "A-Za-z0-9_'’." if d is not None and d.dotted_names else "A-Za-z0-9_'’"  # what continues a name
    found = [m.start() for m in re.finditer(rf"(?<![{word}]){re.escape(name)}(?![{word}(])", text)]
    if not found:
        return 0
    if f is not None and d is not None:
        uses = _uses(f, name, d)
        if len(uses) == len(found) and True in uses:
            return found[uses.index(True)]
    return found[0]


def _uses(f: Formula, name: str, d: Dialect) -> list[bool]:
    """Each occurrence of `name` in `f` in reading order: True where it is a free variable."""
    out: list[bool] = []
    free_const = d.variable_spelling is not None

    def term(a: Term, bound: bool) -> None:
        t = type(a)
        if t is Func:
            for b in a.args:
                term(b, bound)
        elif a.name == name:
            out.append(not bound and (t is Var or free_const))

    stack: list = [(f, False)]
    while stack:
        g, bound = stack.pop()
        t = type(g)
        if t is Quant:
            if g.var == name:
                out.append(False)
            stack.append((g.body, bound or g.var == name))
        elif t is Atom or t is Eq:
            for a in terms(g):
                term(a, bound)
        else:
            stack.extend((c, bound) for c in reversed(children(g)))
    return out


def _free_names(f: Formula, d: Dialect) -> list[str]:
    """The free variables of `f` in order of first use (folio, nltk: by spelling)."""
    seen: dict[str, None] = {}
    by_spelling = d.variable_spelling is not None
    free = None if by_spelling else free_vars(f)
    if not by_spelling and not free:
        return []
    for g in subformulas(f):
        for a in terms(g):
            for u in subterms(a):
                if by_spelling:
                    if type(u) is Const and d.is_variable_name(u.name):
                        seen.setdefault(u.name)
                elif type(u) is Var and u.name in free:
                    seen.setdefault(u.name)
    return list(seen)


def close(f: Formula, text: str, d: Dialect, names: list[str] | None = None) -> tuple[Formula, tuple[str, ...]]:
    """`f` with its free variables read as `d.free_variables` says, and the names closed under ∀
    (outermost first, in order of first use). `names`: the free names when known."""
    if names is None:
        names = _free_names(f, d)
    if not names:
        return f, ()
    policy = d.free_variables
    if policy == "error":
        name = names[0]
        hint = "" if d.amp else " (--free-variables universal closes it under ∀)"
        raise LFParseError(f"variable {name!r} is used but never quantified{hint}", text=text,
                           pos=_first_use(text, name, f, d), token=name, kind="unbound_variable", fmt=d.name)
    if policy == "constant":
        return (f if d.variable_spelling is not None else _rename_terms(f, frozenset(names), Const)), ()
    if len(names) + len(text) > MAX_DEPTH and len(names) + depth(f, MAX_DEPTH) > MAX_DEPTH:
        raise LFParseError(f"{len(names)} free variables, each closed under ∀, nest the formula deeper than "
                           f"{MAX_DEPTH} levels (connectives and quantifiers): quantify them, or read them as "
                           "constants (--free-variables constant)", text=text, pos=_first_use(text, names[0], f, d),
                           token=names[0], kind="too_deep", fmt=d.name)
    body = _rename_terms(f, frozenset(names), Var) if d.variable_spelling is not None else f
    for name in reversed(names):
        body = Quant("forall", name, body)
    return body, tuple(names)


def _term_as(a: Term, names: frozenset[str], cls: type) -> Term:
    t = type(a)
    if t is Func:
        return Func(a.name, tuple(_term_as(b, names, cls) for b in a.args))
    if (t is Var or t is Const) and t is not cls and a.name in names:
        return cls(a.name)
    return a


def _rename_terms(f: Formula, names: frozenset[str], cls: type) -> Formula:
    """`f` with every term named in `names` made a `cls`, except where a quantifier rebinds it."""
    t = type(f)
    if t is Atom:
        return Atom(f.pred, tuple(_term_as(a, names, cls) for a in f.args))
    if t is Eq:
        return Eq(_term_as(f.left, names, cls), _term_as(f.right, names, cls))
    if t is Quant:
        inner = names - {f.var}
        return Quant(f.kind, f.var, _rename_terms(f.body, inner, cls) if inner else f.body)
    if t is Not:
        return Not(_rename_terms(f.body, names, cls))
    if t is And or t is Or:
        return t(tuple(_rename_terms(c, names, cls) for c in f.children))
    if t is Implies or t is Iff or t is Xor:
        return t(_rename_terms(f.left, names, cls), _rename_terms(f.right, names, cls))
    raise TypeError(f"not a formula: {f!r}")


def too_deep(text: str, fmt: "str | Dialect") -> LFParseError:
    """The error for a formula nested deeper than MAX_DEPTH."""
    return LFParseError(f"formula nested deeper than {MAX_DEPTH} levels (connectives and quantifiers)",
                        text=text, pos=0, kind="too_deep", fmt=str(fmt))
