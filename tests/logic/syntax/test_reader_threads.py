"""The hand-written readers keep each thread's state apart (readers.per_thread) and start every
formula afresh: formulas read in several threads at once, and a formula read right after one
that was rejected half-way, give the trees they give when read alone."""

from __future__ import annotations

import random
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from ambit.logic import LFParseError, parse, render
from ambit.logic.syntax.readers import folio_read
from ambit.logic.syntax.ast import And, Atom, Const, Func, Iff, Implies, Not, Or, Quant, Var
from ambit.logic.syntax.readers import nltk_read, tptp_read

DIALECTS = ("folio", "nltk", "tptp")
NAMES = {"folio": ("x", "Dog", "bonnie"), "nltk": ("x", "dog", "bonnie"), "tptp": ("X", "dog", "bonnie")}
# the hand-written readers alone (no fall-back to Lark, which would hide a reader's mix-up)
FAST = {"folio": folio_read.read, "nltk": nltk_read.read, "tptp": lambda text: tptp_read.read(text)[0]}


def _formula(rng: random.Random, fmt: str, bound: tuple = (), depth: int = 3):
    """A random closed formula over one variable, predicate and constant name of `fmt`."""
    v, p, c = NAMES[fmt]
    r = rng.random()
    if depth == 0 or r < 0.3:
        term = Var(v) if bound and rng.random() < 0.5 else Const(c)
        return Atom(p, (term, Func("f", (Const(c),))))
    if r < 0.45:
        return Quant(rng.choice(["forall", "exists"]), v, _formula(rng, fmt, (v,), depth - 1))
    if r < 0.55:
        return Not(_formula(rng, fmt, bound, depth - 1))
    if r < 0.8:
        kids = tuple(_formula(rng, fmt, bound, depth - 1) for _ in range(2))
        return (And if r < 0.7 else Or)(kids)
    return (Implies if r < 0.9 else Iff)(_formula(rng, fmt, bound, depth - 1), _formula(rng, fmt, bound, depth - 1))


@pytest.mark.parametrize("fmt", DIALECTS)
def test_formulas_read_in_four_threads_at_once_are_read_as_alone(fmt):
    rng = random.Random(7)
    texts = [render(_formula(rng, fmt), fmt) for _ in range(300)]
    read = FAST[fmt]
    alone = [read(t) for t in texts]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads switch often, in the middle of formulas
    try:
        with ThreadPoolExecutor(4) as pool:
            results = list(pool.map(lambda _: [read(t) for t in texts], range(4)))
    finally:
        sys.setswitchinterval(interval)
    assert all(got == alone for got in results)


@pytest.mark.parametrize("fmt, broken, good", [
    ("folio", "∀x (Dog(x) ∧ ∃y (Likes(x, y)", "Likes(x, bonnie)"),
    ("nltk", "all x.(dog(x) & exists y.(likes(x, y)", "likes(x, bonnie)"),
    ("tptp", "![X]: (dog(X) & ?[Y]: (likes(X, Y)", "likes(X, bonnie)"),
])
def test_a_formula_after_one_rejected_half_way_is_read_afresh(fmt, broken, good):
    want = parse(good, fmt)  # x (X) free: closed under ∀, not bound by the broken formula's quantifier
    with pytest.raises(LFParseError):
        parse(broken, fmt)
    assert parse(good, fmt) == want
    assert type(want) is Quant and want.kind == "forall"
