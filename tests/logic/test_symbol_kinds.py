"""One symbol, one kind and arity: in the full dialects a name used as a predicate and as a
constant or function is an error naming both uses (Prover9, E and TPTP share one name space
for predicates, functions and constants); `symbols="separate"` keeps two symbols; every
reading records the choice, through the API, `ambit logic` and the RPCs."""

from __future__ import annotations

import json
import shutil

import pytest

from ambit import logic
from ambit.logic.syntax.dialect import dialect
from ambit.logic.syntax.reading import ArityError, ProblemError, SymbolKindError, read_pair, read_story

from tests.helpers.cli import run_logic as _run

needs_prolog = pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog not installed")

# a released NL->FOL sample's habit: Greyhound is a constant in one premise and a predicate in the next
STORY = (["Airline(Greyhound)", "all x.(Greyhound(x) -> -Airline(x))"], "-Airline(Greyhound)")


def test_a_name_used_as_predicate_and_constant_is_an_error_naming_both_uses():
    with pytest.raises(ProblemError) as e:
        read_story(*STORY, "nltk")
    cause = e.value.cause
    assert isinstance(cause, SymbolKindError) and isinstance(cause, ArityError)
    assert cause.reason == "SYMBOL_KIND" and cause.problem == "symbol_kind"
    assert (e.value.field, e.value.index) == ("premises", 1)
    msg = str(cause)
    assert "'Greyhound'" in msg and "as a constant in premises[0] at character 9" in msg
    assert "as a predicate of 1 argument in premises[1] at character 8" in msg
    d = cause.to_dict()
    assert d["kind"] == "symbol_kind" and [u["symbol_kind"] for u in d["uses"]] == ["function", "predicate"]


@pytest.mark.parametrize("fmt, a, b", [
    ("folio", "Dog(rex)", "∀x (rex(x) → Dog(x))"),
    ("tptp", "dog(rex)", "![X]: (rex(X) => dog(X))"),
    ("nltk", "dog(f(rex))", "all x.(f(x) -> dog(x))"),  # a function, then a predicate
])
def test_every_full_dialect_shares_one_name_space_by_default(fmt, a, b):
    assert dialect(fmt).symbols == "shared"
    with pytest.raises(ProblemError) as e:
        read_pair(a, b, fmt)
    assert isinstance(e.value.cause, SymbolKindError)
    fa, fb, reading = read_pair(a, b, fmt, symbols="separate")
    assert reading.symbols == "separate" and reading.to_dict()["symbols"] == "separate"


def test_a_constant_beside_a_function_of_one_name_is_one_symbol_with_two_arities():
    with pytest.raises(ProblemError) as e:
        read_story(["P(fido)", "Q(fido(rex))"], "P(rex)", "nltk")
    assert type(e.value.cause) is ArityError and e.value.cause.reason == "MIXED_ARITY"
    read_story(["P(fido)", "Q(fido(rex))"], "P(rex)", "nltk", symbols="separate")  # as ambit read it before


def test_amp_formats_keep_separate_symbols_and_bad_choices_are_refused():
    assert dialect("fol").symbols == dialect("lisp").symbols == "separate"
    assert dialect("nltk", symbols="separate").symbols == "separate"
    assert dialect("nltk", symbols="separate") == dialect(dialect("nltk"), symbols="separate")
    with pytest.raises(ValueError, match="symbols must be one of shared, separate"):
        dialect("nltk", symbols="both")


@needs_prolog
def test_the_api_refuses_by_default_and_records_the_choice():
    with pytest.raises(SymbolKindError):
        logic.decide(*STORY, "nltk")
    d = logic.decide(*STORY, "nltk", symbols="separate")
    assert d.verdict == "FALSE" and d.reading["symbols"] == "separate"
    assert logic.decide(["Dog(rex)"], "Dog(rex)", "folio").reading["symbols"] == "shared"
    v = logic.equivalent("Dog(rex)", "Dog(rex) & rex(rex)", "nltk", symbols="separate")
    assert v.witness["reading"]["symbols"] == "separate"


@needs_prolog
def test_the_command_line_takes_symbols(tmp_path):
    f = tmp_path / "premises.txt"
    f.write_text("\n".join(STORY[0]) + "\n", encoding="utf-8")
    base = ["entails", "--from", "nltk", "--premises", str(f), f"--conclusion={STORY[1]}", "--prover", "prolog"]
    code, _, err = _run(base)
    assert code == 2 and "'Greyhound' is used as a constant" in err and f"{f}:1" in err and f"{f}:2" in err
    code, out, _ = _run([*base, "--symbols", "separate"])
    assert code == 0 and out.startswith("FALSE")
    assert json.loads(out.split("\n", 1)[1])["reading"]["symbols"] == "separate"


@needs_prolog
def test_the_rpcs_refuse_with_symbol_kind_and_take_separate(stub):  # noqa: F811
    import grpc
    from ambit.proto.v1 import ambit_pb2 as pb

    def entails(symbols=pb.SYMBOLS_UNSPECIFIED):
        return stub.CheckEntailment(pb.CheckEntailmentRequest(
            premises=["Airline(greyhound)", "∀x (greyhound(x) → ¬Airline(x))"], conclusion="¬Airline(greyhound)",
            format=pb.LF_FORMAT_FOLIO, symbols=symbols))

    with pytest.raises(grpc.RpcError) as e:
        entails()
    assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "premises[1]" in e.value.details() and "greyhound" in e.value.details()
    r = entails(pb.SYMBOLS_SEPARATE)
    assert r.verdict == pb.ENTAILMENT_VERDICT_FALSE and json.loads(r.reading_json)["symbols"] == "separate"
    v = stub.CheckEquivalence(pb.CheckEquivalenceRequest(a="Dog(rex)", b="Dog(rex)", format=pb.LF_FORMAT_FOLIO,
                                                         symbols=pb.SYMBOLS_SHARED))
    assert json.loads(v.witness_json)["reading"]["symbols"] == "shared"
    # the prover9 dialect on the wire
    r = stub.CheckEntailment(pb.CheckEntailmentRequest(premises=["all x (man(x) -> mortal(x))", "man(socrates)."],
                                                       conclusion="mortal(socrates)", format=pb.LF_FORMAT_PROVER9))
    assert r.verdict == pb.ENTAILMENT_VERDICT_TRUE and json.loads(r.reading_json)["dialect"] == "prover9"


@needs_prolog
def test_the_python_client_takes_symbols():
    from ambit import server
    from ambit.client.api import AmbitError, Client

    running = server.serve(no_model=True, port=0)
    try:
        with Client(running.address) as c:
            ps, concl = ["Airline(greyhound)", "∀x (greyhound(x) → ¬Airline(x))"], "¬Airline(greyhound)"
            with pytest.raises(AmbitError) as e:
                c.check_entailment(ps, concl)
            assert e.value.code == "INVALID_ARGUMENT" and "greyhound" in str(e.value)
            assert c.check_entailment(ps, concl, symbols="separate").verdict == "FALSE"
            v = c.equivalent("Dog(rex)", "Dog(rex)", fmt="folio", symbols="separate")
            assert v.witness["reading"]["symbols"] == "separate"
            with pytest.raises(ValueError, match="symbols must be one of shared, separate"):
                c.check_entailment(ps, concl, symbols="both")
    finally:
        running.stop(1)
