"""Errors that name the fix: a formula another dialect reads says which (`reads as nltk: try
--from nltk`), for every dialect of the registry; what ambit does not read (lambdas, higher
order) is named as such; a connective outside AmP's fragment names the full dialects; FOLIO's
ASCII spelling is respelled; a formula given to `--premises` says that it takes a file; the
usage lines show the default dialect (`equiv`: fol, `entails`: folio)."""

from __future__ import annotations

import contextlib
import io
import sys

import pytest

from ambit.cli import main as cli_main
from ambit.logic import render
from ambit.logic.cli.common import outside, reads_as
from ambit.logic.syntax.ast import Atom, Implies, Not, Quant, Var
from ambit.logic.syntax.dialect import dialects


def _ambit(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    old, sys.stdin = sys.stdin, io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = cli_main(argv)
            except SystemExit as e:
                code = e.code
    finally:
        sys.stdin = old
    return code, out.getvalue(), err.getvalue()


# ∀x (dog(x) → ¬cat(x)): full first-order logic, outside AmP's fragment
FULL = Quant("forall", "x", Implies(Atom("dog", (Var("x"),)), Not(Atom("cat", (Var("x"),)))))


@pytest.mark.parametrize("written_in", [d.name for d in dialects() if not d.amp])
def test_every_full_dialect_is_named_when_another_is_given(written_in: str) -> None:
    """Written in one full dialect, read in another that does not take it: the hint names a
    dialect that does read it (the first of the registry's), so a new dialect is included."""
    text = render(FULL, written_in)
    for given in (d.name for d in dialects()):
        if given == written_in:
            continue
        other = reads_as(text, given)
        code, out, err = _ambit(["logic", "equiv", text, text, "--from", given])
        if code == 0:
            continue  # `given` reads it too
        assert other is not None, (text, given)
        assert f"reads as {other}: try --from {other}" in err.splitlines()[0], (given, err)


def test_nltk_given_to_the_default_fol_reads_as_nltk() -> None:
    code, _, err = _ambit(["logic", "equiv", "all x.(dog(x) -> animal(x))", "exists x . dog(x)"])
    assert code == 2
    first = err.splitlines()[0]
    assert first.startswith("error: A: FOL unexpected") and first.endswith("reads as nltk: try --from nltk"), err
    code, _, err = _ambit(["logic", "equiv", "forall x. man(x)", "exists x . man(x)"])
    assert code == 2 and "reads as nltk: try --from nltk" in err


def test_negation_in_amps_fragment_names_the_full_dialects() -> None:
    code, _, err = _ambit(["logic", "equiv", "NOT man(a)", "exists x . man(x)"])
    full = "|".join(d.name for d in dialects() if not d.amp)
    assert code == 2 and (f"fol is AmP's fragment (exists, forall, AND, OR: no negation or implication); "
                          f"full first-order logic reads with --from {full}") in err.splitlines()[0], err


@pytest.mark.parametrize(("text", "says", "fmts"), [
    (r"\x.man(x)", "lambdas (\\x. ...) are outside what ambit reads", ("fol", "nltk", "folio")),
    ("exists P . P(mary)", "a quantified predicate or function (P(...)) is higher order, outside what ambit reads",
     ("fol",)),  # nltk reads it, with P a vacuously quantified variable and a predicate named P
    ("dog(a)(b)", "a predication applied again (dog(a)(b)) is higher order, outside what ambit reads",
     ("fol", "folio")),  # nltk reads it as NLTK does, curried: dog(a, b)
])
def test_what_ambit_does_not_read_is_named(text: str, says: str, fmts: tuple[str, ...]) -> None:
    assert says in outside(text)
    for fmt in fmts:
        code, _, err = _ambit(["logic", "equiv", text, "man(a)", "--from", fmt])
        assert code == 2 and says in err.splitlines()[0], (fmt, err)


@pytest.mark.parametrize("text", ["∀x (Dog(x) → ¬Cat(x))", "exists x . man(x) AND saw(x, Mary)",
                                  "( exists x ( man x ) )", "![X,Y]: (p(X) => q(X, Y))", "all x y.(r(x,y))"])
def test_first_order_formulas_are_not_called_higher_order(text: str) -> None:
    assert outside(text) is None


def test_folio_ascii_spelling_is_respelled_in_folios_symbols() -> None:
    code, _, err = _ambit(["logic", "equiv", "all x (Dog(x) -> -Cat(x))", "Dog(a)", "--from", "folio"])
    assert code == 2 and err.splitlines()[0].endswith(
        "this is the FOLIO decoder's ASCII spelling; in FOLIO's symbols, which --from folio reads: "
        "∀x (Dog(x) → ¬Cat(x))"), err
    code, out, _ = _ambit(["logic", "canon", "--from", "folio"], "∀x (Dog(x) → ¬Cat(x))\n")
    assert code == 0 and out == "∀x (Dog(x) → ¬Cat(x))\n"


@pytest.mark.parametrize("argv", [
    ["logic", "entails", "--premises", "man(socrates)", "--conclusion", "mortal(socrates)"],
    ["logic", "entails", "--from", "nltk", "--premises", "all x.(man(x) -> mortal(x))", "--conclusion", "mortal(s)"],
    ["entails", "--premises", "man(socrates)", "--conclusion", "mortal(socrates)", "--server", "127.0.0.1:9"],
])
def test_a_formula_given_to_premises_says_it_takes_a_file(argv: list[str]) -> None:
    code, _, err = _ambit(argv)
    value = argv[argv.index("--premises") + 1]
    assert code == 2 and err.strip() == (
        f"error: --premises takes a file (one premise per line, - for stdin), and {value!r} is no file: write "
        "the premises into a file, or pipe them: printf '%s\\n' PREMISE ... | ambit ... --premises -"), err


@pytest.mark.parametrize(("argv", "shown"), [
    (["logic", "equiv", "-h"], "[--from DIALECT (default fol)]"),
    (["logic", "equiv", "--from", "folio", "-h"], "[--from DIALECT (default fol)]"),
    (["logic", "entails", "-h"], "[--from DIALECT (default folio)]"),
    (["equiv", "-h"], "[--format {fol,lisp,folio,nltk,tptp,prover9} (default fol)]"),  # the registry's dialects
    (["entails", "-h"], "[--from {fol,lisp,folio,nltk,tptp,prover9} (default folio)]"),
])
def test_usage_lines_show_the_default_dialect(argv: list[str], shown: str) -> None:
    code, out, _ = _ambit(argv)
    usage = out.split("\n\n")[0]
    assert code == 0 and shown in " ".join(usage.split()), usage


@pytest.mark.parametrize("fmt", [d.name for d in dialects()])
def test_a_formula_nested_5000_deep_is_one_error_in_every_dialect(fmt):
    """The hint looks at the text in every other dialect (FOLIO's decoder spelling included):
    none of that may recurse once per level, or the answer would be a RecursionError."""
    deep = "(" * 5000 + "P(a)" + ")" * 5000  # FOLIO's decoder reads capitalised predicates
    code, _, err = _ambit(["logic", "equiv", "--from", fmt, "--max-chars", "20000", deep, "P(a)"])
    assert code == 2 and err.startswith("error: A: ") and "Traceback" not in err and "Recursion" not in err, err


FREE = {  # dialect -> a conjunction of `n` atoms, each with a variable of its own that no quantifier binds
    "nltk": lambda n: " & ".join(f"p{i}(x{i})" for i in range(n)),
    "tptp": lambda n: " & ".join(f"p{i}(X{i})" for i in range(n)),
    "prover9": lambda n: " & ".join(f"p{i}(x{i})" for i in range(n)),
}


@pytest.mark.parametrize("fmt", sorted(FREE))
def test_thousands_of_free_variables_are_one_error_naming_how_many(fmt):
    """Each free variable closed under ∀ is one level of nesting: 2,000 of them would nest the
    formula past what every reader accepts (and past Python's recursion limit in every walk after
    reading), so the reading stops at once with one error that names the count and the way out;
    read as constants, the same formula is answered."""
    text = FREE[fmt](2000)
    code, _, err = _ambit(["logic", "equiv", "--from", fmt, "--max-chars", "100000", text, text])
    assert code == 2 and err.startswith("error: A: 2000 free variables") and "--free-variables constant" in err, err
    assert "Traceback" not in err and "Recursion" not in err, err
    code, out, err = _ambit(["logic", "equiv", "--from", fmt, "--max-chars", "100000", "--free-variables", "constant",
                             text, text])
    assert code == 0 and out.splitlines()[0] == "EQUIVALENT", err
