"""One path for every question, and checked answers from every member of the portfolio
(logic/provers/portfolio.py): AmP pairs and full first-order stories reach the same entry points and the
same race; E's proofs and Z3's unsat cores are re-proved by ambit's own engine from the premises
they name; what cannot be checked says so (`checked: false`, and by whom).

Real E, real Z3, real SWI-Prolog."""

from __future__ import annotations

import shutil

import pytest

pytest.importorskip("z3")
pytest.importorskip("pyswip")
if shutil.which("eprover") is None:
    pytest.skip("the E prover is not installed (`apt-get install -y eprover`; .ci/setup.sh does it)",
                allow_module_level=True)

from ambit import logic  # noqa: E402
from ambit.logic.provers import eprover
from ambit.logic.engine import prove
from ambit.logic.provers import portfolio  # noqa: E402
from ambit.logic.syntax.parse import parse  # noqa: E402

# the first premise is a distractor: a proof needs premises 1 and 2 only
THEOREM = (["∀x (Cat(x) → Pet(x))", "∀x (Dog(x) → Animal(x))", "Dog(rex)"], "Animal(rex)")
NON_THEOREM = (["∀x (Dog(x) → Animal(x))", "Animal(tom)"], "Dog(tom)")
AMP_NOT_EQUIVALENT = ("exists x . forall y . likes(x, y)", "forall y . exists x . likes(x, y)")
# distributivity: not the same canonical form, so a prover has to show it
AMP_EQUIVALENT = ("exists x . man(x) AND ( walks(x) OR runs(x) )",
                  "exists x . ( man(x) AND walks(x) ) OR ( man(x) AND runs(x) )")


def as_model(m: dict) -> dict:
    """A model of the shared evidence shape (`true_atoms` as text) in prove.holds' shape."""
    atoms = set()
    for a in m["true_atoms"]:
        pred, _, rest = a.partition("(")
        atoms.add((pred, *[e.strip() for e in rest.rstrip(")").split(",")]) if rest else (pred,))
    return {"domain": m["domain"], "constants": m["constants"], "functions": {}, "atoms": atoms}


@pytest.fixture
def races(monkeypatch):
    """Every question the portfolio races, as (kind, amp format) in order."""
    seen = []
    real = portfolio.race

    def spy(q, *args, **kwargs):
        seen.append((q.kind, getattr(q.amp, "name", q.amp)))  # a Dialect or None
        return real(q, *args, **kwargs)

    monkeypatch.setattr(portfolio, "race", spy)
    return seen


@pytest.fixture
def entry_points(monkeypatch):
    """Every call of the portfolio's two entry points, as (function, format)."""
    seen = []
    for name in ("decide_batch", "equivalent_batch"):
        real = getattr(portfolio, name)

        def spy(items, fmt="folio", *args, _real=real, _name=name, **kwargs):
            seen.append((_name, getattr(fmt, "name", fmt)))  # a Dialect or its name
            return _real(items, fmt, *args, **kwargs)

        monkeypatch.setattr(portfolio, name, spy)
    return seen


def test_amp_pairs_and_folio_stories_reach_the_same_entry_point_and_race(entry_points, races):
    assert logic.equivalent(*AMP_NOT_EQUIVALENT).verdict == "NOT_EQUIVALENT"  # Prolog alone, AmP's procedure
    assert logic.decide(*THEOREM).verdict == "TRUE"
    assert entry_points == [("equivalent_batch", "fol"), ("decide_batch", "folio")]
    entry_points.clear()
    # the portfolio: both reach the race (AmP's procedure is Prolog's first stage, the race follows)
    v = logic.equivalent(*AMP_NOT_EQUIVALENT, prover="portfolio", provers=portfolio.members())
    d = logic.decide(*THEOREM, prover="portfolio", provers=portfolio.members())
    assert v.verdict == "NOT_EQUIVALENT" and d.verdict == "TRUE"
    assert entry_points == [("equivalent_batch", "fol"), ("decide_batch", "folio")]
    assert races == [("equiv", "fol"), ("story", None)]
    # entailment between AmP formulas goes the same way: a story of one premise
    a, b = AMP_NOT_EQUIVALENT
    assert logic.entails(a, b, "fol", prover="portfolio") is True
    assert logic.entails(b, a, "fol", prover="portfolio") is False
    assert entry_points[-2:] == [("decide_batch", "fol")] * 2


def test_the_portfolio_answers_an_amp_pair_with_e():
    """Prolog given no part in the race: E settles both directions of an AmP pair, and ambit's
    engine re-proves each from the formula E used."""
    v = portfolio.equivalent(*AMP_EQUIVALENT, "fol", provers=[portfolio.EMember()], time_limit=10.0)
    assert v.verdict == "EQUIVALENT" and v.witness["answered_by"] == {p: "eprover" for p in portfolio.EQUIV_PARTS}
    assert v.witness["checked"] is True and v.is_checked
    assert v.witness["proof_a_entails_b"] and v.witness["proof_b_entails_a"]  # ambit's replayed proofs
    lisp = portfolio.equivalent(logic.convert(AMP_EQUIVALENT[0], "fol", "lisp"),
                                logic.convert(AMP_EQUIVALENT[1], "fol", "lisp"), "lisp",
                                provers=[portfolio.EMember()], time_limit=10.0)
    assert lisp.verdict == "EQUIVALENT" and set(lisp.witness["answered_by"].values()) == {"eprover"}


