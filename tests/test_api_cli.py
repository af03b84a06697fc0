"""The Python API takes what the command line takes: the same formulas, in every dialect of the
registry, through `ambit.canonical_form` / `equivalent` / `decide` and through `ambit logic canon`
/ `equiv` / `entails`, give the same answers (or both refuse them), and both refuse a formula over
the same default `max_chars`. The formulas are random (hypothesis draws the seed); `dir(ambit)`
shows the public names only."""

from __future__ import annotations

import contextlib
import io
import random
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import ambit
from ambit.cli import main as cli_main
from ambit.logic import LFParseError, render
from ambit.logic.errors import MAX_CHARS
from ambit.logic.syntax.ast import And, Atom, Const, Implies, Not, Or, Quant, Var
from ambit.logic.syntax.dialect import dialects

AMP = [d.name for d in dialects() if d.amp]
FULL = [d.name for d in dialects() if not d.amp]
UNARY, BINARY, VARS = ("man", "dog", "walk"), ("saw", "owns"), ("x", "y", "z")
BUDGET = ["--time-limit", "600"]  # a hang guard: the inference budgets decide, on any machine


def _formula(rng: random.Random, full: bool, depth: int = 3, scope: tuple[str, ...] = ()):
    """A random closed formula: AmP's fragment (exists, forall, AND, OR), or with `full`
    negation and implication too."""
    if depth == 0 or (scope and rng.random() < 0.3):
        terms = [Var(v) for v in scope] + [Const("Mary")]
        if rng.random() < 0.5:
            return Atom(rng.choice(UNARY), (rng.choice(terms),))
        return Atom(rng.choice(BINARY), (rng.choice(terms), rng.choice(terms)))
    kinds = ["quant", "and", "or"] + (["not", "implies"] if full else [])
    kind = rng.choice(kinds if len(scope) < 3 else kinds[1:])
    sub = lambda: _formula(rng, full, depth - 1, scope)  # noqa: E731
    if kind == "quant":
        var = VARS[len(scope)]
        return Quant(rng.choice(("exists", "forall")), var, _formula(rng, full, depth - 1, (*scope, var)))
    if kind == "not":
        return Not(sub())
    if kind == "implies":
        return Implies(sub(), sub())
    return (And if kind == "and" else Or)((sub(), sub()))


