"""ambit.nltk.Prover as NLTK's Prover9: answers, proofs, errors as NLTK's Prover9 exceptions, time limits."""

from __future__ import annotations

import pytest

pytest.importorskip("nltk", reason="ambit.nltk needs the nltk extra")

import nltk  # noqa: E402
from nltk.inference.api import Prover as NltkProver  # noqa: E402
from nltk.inference.prover9 import Prover9FatalException, Prover9LimitExceededException  # noqa: E402
from nltk.sem import Expression  # noqa: E402

import ambit.nltk  # noqa: E402

read = Expression.fromstring
SOCRATES = [read("man(socrates)"), read("all x.(man(x) -> mortal(x))")]
# no finite countermodel (a strict order with no greatest element is infinite) and no proof
INFINITE = [read("all x.exists y.lt(x,y)"), read("all x y z.((lt(x,y) & lt(y,z)) -> lt(x,z))"), read("all x.-lt(x,x)")]


def test_the_one_line_change():
    prover = ambit.nltk.Prover(10)
    assert isinstance(prover, NltkProver) and isinstance(prover, nltk.Prover9)
    assert prover.prove(read("mortal(socrates)"), SOCRATES) is True
    assert prover.prove(read("mortal(plato)"), SOCRATES) is False


def test_no_goal_asks_whether_the_assumptions_are_inconsistent():
    assert ambit.nltk.Prover().prove(None, [read("p"), read("-p")]) is True
    assert ambit.nltk.Prover().prove(None, [read("p")]) is False
    assert ambit.nltk.Prover().prove(None, []) is False


def test_proof_through_nltks_prover_command_and_ambits():
    for command in (ambit.nltk.ProverCommand(read("mortal(socrates)"), SOCRATES),
                    nltk.Prover9Command(read("mortal(socrates)"), SOCRATES, prover=ambit.nltk.Prover())):
        with pytest.raises(LookupError):
            command.proof()
        assert command.prove() is True
        text = command.proof()
        assert "THEOREM PROVED" in text and "man(socrates).  [assumption]." in text
        assert "-(mortal(socrates)).  [goal, denied]." in text and "extension" in text
    assert command.proof(simplify=False).startswith("=" * 30)
    c = ambit.nltk.ProverCommand(read("mortal(plato)"), SOCRATES)
    assert c.prove() is False and "SEARCH FAILED" in c.proof() and "plato = d" in c.proof()
    assert c.decision().verdict == "FALSE" and c.decision().countermodel is not None  # the denied goal is consistent


def test_print_assumptions_in_prover9s_syntax(capsys):
    ambit.nltk.ProverCommand(read("mortal(socrates)"), SOCRATES).print_assumptions(output_format="Prover9")
    assert capsys.readouterr().out.splitlines() == ["man(socrates)", "all x (man(x) -> mortal(x))"]


@pytest.mark.parametrize("goal,assumptions,why", [
    ("walk(john)", ["walk(john,mary)"], "predicate 'walk' is used with 2 arguments in assumptions[0] and with 1 "
                                        "argument in goal"),
    ("dog(john)", ["walk(dog)"], "'dog' is used as a constant in assumptions[0] and as a predicate of 1 argument in goal"),
    ("walk(?x)", [], "feature-grammar variable"),
])
def test_a_problem_prover9_refuses_raises_nltks_prover9_fatal_exception(goal, assumptions, why):
    with pytest.raises(Prover9FatalException) as e:
        ambit.nltk.Prover().prove(read(goal), [read(a) for a in assumptions])
    assert why in str(e.value) and str(e.value).startswith("(FATAL)\n%%ERROR: ")
    assert isinstance(e.value, ValueError) and e.value.cause is not None


def test_symbols_separate_reads_a_predicate_and_a_constant_of_one_spelling_as_two():
    assert ambit.nltk.Prover(symbols="separate").prove(read("dog(john)"), [read("walk(dog)"), read("dog(john)")])


def test_undecided_raises_prover9s_limit_exception_or_answers_false():
    with pytest.raises(Prover9LimitExceededException) as e:
        ambit.nltk.Prover(1).prove(read("p"), INFINITE)
    assert e.value.decision.entailed is None and str(e.value).startswith("(MAX_")
    assert ambit.nltk.Prover(1, unknown=False).prove(read("p"), INFINITE) is False


def test_timeout_is_prover9s():
    assert ambit.nltk.Prover(0).budget()["time_limit"] == ambit.nltk.provers.NO_LIMIT
    assert ambit.nltk.Prover(60).budget()["inferences"] > ambit.nltk.Prover(5).budget()["inferences"]
    with pytest.raises(ValueError):
        ambit.nltk.Prover(-1).prove(read("p"), [read("p")])


def test_verbose_prints_the_proof(capsys):
    ambit.nltk.Prover().prove(read("mortal(socrates)"), SOCRATES, verbose=True)
    assert "THEOREM PROVED" in capsys.readouterr().out


def test_equiv_with_ambit_as_the_prover():
    a, b = read("exists x.(man(x) & walks(x))"), read("exists x.(walks(x) & man(x))")
    assert a.equiv(b, ambit.nltk.Prover()) is True
    assert a.equiv(read("exists x.man(x)"), ambit.nltk.Prover()) is False
    with ambit.nltk.patched():
        assert a.equiv(b) is True  # NLTK's own default prover, replaced


def test_the_portfolio_answers_too():
    assert ambit.nltk.Prover(10, prover="portfolio").prove(read("mortal(socrates)"), SOCRATES) is True


def test_a_free_name_spelled_as_nltks_variable_is_universal_as_the_nltk_dialect_reads_it():
    """docs/logic.md: Prover9 reads `a` as a constant (LADR's variables start with u to z);
    NLTK calls it an individual variable, and ambit closes it under ∀."""
    assert ambit.nltk.Prover().prove(read("man(b)"), [read("man(a)")]) is True
    assert ambit.nltk.Prover(free_variables="constant").prove(read("man(b)"), [read("man(a)")]) is False


def test_the_light_core_needs_no_nltk_and_the_extra_names_itself():
    import subprocess
    import sys

    block = "import sys; sys.modules['nltk'] = None\n"
    core = subprocess.run([sys.executable, "-c", block + "import ambit, ambit.logic; ambit.logic.parse('exists x . man(x)', 'fol')"],
                          capture_output=True, text=True, timeout=120)
    assert core.returncode == 0, core.stderr
    p = subprocess.run([sys.executable, "-c", block + "import ambit.nltk"], capture_output=True, text=True, timeout=120)
    assert p.returncode == 1 and "pip install 'ambit-semantics[nltk]'" in p.stderr.splitlines()[-1], p.stderr
