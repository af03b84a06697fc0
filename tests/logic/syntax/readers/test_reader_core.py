"""The hand-written readers on their one core (logic/syntax/readers/core.py) against the Lark grammars
they stand in for, one table for the three dialects: random formula texts written with every
spelling of each dialect's connectives, unparenthesised mixes of them (the precedence and the
grouping decide the tree), quantifier scopes, equations and function terms. Where Lark reads a
text, the hand-written reader reads it too, to the same tree; where Lark refuses one, it refuses
it; and the dialect's reading (hand-written first, Lark for the rest, the names bound and the free
variables closed) gives what Lark's path gives, tree or error. The same after a random token of
the dialect is inserted, deleted or replaced (most of those texts are malformed), and at the
readers' nesting limit."""

from __future__ import annotations

import lark
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ambit.logic import LFParseError
from ambit.logic.errors import MAX_DEPTH
from ambit.logic.syntax.ast import free_vars
from ambit.logic.syntax.dialect import dialect
from ambit.logic.syntax.full_parse import dialect_parser, read_dialect
from ambit.logic.syntax.readers import folio_read, nltk_read, tptp_read
from ambit.logic.syntax.readers.core import READER_DEPTH, Reject


def _tptp(text: str):
    f, free = tptp_read.read(text)
    assert free == bool(free_vars(f)), text
    return f


# per dialect: the hand-written reader (names as constants, as Lark's transformer gives them), and
# the pieces a text is written with: binary connectives (each with its spellings), negations, a
# quantifier over one or two variables, equalities, predicates, terms (variables and constants)
# and function names
SPEC = {
    "folio": {"read": folio_read.read, "binary": [["∧"], ["∨"], ["⊕"], ["→"], ["↔", "⟷"]], "neg": ["¬"],
              "quant": lambda k, vs: f"{'∀' if k else '∃'}{vs[0]} ", "eq": ["=", "≠"],
              "preds": ["Dog", "Likes", "R0"], "terms": ["x", "y", "bonnie", "2009", "Świątek"], "funcs": ["f"]},
    "nltk": {"read": nltk_read.read,
             "binary": [["&", "^", " and "], ["|", " or "], ["->", "=>", " implies "], ["<->", "<=>", " iff "]],
             "neg": ["-", "!", "not "],
             "quant": lambda k, vs: f"{('all', 'forall')[k % 2] if k < 2 else ('exists', 'exist', 'some')[k % 3]} "
                                    f"{' '.join(vs)}.",
             "eq": ["=", "==", "!="], "preds": ["dog", "likes", "P"], "terms": ["x", "y", "john", "3.5", "a_1"],
             "funcs": ["f", "mother"]},
    "tptp": {"read": _tptp, "binary": [["&"], ["~&"], ["|"], ["~|"], ["=>"], ["<="], ["<=>"], ["<~>"]], "neg": ["~"],
             "quant": lambda k, vs: f"{'!?'[k % 2]}[{', '.join(v.upper() for v in vs)}]: ", "eq": ["=", "!="],
             "preds": ["dog", "likes", "'Big Dog'", "$true", "$false"], "terms": ["X", "Y", "bonnie", "2", "'a b'"],
             "funcs": ["f", "g"]},
}
DIALECTS = sorted(SPEC)


def _terms(spec: dict, depth: int = 1):
    names = st.sampled_from(spec["terms"])
    if depth == 0:
        return names
    return st.one_of(names, st.builds(lambda f, args: f"{f}({', '.join(args)})", st.sampled_from(spec["funcs"]),
                                      st.lists(_terms(spec, depth - 1), min_size=1, max_size=2)))


def _atoms(spec: dict):
    pred = st.sampled_from(spec["preds"])
    atom = st.builds(lambda p, args: p if not args or p.startswith("$") else f"{p}({', '.join(args)})", pred,
                     st.lists(_terms(spec), max_size=3))
    eq = st.builds(lambda a, e, b: f"{a} {e} {b}", _terms(spec), st.sampled_from(spec["eq"]), _terms(spec))
    return st.one_of(atom, eq)


def _connectives(spec: dict):
    """Three connectives to join operands with, of one or two of the dialect's, each spelled
    at random (so that runs of one connective, however spelled, and mixes of two are frequent)."""
    palette = st.lists(st.sampled_from(spec["binary"]), min_size=1, max_size=2)
    return palette.flatmap(lambda groups: st.lists(st.sampled_from([s for g in groups for s in g]), min_size=3,
                                                   max_size=3))