def _cli(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    """`ambit ARGV` in this process: exit status, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    old_stdin, sys.stdin = sys.stdin, io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = cli_main(argv)
            except SystemExit as e:
                code = e.code
    finally:
        sys.stdin = old_stdin
    return code, out.getvalue(), err.getvalue()


def _api(fn, *args, **kw) -> tuple[str, object]:
    try:
        return "ok", fn(*args, **kw)
    except (LFParseError, ValueError) as e:  # a formula the dialect cannot read or write
        return "refused", type(e).__name__


SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), src=st.sampled_from(AMP + FULL), dst=st.sampled_from(AMP + FULL))
def test_canonical_form_is_logic_canon(seed: int, src: str, dst: str) -> None:
    rng = random.Random(seed)
    full = src in FULL and dst in FULL and rng.random() < 0.7
    text = render(_formula(rng, full), src)
    status, api = _api(ambit.canonical_form, text, src, to=dst)
    code, out, err = _cli(["logic", "canon", "--from", src, "--to", dst], text + "\n")
    if status == "ok":
        assert code == 0 and out == api + "\n", (text, src, dst, api, out, err)
    else:
        assert code == 2 and out == "\n", (text, src, dst, api, out, err)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), fmt=st.sampled_from(AMP + FULL))
def test_equivalent_is_logic_equiv(seed: int, fmt: str) -> None:
    rng = random.Random(seed)
    full = fmt in FULL
    a, b = (render(_formula(rng, full, 2), fmt) for _ in range(2))
    if rng.random() < 0.3:
        b = a  # equivalent pairs too
    status, verdict = _api(ambit.equivalent, a, b, fmt, time_limit=600.0)
    # `--` ends the options: a formula may start with `-` (nltk's negation), as on any command line
    code, out, err = _cli(["logic", "equiv", "--from", fmt, *BUDGET, "--", a, b])
    if status == "ok":
        assert code == 0 and out.splitlines()[0] == verdict.verdict, (a, b, fmt, verdict, out, err)
    else:
        assert code == 2, (a, b, fmt, out, err)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), fmt=st.sampled_from(FULL))
def test_decide_is_logic_entails(seed: int, fmt: str) -> None:
    rng = random.Random(seed)
    premises = [render(_formula(rng, True, 2), fmt) for _ in range(rng.randint(1, 3))]
    conclusion = render(_formula(rng, True, 2), fmt)
    status, decision = _api(ambit.decide, premises, conclusion, fmt, time_limit=600.0)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "premises.txt"
        lines = [f"fof(p{i}, axiom, {p})." for i, p in enumerate(premises)] if fmt == "tptp" else premises
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")  # in TPTP --premises is a TPTP file
        code, out, err = _cli(["logic", "entails", "--from", fmt, "--premises", str(path),
                               f"--conclusion={conclusion}", "--prover", "prolog", *BUDGET])
    if status == "ok":
        assert code == 0 and out.splitlines()[0] == decision.verdict, (premises, conclusion, fmt, out, err)
    else:
        assert code == 2, (premises, conclusion, fmt, out, err)


@pytest.mark.parametrize("fmt", AMP + FULL)
def test_the_issue_formula_and_the_same_length_limit(fmt: str) -> None:
    """`ambit.canonical_form("all x.(dog(x) -> animal(x))", "nltk", to="nltk")` works like
    `ambit logic canon`, in every dialect; over `max_chars` (the CLI's default) both refuse."""
    f = Quant("forall", "x", Implies(Atom("dog", (Var("x"),)), Atom("animal", (Var("x"),))))
    if fmt in FULL:
        text = render(f, fmt)
        assert ambit.canonical_form(text, fmt, to=fmt) == _cli(["logic", "canon", "--from", fmt], text + "\n")[1].strip()
    long = "exists x . " + " AND ".join(["man(x)"] * 600)
    assert len(long) > MAX_CHARS
    for call in (lambda: ambit.canonical_form(long), lambda: ambit.equivalent(long, "exists x . man(x)"),
                 lambda: ambit.entails(long, "exists x . man(x)"), lambda: ambit.decide([long], "man(a)")):
        with pytest.raises(LFParseError, match=f"over max_chars {MAX_CHARS}") as e:
            call()
        assert e.value.kind == "too_long"
    code, _, err = _cli(["logic", "equiv", long, "exists x . man(x)"])
    assert code == 2 and f"over --max-chars {MAX_CHARS}" in err
    assert ambit.canonical_form(long, max_chars=len(long)).startswith("exists x")


def test_nltk_formula_of_the_issue_reads_through_the_api() -> None:
    assert ambit.canonical_form("all x.(dog(x) -> animal(x))", "nltk", to="nltk") == "all x.(dog(x) -> animal(x))"
    assert ambit.canonical_form("all x.(dog(x) -> animal(x))", "nltk", to="folio") == "∀x (dog(x) → animal(x))"
    assert ambit.canonical_form("∀x (Dog(x) → Animal(x))", "folio") == "∀x (Dog(x) → Animal(x))"


def test_dir_lists_the_public_api_only() -> None:
    names = dir(ambit)
    assert {"parse", "equivalent", "entails", "decide", "canonical_form", "Client", "__version__"} <= set(names)
    assert not [n for n in names if not n.startswith("__")
                and n not in ambit.__all__], names  # no `annotations`, `importlib`, helpers
    from importlib.metadata import version
    assert ambit.__version__ == version("ambit-semantics")
