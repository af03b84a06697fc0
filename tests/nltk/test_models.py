"""ambit.nltk.ModelBuilder as NLTK's Mace: models NLTK's own evaluator (nltk.sem.Model) finds
true of every assumption and false of the goal, Mace4's formats, and DiscourseTester on it."""

from __future__ import annotations

import pytest

pytest.importorskip("nltk", reason="ambit.nltk needs the nltk extra")

import nltk  # noqa: E402
from nltk.sem import Expression, Model  # noqa: E402

import ambit.nltk  # noqa: E402
from ambit.nltk import models  # noqa: E402

read = Expression.fromstring

# (goal or None, assumptions): NLTK's documented model-building examples (inference.doctest)
PROBLEMS = [
    (None, ["exists x.(man(x) and walks(x))", "mortal(socrates)"]),
    (None, ["exists x.(man(x) and walks(x))", "-mortal(socrates)"]),
    ("love(adam,eve)", ["exists y. (woman(y) & all x. (man(x) -> love(x,y)))", "man(adam)", "woman(eve)"]),
    (None, ["(see(mary,john) & -(mary = john))"]),
    ("Q", ["P", "P -> -Q"]),
    ("all x.man(x)", ["man(John)", "man(Socrates)", "man(Bill)", "some x.(-(x = John) & man(x) & sees(John,x))",
                      "some x.(-(x = Bill) & man(x))", "all x.some y.(man(x) -> gives(Socrates,x,y))"]),  # mace.py's demo
]


def _true_in(valuation, text: str) -> bool:
    """Whether NLTK's own evaluator finds `text` true in the model (its domain: the valuation's
    entities; a free variable read as NLTK's Mace reads it, universally)."""
    domain = set()
    for v in valuation.values():
        if isinstance(v, str):
            domain.add(v)
        elif isinstance(v, set):
            domain.update(x for t in v for x in t)
    m = Model(domain | valuation.domain, valuation)
    e = read(text)
    for x in sorted((v for v in e.free() if nltk.sem.logic.is_indvar(v.name)), key=str):
        e = nltk.sem.logic.AllExpression(x, e)
    return m.satisfy(e, nltk.sem.Assignment(m.domain)) is True


@pytest.mark.parametrize("goal,assumptions", PROBLEMS)
def test_the_model_is_one_nltks_evaluator_agrees_with(goal, assumptions):
    mb = ambit.nltk.ModelBuilderCommand(read(goal) if goal else None, [read(a) for a in assumptions])
    assert mb.build_model() is True
    v = mb.valuation
    assert isinstance(v, nltk.sem.Valuation)
    assert all(_true_in(v, a) for a in assumptions), (assumptions, v)
    if goal:
        assert not _true_in(v, goal), (goal, v)


def test_documented_valuation_and_formats():
    mb = ambit.nltk.ModelBuilderCommand(assumptions=[read("(see(mary,john) & -(mary = john))")])
    assert mb.build_model() is True
    assert str(mb.valuation) == "{'john': 'a', 'mary': 'b', 'see': {('b', 'a')}}"  # Mace4's, as documented
    assert mb.model(format="cooked").splitlines()[4:] == ["", "john = 0.", "", "mary = 1.", "", "- see(0,0).",
                                                          "- see(0,1).", "  see(1,0).", "- see(1,1)."]
    assert " see :" in mb.model(format="tabular") and "     1 | 1 0" in mb.model(format="tabular")
    text = mb.model()
    assert text.startswith("interpretation( 2, [") and models.parse_standard(text) == models.parse_standard(
        mb.model(format="standard"))
    for fmt in ("raw", "portable", "standard2"):
        assert "see" in mb.model(format=fmt)
    with pytest.raises(LookupError):
        mb.model(format="xml")
    assert mb.decision().verdict == "FALSE"  # ambit's: the assumptions are consistent


