"""Situations for readings that differ in names or constants (issue 31): a name may carry a noun
the readings say of it, each scene checked by the independent evaluator of test_explain; and a
scene search cut by its budget is named in the note instead of failing the explanation."""

from __future__ import annotations

import pytest

from ambit import logic
from ambit.generators.amp.wordforms import amp_wordforms
from ambit.logic.explain import explain_readings, find_scene, restrict
from tests.helpers.explain import holds_in_scene as _holds

PAIRS = [
    ("walker(TM)", "walker(DBA)"),
    ("exists x . boy(x) AND walker(TM)", "exists x . boy(x) AND walker(DBA)"),
    ("exists a . saw(a) AND agent(a, Mary) AND patient(a, John)",
     "exists a . saw(a) AND agent(a, John) AND patient(a, Mary)"),
    ("forall x . boy(x) AND walker(Galileo)", "forall x . boy(x) AND walker(Sherlock)"),
]


@pytest.mark.parametrize("a,b", PAIRS)
def test_readings_that_differ_in_names_are_told_apart(a, b):
    ra, rb = restrict(logic.parse(a)), restrict(logic.parse(b))
    for x, y in ((ra, rb), (rb, ra)):
        scene = find_scene(x, y)
        assert scene is not None, (x, y)
        assert _holds(x, scene) and not _holds(y, scene), scene
        assert scene.searched_from <= len(scene.domain) <= scene.bound
    e = explain_readings("u", [a, b], "fol", lexicon=amp_wordforms())
    assert len(e.situations) == 2 and e.note is None and e.question.yes_no


def test_a_name_with_a_noun_is_described_and_listed():
    e = explain_readings("TM walks", ["walker(TM)", "walker(DBA)"], "fol", lexicon=amp_wordforms())
    first = e.situations[0]
    assert first.description == "TM is a walker." and first.facts == ["walker(tm)"]
    assert first.constants == {"DBA": "dba", "TM": "tm"}


def test_a_search_cut_by_its_budget_is_named_in_the_note():
    # a model's two readings (issue 31); no scene has the second true and the first false
    a = "forall x . exists a . agent(a, x) AND dog(x)"
    b = "forall x . exists y . exists a . agent(a, x) AND dog(y)"
    e = explain_readings("every boy saw a dog", [a, b], "fol", lexicon=amp_wordforms(), time_limit=1e-6)
    assert e.note is not None and "ran out of its Prolog budget of 1e-06 s" in e.note
    full = explain_readings("every boy saw a dog", [a, b], "fol", lexicon=amp_wordforms())
    assert full.note == "no situation within the search bound tells the readings apart"
