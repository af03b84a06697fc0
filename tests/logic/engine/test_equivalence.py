"""Equivalence and entailment of LFs in SWI-Prolog: verdicts, witnesses, budgets, bad input, CLI."""

from __future__ import annotations

import dataclasses
import io
import json
import shutil
import subprocess
import sys
import time

import pytest

pytest.importorskip("pyswip")
if shutil.which("swipl") is None:
    pytest.skip("SWI-Prolog (swipl) is not installed", allow_module_level=True)

from ambit import logic  # noqa: E402
from ambit.logic import And, Atom, LFParseError, Or, Quant, Var, Verdict, entails, equivalent, equivalent_batch  # noqa: E402
from ambit.logic.cli.equiv import main as equiv_main  # noqa: E402
from tests.paths import REPO  # noqa: E402



from tests.helpers.equivalence import CASES, SCOPE_AE, SCOPE_EA, check_witness, holds  # noqa: E402,F401


@pytest.mark.parametrize("a,b,ab,ba", CASES)
def test_known_verdicts(a, b, ab, ba):
    v = equivalent(a, b)
    assert (v.a_entails_b, v.b_entails_a) == (ab, ba), v
    assert v.verdict == ("EQUIVALENT" if ab and ba else "NOT_EQUIVALENT")
    if v.verdict == "NOT_EQUIVALENT":
        check_witness(a, b, v)
        assert v.witness["model"] is not None  # every pair here has a small countermodel
    assert entails(a, b) is ab and entails(b, a) is ba


def test_batch_matches_single_calls():
    pairs = [(a, b) for a, b, _, _ in CASES]
    assert equivalent_batch(pairs) == [equivalent(a, b) for a, b in pairs]
    assert equivalent_batch([]) == []


def test_verdict_is_a_frozen_dataclass():
    v = equivalent("exists x . man(x)", "exists y . man(y)")
    assert isinstance(v, Verdict) and v.verdict == "EQUIVALENT"
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.verdict = "UNKNOWN"  # type: ignore[misc]
    d = v.to_dict()
    assert set(d) == {"verdict", "a_entails_b", "b_entails_a", "witness"}
    json.dumps(d)


def test_equal_canonical_forms_skip_prolog_unless_told_not_to():
    a = "exists x . exists a . man(x) AND saw(a) AND agent(a, x)"
    b = "exists y . exists e . agent(e, y) AND ( saw(e) AND man(y) )"
    fast = equivalent(a, b)
    assert (fast.verdict, fast.a_entails_b, fast.b_entails_a) == ("EQUIVALENT", True, True)
    assert fast.witness == {"method": "canonical", "reading": {"dialect": "fol", "free_variables": "error",
                                                                  "symbols": "separate"}}
    proved = equivalent(a, b, canonical_shortcut=False)
    assert (proved.verdict, proved.a_entails_b, proved.b_entails_a) == ("EQUIVALENT", True, True)
    assert proved.witness != {"method": "canonical"}  # Prolog proved it (sld), not the canonicaliser
    assert equivalent(a, b.replace("man(y)", "man(e)")).verdict == "NOT_EQUIVALENT"


def test_asts_and_lisp_accepted():
    fol = "exists x . exists a . man(x) AND saw(a) AND agent(a, x) AND patient(a, Mary)"
    lisp = "( exists x ( exists a ( AND ( man x ) ( saw a ) ( agent a x ) ( patient a Mary ) ) ) )"
    assert equivalent(logic.parse(fol), lisp.replace("Mary", "John"), fmt="lisp").verdict == "NOT_EQUIVALENT"
    assert equivalent(logic.parse(fol), logic.parse(lisp, "lisp")).verdict == "EQUIVALENT"
    assert equivalent(lisp, lisp, fmt="lisp").verdict == "EQUIVALENT"


def test_shadowed_variable_names_stay_apart():
    a = Quant("exists", "x", And((Atom("p", (Var("x"),)), Quant("exists", "x", Atom("q", (Var("x"),))))))
    b = "exists x . exists y . p(x) AND q(y)"
    c = "exists x . p(x) AND q(x)"
    assert equivalent(a, b).verdict == "EQUIVALENT"
    assert equivalent(a, c).verdict == "NOT_EQUIVALENT"


