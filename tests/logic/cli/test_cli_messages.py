"""Messages a new user meets (issue 58): a formula that starts with `-` is read as a formula
(`ambit logic equiv --from nltk p -p`); every reader names the fix (TPTP `cnf`/`thf`/`tff`, the
symbol a dialect writes instead of the one written), in the command line's words and in the
Python API's; an unknown dialect lists the dialects; and every kind of error of every JSONL
command comes in the one shape {"error": {"code", "message", "field", "position"?, "hint"?}}."""

from __future__ import annotations

import io
import json
import re
import shutil

import pytest

import ambit
from ambit.logic import LFParseError
from ambit.logic import error_json as E
from ambit.logic.cli import main as logic_cli
from ambit.logic.errors import UnknownDialect
from ambit.logic.syntax.dialect import NAMES
from ambit.logic.syntax.readers import hints

needs_prolog = pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog not installed")


def _run(argv: list[str], stdin: str = "", capsys=None) -> tuple[int, str, str]:
    out = io.StringIO()
    try:
        code = logic_cli(argv, io.StringIO(stdin), out)
    except SystemExit as e:  # argparse
        code = e.code
    err = capsys.readouterr().err if capsys is not None else ""
    return code, out.getvalue(), err


# --------------------------------------------------------------------------- a formula that starts with '-'


@needs_prolog
@pytest.mark.parametrize("argv", [
    ["equiv", "--from", "nltk", "p", "-p"],
    ["equiv", "--from", "prover9", "-p", "p"],
    ["equiv", "-p", "p", "--from", "nltk"],
    ["equiv", "--from", "nltk", "-(p & q)", "-p | -q", "--time-limit", "5"],
    ["equiv", "--from", "nltk", "--", "p", "-p"],  # -- keeps working
    ["equiv", "--from=nltk", "p", "--", "-p"],
])
def test_a_negation_first_is_a_formula(argv, capsys):
    code, out, err = _run(argv, capsys=capsys)
    assert code == 0, err
    want = "EQUIVALENT" if "-(p & q)" in argv else "NOT_EQUIVALENT"
    assert out.splitlines()[0] == want


@needs_prolog
def test_a_conclusion_that_starts_with_minus(tmp_path, capsys):
    premises = tmp_path / "p.txt"
    premises.write_text("p\n")
    for flag in (["--conclusion", "-p"], ["--conclusion=-p"]):
        code, out, err = _run(["entails", "--from", "nltk", "--premises", str(premises), *flag], capsys=capsys)
        assert code == 0 and out.splitlines()[0] == "FALSE", err


def test_options_after_dashdash_say_how_formulas_are_read(capsys):
    code, _, err = _run(["equiv", "--", "-p", "p", "--from", "nltk"], capsys=capsys)
    assert code == 2 and "unrecognized arguments: --from nltk" in err
    assert "every word after -- is one: put the options before it" in err


def test_the_client_reads_a_negation_first_as_a_formula():
    from ambit.client.__main__ import FORMULA_COMMANDS, build_parser
    from ambit.logic.cli.common import formulas_first_dash

    parser = build_parser()
    sub = parser._subparsers._group_actions[0].choices["equiv"]
    args = parser.parse_args(["equiv", *formulas_first_dash(sub, ["-p", "p", "--format", "nltk"])])
    assert (args.a, args.b, args.fmt) == ("-p", "p", "nltk") and "equiv" in FORMULA_COMMANDS


# --------------------------------------------------------------------------- every reader names the fix


