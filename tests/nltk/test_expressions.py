"""NLTK Expressions read directly (ambit.nltk.from_expression) against their text read by the
nltk dialect (`parse(str(e), "nltk")`): the same tree for every generated expression, free
variables read under each policy alike, and the same refusals."""

from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("nltk", reason="ambit.nltk needs the nltk extra")

from nltk.sem import logic as L  # noqa: E402
from nltk.sem.drt import DrtParser  # noqa: E402

from ambit.logic import LFParseError, parse  # noqa: E402
from ambit.nltk import from_expression  # noqa: E402
from ambit.nltk.expressions import DIALECT  # noqa: E402

PREDICATES = ["dog", "likes", "Cat", "R2", "rain", "P"]
CONSTANTS = ["bonnie", "john", "Mary"]  # no numeral: NLTK stops at its "."
VARIABLES = ["x", "y", "z1", "e", "e2"]
FUNCTIONS = ["mother", "best_friend"]
OPS = {"not": ["-", "not "], "bin": ["&", "|", "->", "<->", "and", "or", "=>", "iff"], "eq": ["=", "!="]}


def _terms(depth: int = 1):
    names = st.sampled_from(CONSTANTS + VARIABLES)
    if depth == 0:
        return names
    return st.one_of(names, st.builds(lambda f, args, curried: f + ("".join(f"({a})" for a in args) if curried
                                                                    else f"({', '.join(args)})"),
                                      st.sampled_from(FUNCTIONS), st.lists(_terms(depth - 1), min_size=1, max_size=2),
                                      st.booleans()))


def _atoms():
    app = st.builds(lambda p, args, curried: p if not args else p + ("".join(f"({a})" for a in args) if curried
                                                                     else f"({','.join(args)})"),
                    st.sampled_from(PREDICATES), st.lists(_terms(), max_size=3), st.booleans())
    eq = st.builds(lambda a, op, b: f"({a} {op} {b})", _terms(), st.sampled_from(OPS["eq"]), _terms())
    lam = st.builds(lambda p, a: f"(\\v.{p}(v, {a}))({a})", st.sampled_from(["likes", "R2"]), _terms(0))
    return st.one_of(app, app, eq, lam)


def _text(depth: int):
    if depth == 0:
        return _atoms()
    sub = _text(depth - 1)
    return st.one_of(
        sub,
        st.builds(lambda op, s: f"{op}({s})", st.sampled_from(OPS["not"]), sub),
        st.builds(lambda a, op, b: f"({a} {op} {b})", sub, st.sampled_from(OPS["bin"]), sub),
        st.builds(lambda q, vs, s: f"{q} {' '.join(vs)}.({s})", st.sampled_from(["all", "exists", "some"]),
                  st.lists(st.sampled_from(VARIABLES), min_size=1, max_size=2, unique=True), sub),
    )


@pytest.mark.filterwarnings("ignore::hypothesis.errors.HypothesisWarning")
@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_text(3))
def test_an_expression_reads_as_its_text_reads(text):
    e = L.Expression.fromstring(text)
    for policy in ("universal", "constant"):
        assert from_expression(e, policy) == parse(str(e.simplify()), DIALECT, free_variables=policy), (text, policy)


def test_a_chain_of_and_is_one_node_however_nltk_nests_it():
    """NLTK writes `a & (b & c)` and `(a & b) & c` alike, without the inner parentheses (its
    And and Or drop them for an operand of their own kind); the dialect reads one node of three."""
    left, right = L.Expression.fromstring("((p & q) & r)"), L.AndExpression(L.Expression.fromstring("p"),
                                                                          L.Expression.fromstring("(q & r)"))
    assert str(left) == str(right) == "(p & q & r)"
    assert from_expression(left) == from_expression(right) == parse("p & q & r", DIALECT)


def test_free_variables_are_refused_alike_under_the_error_policy():
    e = L.Expression.fromstring("likes(x, john)")
    with pytest.raises(LFParseError) as direct:
        from_expression(e, "error")
    with pytest.raises(LFParseError) as text:
        parse(str(e), DIALECT, free_variables="error")
    assert (direct.value.kind, direct.value.token, direct.value.pos) == (text.value.kind, text.value.token,
                                                                          text.value.pos)


@pytest.mark.parametrize("text", ["?vp(?np)", "bo(?det(?n),@x)", "walk(@x)"])
def test_feature_grammar_variables_are_refused_alike(text):
    e = L.Expression.fromstring(text)
    for read in (lambda: from_expression(e), lambda: parse(str(e), DIALECT)):
        with pytest.raises(LFParseError, match="feature-grammar variable"):
            read()


def test_a_name_the_dialect_cannot_spell_is_refused():
    e = L.ApplicationExpression(L.ConstantExpression(L.Variable("walk-fast")), L.ConstantExpression(L.Variable("j")))
    with pytest.raises(LFParseError, match="cannot be read in the nltk dialect"):
        from_expression(e)


def test_a_formula_as_an_argument_is_refused():
    with pytest.raises(LFParseError, match="first-order logic has no predicate of a formula"):
        from_expression(L.Expression.fromstring("believe(john, -walk(mary))"))


def test_a_drs_is_read_through_its_first_order_translation():
    drs = DrtParser().parse(r"([x],[man(x), walks(x)])")
    assert from_expression(drs) == parse("exists x.(man(x) & walks(x))", DIALECT)


def test_reading_expressions_directly_beats_the_string_round_trip():
    """The point of reading NLTK's objects: no `str()` and no parse. On 300 mid-sized formulas,
    direct reading takes less than the round trip, best of three each (measured: about a third
    of it, docs/logic.md)."""
    es = [L.Expression.fromstring(f"all x.(dog{i}(x) -> exists y.(likes(x, y) & -(cat{i}(y) | mother(y) = x)))")
          for i in range(300)]
    direct, text = [from_expression(e) for e in es], [parse(str(e), DIALECT) for e in es]
    assert direct == text

    def best(read) -> float:
        times = []
        for _ in range(3):
            t0 = time.perf_counter()
            for e in es:
                read(e)
            times.append(time.perf_counter() - t0)
        return min(times)

    ours, theirs = best(from_expression), best(lambda e: parse(str(e), DIALECT))
    assert ours < theirs, (ours, theirs)