# ----------------------------------------------------------------------------- outside the fragment


def test_or_under_forall_is_unknown_or_correct_never_wrong():
    # (forall x . p(x) OR q(Mary)) == (forall x . p(x)) OR q(Mary): true, hard for SLD alone.
    v = equivalent("forall x . p(x) OR q(Mary)", "( forall x . p(x) ) OR q(Mary)")
    assert v.verdict in ("EQUIVALENT", "UNKNOWN")
    assert v.b_entails_a is True and v.a_entails_b in (True, None)
    # forall x . p(x) OR q(x) does not entail (forall x . p(x)) OR (forall x . q(x)): countermodel.
    v = equivalent("forall x . p(x) OR q(x)", "( forall x . p(x) ) OR ( forall x . q(x) )")
    assert v.a_entails_b is False and v.b_entails_a is True and v.verdict == "NOT_EQUIVALENT"
    check_witness("forall x . p(x) OR q(x)", "( forall x . p(x) ) OR ( forall x . q(x) )", v)


def test_budget_exhausted_gives_unknown():
    # 2^16 DNF disjuncts on one side: far beyond 2,000 inferences.
    n = 16
    a = "exists x . " + " AND ".join(f"( p{i}(x) OR q{i}(x) )" for i in range(n))
    b = "exists x . " + " AND ".join(f"( q{i}(x) OR p{i}(x) )" for i in range(n)) + " AND r(x)"
    v = equivalent(a, b, inferences=2_000)
    assert v.verdict in ("UNKNOWN", "NOT_EQUIVALENT")
    assert v.b_entails_a in (True, None)  # never a wrong False
    assert v.a_entails_b in (False, None)


# ----------------------------------------------------------------------------- bad input


def test_bad_input_is_a_clear_error():
    for bad in ["", "   ", "exists x . man(", "man(x)", "exists x . ( ( man(x) )", "∀x. man(x)"]:
        with pytest.raises(LFParseError):
            equivalent(bad, "exists x . man(x)")
        with pytest.raises(LFParseError):
            equivalent_batch([("exists x . man(x)", bad)])


def test_open_or_foreign_asts_are_rejected():
    with pytest.raises(ValueError, match="free variable"):
        equivalent(Atom("man", (Var("x"),)), "man(Mary)")
    with pytest.raises(TypeError):
        equivalent(42, "man(Mary)")  # type: ignore[arg-type]


def test_deeply_nested_parentheses_error_or_answer_fast():
    deep = "( " * 5000 + "man(Mary)" + " )" * 5000
    t = time.perf_counter()
    with pytest.raises(LFParseError):
        equivalent(deep, "man(Mary)")
    assert time.perf_counter() - t < 5


def test_hundred_kilobyte_formula_is_budgeted():
    atoms = [f"p{i}(x, y)" for i in range(6500)]
    big = "exists x . exists y . " + " AND ".join(atoms)
    assert len(big) > 100_000
    shuffled = "exists y . exists x . " + " AND ".join(reversed([f"p{i}(y, x)" for i in range(6500)]))
    t = time.perf_counter()
    v = equivalent(big, shuffled, time_limit=2.0, max_chars=200_000)  # past the default max_chars: read, then budgeted
    assert v.verdict in ("EQUIVALENT", "UNKNOWN")
    v = equivalent(big, big.replace("p6499(x, y)", "p6499(y, x)"), time_limit=2.0, max_chars=200_000)
    assert v.verdict in ("NOT_EQUIVALENT", "UNKNOWN") and v.b_entails_a is not True
    assert time.perf_counter() - t < 20


def test_time_limit_gives_unknown():
    n = 22
    a = "exists x . " + " AND ".join(f"( p{i}(x) OR q{i}(x) )" for i in range(n))
    b = "exists x . " + " AND ".join(f"( q{i}(x) OR p{i}(x) )" for i in range(n)) + " AND r(x)"
    t = time.perf_counter()
    v = equivalent(a, b, time_limit=0.3, inferences=10**12)
    assert time.perf_counter() - t < 5
    assert v.verdict in ("UNKNOWN", "NOT_EQUIVALENT") and v.b_entails_a in (True, None)