def _formula(spec: dict, depth: int):
    """Formula texts of `depth` levels, parenthesised or not at random."""
    if depth == 0:
        return _atoms(spec)
    sub = _formula(spec, depth - 1)
    variables = st.lists(st.sampled_from(["x", "y"]), min_size=1, max_size=2, unique=True)
    return st.one_of(
        _atoms(spec),
        st.builds(lambda n, f: n + f, st.sampled_from(spec["neg"]), sub),
        st.builds(lambda k, vs, f: spec["quant"](k, vs) + f, st.integers(0, 5), variables, sub),
        st.builds(lambda fs, ops: fs[0] + "".join(f" {op} {f}" for op, f in zip(ops, fs[1:])),
                  st.lists(sub, min_size=2, max_size=4), _connectives(spec)),
        st.builds(lambda f: f"({f})", sub),
    )


def _lark(fmt: str, text: str):
    try:
        return dialect_parser(fmt).parse(text)
    except lark.exceptions.UnexpectedInput:
        return None


def _fast(fmt: str, text: str):
    try:
        return SPEC[fmt]["read"](text)
    except Reject:
        return None


def same(fmt: str, text: str, common: bool = False) -> None:
    """The hand-written reader accepts only what Lark accepts, with Lark's tree (and, for
    `common` input, all of it); the dialect's reading gives what Lark's path gives."""
    fast, slow = _fast(fmt, text), _lark(fmt, text)
    if fast is not None or common:
        assert fast == slow, text
    d = dialect(fmt)
    try:
        want = read_dialect(text, d)
    except LFParseError as e:
        with pytest.raises(LFParseError) as got:
            d.read(text)
        assert (got.value.pos, got.value.kind, got.value.expected) == (e.pos, e.kind, e.expected), text
        return
    assert d.read(text) == want, text


@pytest.mark.parametrize("fmt", DIALECTS)
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_random_formula_texts_read_as_lark_reads_them(fmt, data):
    same(fmt, data.draw(_formula(SPEC[fmt], 3)), common=True)


def _vocabulary(spec: dict) -> list[str]:
    return [*(s for g in spec["binary"] for s in g), *spec["neg"], *spec["eq"], *spec["preds"], *spec["terms"],
            spec["quant"](0, ["x"]), spec["quant"](3, ["x", "y"]), "(", ")", ",", " ", "."]


@pytest.mark.parametrize("fmt", DIALECTS)
@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_mutated_texts_never_read_where_lark_refuses(fmt, data):
    text = data.draw(_formula(SPEC[fmt], 2))
    pos = data.draw(st.integers(0, len(text)))
    token = data.draw(st.sampled_from(_vocabulary(SPEC[fmt])))
    n = data.draw(st.integers(1, 3))
    text = data.draw(st.sampled_from([text[:pos] + token + text[pos:], text[:pos] + text[pos + n:],
                                      text[:pos] + token + text[pos + n:]]))
    same(fmt, text)


NESTING = {  # per dialect: a negation, a group, a quantifier, each wrapped k times around an atom; an implication
    "folio": ("¬{}", "({})", "∀x {}", "P(x)", "→"),
    "nltk": ("-{}", "({})", "all x.{}", "p(x)", "->"),
    "tptp": ("~{}", "({})", "![X]: {}", "p(X)", "=>"),
}


@pytest.mark.parametrize("fmt", DIALECTS)
@pytest.mark.parametrize("k", [READER_DEPTH - 1, READER_DEPTH, READER_DEPTH + 1, MAX_DEPTH + 1])
def test_nesting_past_the_readers_limit_reads_as_lark_reads_it(fmt, k):
    *wrappers, atom, implies = NESTING[fmt]
    for wrap in wrappers:
        text = atom
        for _ in range(k):
            text = wrap.format(text)
        same(fmt, text)
        if k >= READER_DEPTH:
            assert _fast(fmt, text) is None  # the reader nests no deeper than READER_DEPTH: Lark reads it
    same(fmt, f" {implies} ".join([atom] * k))  # grouped to the right (folio, tptp: nested) or to the left
