"""Bad input and the command line as a new user meets them: nesting past the documented depth
in every format, a long chain that once killed the process, TPTP problem files with roles,
comments and includes, dangling operators, the dialect's own tokens in errors, budgets and
--max-chars on equiv/entails, and --help naming every format."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ambit.logic import LFParseError, parse
from ambit.logic.__main__ import main as logic_main
from ambit.logic.errors import MAX_DEPTH
from ambit.logic.syntax.parse import DIALECTS
from ambit.logic.syntax.tptp_problem import TPTPProblemError, read_problem

ROOT = Path(__file__).resolve().parents[3]
needs_prolog = pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog not installed")

N = 5 * MAX_DEPTH
DEEP = {
    "fol": ["( " * N + "man(Mary)" + " )" * N, "exists x . " * N + "man(x)"],
    "lisp": ["( AND " * N + "( man Mary ) ( man Mary )" + " )" * N],
    "folio": ["(" * N + "P(a)" + ")" * N, "¬" * N + "P(a)", "".join(f"∀x{i} " for i in range(N)) + "P(a)"],
    "nltk": ["(" * N + "p(a)" + ")" * N, "-" * N + "p(a)", "".join(f"all x{i}." for i in range(N)) + "p(a)"],
    "tptp": ["(" * N + "p(a)" + ")" * N, "~" * N + "p(a)", "".join(f"![X{i}]: " for i in range(N)) + "p(a)"],
}


@pytest.mark.parametrize("fmt, text", [(f, t) for f, ts in DEEP.items() for t in ts])
def test_nesting_past_the_documented_depth_is_too_deep_in_every_format(fmt, text):
    with pytest.raises(LFParseError) as e:
        parse(text, fmt)
    assert e.value.kind == "too_deep" and str(MAX_DEPTH) in str(e.value)


D = MAX_DEPTH - 2


def _from_deep_stack(frames: int, fn):
    """`fn()` called with `frames` frames already on the stack (a server's handler is not at
    the bottom of its thread's stack either)."""
    return fn() if frames == 0 else _from_deep_stack(frames - 1, fn)


@needs_prolog
@pytest.mark.parametrize("fmt, text", [
    ("folio", "¬" * D + "P(a)"), ("tptp", "~" * D + "p(a)"),
    ("folio", "".join(f"∀x{i} " for i in range(D)) + "P(x0)"), ("nltk", " -> ".join(f"p{i}(a)" for i in range(D))),
    ("folio", "".join(f"(P{i}(a) → " for i in range(D // 2)) + "Q(a)" + ")" * (D // 2)),
    ("folio", "(" * D + "P(a) ∧ Q(a)" + ")" * D), ("fol", "exists x . " * D + "man(x)"),
])
def test_nesting_within_the_depth_parses_renders_and_is_decided(fmt, text):
    from ambit.logic import equivalent
    from ambit.logic.engine import prove
    from ambit.logic.syntax.render import render

    def run():
        f, g = parse(text, fmt), parse(text, fmt)
        assert f == g and hash(f) == hash(g) and repr(f)
        assert parse(render(f, fmt), fmt) == f
        if fmt == "fol":
            return equivalent(f, g, fmt, canonical_shortcut=False).verdict
        return prove.equivalent_batch([(f, g)], fmt, time_limit=5)[0].verdict

    assert _from_deep_stack(150, run) == "EQUIVALENT"


def test_every_format_is_in_the_help(capsys):
    assert logic_main(["--help"]) == 0
    out = capsys.readouterr().out
    assert all(fmt in out for fmt in DIALECTS)
    assert "--time-limit" in out and "--max-chars" in out


@pytest.mark.parametrize("fmt, text, op", [
    ("fol", "exists x . man(x) AND", "AND"), ("fol", "exists x . man(x) OR ", "OR"),
    ("folio", "∀x (Man(x) →", "→"), ("folio", "Man(a) ∧", "∧"), ("nltk", "man(a) &", "&"),
    ("tptp", "p(a) =>", "=>"), ("tptp", "![X]:", ":"),
])
def test_a_dangling_operator_is_named(fmt, text, op):
    with pytest.raises(LFParseError) as e:
        parse(text, fmt)
    assert e.value.kind == "dangling_operator" and e.value.token == op
    assert f"dangling operator {op!r}" in str(e.value) and "found ' '" not in str(e.value)


@pytest.mark.parametrize("fmt, text, own, foreign", [
    ("folio", "∀ (P(x))", None, "exists "), ("folio", "P(a) ∧", "'∀'", "exists "),
    ("tptp", "p(a) &", "'!'", "exists "), ("fol", "exists x . man(x) AND ", "'exists '", "∀"),
])
def test_parse_errors_name_the_dialects_own_tokens(fmt, text, own, foreign):
    with pytest.raises(LFParseError) as e:
        parse(text, fmt)
    msg = str(e.value)
    assert foreign not in msg
    if own:
        assert own in msg


# --------------------------------------------------------------------------- TPTP problems

PROBLEM = """% Socrates, as a TPTP user writes it
fof(men_are_mortal, axiom, ![X]: (man(X)
      => mortal(X))).          % over two lines
/* a block
   comment */
fof(socrates, hypothesis, man(socrates)).
fof(goal, conjecture, mortal(socrates) ) .
"""


def test_a_problem_file_is_read_by_roles():
    p = read_problem(PROBLEM, "socrates.p")
    assert [n for n, _ in p.premises] == ["men_are_mortal", "socrates"]
    assert p.conclusion is not None and p.conclusion[0] == "goal"


def test_two_conjectures_are_an_error_and_unknown_roles_are_named():
    with pytest.raises(TPTPProblemError, match="at most one conjecture"):
        read_problem(PROBLEM + "fof(goal2, conjecture, p).\n")
    with pytest.raises(TPTPProblemError, match="role 'type'"):
        read_problem("fof(t, type, p).")
    with pytest.raises(TPTPProblemError, match=r"does not end"):
        read_problem("fof(a, axiom, p(a)")


def test_include_is_refused_without_a_root_and_read_under_one(tmp_path):
    (tmp_path / "Axioms").mkdir()
    (tmp_path / "Axioms" / "MEN.ax").write_text("fof(men_are_mortal, axiom, ![X]: (man(X) => mortal(X))).\n")
    text = "include('Axioms/MEN.ax').\nfof(s, axiom, man(socrates)).\nfof(g, conjecture, mortal(socrates)).\n"
    with pytest.raises(TPTPProblemError, match="--tptp-root"):
        read_problem(text, "p.p")
    p = read_problem(text, "p.p", tmp_path)
    assert [n for n, _ in p.premises] == ["men_are_mortal", "s"]
    with pytest.raises(TPTPProblemError, match="outside the TPTP root"):
        read_problem("include('../x.ax').", "p.p", tmp_path / "Axioms")


def _cli(args: list[str], stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ambit", "logic", *args], input=stdin, capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


@needs_prolog
def test_entails_a_tptp_problem_file_alone(tmp_path):
    path = tmp_path / "socrates.p"
    path.write_text(PROBLEM)
    r = _cli(["entails", "--from", "tptp", str(path)])
    assert r.returncode == 0, r.stderr
    verdict, body = r.stdout.split("\n", 1)
    out = json.loads(body)
    assert verdict == "TRUE" and out["premises_used_names"] == ["men_are_mortal", "socrates"]
    # as --premises too: the conjecture is the conclusion, never a premise proving itself
    r = _cli(["entails", "--from", "tptp", "--premises", str(path)])
    assert r.returncode == 0 and "goal" not in json.loads(r.stdout.split("\n", 1)[1])["premises_used_names"]
    r = _cli(["entails", "--from", "tptp", "--premises", str(path), "--conclusion", "p(a)"])
    assert r.returncode == 2 and "one conjecture" in r.stderr


@needs_prolog
def test_a_conjecture_given_as_a_premise_line_is_an_error():
    row = {"premises": ["fof(g, conjecture, p(a))."], "conclusion": "p(a)"}
    r = _cli(["entails", "--from", "tptp", "--jsonl"], json.dumps(row) + "\n")
    assert r.returncode == 2 and "conjecture" in json.loads(r.stdout)["error"]["message"]


@needs_prolog
def test_max_chars_and_budgets_on_equiv_and_entails(tmp_path):
    long = "exists x . " + " AND ".join(["man(x)"] * 700)
    r = _cli(["equiv", long, "exists x . man(x)"])
    assert r.returncode == 2 and "over --max-chars 4096" in r.stderr
    r = _cli(["equiv", long, "exists x . man(x)", "--max-chars", str(len(long)), "--time-limit", "2",
              "--inferences", "100000"])
    assert r.returncode == 0 and r.stdout.startswith("EQUIVALENT")
    r = _cli(["equiv", "--jsonl"], json.dumps({"a": long, "b": "exists x . man(x)"}) + "\n")
    assert r.returncode == 2 and "over --max-chars" in json.loads(r.stdout)["error"]["message"]
    r = _cli(["entails", "--from", "folio", "--jsonl", "--max-chars", "10"],
             json.dumps({"premises": ["∀x (Man(x) → Mortal(x))"], "conclusion": "Mortal(s)"}) + "\n")
    assert r.returncode == 2 and "over --max-chars 10" in json.loads(r.stdout)["error"]["message"]


@needs_prolog
def test_lisp_given_to_equiv_as_fol_gets_the_hint():
    r = _cli(["equiv", "( exists x ( man x ) )", "exists x . man(x)"])
    assert r.returncode == 2 and "this looks like Lisp: pass --from lisp" in r.stderr
    r = _cli(["equiv", "--jsonl"], json.dumps({"a": "( exists x ( man x ) )", "b": "exists x . man(x)"}) + "\n")
    assert "this looks like Lisp" in json.loads(r.stdout)["error"]["hint"]


@needs_prolog
def test_a_long_chain_is_answered_not_a_crash():
    """A 320 KB LF once overflowed SWI-Prolog's C stack while Prolog read the right-nested term
    (exit 139, no message); chains are now sent as balanced trees."""
    n = 20_000
    a = "exists x . exists y . " + " AND ".join(f"p{i}(x, y)" for i in range(n))
    b = a.replace(f"p{n - 1}(x, y)", f"p{n - 1}(y, x)")
    assert len(a) > 309_000
    r = _cli(["equiv", "--jsonl", "--max-chars", "400000", "--time-limit", "60"], json.dumps({"a": a, "b": b}) + "\n")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["verdict"] == "NOT_EQUIVALENT"


def test_a_dotted_folio_variable_is_refused_with_the_reason():
    """`∀x. P(x)` would otherwise bind `x.` and leave `x` a constant, silently."""
    with pytest.raises(LFParseError) as e:
        parse("∀x. Man(x)", "folio")
    assert "ends with '.'" in str(e.value) and e.value.pos == 2
    assert parse("∀x (Lives(x, st.louis))", "folio").var == "x"  # a dot inside a name is still a name


def test_premises_from_standard_input_as_the_usage_says():
    """`--premises -` reads the premises from standard input (the message for a formula given
    to --premises tells the user to pipe them so)."""
    cmd = [sys.executable, "-m", "ambit", "logic", "entails", "--from", "prover9", "--premises", "-"]
    p = subprocess.run([*cmd, "--conclusion", "p(a)"], input='p("x")\n', capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and p.stdout.split()[0] == "UNCERTAIN", p.stderr  # "x" is a constant, not a variable
    p = subprocess.run([*cmd, "--conclusion", "mortal(socrates)"], input="all x (man(x) -> mortal(x))\nman(socrates)\n",
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and p.stdout.split()[0] == "TRUE", p.stderr


def test_a_tptp_problem_from_standard_input():
    """`-` as a TPTP problem (or --premises -) reads the problem from standard input, roles and all."""
    cmd = [sys.executable, "-m", "ambit", "logic", "entails", "--from", "tptp"]
    problem = "fof(a, axiom, p(a)).\nfof(c, conjecture, p(b)).\n"
    p = subprocess.run([*cmd, "-"], input=problem, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and p.stdout.split()[0] == "UNCERTAIN", p.stderr
    p = subprocess.run([*cmd, "--premises", "-", "--conclusion", "p(a)"], input="fof(a, axiom, p(a)).\n",
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and p.stdout.split()[0] == "TRUE", p.stderr