# ----------------------------------------------------------------------------- command line


def _cli(argv, stdin_text=""):
    out = io.StringIO()
    rc = equiv_main(argv, stdin=io.StringIO(stdin_text), stdout=out)
    return rc, out.getvalue()


def test_cli_two_formulas():
    rc, out = _cli(["equiv", SCOPE_EA, SCOPE_AE])
    assert rc == 0 and out.startswith("NOT_EQUIVALENT")
    rc, out = _cli(["equiv", "( exists x ( man x ) )", "( exists y ( man y ) )", "--format", "lisp"])
    assert rc == 0 and out.startswith("EQUIVALENT")
    rc, _ = _cli(["equiv", "exists x . man(", "man(Mary)"])
    assert rc == 2


def test_cli_jsonl_keeps_order_and_reports_bad_lines():
    lines = [
        json.dumps({"a": SCOPE_EA, "b": SCOPE_AE}),
        "not json",
        json.dumps({"a": "( exists x ( man x ) )", "b": "( exists y ( man y ) )", "format": "lisp"}),
        json.dumps({"a": "exists x . man(", "b": "man(Mary)"}),
        json.dumps({"a": "p(Mary) OR q(Mary)", "b": "p(Mary)"}),
    ]
    rc, out = _cli(["equiv", "--jsonl"], "\n".join(lines) + "\n")
    rows = [json.loads(x) for x in out.splitlines()]
    assert rc == 2 and len(rows) == 5
    assert rows[0]["verdict"] == "NOT_EQUIVALENT" and rows[0]["a_entails_b"] is True
    assert "error" in rows[1] and "error" in rows[3]
    assert rows[2]["verdict"] == "EQUIVALENT"
    assert rows[4] == {**rows[4], "verdict": "NOT_EQUIVALENT", "a_entails_b": False, "b_entails_a": True}
    for r in (rows[0], rows[2], rows[4]):
        assert {"verdict", "a_entails_b", "b_entails_a", "witness"} <= set(r)


def test_cli_via_python_dash_m():
    lines = json.dumps({"a": "exists x . man(x)", "b": "exists y . man(y)"}) + "\n"
    p = subprocess.run([sys.executable, "-m", "ambit", "logic", "equiv", "--jsonl"], input=lines, capture_output=True,
                       text=True, cwd=REPO, timeout=180)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout.splitlines()[0])["verdict"] == "EQUIVALENT"


def test_the_python_side_of_a_pair_leaves_no_reference_cycles():
    """Reading, the canonical-form shortcut and the Prolog term of a pair free what they build
    as they go (reference counting), leaving nothing for the cyclic collector: a recursive
    closure left bound is a cycle per call (~65 objects a pair), and collecting them cost a batch
    ~2% of its CPU."""
    import gc

    from ambit.logic.engine.equivalence import _atoms_key, to_prolog_bb
    from ambit.logic.syntax.canonical import canonical_string

    texts = [a for a, _, _, _ in CASES] + [b for _, b, _, _ in CASES]
    gc.collect()
    gc.disable()
    try:
        for text in texts:
            f = logic.parse(text)
            _atoms_key(f)
            canonical_string(f, "fol", "v")
            to_prolog_bb(f, "0a")
        left = gc.collect()
    finally:
        gc.enable()
    assert left == 0


@pytest.mark.parametrize("a,b", [
    ("exists x . man(x)", "exists x . man(x) AND tall(x)"),  # tall: a predicate true of nothing
    (SCOPE_EA, SCOPE_AE),
    ("exists x . exists a . woman(x) AND agent(a, x) AND ran(a)", "exists a . ran(a) AND agent(a, Ada)"),
])
def test_a_models_extensions_are_its_atoms_and_every_predicate_of_the_pair(a, b):
    from ambit.logic.engine.equivalence import with_extensions

    model = equivalent(a, b).witness["model"]  # the extensions written beside the check of the model
    bare = {k: x for k, x in model.items() if k != "extensions"}
    assert model == with_extensions(bare, logic.parse(a), logic.parse(b))
    assert list(model) == list(with_extensions(bare, logic.parse(a), logic.parse(b)))