FIXES = [  # (text, dialect, what the hint says)
    ("cnf(c, axiom, p(X) | ~q(X)).", "tptp", "cnf(...) is not read: ambit reads TPTP's first-order form"),
    ("thf(c, axiom, p).", "tptp", "thf(...) is not read"),
    ("tff(c, axiom, p(a)).", "tptp", "tff(...) is not read"),
    ("∀x (P(x) -> Q(x))", "folio", "FOLIO writes implication as →, not ->"),
    ("¬P(a) ∧ NOT Q(a)", "folio", "FOLIO writes negation as ¬, not NOT"),
    ("P(a) <-> ∀x Q(x)", "folio", "FOLIO writes equivalence as ↔, not <->"),
    ("![X]: (p(X) -> q(X))", "tptp", "TPTP writes implication as =>, not ->"),
    ("~p(a) & NOT q(a)", "tptp", "TPTP writes negation as ~, not NOT"),
    ("all x (P(x) => Q(x))", "prover9", "Prover9 writes implication as ->, not =>"),
    ("NOT P(a)", "nltk", "NLTK writes negation as -, not NOT"),
    ("all x.(P(x) -> Q(x))", "folio", "reads as nltk: try {flag}"),
    ("exists x . -man(x)", "fol", "reads as nltk: try {flag}"),
    ("( exists x ( man x ) )", "fol", "this looks like Lisp: pass {flag}"),
]


@needs_prolog
@pytest.mark.parametrize("text, fmt, hint", FIXES)
def test_the_command_line_names_the_fix(text, fmt, hint, capsys):
    code, _, err = _run(["equiv", "--from", fmt, text, "p"], capsys=capsys)
    assert code == 2 and hint.format(flag="--from") in err.splitlines()[0]


@pytest.mark.parametrize("text, fmt, hint", FIXES)
def test_the_python_api_names_the_same_fix(text, fmt, hint):
    with pytest.raises(LFParseError) as err:
        ambit.parse(text, fmt)
    want = hint.format(flag="fmt=")
    assert want in err.value.hint and want in str(err.value).splitlines()[0]
    assert err.value.hint == hints.parse_hint(text, fmt, "fmt=")
    assert err.value.hint.replace("fmt=", "--from ").replace("'", "") == hints.parse_hint(text, fmt, "--from").replace(
        "'", "")  # the same fix, in each surface's words


def test_the_api_hint_survives_a_process_boundary():
    import pickle

    with pytest.raises(LFParseError) as err:
        ambit.parse("∀x (P(x) -> Q(x))", "folio")
    again = pickle.loads(pickle.dumps(err.value))
    assert again.hint == err.value.hint and str(again) == str(err.value)


def test_the_api_raises_the_hint_through_equivalent_and_decide():
    for call in (lambda: ambit.equivalent("∀x (P(x) -> Q(x))", "P(a)", "folio"),
                 lambda: ambit.decide(["P(a)"], "NOT P(a)", "folio")):
        with pytest.raises(ValueError, match="FOLIO writes"):
            call()


@pytest.mark.parametrize("fmt", ["folio", "tptp", "nltk", "prover9"])
def test_every_spelling_row_holds(fmt):
    """Each spelling a row names is refused by its dialect, and the one it names instead is read."""
    samples = {"equivalence": "P(a) {} Q(a)", "implication": "P(a) {} Q(a)", "negation": "{} P(a)",
               "conjunction": "P(a) {} Q(a)", "disjunction": "P(a) {} Q(a)",
               "the universal quantifier": "{} P(x)", "the existential quantifier": "{} P(x)"}
    foreign = {"equivalence": ["<->", "<=>", "↔", "IFF", "iff"], "implication": ["->", "=>", "→", "IMPLIES"],
               "negation": ["NOT ", "~", "¬", "-"], "conjunction": ["&", "∧", "AND"], "disjunction": ["|", "∨", "OR"],
               "the universal quantifier": ["all x.", "∀x", "![X]:", "forall x."],
               "the existential quantifier": ["exists x.", "∃x", "?[X]:"]}
    rows = hints.spellings(fmt)
    assert {what for what, _, _ in rows} == set(samples)
    for what, pattern, own in rows:
        sample = samples[what]
        fix = (lambda t: t.replace("P(", "p(").replace("Q(", "q(")) if fmt == "tptp" else (lambda t: t)
        var = "X" if fmt == "tptp" else "x"
        ambit.parse(fix(sample.format(own if "quantifier" not in what else own.replace("x", var)
                                      if fmt != "tptp" else own).replace("(x)", f"({var})")), fmt)
        for spelled in foreign[what]:
            if re.fullmatch(pattern, spelled.strip()) or re.search(pattern, spelled):
                with pytest.raises(LFParseError):
                    ambit.parse(fix(sample.format(spelled)), fmt)


