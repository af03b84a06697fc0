"""What a checker must not hide: free variables (closed under ∀ by default in the full dialects,
as Prover9, E and TPTP read them; `constant` and `error` on request) and a predicate or function
used with two arities (an error naming both uses), through the API, `ambit logic` and the RPCs;
and the dialects as values (logic/syntax/dialect.py)."""

from __future__ import annotations

import io
import json
import pickle
import shutil

import pytest

from ambit import logic
from ambit.logic import LFParseError, parse
from ambit.logic.syntax.ast import Atom, Const, Quant, Var, Xor
from ambit.logic.syntax.dialect import dialect, dialects
from ambit.logic.syntax.reading import ArityError, ProblemError, read_story

needs_prolog = pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog not installed")

# Logic-LM's gpt-4 FOLIO programs write formulas such as this one, with no quantifier
FREE = "FemalePlayer(x) ⊕ MalePlayer(x)"
EITHER = "FemalePlayer(ann) ∨ MalePlayer(ann)"


# --------------------------------------------------------------------------- the dialect values

def test_every_dialect_is_a_value_with_its_reader_renderer_and_grammar():
    names = [d.name for d in dialects()]
    assert names == ["fol", "lisp", "folio", "nltk", "tptp", "prover9"]
    for d in dialects():
        assert dialect(d.name) is d and str(d) == d.name
        assert d.admits == ("fol" if d.name in ("folio", "nltk", "tptp", "prover9") else "amp")
        assert "start:" in d.grammar_text()
        assert pickle.loads(pickle.dumps(d)) == d  # crosses to a worker process by name
    assert dialect("folio").decode_grammar_text().strip() and dialect("fol").decode_grammar == "fol"
    with pytest.raises(ValueError, match="no decode grammar"):
        dialect("nltk").decode_grammar_text()
    with pytest.raises(ValueError, match="unknown LF format"):
        dialect("ladr")


def test_a_dialect_value_reads_and_writes_and_parse_takes_it_or_its_name():
    d = dialect("nltk", "constant")
    assert d.free_variables == "constant" and dialect("nltk").free_variables == "universal"
    assert parse("dog(x)", d) == parse("dog(x)", "nltk", free_variables="constant") == Atom("dog", (Const("x"),))
    assert d.render(d.parse("all x.(dog(x) -> cat(x))")) == "all x.(dog(x) -> cat(x))"
    assert pickle.loads(pickle.dumps(d)) == d


# --------------------------------------------------------------------------- free variables

def test_free_variables_are_closed_under_forall_by_default_in_the_full_dialects():
    closed = Quant("forall", "x", Xor(Atom("FemalePlayer", (Var("x"),)), Atom("MalePlayer", (Var("x"),))))
    assert parse(FREE, "folio") == closed
    assert parse("FemalePlayer(x) & -MalePlayer(x)", "nltk").var == "x"
    assert parse("p(X, Y) => q(Y)", "tptp") == parse("![X, Y]: (p(X, Y) => q(Y))", "tptp")


def test_constant_and_error_as_asked():
    assert parse(FREE, "folio", free_variables="constant").left == Atom("FemalePlayer", (Const("x"),))
    with pytest.raises(LFParseError) as e:
        parse(FREE, "folio", free_variables="error")
    assert e.value.kind == "unbound_variable" and e.value.token == "x" and e.value.pos == FREE.index("x")


def test_only_names_spelled_as_variables_are_variables():
    # FOLIO's gold formulas use `a`, `k` and `y1976` as constants: only u..z are FOLIO variables
    assert parse("GetGrade(zhang, a) ∧ DiedIn(mao, y1976)", "folio") == parse(
        "GetGrade(zhang, a) ∧ DiedIn(mao, y1976)", "folio", free_variables="error")
    # NLTK's own rule: one lower-case letter and digits
    assert type(parse("likes(a1, john)", "nltk")) is Quant


