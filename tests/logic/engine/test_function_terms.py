"""Function terms in folio, nltk and tptp, with equality: they parse, render back, are proved by
prove.pl's connection prover and refuted by finite models whose function tables `holds` re-checks;
every verdict Z3 also reaches is the same."""

from __future__ import annotations

import random
import shutil

import pytest

from ambit.logic import LFParseError, parse
from ambit.logic.engine import prove
from ambit.logic.syntax.ast import Func, functions
from ambit.logic.errors import MAX_DEPTH, RenderError
from ambit.logic.syntax.render import render

needs_prolog = pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog not installed")

SAME = {  # one formula, in the three dialects
    "folio": "∀x (f(f(x)) = x → P(g(x, ann)) ∧ mother(x) ≠ x)",
    "nltk": "all x.(f(f(x)) = x -> (P(g(x, ann)) & mother(x) != x))",
    "tptp": "![X]: (f(f(X)) = X => ('P'(g(X, ann)) & mother(X) != X))",
}


def test_the_same_formula_in_three_dialects():
    fs = {fmt: parse(text, fmt) for fmt, text in SAME.items()}
    assert functions(fs["folio"]) == {("f", 1), ("g", 2), ("mother", 1)}
    assert fs["folio"] == fs["nltk"]
    assert render(fs["tptp"], "folio").replace("X", "x") == render(fs["folio"], "folio")


@pytest.mark.parametrize("fmt", ["folio", "nltk", "tptp"])
def test_render_then_parse_gives_the_same_tree(fmt):
    f = parse(SAME[fmt], fmt)
    for to in ("folio", "nltk", "tptp"):
        g = parse(render(f, to), to)
        assert render(g, "tptp") == render(f, "tptp")  # (TPTP spells the variables one way)


def test_amp_formats_refuse_function_terms_by_name():
    with pytest.raises(RenderError, match="function term"):
        render(parse("∃x P(f(x))", "folio"), "fol")


def test_nested_function_terms_past_the_depth_are_too_deep():
    n = 2 * MAX_DEPTH
    with pytest.raises(LFParseError) as e:
        parse("P(" + "f(" * n + "a" + ")" * n + ")", "folio")
    assert e.value.kind == "too_deep"
    parse("P(" + "f(" * 50 + "a" + ")" * 50 + ")", "folio")


# (premises, conclusion, verdict): textbook facts about functions and equality
STORIES = [
    (["∀x (f(f(x)) = x)"], "∀x ∃y (f(y) = x)", "TRUE"),  # an involution is onto
    (["∀x (P(x) → P(f(x)))", "P(a)"], "P(f(f(a)))", "TRUE"),
    (["∀x (P(x) → P(f(x)))", "P(a)"], "P(b)", "UNCERTAIN"),
    (["∀x ¬(f(x) = x)"], "f(a) = a", "FALSE"),
    (["∀x ∀y (f(x) = f(y) → x = y)", "f(a) = f(b)"], "a = b", "TRUE"),  # injective
    ([], "∀x ∃y (y = f(x))", "TRUE"),
    (["∃x P(g(x, x))"], "∀x P(g(x, x))", "UNCERTAIN"),
    (["∀x (f(x) = a)", "P(f(b))"], "P(a)", "TRUE"),
    (["∀x (f(x) = a)", "¬P(a)"], "P(f(c))", "FALSE"),
]


@needs_prolog
@pytest.mark.parametrize("premises, conclusion, verdict", STORIES)
def test_decisions_with_functions_and_their_evidence(premises, conclusion, verdict):
    ps = [parse(p, "folio") for p in premises]
    c = parse(conclusion, "folio")
    d = prove.decide(ps, c, time_limit=20)
    assert d.verdict == verdict, d
    for m, true, false in ((d.model, [*ps, c], []), (d.countermodel, ps, [c])):
        if m is not None and any(functions(f) for f in [*ps, c]):
            assert m["functions"], m  # the tables are shown
            model = _back(m)
            assert all(prove.holds(f, model) for f in true) and not any(prove.holds(f, model) for f in false)


def _back(m: dict) -> dict:
    """A reported model (tables as "f(d1, d2)": "d3") read back into `holds`'s shape."""
    functions_: dict = {}
    for key, e in m.get("functions", {}).items():
        name, args = key[:-1].split("(", 1)
        functions_.setdefault(name, {})[tuple(a.strip() for a in args.split(","))] = e
    atoms = set()
    for a in m["true_atoms"]:
        name, _, args = a.partition("(")
        atoms.add((name, *[x.strip() for x in args[:-1].split(",")]) if args else (name,))
    return {"domain": m["domain"], "constants": m["constants"], "functions": functions_, "atoms": atoms}


def _random_formula(rng: random.Random, depth: int, bound: list[str]) -> str:
    def term(d: int) -> str:
        pick = rng.random()
        if d > 0 and pick < 0.35:
            return f"{rng.choice('fg')}({term(d - 1)})"
        pool = bound + ["a", "b"]
        return rng.choice(pool)

    if depth == 0 or rng.random() < 0.3:
        return f"{rng.choice('PQ')}({term(2)})" if rng.random() < 0.7 else f"{term(2)} = {term(2)}"
    k = rng.random()
    if k < 0.3:
        v = f"x{len(bound)}"
        return f"{rng.choice('∀∃')}{v} ({_random_formula(rng, depth - 1, bound + [v])})"
    if k < 0.45:
        return f"¬({_random_formula(rng, depth - 1, bound)})"
    op = rng.choice(["∧", "∨", "→"])
    return f"({_random_formula(rng, depth - 1, bound)} {op} {_random_formula(rng, depth - 1, bound)})"


@needs_prolog
def test_random_stories_with_functions_agree_with_z3():
    z3 = pytest.importorskip("z3")  # noqa: F841
    from tests.helpers.z3_bridge import z3_story

    rng = random.Random(25)
    stories = [([parse(_random_formula(rng, 3, []), "folio") for _ in range(2)],
                parse(_random_formula(rng, 3, []), "folio")) for _ in range(40)]
    decisions = prove.decide_batch(stories, "folio", time_limit=5)
    compared = 0
    for (ps, c), d in zip(stories, decisions):
        theirs = z3_story(ps, c, 5000)
        if theirs is not None and d.verdict != "UNKNOWN":
            assert d.verdict == theirs, (ps, c, d)
            compared += 1
    assert compared >= 30, compared


@needs_prolog
def test_equivalence_with_functions():
    v = prove.equivalent_batch([("∀x P(f(x))", "∀x P(f(f(x)))"),
                              ("∀x (f(x) = x) ∧ P(a)", "∀x (f(x) = x) ∧ P(f(a))")], "folio", time_limit=20)
    assert [x.verdict for x in v] == ["NOT_EQUIVALENT", "EQUIVALENT"]
    m = v[0].witness["model"]
    assert m["functions"]
    a, b = parse("∀x P(f(x))", "folio"), parse("∀x P(f(f(x)))", "folio")
    true, false = (a, b) if v[0].witness["true_in_model"] == "a" else (b, a)
    assert prove.holds(true, _back(m)) and not prove.holds(false, _back(m))
    assert any(isinstance(t, Func) for t in parse("P(f(a))", "folio").args)