def test_an_unknown_dialect_lists_the_dialects(capsys):
    with pytest.raises(UnknownDialect) as err:
        ambit.parse("p", "ladr")
    assert isinstance(err.value, ValueError) and all(n in str(err.value) for n in NAMES)
    code, _, out = _run(["equiv", "--from", "ladr", "p", "q"], capsys=capsys)
    assert code == 2 and all(n in out for n in NAMES)


def test_tptp_files_name_what_is_not_read(tmp_path, capsys):
    f = tmp_path / "c.p"
    f.write_text("cnf(c, axiom, p(X) | ~q(X)).\nfof(g, conjecture, p(a)).\n")
    code, _, err = _run(["entails", "--from", "tptp", str(f)], capsys=capsys)
    assert code == 2 and f"{f}:1: cnf(...) is not read" in err and "fof(c, axiom, p(X) | ~q(X))" in err


# --------------------------------------------------------------------------- one error shape


def _lines(out: str) -> list[dict]:
    return [json.loads(x) for x in out.splitlines()]


def _shaped(line: dict) -> dict:
    """The error object of an output line, checked against the one shape."""
    assert set(line) == {"error"}, line
    e = line["error"]
    assert isinstance(e["code"], str) and isinstance(e["message"], str) and isinstance(e["field"], str), e
    assert "\n" not in e["message"]
    assert e.get("position") is None or isinstance(e["position"], int)
    assert e.get("hint") is None or isinstance(e["hint"], str) and e["hint"]
    return e


LONG = "exists x . " + " AND ".join(["man(x)"] * 800)
DEEP_FOL = "( " * 600 + "man(Mary)" + " )" * 600
# per command: (input line, code, field) for each kind of error it can meet
CASES = {
    ("equiv",): [
        ("not json", "invalid_json", ""), (json.dumps({"a": 1}), "invalid_request", "a"),
        (json.dumps({"a": "man(Mary)", "b": "man(Mary)", "format": "ladr"}), "unknown_dialect", "format"),
        (json.dumps({"a": LONG, "b": "man(Mary)"}), "too_long", "a"),
        (json.dumps({"a": "exists x . -man(x)", "b": "man(Mary)"}), "syntax", "a"),
        (json.dumps({"a": "man(x)", "b": "man(Mary)"}), "unbound_variable", "a"),
        (json.dumps({"a": DEEP_FOL, "b": "man(Mary)"}), "too_deep", "a"),
        (json.dumps({"a": "man(Mary) AND", "b": "man(Mary)"}), "dangling_operator", "a"),
    ],
    ("equiv", "--from", "nltk"): [
        ("{", "invalid_json", ""), (json.dumps({"a": "p", "b": 3}), "invalid_request", "b"),
        (json.dumps({"a": "p(" * 10 + ")", "b": "p"}), "syntax", "a"),
        (json.dumps({"a": "P(a) & P(a, b)", "b": "p"}), "mixed_arity", "a"),
        (json.dumps({"a": "P(a) & Q(P)", "b": "p"}), "symbol_kind", "a"),
        (json.dumps({"a": "-" * 3000 + "p", "b": "p"}), "too_deep", "a"),
        (json.dumps({"a": "p", "b": "p & " * 1200 + "p"}), "too_long", "b"),
    ],
    ("entails", "--from", "folio"): [
        ("[1, 2]", "invalid_request", "premises"),
        (json.dumps({"premises": ["P(a) -> Q(a)"], "conclusion": "Q(a)"}), "syntax", "premises"),
        (json.dumps({"premises": ["P(a)"], "conclusion": "P(a) ∧"}), "dangling_operator", "conclusion"),
        (json.dumps({"premises": [3], "conclusion": "Q(a)"}), "invalid_request", "premises"),
    ],
    ("entails", "--from", "tptp"): [
        (json.dumps({"premises": ["cnf(c, axiom, p(a))."], "conclusion": "p(a)"}), "syntax", "premises"),
        (json.dumps({"premises": ["fof(c, conjecture, p(a))."], "conclusion": "p(a)"}), "tptp_problem", "premises"),
    ],
}