def test_amp_formats_keep_refusing_free_variables_unless_asked():
    with pytest.raises(LFParseError) as e:
        parse("exists x . saw(x, y)", "fol")
    assert e.value.kind == "unbound_variable"
    assert parse("exists x . saw(x, y)", "fol", free_variables="universal") == parse(
        "forall y . exists x . saw(x, y)", "fol")


@needs_prolog
def test_the_choice_changes_the_verdict_and_is_recorded():
    d = logic.decide([FREE], EITHER, "folio")
    assert d.verdict == "TRUE"
    assert d.reading == {"dialect": "folio", "free_variables": "universal", "symbols": "shared",
                         "closed": {"premises[0]": ["x"]}}
    d = logic.decide([FREE], EITHER, "folio", free_variables="constant")
    assert d.verdict == "UNCERTAIN" and d.reading == {"dialect": "folio", "free_variables": "constant",
                                                          "symbols": "shared"}
    with pytest.raises(LFParseError) as e:
        logic.decide([FREE], EITHER, "folio", free_variables="error")
    assert "in premises[0]" in e.value.__notes__
    v = logic.equivalent("P(x)", "∀y P(y)", "folio")
    assert v.verdict == "EQUIVALENT" and v.witness["reading"]["closed"] == {"a": ["x"]}


# --------------------------------------------------------------------------- mixed arities

def test_one_predicate_with_two_arities_names_both_uses():
    with pytest.raises(ArityError) as e:
        logic.decide(["∀x (Player(x) → Person(x))", "Player(ann, chess)"], "Person(ann)", "folio")
    msg = str(e.value)
    assert "predicate 'Player'" in msg and "1 argument in premises[0] at character 5" in msg
    assert "2 arguments in premises[1] at character 1" in msg
    assert e.value.to_dict()["uses"] == [{"formula": "premises[0]", "arity": 1, "pos": 4},
                                         {"formula": "premises[1]", "arity": 2, "pos": 0}]


def test_a_function_with_two_arities_and_a_conclusion_use():
    with pytest.raises(ProblemError, match="function 'f' is used with 1 argument in premises\\[0\\].* 2 arguments in "
                                           "conclusion") as e:
        read_story(["P(f(a))"], "P(f(a, b))", "folio")
    assert isinstance(e.value.cause, ArityError) and e.value.field == "conclusion"
    with pytest.raises(ArityError, match="predicate 'r'"):
        logic.equivalent("![X]: r(X)", "![X]: r(X, X)", "tptp")
    read_story(["P(f(a))", "Q(f(b))"], "P(f(f(a)))", "folio")  # one arity each: fine


# --------------------------------------------------------------------------- the command line

from tests.helpers.cli import run_logic as _run  # noqa: E402


def test_help_lists_every_dialect_and_format_is_from():
    for cmd in ("equiv", "entails"):
        code, out, _ = _run([cmd, "--help"])
        assert code == 0 and all(n in out for n in ("fol", "lisp", "folio", "nltk", "tptp"))
        assert "--format" in out and "--free-variables" in out


@needs_prolog
def test_format_is_an_alias_of_from_in_every_dialect():
    a, b = "all x.(dog(x) -> animal(x))", "all y.(-animal(y) -> -dog(y))"
    runs = [_run(["equiv", a, b, flag, "nltk", "--prover", "prolog"]) for flag in ("--from", "--format", "-f")]
    assert {r[0] for r in runs} == {0} and len({r[1] for r in runs}) == 1 and runs[0][1].startswith("EQUIVALENT")
    amp = [_run(["equiv", "( exists x ( man x ) )", "( exists y ( man y ) )", flag, "lisp"])
           for flag in ("--from", "--format")]
    assert amp[0] == amp[1] and amp[0][1].startswith("EQUIVALENT")


