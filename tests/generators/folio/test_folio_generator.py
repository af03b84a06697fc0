"""generators/folio: labels known by construction agree with the prover; noise is marked;
perturbations change what they say they change; the command line writes FOLIO rows."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from ambit import logic
from ambit.generators.folio import PATTERNS, perturb, stories
from ambit.generators.folio.perturb import STRUCTURAL, structural
from tests.paths import REPO

LABEL = {"TRUE": "True", "FALSE": "False", "UNCERTAIN": "Uncertain"}


def test_every_pattern_and_label_is_what_the_prover_derives():
    rows = stories(3 * 4 * len(PATTERNS), seed=11)
    assert {r["pattern"] for r in rows} == set(PATTERNS)
    assert {r["label"] for r in rows} == {"True", "False", "Uncertain"}
    decisions = logic.decide_batch([(r["premises-FOL"], r["conclusion-FOL"]) for r in rows], "folio")
    assert [LABEL.get(d.verdict, d.verdict) for d in decisions] == [r["label"] for r in rows]


def test_noise_flips_and_marks_labels():
    clean, noisy = stories(150, seed=4), stories(150, seed=4, noise=0.3)
    flipped = [(c, n) for c, n in zip(clean, noisy) if n.get("label_noise")]
    assert 20 < len(flipped) < 80
    assert all(c["label"] != n["label"] for c, n in flipped)
    assert len({r["example_id"] for r in noisy}) == len(noisy)


def test_stories_are_seeded():
    assert stories(30, seed=1) == stories(30, seed=1) != stories(30, seed=2)


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="noise"):
        stories(3, noise=1.5)


@pytest.mark.parametrize("kind", STRUCTURAL)
def test_structural_perturbations_apply_or_say_they_do_not(kind):
    rng = random.Random(0)
    f = logic.parse("∀x (A(x) → B(x) ∧ C(x))", "folio")
    g = structural(f, kind, rng)
    assert g is not None and g != f
    assert structural(logic.parse("A(a)", "folio"), "converse", rng) is None


def test_opaque_renaming_is_a_bijection_on_predicates():
    fols = ["∀x (Dog(x) → Animal(x))", "Dog(rex)", "Likes(rex, bob)"]
    out, changes = perturb(fols, random.Random(3), rename="rename_opaque", change_rate=0.0)
    preds = {p for t in out for p, _ in logic.predicates(logic.parse(t, "folio"))}
    assert changes == [None] * 3 and len(preds) == 3 and all(p.startswith("P") for p in preds)


def test_cli_writes_folio_rows():
    r = subprocess.run([sys.executable, "-m", "ambit", "generate", "folio", "--n", "4", "--seed", "2"], cwd=REPO,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    rows = [json.loads(l) for l in r.stdout.splitlines()]
    assert rows == stories(4, seed=2)
    assert all({"premises", "premises-FOL", "conclusion", "conclusion-FOL", "label", "story_id"} <= set(x) for x in rows)