def test_no_model_is_false_as_mace_says_it():
    assert ambit.nltk.ModelBuilder(50).build_model(read("mortal(socrates)"), [read("all x.(man(x) -> mortal(x))"),
                                                                              read("man(socrates)")]) is False
    mb = ambit.nltk.ModelBuilderCommand(None, [read("p"), read("-p")])
    assert mb.build_model() is False and mb.model() == "" and dict(mb.valuation) == {}


def test_end_size_caps_the_search():
    assert ambit.nltk.ModelBuilder(2).max_domain == 2 and ambit.nltk.ModelBuilder(500).max_domain == 8
    three = [read("exists x.exists y.exists z.(-(x = y) & -(y = z) & -(x = z))")]
    assert ambit.nltk.ModelBuilder(2).build_model(None, three) is False
    assert ambit.nltk.ModelBuilder(3).build_model(None, three) is True


def test_a_one_element_model_is_written_with_two_as_mace4_starts_there():
    mb = ambit.nltk.ModelBuilderCommand(None, [read("man(socrates)"), read("all x.(man(x) -> mortal(x))")])
    assert mb.build_model() is True and "Interpretation of size 2" in mb.model(format="cooked")
    assert mb.valuation["man"] == {("a",), ("b",)}
    one = ambit.nltk.ModelBuilderCommand(None, [read("all x y.(x = y)"), read("walk(john)")])
    assert one.build_model() is True and "Interpretation of size 1" in one.model(format="cooked")


def test_function_tables_are_written_as_mace4_writes_them():
    mb = ambit.nltk.ModelBuilderCommand(read("mother(ann) = bob"), [read("all x.(person(x) -> person(mother(x)))"),
                                                                     read("person(ann)")])
    assert mb.build_model() is True
    cooked = mb.model(format="cooked")
    assert "mother(0) = " in cooked and "ann = 0." in cooked and "mother" not in mb.valuation  # as NLTK's Mace skips it


GRAMMAR = r"""
% start S
S[SEM=<?subj(?vp)>] -> NP[SEM=?subj] VP[SEM=?vp]
NP[SEM=<?det(?nom)>] -> Det[SEM=?det] N[SEM=?nom]
NP[SEM=?np] -> PropN[SEM=?np]
VP[SEM=?v] -> IV[SEM=?v]
Det[SEM=<\P Q.exists x.(P(x) & Q(x))>] -> 'a'
Det[SEM=<\P Q.-exists x.(P(x) & Q(x))>] -> 'no'
PropN[SEM=<\P.P(fido)>] -> 'Fido'
N[SEM=<\x.boxer(x)>] -> 'boxer'
N[SEM=<\x.boxerdog(x)>] -> 'boxer'
IV[SEM=<\x.walk(x)>] -> 'walks'
"""


def test_discourse_tester_runs_on_ambit(tmp_path, capsys):
    """NLTK's DiscourseTester (its own Prover9Command and MaceCommand, made inside it) on
    ambit: consistent and inconsistent threads, informativity; a grammar of this test's own."""
    from nltk.inference.discourse import CfgReadingCommand, DiscourseTester

    (tmp_path / "grammars" / "ambit").mkdir(parents=True)
    (tmp_path / "grammars" / "ambit" / "boxers.fcfg").write_text(GRAMMAR, encoding="utf-8")
    with ambit.nltk.patched():
        nltk.data.path.insert(0, str(tmp_path))
        try:
            dt = DiscourseTester(["a boxer walks", "no boxer walks"], CfgReadingCommand("grammars/ambit/boxers.fcfg"))
        finally:
            nltk.data.path.remove(str(tmp_path))
        dt.models()
        out = capsys.readouterr().out
        assert out.count("Inconsistent discourse") == 2 and out.count("Consistent discourse") == 2
        assert "% Interpretation of size" in out  # the consistent threads' models, in Mace4's cooked format
        dt.retract_sentence("no boxer walks", verbose=False)
        dt.add_sentence("a boxer walks", informchk=True)
        assert "Not informative relative to thread" in capsys.readouterr().out