@needs_prolog
def test_premises_file_errors_name_file_line_and_character(tmp_path):
    f = tmp_path / "premises.txt"
    f.write_text("∀x (Dog(x) → Animal(x))\n\nDog(rex\n", encoding="utf-8")
    code, _, err = _run(["entails", "--premises", str(f), "--conclusion", "Animal(rex)"])
    assert code == 2 and f"{f}:3:" in err and "at character 8" in err
    f.write_text("\n  \n", encoding="utf-8")
    code, _, err = _run(["entails", "--premises", str(f), "--conclusion", "Animal(rex)"])
    assert code == 2 and "no premises" in err
    f.write_text("Player(ann)\nPlayer(ann, chess)\n", encoding="utf-8")
    code, _, err = _run(["entails", "--premises", str(f), "--conclusion", "Player(ann)"])
    assert code == 2 and f"{f}:1" in err and f"{f}:2" in err and "two" not in err


@needs_prolog
def test_free_variables_on_the_command_line_and_in_jsonl(tmp_path):
    f = tmp_path / "premises.txt"
    f.write_text(FREE + "\n", encoding="utf-8")
    base = ["entails", "--premises", str(f), "--conclusion", EITHER, "--prover", "prolog"]
    code, out, _ = _run(base)
    assert code == 0 and out.startswith("TRUE") and json.loads(out.split("\n", 1)[1])["reading"]["closed"]
    code, out, _ = _run([*base, "--free-variables", "constant"])
    assert code == 0 and out.startswith("UNCERTAIN")
    code, _, err = _run([*base, "--free-variables", "error"])
    assert code == 2 and "never quantified" in err
    lines = [json.dumps({"premises": [FREE], "conclusion": EITHER}),
             json.dumps({"premises": ["Player(a)", "Player(a, b)"], "conclusion": "Player(a)"})]
    code, out, _ = _run(["entails", "--jsonl", "--prover", "prolog"], "\n".join(lines) + "\n")
    first, second = map(json.loads, out.splitlines())
    assert code == 2 and first["verdict"] == "TRUE" and first["reading"]["free_variables"] == "universal"
    assert second["error"]["kind"] == "mixed_arity" and second["error"]["field"] == "premises"
    assert second["error"]["index"] == 1 and [u["arity"] for u in second["error"]["uses"]] == [1, 2]


# --------------------------------------------------------------------------- the RPCs

@needs_prolog
def test_rpcs_take_the_choice_record_it_and_refuse_mixed_arities(stub):
    import grpc
    from ambit.proto.v1 import ambit_pb2 as pb

    def entails(premises, conclusion, free=pb.FREE_VARIABLES_UNSPECIFIED):
        return stub.CheckEntailment(pb.CheckEntailmentRequest(premises=premises, conclusion=conclusion,
                                                              format=pb.LF_FORMAT_FOLIO, free_variables=free))

    r = entails([FREE], EITHER)
    assert r.verdict == pb.ENTAILMENT_VERDICT_TRUE and json.loads(r.reading_json)["closed"] == {"premises[0]": ["x"]}
    r = entails([FREE], EITHER, pb.FREE_VARIABLES_CONSTANT)
    assert r.verdict == pb.ENTAILMENT_VERDICT_UNCERTAIN and json.loads(r.reading_json)["free_variables"] == "constant"
    with pytest.raises(grpc.RpcError) as e:
        entails([FREE], EITHER, pb.FREE_VARIABLES_ERROR)
    assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "premises[0]" in e.value.details()
    with pytest.raises(grpc.RpcError) as e:
        entails(["Player(a)", "Player(a, b)"], "Player(a)")
    assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "Player" in e.value.details()
    v = stub.CheckEquivalence(pb.CheckEquivalenceRequest(a="P(x)", b="∀y P(y)", format=pb.LF_FORMAT_FOLIO))
    assert v.verdict == pb.VERDICT_EQUIVALENT and json.loads(v.witness_json)["reading"]["closed"] == {"a": ["x"]}


@needs_prolog
def test_amp_pairs_keep_telling_arities_apart():
    # AmP's procedure reads saw/1 and saw/2 as two relations: a predicted LF with the wrong arity
    # is simply not equivalent (AmP's metrics count it so), not an error
    v = logic.equivalent("exists a . saw(a)", "exists a . exists x . saw(a, x)", "fol")
    assert v.verdict == "NOT_EQUIVALENT"
