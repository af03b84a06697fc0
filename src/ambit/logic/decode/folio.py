"""The grammar models write FOLIO in (`grammars/folio_decode.lark`, ASCII: `all x (-A(x))`), its
renderer, and `to_folio`. Lark reads it with Earley: a quantifier (`all `) and a constant (`all`)
share a prefix LALR cannot split without priorities."""

from __future__ import annotations

import functools
from importlib import resources

from ambit.logic.syntax.ast import And, Atom, Const, Eq, Formula, Iff, Implies, Not, Or, Quant, Var, Xor

GRAMMAR_FILE = "folio_decode.lark"
_SYMBOL = {"forall": "all ", "exists": "exists "}
_BINARY = {And: " & ", Or: " | ", Xor: " xor ", Implies: " -> ", Iff: " <-> "}
NEG, EQ, NEQ = "-", " = ", " != "
# decode-grammar token -> FOLIO spelling (by terminal; any other token is copied)
FOLIO = {"QUANT": {"all ": "∀", "exists ": "∃"}, "NEG": {"-": "¬"}, "AND": {" & ": " ∧ "},
         "OR": {" | ": " ∨ "}, "XOR": {" xor ": " ⊕ "}, "IMP": {" -> ": " → "}, "IFF": {" <-> ": " ↔ "},
         "EQ": {" = ": " = "}, "NEQ": {" != ": " ≠ "}}


def grammar_text() -> str:
    """The grammar, as stored in logic/grammars/folio_decode.lark."""
    return resources.files("ambit.logic").joinpath("grammars", GRAMMAR_FILE).read_text(encoding="utf-8")


@functools.cache
def _parser():
    import lark

    return lark.Lark(grammar_text(), parser="earley", lexer="dynamic", keep_all_tokens=True)


def check(text: str):
    """Lark's parse tree of `text` under the decode grammar; raises lark's UnexpectedInput."""
    return _parser().parse(text)


def in_grammar(text: str) -> bool:
    """Whether the decode grammar accepts `text` (a constrained model's output always is)."""
    import lark

    try:
        check(text)
    except lark.exceptions.UnexpectedInput:
        return False
    return True


def to_folio(text: str) -> str:
    """A decoded formula in FOLIO's symbols; lark's UnexpectedInput when not in the grammar."""
    import lark

    return "".join(FOLIO.get(t.type, {}).get(str(t), str(t)) for t in _tokens(check(text), lark.Token))


def _tokens(tree, token_type: type):
    """The tree's tokens in order, without recursion (`scan_values` recurses, so deep ones fail)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, token_type):
            yield node
        else:
            stack.extend(reversed(node.children))


def render(f: Formula) -> str:
    """`f` in the decode grammar's style; ValueError for what it cannot say."""
    text = _render(f, last=True)
    if not in_grammar(text):
        raise ValueError(f"not expressible in {GRAMMAR_FILE}: {text}")
    return text


def _term(t) -> str:
    if type(t) not in (Var, Const):
        raise ValueError(f"{GRAMMAR_FILE} has no term like {t!r}")
    return t.name


def _render(f: Formula, last: bool) -> str:
    """`last`: nothing follows `f` at its level, so a quantifier may stand bare."""
    t = type(f)
    if t is Atom:
        if not f.args:
            raise ValueError(f"{GRAMMAR_FILE} has no propositional atoms ({f.pred})")
        return f"{f.pred}({', '.join(_term(a) for a in f.args)})"
    if t is Eq:
        return f"{_term(f.left)}{EQ}{_term(f.right)}"
    if t is Not:
        b = f.body
        if type(b) is Eq:
            return f"{_term(b.left)}{NEQ}{_term(b.right)}"
        if type(b) in (Atom, Not) or (last and type(b) is Quant):
            return NEG + _render(b, last)
        return f"{NEG}({_render(b, True)})"
    if t is Quant:
        body = _render(f.body, True) if type(f.body) is Quant else f"({_render(f.body, True)})"
        text = f"{_SYMBOL[f.kind]}{f.var} {body}"  # all x (...)
        return text if last else f"({text})"
    if t in _BINARY:
        ops = f.children if t in (And, Or) else (f.left, f.right)
        return _BINARY[t].join([_operand(o, last=i == len(ops) - 1) for i, o in enumerate(ops)])
    raise ValueError(f"{GRAMMAR_FILE} cannot write {f!r}")


def _operand(f: Formula, last: bool) -> str:
    """An operand: bare when an atom, a negation or (last) a quantifier, else parenthesised."""
    if type(f) in (Atom, Eq, Not) or (last and type(f) is Quant):
        return _render(f, last)
    return f"({_render(f, True)})"


def as_folio(text: str) -> str:
    """`text` in FOLIO's symbols when the decode grammar accepts it, else unchanged."""
    import lark

    try:
        return to_folio(text)
    except lark.exceptions.UnexpectedInput:
        return text
