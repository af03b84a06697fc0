"""NLTK's reading in full in the nltk dialect: curried application and parenthesised functions
read as `nltk.sem.logic.Expression.fromstring` reads them (the hand-written reader and Lark's
grammar alike), and feature-grammar variables refused with their reason."""

from __future__ import annotations

import lark
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ambit.logic import LFParseError, parse
from ambit.logic.syntax.ast import Atom, Const, Func, Quant
from ambit.logic.syntax.dialect import dialect
from ambit.logic.syntax.full_parse import dialect_parser, read_dialect
from ambit.logic.syntax.readers import nltk_read

nltk_logic = pytest.importorskip("nltk.sem.logic", reason="nltk is the oracle of the nltk dialect")

NLTK = dialect("nltk")
A, B, C = Const("A"), Const("B"), Const("C")

# the strings of NLTK's logic doctest that ambit 0.2 refused, and NLTK's reading of each
CURRIED = {
    "P(x)(y)(z)": Atom("P", (Const("x"), Const("y"), Const("z"))),
    "A(B)(C)": Atom("A", (B, C)),
    "(A(B))(C)": Atom("A", (B, C)),
    "A((B)(C))": Atom("A", (Func("B", (C,)),)),
    "(A)(B(C))": Atom("A", (Func("B", (C,)),)),
    "(((A)))(((B))(((C))))": Atom("A", (Func("B", (C,)),)),
}
FEATURE_VARIABLES = {"?vp(?np)": ("?vp", 0), "bo(?det(?n),@x)": ("?det", 3), "walk(@x)": ("@x", 5)}


def lark_tree(text: str):
    try:
        return dialect_parser(NLTK).parse(text)
    except lark.exceptions.UnexpectedInput:
        return None


def fast_tree(text: str):
    try:
        return nltk_read.read(text)
    except nltk_read.Reject:
        return None


@pytest.mark.parametrize("text", sorted(CURRIED))
def test_curried_and_parenthesised_application_reads_as_nltk_reads_it(text):
    want = CURRIED[text]
    assert parse(text, NLTK, free_variables="constant") == want
    assert fast_tree(text) == want and lark_tree(text) == want  # both readers, one tree
    # NLTK's own reading, written out by NLTK (uncurried: `A(B,C)`), reads the same
    assert parse(str(nltk_logic.Expression.fromstring(text)), NLTK, free_variables="constant") == want


@pytest.mark.parametrize("text", sorted(FEATURE_VARIABLES))
def test_feature_grammar_variables_are_refused_with_a_line_that_names_them(text):
    name, pos = FEATURE_VARIABLES[text]
    with pytest.raises(LFParseError) as e:
        parse(text, NLTK)
    assert "feature-grammar variable" in str(e.value) and e.value.token == name and e.value.pos == pos
    assert e.value.fmt == NLTK.name
    assert isinstance(nltk_logic.Expression.fromstring(text), nltk_logic.Expression)  # NLTK reads it, as a name
    with pytest.raises(LFParseError):
        read_dialect(text, NLTK)  # Lark refuses it too


@pytest.mark.parametrize("text,reading", [
    ("mother(x)(y) = z", "mother(x, y) = z"),  # a curried function term on either side of =
    ("a = mother(x)(y)", "a = mother(x, y)"),
    ("P((x))", "P(x)"),
    ("P((mother(x)))", "P(mother(x))"),
    ("P((mother)(x))", "P(mother(x))"),
    ("P((mother(x))(y))", "P(mother(x, y))"),
    ("((A)(B))(C)", "A(B, C)"),
    ("all x.P(x)(y)", "all x.P(x, y)"),  # a quantifier's body, as NLTK reads it
    ("(p) & q", "p & q"),
    ("P(x)(y) & Q((z))", "P(x, y) & Q(z)"),
])
def test_more_applications_read_as_written_out(text, reading):
    assert parse(text, NLTK) == parse(reading, NLTK)
    assert fast_tree(text) == lark_tree(text) == fast_tree(reading)
    assert parse(text, NLTK) == parse(str(nltk_logic.Expression.fromstring(text)), NLTK)


