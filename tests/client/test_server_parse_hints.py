"""A malformed formula sent to a real localhost server (no model) is INVALID_ARGUMENT with the
same hint `ambit logic` gives (one function: `logic.cli.common.parse_hint`), spelled with
`--format` (the request's field, and the CLI's alias of --from): the dialect that reads it, what
ambit does not read (lambdas, higher order), AmP's fragment, FOLIO's ASCII spelling. Checked
through the Python client (CheckEquivalence, CheckEntailment, Canonicalize) and `ambit equiv --server`."""

from __future__ import annotations

import shutil

import pytest

from ambit import server
from ambit.client import AmbitError, Client
from ambit.client.__main__ import main
from ambit.logic.cli.common import parse_hint

pytestmark = pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog not installed")

# (formula, the format it is sent in, what the hint says)
CASES = [
    ("all x.(dog(x) -> animal(x))", "fol", "reads as nltk: try --format nltk"),
    ("\\x.man(x)", "nltk", "lambdas (\\x. ...) are outside what ambit reads"),
    ("exists P . P(a)", "folio", "a quantified predicate or function (P(...)) is higher order"),
    ("dog(a)(b)", "folio", "a predication applied again (dog(a)(b)) is higher order"),  # nltk: dog(a, b), curried
    ("NOT man(a)", "fol", "fol is AmP's fragment (exists, forall, AND, OR: no negation or implication)"),
    ("all x (Dog(x) -> -Cat(x))", "folio", "in FOLIO's symbols, which --format folio reads: ∀x (Dog(x) → ¬Cat(x))"),
]


@pytest.fixture(scope="module")
def address():
    running = server.serve(no_model=True, port=0)
    yield running.address
    running.stop(1)


def _error(call) -> AmbitError:
    with pytest.raises(AmbitError) as info:
        call()
    assert info.value.code == "INVALID_ARGUMENT"
    return info.value


@pytest.mark.parametrize("text,fmt,says", CASES)
def test_equivalence_names_the_fix(address, text, fmt, says):
    other = "exists x . dog(x)" if fmt == "fol" else "dog(a)"
    with Client(address) as c:
        err = _error(lambda: c.equivalent(text, other, fmt=fmt))
    assert err.message.startswith("a: ") and says in err.message, err.message
    assert err.message.endswith(parse_hint(text, fmt, "--format")), "not the hint `ambit logic` gives"


def test_a_premise_and_a_canonical_form_name_the_fix(address):
    with Client(address) as c:
        err = _error(lambda: c.check_entailment(["dog(rex)", "all x.(dog(x) -> animal(x))"], "animal(rex)",
                                                fmt="folio"))
        assert "premises[1]" in err.message and "reads as nltk: try --format nltk" in err.message, err.message
        err = _error(lambda: c.canonicalize("all x.(dog(x) -> animal(x))", fmt="fol"))
        assert "reads as nltk: try --format nltk" in err.message, err.message


def test_a_formula_no_dialect_reads_gets_no_hint(address):
    with Client(address) as c:
        err = _error(lambda: c.equivalent("exists x . ( dog(x)", "exists x . dog(x)", fmt="fol"))
    assert "try --format" not in err.message and "outside what ambit reads" not in err.message


def test_the_equiv_command_through_a_server_shows_the_hint(address, capsys):
    assert main(["equiv", "--server", address, "all x.(dog(x) -> animal(x))", "exists x . dog(x)"]) != 0
    assert "reads as nltk: try --format nltk" in capsys.readouterr().err
