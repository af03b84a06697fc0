"""Full first-order dialects: reading conventions, round trips, conversion, errors."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ambit.logic import LFParseError, parse, render
from ambit.logic.syntax.ast import And, Atom, Const, Eq, Iff, Implies, Not, Or, Quant, Var, Xor
from ambit.logic.errors import RenderError

P = lambda *a: Atom("P", tuple(a))  # noqa: E731
Q = lambda *a: Atom("Q", tuple(a))  # noqa: E731
x = Var("x")


@pytest.mark.parametrize("text,want", [
    ("∀x P(x) → Q(x)", Quant("forall", "x", Implies(P(x), Q(x)))),
    ("A ∧ ∀x P(x) ∨ Q(x)", And((Atom("A", ()), Quant("forall", "x", Or((P(x), Q(x))))))),
    ("A → B → C", Implies(Atom("A", ()), Implies(Atom("B", ()), Atom("C", ())))),
    ("A ∨ B ⊕ C", Xor(Or((Atom("A", ()), Atom("B", ()))), Atom("C", ()))),
    ("¬A ∧ B ↔ C", Iff(And((Not(Atom("A", ())), Atom("B", ()))), Atom("C", ()))),
    ("Likes(bonnie, 1.3billion)", Atom("Likes", (Const("bonnie"), Const("1.3billion")))),
    ("∃x (P(x) ∧ x ≠ Świątek)", Quant("exists", "x", And((P(x), Not(Eq(x, Const("Świątek"))))))),
])
def test_folio_reading_conventions(text, want):
    assert parse(text, "folio") == want


def test_same_formula_in_three_dialects():
    f = parse("∀x (Dog(x) → ¬Cat(x))", "folio")
    g = parse("all x.(Dog(x) -> -Cat(x))", "nltk")
    h = parse("![X]: ('Dog'(X) => ~'Cat'(X))", "tptp")
    assert f == g
    assert render(h, "folio") == "∀X (Dog(X) → ¬Cat(X))"
    assert parse("fof(a1, axiom, ![X]: ('Dog'(X) => ~'Cat'(X))).", "tptp") == h


@pytest.mark.parametrize("text,pos,expected", [
    ("∀x (P(x) → Q(x)))", 16, "end of input"),  # stray )
    ("∀x (P(x), Q(x))", 8, "')'"),  # , where ) belongs
    ("∀x (P(x) → (Q(x)", 16, "')'"),  # unbalanced
])
def test_malformed_folio_gets_position_and_expected(text, pos, expected):
    with pytest.raises(LFParseError) as e:
        parse(text, "folio")
    assert e.value.pos == pos and expected in e.value.expected


def test_tptp_unbound_variable_is_closed_or_refused_as_asked():
    text = "![X]: p(X) & q(X)"  # TPTP: the quantifier binds p(X) only; X in q(X) is free
    inner = And((Quant("forall", "X", Atom("p", (Var("X"),))), Atom("q", (Var("X"),))))
    assert parse(text, "tptp") == Quant("forall", "X", inner)  # TPTP's reading: closed under !
    with pytest.raises(LFParseError) as e:
        parse(text, "tptp", free_variables="error")
    assert e.value.kind == "unbound_variable" and e.value.pos == text.rindex("X")
    assert parse(text, "tptp", free_variables="constant") == And((inner.children[0], Atom("q", (Const("X"),))))


def test_amp_formats_name_the_construct_that_does_not_fit():
    with pytest.raises(RenderError) as e:
        render(parse("∀x (dog(x) → cat(x))", "folio"), "fol")
    assert e.value.construct == "implication"
    assert render(parse("∃x (dog(x) ∧ likes(x, Bonnie))", "folio"), "fol") == "exists x . dog(x) AND likes(x, Bonnie)"


# --------------------------------------------------------------------------- round trips

from tests.helpers.formulas import formulas  # noqa: E402


@settings(max_examples=150, deadline=None)
@given(formulas(["x", "y"], ["Dog", "Likes", "R0"], ["bonnie", "Świątek", "2009"]))
def test_folio_round_trip(f):
    assert parse(render(f, "folio"), "folio") == f


@settings(max_examples=150, deadline=None)
@given(formulas(["x", "y"], ["dog", "likes"], ["bonnie", "a_1"], xor=False))
def test_nltk_round_trip(f):
    assert parse(render(f, "nltk"), "nltk") == f


@settings(max_examples=150, deadline=None)
@given(formulas(["X", "Y"], ["dog", "Likes"], ["bonnie", "Świątek", "2009"]))
def test_tptp_round_trip(f):
    assert parse(render(f, "tptp"), "tptp") == f