@pytest.mark.parametrize("text", ["(-P)(x)", "(all x.P(x))(y)", "(p & q)(x)", "(p(x))(y) = z", "(a = b)(c)",
                                  "P(x)()", "P(x)(", "P((x)", "P(())", "(P)(x", "([a])(b)"])
def test_only_an_atom_applies_to_more_arguments(text):
    """NLTK refuses a formula applied to arguments (`(-P)(x)`); so does ambit, both readers."""
    assert fast_tree(text) is None and lark_tree(text) is None
    with pytest.raises(LFParseError):
        parse(text, NLTK)


def test_a_negated_parenthesised_predicate_applies_before_the_negation():
    """NLTK refuses `-(A)(B)` (it applies `-A` to B); ambit reads the application first, as it
    reads `-A(B)`."""
    assert parse("-(A)(B)", NLTK) == parse("-A(B)", NLTK) and fast_tree("-(A)(B)") == lark_tree("-(A)(B)")


def test_a_curried_atom_keeps_the_binding_of_its_arguments():
    f = parse("all x.exists y.R(x)(y)", NLTK)
    assert type(f) is Quant and f.body.body.args[0].name == "x" and type(f.body.body.args[0]).__name__ == "Var"


# --------------------------------------------------------------------------- generated, against NLTK

NAMES = ["A", "B", "dog", "likes", "john"]


def _function(depth: int):
    """A function expression as NLTK writes one: a name, maybe parenthesised, maybe applied."""
    names = st.sampled_from(NAMES)
    parens = st.integers(0, 2)
    base = st.builds(lambda n, k: "(" * k + n + ")" * k, names, parens)
    if depth == 0:
        return base
    return st.one_of(base, st.builds(lambda f, args, k: "(" * k + f + "".join(f"({a})" for a in args) + ")" * k,
                                     _function(depth - 1), st.lists(_argument(depth - 1), min_size=1, max_size=2),
                                     parens))


def _argument(depth: int):
    names = st.sampled_from(["x", "y", "john", "B", "C"])
    if depth == 0:
        return st.builds(lambda n, k: "(" * k + n + ")" * k, names, st.integers(0, 2))
    return st.one_of(_argument(0), _application(depth - 1))


def _application(depth: int):
    return st.builds(lambda f, lists: f + "".join(f"({', '.join(args)})" for args in lists), _function(depth),
                     st.lists(st.lists(_argument(depth), min_size=1, max_size=2), min_size=1, max_size=3))


@settings(max_examples=300, deadline=None)
@given(_application(2))
def test_generated_applications_read_as_nltk_reads_them(text):
    try:
        e = nltk_logic.Expression.fromstring(text)
    except nltk_logic.LogicalExpressionException:
        return  # NLTK refuses it (a name like `x` applied): nothing to compare
    ours = fast_tree(text)
    assert ours is not None and ours == lark_tree(text), text
    assert parse(text, NLTK, free_variables="constant") == parse(str(e), NLTK, free_variables="constant"), text


TOKENS = ["P", "f", "x", "(", ")", ",", ")(", "(x)", "P(x)", "(P)", "&", "-", "all x.", " ", "=", "a"]


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=12))
def test_random_strings_of_applications_read_alike_by_both_readers(toks):
    text = "".join(toks)
    fast = fast_tree(text)
    if fast is not None:
        assert fast == lark_tree(text), text
    try:
        want = read_dialect(text, NLTK)
    except LFParseError as e:
        with pytest.raises(LFParseError) as got:
            NLTK.read(text)
        assert (got.value.pos, got.value.kind, got.value.expected) == (e.pos, e.kind, e.expected), text
        return
    assert NLTK.read(text) == want, text