def test_an_amp_countermodel_from_the_race_has_the_shared_shape_and_amps_extensions():
    v = portfolio.equivalent(*AMP_NOT_EQUIVALENT, "fol", provers=[portfolio.Z3Member()], time_limit=10.0)
    assert v.verdict == "NOT_EQUIVALENT" and v.witness["checked"] is True
    m = v.witness["model"]
    assert m["true_atoms"] and m["extensions"]["likes"]
    a, b = (parse(x, "fol") for x in AMP_NOT_EQUIVALENT)
    true, false = (b, a) if v.witness["true_in_model"] == "b" else (a, b)
    assert prove.holds(true, as_model(m)) and not prove.holds(false, as_model(m))
    own = logic.equivalent(*AMP_NOT_EQUIVALENT)  # AmP's own procedure: the same keys
    assert {"domain", "constants", "true_atoms", "extensions"} <= set(own.witness["model"])


def test_an_e_proof_is_reproved_from_the_premises_e_used():
    d = portfolio.decide(*THEOREM, provers=[portfolio.EMember()], time_limit=10.0)
    assert d.entailed is True and d.answered_by["with_negated_conclusion"] == "eprover"
    # E's saturation for the other part (the conclusion can hold) shows no model: that part is unchecked
    assert d.unchecked == {"with_conclusion": "eprover"} and d.checked is False
    assert d.premises_used == [1, 2]  # indices into the story's premises, not into the subset re-proved
    assert {s["from"] for s in d.proof if isinstance(s.get("from"), int)} == {1, 2}
    assert [s["step"] for s in d.proof] == [s["step"] for s in prove.decide(*THEOREM).proof]  # ambit's own proof
    assert "$false" in d.tstp["with_negated_conclusion"]  # E's own derivation is kept as well


def test_a_z3_unsat_is_reproved_from_its_unsat_core():
    d = portfolio.decide(*THEOREM, provers=[portfolio.Z3Member()], time_limit=10.0)
    assert d.verdict == "TRUE" and d.answered_by == {p: "z3" for p in portfolio.STORY_PARTS}
    assert d.checked is True and d.premises_used == [1, 2] and d.proof


def test_an_answer_that_cannot_be_checked_says_so_and_by_whom(monkeypatch):
    monkeypatch.setattr(portfolio, "reprove", lambda *a, **k: None)
    d = portfolio.decide(*THEOREM, provers=[portfolio.EMember()], time_limit=10.0)
    assert d.entailed is True and d.checked is False and not d.is_checked
    assert d.unchecked["with_negated_conclusion"] == "eprover"
    out = d.to_dict()
    assert out["checked"] is False and out["unchecked"]["with_negated_conclusion"] == "eprover"
    # E's proof is shown as steps, like Prolog's: one per clause, naming the clauses it uses
    assert isinstance(d.proof, list) and d.proof[-1]["literals"] == ["($false)"] and d.proof[-1]["uses"]
    assert {s["from"] for s in d.proof if s["step"] == "input" and s["role"] == "axiom"} == {1, 2}
    v = portfolio.equivalent("∀x (P(x) → Q(x))", "∀x (¬Q(x) → ¬P(x))", provers=[portfolio.EMember()])
    assert v.verdict == "EQUIVALENT" and v.witness["checked"] is False and not v.is_checked


def test_a_non_theorem_under_the_portfolio_shows_its_checked_countermodel():
    """E says CounterSatisfiable without a model: that does not end the race; the part waits for
    a prover that shows a model (Z3's or Prolog's, checked), shown as the countermodel."""
    d = portfolio.decide(*NON_THEOREM, provers=[portfolio.EMember(), portfolio.Z3Member()], time_limit=10.0)
    assert d.verdict == "UNCERTAIN" and d.entailed is False and d.checked is True
    assert d.answered_by["with_negated_conclusion"] == "z3"
    m = as_model(d.countermodel)
    assert all(prove.holds(parse(p, "folio"), m) for p in NON_THEOREM[0])
    assert not prove.holds(parse(NON_THEOREM[1], "folio"), m)
    default = portfolio.decide(*NON_THEOREM, prover="portfolio")
    assert default.verdict == "UNCERTAIN" and default.countermodel is not None and default.checked is True


def test_e_derivation_steps():
    r = eprover.prove([parse(p, "folio") for p in THEOREM[0]], parse(THEOREM[1], "folio"), 5.0)
    steps = eprover.steps(r.tstp)
    assert [s["clause"] for s in steps] == list(range(1, len(steps) + 1))
    assert len({s["name"] for s in steps}) == len(steps) and steps[-1]["literals"] == ["($false)"]
    for s in steps:  # every clause a step uses comes before it
        assert all(0 < u < s["clause"] for u in s.get("uses", []))
    assert {s["from"] for s in steps if s["step"] == "input"} == {"conjecture", 1, 2}
    pytest.importorskip("google.protobuf")
    from ambit.server.convert.logic import proof_step  # the wire takes E's steps as they are

    assert [proof_step(s).clause for s in steps] == [s["clause"] for s in steps]
