"""What every reader of logical forms shares: the format names, the grammar files, and the
errors (LFParseError) they raise: Lark's failures described in the dialect's own tokens, a
dangling operator named as such, an unbound variable, nesting past MAX_DEPTH."""

from __future__ import annotations

import re
from importlib import resources
from typing import TYPE_CHECKING

from .ast import Formula, free_vars
from .errors import MAX_DEPTH, LFParseError

if TYPE_CHECKING:
    import lark

FORMATS = ("fol", "lisp")  # AmP's formats (the ones decoding is constrained to)
FOL_DIALECTS = ("folio", "nltk", "tptp")  # full first-order logic
DIALECTS = FORMATS + FOL_DIALECTS  # every format `parse` reads and `render` writes


def grammar_text(fmt: str) -> str:
    """The Lark grammar of a format, as stored in `logic/grammars/<fmt>.lark`."""
    check_format(fmt)
    return resources.files("ambit.logic").joinpath("grammars", f"{fmt}.lark").read_text(encoding="utf-8")


def check_format(fmt: str) -> None:
    if fmt not in DIALECTS:
        raise ValueError(f"unknown LF format {fmt!r}: expected one of {', '.join(DIALECTS)}")


_TERMINAL_NAMES = {
    "QUANT": "a quantifier ('exists ' or 'forall ')",
    "PRED": "a predicate",
    "VAR": "a variable (x, y, z, a, e, i, ...)",
    "CONST": "a name (a capitalised constant such as Mary)",
    "$END": "end of input",
    "NAME": "a name",
    "VARIABLE": "a variable (an upper-case word)",
    "QUOTED": "a 'quoted' name",
    "NUMBER": "a number",
    "LPAR": "'('",
    "RPAR": "')'",
    "COMMA": "','",
}


# what differs from _TERMINAL_NAMES in a dialect: its own spelling of the same token
_DIALECT_TERMINAL_NAMES = {
    "lisp": {"QUANT": "a quantifier ('( exists ' or '( forall ')"},
    "folio": {"QUANT": "a quantifier ('∀' or '∃')", "NAME": "a name (a predicate, constant or variable)"},
    "tptp": {"QUANT": "a quantifier ('!' or '?')", "NAME": "a name (a lower-case word)"},
    "nltk": {"NAME": "a name (a predicate, constant or variable)"},
}

# binary and prefix operators per dialect: a formula that ends with one lacks an operand
_OPERATORS = {
    "fol": (" AND", " OR", " ."),
    "folio": ("∧", "∨", "⊕", "→", "↔", "⟷", "¬"),
    "nltk": ("<->", "->", "&", "|", "-"),
    "tptp": ("<=>", "<~>", "=>", "<=", "&", "|", "~", ":"),
}


def _describe_terminal(parser: lark.Lark, name: str, fmt: str = "") -> str:
    import lark

    own = _DIALECT_TERMINAL_NAMES.get(fmt, {})
    if name in own:
        return own[name]
    if name in _TERMINAL_NAMES:
        return _TERMINAL_NAMES[name]
    try:
        pattern = parser.get_terminal(name).pattern
    except KeyError:
        return name
    return repr(pattern.value) if isinstance(pattern, lark.lexer.PatternStr) else name


def lark_error(parser: lark.Lark, text: str, fmt: str, e: lark.exceptions.UnexpectedInput) -> LFParseError:
    import lark

    pos = getattr(e, "pos_in_stream", None)
    if pos is None:
        pos = len(text)
    if isinstance(e, lark.exceptions.UnexpectedToken):
        token = str(e.token) if e.token.type != "$END" else ""
        if e.token.type == "$END":
            pos = len(text)
        expected = sorted(e.expected)
        reason = "unexpected end of input" if e.token.type == "$END" else "unexpected token"
    elif isinstance(e, lark.exceptions.UnexpectedCharacters):
        token = text[pos : pos + 1]
        expected = sorted(e.allowed or ())
        reason = "unexpected character"
    else:
        token, expected, reason = "", [], "unexpected end of input"
    descr = tuple(_describe_terminal(parser, n, fmt) for n in expected)
    kind = "syntax"
    if "VAR" in expected and token[:1].isupper() and _after_quantifier(text, pos):
        reason, kind = f"a quantifier must bind a variable, not the constant {token!r}", "quantified_constant"
    elif (op := _dangling(text, fmt)) is not None and pos >= op[0]:
        if pos < op[0] + len(op[1]):  # Lark stopped on the operator itself: its expectations
            descr = ()                  # are what would have continued before it, not after
        pos, token = op[0] + len(op[1]) - len(op[1].lstrip()), op[1].strip()
        reason, kind = f"dangling operator {token!r} at the end: an operand must follow it", "dangling_operator"
    return LFParseError(f"{fmt.upper()} {reason}", text=text, pos=pos, token=token, expected=descr, kind=kind, fmt=fmt)


def _dangling(text: str, fmt: str) -> tuple[int, str] | None:
    """(position, operator) when `text` ends with one of the dialect's operators, else None."""
    body = text.rstrip()
    for op in _OPERATORS.get(fmt, ()):
        if body.endswith(op):
            return len(body) - len(op), op
    return None


def _after_quantifier(text: str, pos: int) -> bool:
    before = text[:pos]
    return before.endswith(("exists ", "forall "))


def check_closed(f: Formula, text: str, fmt: str) -> None:
    free = free_vars(f)
    if free:
        name = sorted(free)[0]
        m = re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_(])", text)
        pos = m.start() if m else 0
        raise LFParseError(
            f"variable {name!r} is used but never quantified",
            text=text,
            pos=pos,
            token=name,
            kind="unbound_variable",
            fmt=fmt,
        )


def too_deep(text: str, fmt: str) -> LFParseError:
    """The error for a formula nested deeper than MAX_DEPTH."""
    return LFParseError(f"formula nested deeper than {MAX_DEPTH} levels (connectives and quantifiers)",
                        text=text, pos=0, kind="too_deep", fmt=fmt)