@needs_prolog
@pytest.mark.parametrize("command", list(CASES), ids=[" ".join(c) for c in CASES])
def test_every_kind_of_error_of_every_jsonl_command_has_the_one_shape(command):
    cases = CASES[command]
    code, out, _ = _run([*command, "--jsonl"], "".join(line + "\n" for line, _, _ in cases))
    assert code == 2
    got = _lines(out)
    assert len(got) == len(cases)
    for (line, want, field), answer in zip(cases, got):
        e = _shaped(answer)
        assert (e["code"], e["field"]) == (want, field), (line[:60], e)
        assert e["code"] in E.CODES
        if want in ("syntax", "dangling_operator", "mixed_arity", "symbol_kind", "unbound_variable", "invalid_json"):
            assert isinstance(e["position"], int), e
    hinted = [_shaped(a) for a in got if "hint" in a["error"]]
    assert all(h["code"] in ("syntax", "dangling_operator", "unbound_variable", "quantified_constant") for h in hinted)


@needs_prolog
def test_the_hint_of_a_jsonl_error_names_the_fix():
    code, out, _ = _run(["entails", "--from", "tptp", "--jsonl"],
                        json.dumps({"premises": ["cnf(c, axiom, p(a))."], "conclusion": "p(a)"}) + "\n")
    e = _shaped(_lines(out)[0])
    assert e["hint"].startswith("cnf(...) is not read") and e["index"] == 0
    code, out, _ = _run(["equiv", "--jsonl"], json.dumps({"a": "exists x . -man(x)", "b": "man(Mary)"}) + "\n")
    assert _shaped(_lines(out)[0])["hint"] == "reads as nltk: try --from nltk"


@needs_prolog
def test_a_failed_check_gives_every_line_the_shape(monkeypatch):
    from ambit.logic.provers import portfolio

    def broken(*a, **k):
        raise RuntimeError("the prover crashed")

    monkeypatch.setattr(portfolio, "decide_batch", broken)
    code, out, _ = _run(["entails", "--from", "folio", "--jsonl"],
                        json.dumps({"premises": ["P(a)"], "conclusion": "P(a)"}) + "\n")
    e = _shaped(_lines(out)[0])
    assert code == 2 and e["code"] == "engine_error" and "the prover crashed" in e["message"]


def test_eval_errors_jsonl_has_the_shape(tmp_path):
    from ambit.client.api import AmbitError
    from ambit.client.eval.runner import run_items
    from ambit.client.eval.store import ResultsStore

    def process(item):
        if item["id"] == "b":
            raise AmbitError("INVALID_ARGUMENT", "a: FOLIO unexpected token at character 5 (0-based position 4)",
                             [{"field": "a", "description": "..."}])
        if item["id"] == "c":
            raise ValueError("not a number")
        return {}

    with ResultsStore(tmp_path, {"k": 1}) as s:
        run_items(s, [{"id": x} for x in "abc"], process, desc="t")
    entries = [json.loads(x) for x in (tmp_path / "errors.jsonl").read_text().splitlines()]
    b, c = sorted(entries, key=lambda e: e["id"])
    assert b["error"] == {"code": "INVALID_ARGUMENT", "message": b["error"]["message"], "field": "a", "position": 4}
    assert c["error"] == {"code": "ValueError", "message": "not a number", "field": ""}
    assert b["code"] == "INVALID_ARGUMENT" and c["code"] == "ValueError"  # where entries had it before the shape


def test_the_shape_builder():
    assert E.error_object("syntax", "m", "a", 0, "h", index=2) == {
        "error": {"code": "syntax", "message": "m", "field": "a", "position": 0, "hint": "h", "index": 2}}
    assert E.error_object("invalid_json", "m") == {"error": {"code": "invalid_json", "message": "m", "field": ""}}
    with pytest.raises(LFParseError) as err:
        ambit.parse("∀x (P(x) -> Q(x))", "folio")
    e = E.from_exception(err.value, "a")["error"]
    assert (e["code"], e["field"], e["position"]) == ("syntax", "a", 9) and e["hint"].startswith("FOLIO writes")
    assert E.from_exception(UnknownDialect("x", NAMES))["error"]["field"] == "format"
