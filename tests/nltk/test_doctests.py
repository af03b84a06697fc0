"""NLTK's own documented inference examples with ambit in place of Prover9 and Mace.

The doctests ship inside the nltk package (`nltk/test/*.doctest`). inference.doctest and
nonmonotonic.doctest run whole, example by example, with NLTK's `Prover9` and `Mace` replaced
by ambit's (`ambit.nltk.patched()`) and their check for the Mace4 binary a no-op: every example
gives NLTK's documented output except the two in KNOWN, whose text cannot be Prover9's or Mace4's
(what ambit's model is instead is checked by NLTK's own evaluator in test_models.py).
resolution.doctest runs NLTK's pure-Python ResolutionProver; its claims of provability are asked
of ambit's Prover. discourse.doctest needs the CHILDES corpus and nltk_data's grammars (NLTK
skips it without them, and neither installs here): its claims of consistency and informativity,
with the readings and background knowledge it lists, are asked of ambit's ModelBuilder and Prover.
"""

from __future__ import annotations

import pytest

pytest.importorskip("nltk", reason="ambit.nltk needs the nltk extra")

import nltk.data  # noqa: E402
import nltk.test.setup_fixt  # noqa: E402
from nltk.sem import Expression  # noqa: E402

import ambit.nltk  # noqa: E402
from tests.helpers import nltk_doctests  # noqa: E402

# (doctest, example source, a line of its documented output) -> why ambit's output differs
KNOWN = {
    ("inference.doctest", "print(prover.proof())", "============================== prooftrans"):
        "proof() is ambit's proof (the formulas it used and its connection steps), not Prover9's "
        "prooftrans output",
    ("inference.doctest", "print(mb.model(format='cooked'))", "c1 = 1."):
        "Mace4's model names the Skolem constant c1 of the existential assumption; ambit's model is the same "
        "interpretation of the user's symbols and lists no Skolem constant",
}
EXAMPLES = {"inference.doctest": 93, "nonmonotonic.doctest": 114}


@pytest.fixture
def replaced(tmp_path, monkeypatch):
    """Prover9 and Mace are ambit's, the Mace4 check passes, and the one nltk_data file
    inference.doctest loads is there."""
    monkeypatch.setattr(nltk.data, "path", [str(nltk_doctests.data_dir(tmp_path)), *nltk.data.path])
    monkeypatch.setattr(nltk.test.setup_fixt, "check_binary", lambda *args, **kw: None)
    with ambit.nltk.patched():
        yield


def _known(name: str, outcome) -> str | None:
    for (doc, source, line), why in KNOWN.items():
        if doc == name and outcome.source == source and line in outcome.want:
            return why
    return None


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_nltks_doctest_gives_its_documented_results_with_ambit_as_prover9_and_mace(name, replaced):
    outcomes = nltk_doctests.run_doctest(name)
    assert len(outcomes) == EXAMPLES[name], f"{name}: {len(outcomes)} examples ran (NLTK's file changed?)"
    unexpected = [f"{name}:{o.line}: {o.source}\n  documented: {o.want.strip()[:200]}\n  ambit: {o.got.strip()[:400]}"
                  for o in outcomes if not o.ok and _known(name, o) is None]
    assert not unexpected, "\n".join(unexpected)
    differing = {_known(name, o) for o in outcomes if not o.ok}
    stale = [k for k, why in KNOWN.items() if k[0] == name and why not in differing]
    assert not stale, f"KNOWN differences that no longer differ (remove them): {stale}"


def test_the_prover_and_model_builder_are_ambits_inside_the_block_and_nltks_after():
    with ambit.nltk.patched():
        assert nltk.Prover9 is ambit.nltk.Prover and nltk.inference.mace.Mace is ambit.nltk.ModelBuilder
        assert isinstance(nltk.Prover9Command(Expression.fromstring("p | -p")).get_prover(), ambit.nltk.Prover)
    assert nltk.Prover9 is not ambit.nltk.Prover and nltk.inference.nonmonotonic.Prover9 is nltk.Prover9
    with pytest.raises(RuntimeError), ambit.nltk.patched():
        raise RuntimeError
    assert nltk.inference.prover9.Prover9 is nltk.Prover9 and nltk.Mace is nltk.inference.mace.Mace


def _read(texts):
    return [Expression.fromstring(t) for t in texts]


@pytest.mark.parametrize("claim", nltk_doctests.resolution_claims(), ids=lambda c: c.goal)
def test_resolution_doctests_claims_hold_for_ambits_prover(claim):
    assert ambit.nltk.Prover(10).prove(Expression.fromstring(claim.goal), _read(claim.assumptions)) is claim.expected


def test_resolution_doctest_has_its_claims():
    claims = nltk_doctests.resolution_claims()
    assert len(claims) == 17 and sum(c.expected for c in claims) == 13


@pytest.mark.parametrize("claim", nltk_doctests.discourse_claims(), ids=lambda c: c.source[:60])
def test_discourse_doctests_claims_hold_for_ambit(claim):
    if claim.kind == "model":
        assert ambit.nltk.ModelBuilder(20).build_model(None, _read(claim.assumptions)) is claim.expected
    else:
        assert ambit.nltk.Prover(10).prove(Expression.fromstring(claim.goal), _read(claim.assumptions)) is claim.expected


def test_discourse_doctest_has_its_claims():
    claims = nltk_doctests.discourse_claims()
    assert [c.expected for c in claims if c.kind == "model"] == [True, False, True, True, False, True, False, False]
    assert [c.kind for c in claims].count("proves") == 1


@pytest.mark.parametrize("claim", nltk_doctests.doctest_claims(), ids=lambda c: c.goal)
def test_the_doctests_plain_prover9_claims_hold_for_ambits_prover_alone(claim):
    """The same claims as the doctest runs above check, asked of ambit.nltk.Prover directly (the
    timing in benchmarks/nltk_bench.py runs these)."""
    assert ambit.nltk.Prover(10).prove(Expression.fromstring(claim.goal), _read(claim.assumptions)) is claim.expected
