"""Readings explained (logic/explain): paraphrases read back to equivalent LFs, distinguishing
situations that the model checker confirms, questions, the JSON of `ambit explain`.

Over AmP's ambiguous items: a seeded sample per type here, every item in the slow test."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from ambit import logic
from ambit.generators.amp import AMBIGUOUS_TYPES, pairs
from tests.paths import REPO
from ambit.generators.amp.wordforms import amp_wordforms
from ambit.logic.syntax.ast import And, Atom, Const, Or
from ambit.logic.runtime.cancel import PrologError
from ambit.logic.explain import (Every, Exists, WordForms, explain_readings, find_scene, read, restrict,
                           verbalise)
from ambit.logic.explain.explain import _universal  # explain's own rule for when a search can be skipped

ROOT = REPO
WORDS = amp_wordforms()
# Budgets that answer the same on any machine, however loaded: inference budgets decide (each
# scene search: SCENE_INFERENCES, what a 10 s search gets by default; each equivalence stage: the
# engine's own, 2,000,000), and the time limit is only a hang guard, far above what any of these
# checks takes on an idle machine (under 2 s each). Nothing below depends on the machine's speed.
HANG_GUARD_S = 600.0
SCENE_INFERENCES = 500_000_000
BUDGET = {"time_limit": HANG_GUARD_S, "inferences": SCENE_INFERENCES}


from tests.helpers.explain import holds_in_scene as _holds  # noqa: E402


SPENT = object()  # a scene search that spent its inference budget (a reason, never a wrong scene)


def _scene(a, b):
    """find_scene within BUDGET, or SPENT when the search ran out of its inferences."""
    try:
        return find_scene(a, b, **BUDGET)
    except PrologError as e:
        if e.reason not in ("inference_limit", "time_limit", "memory"):
            raise
        return SPENT


def _check_items(items: list[dict], exhaustive_every: int = 1) -> None:
    """Different paraphrases; read(verbalise(lf)) EQUIVALENT to lf; a confirmed situation (an
    item whose scene searches both spent their budget is counted, and must stay rare).

    A direction the prover shows entailed, in readings without a universal, has no scene
    (`explain_readings` skips its search for that reason). Every `exhaustive_every`-th item
    searches such a direction anyway, through every candidate within the bound, and must find
    none: the prover and the scene search checked against each other. The other items skip it as
    explain does (that search is most of a conj item's time)."""
    checks, spent = [], []
    entails = logic.equivalent_batch([(logic.parse(p["lf0"]), logic.parse(p["lf1"])) for p in items],
                                     time_limit=HANG_GUARD_S)
    for n, (p, v) in enumerate(zip(items, entails)):
        f0, f1 = logic.parse(p["lf0"]), logic.parse(p["lf1"])
        words = WORDS.covering([f0, f1])
        s0, s1 = verbalise(f0, words), verbalise(f1, words)
        assert s0 != s1, p["surface"]
        checks += [(f0, read(s0, words)), (f1, read(s1, words))]
        r0, r1 = restrict(f0), restrict(f1)
        literal = not (_universal(r0) or _universal(r1))  # the restricted readings are the literal ones
        scenes = []
        for a, b, entailed in ((r0, r1, v.a_entails_b), (r1, r0, v.b_entails_a)):
            if entailed and literal and n % exhaustive_every:
                continue
            s = _scene(a, b)
            assert not (entailed and literal and s not in (None, SPENT)), ("a scene where the prover shows none",
                                                                          p["surface"], s)
            scenes.append((a, b, s))
        if any(s is SPENT for _, _, s in scenes) and not any(s not in (None, SPENT) for _, _, s in scenes):
            spent.append(p["surface"])
            continue
        assert any(s not in (None, SPENT) for _, _, s in scenes), p["surface"]
        for a, b, s in scenes:
            if s not in (None, SPENT):
                assert _holds(a, s) and not _holds(b, s), (p["surface"], s)
                assert s.searched_from <= len(s.domain) <= s.bound
    # the time per pair a hang guard only (the inference limit per stage decides): verdicts, not speed
    assert len(spent) <= max(1, len(items) // 100), spent[:3]
    verdicts = logic.equivalent_batch(checks, time_limit=HANG_GUARD_S)
    bad = [(logic.to_fol(a), logic.to_fol(b), v.verdict) for (a, b), v in zip(checks, verdicts)
           if v.verdict != "EQUIVALENT"]
    assert not bad, bad[:3]


@pytest.mark.parametrize("kind", AMBIGUOUS_TYPES)
def test_sample_of_each_type(kind):
    items = pairs(kind)
    _check_items(random.Random(f"explain-{kind}").sample(items, 12))


@pytest.mark.slow
@pytest.mark.parametrize("kind", AMBIGUOUS_TYPES)
def test_every_ambiguous_item(kind):
    _check_items(pairs(kind), exhaustive_every=10)


def test_scope_readings_and_least_situation():
    every = "forall x . exists y . exists a . boy(x) AND dog(y) AND saw(a) AND agent(a, x) AND patient(a, y)"
    one = "exists x . forall y . exists a . boy(y) AND dog(x) AND saw(a) AND agent(a, y) AND patient(a, x)"
    e = explain_readings("every boy saw a dog", [one, every], lexicon=WORDS, **BUDGET)
    assert [r.paraphrase for r in e.readings] == ["There is a dog such that every boy saw the dog.",
                                                  "For every boy, the boy saw a dog."]
    # one dog for all boys entails a dog for each boy: only one direction has a situation, and
    # it needs two boys, two dogs and two seeings (with one boy both readings agree)
    [s] = e.situations
    assert (s.holds, s.fails, s.size) == (1, 0, 6)
    assert s.description == ("There are two boys and two dogs. The first boy saw the first dog. "
                             "The second boy saw the second dog.")
    assert "agent(e1, b1)" in s.facts and "boy(b2)" in s.facts
    assert e.question.answers == {"yes": 1, "no": 0} and e.quantifiers == "restricted"


def test_pp_situations_both_ways():
    e = explain_readings("the man saw Mary with the telescope", [
        "exists x . exists y . exists a . exists e . man(x) AND telescope(y) AND saw(a) AND agent(a, x) AND "
        "patient(a, Mary) AND have(e) AND agent(e, Mary) AND patient(e, y)",
        "exists x . exists y . exists a . man(x) AND telescope(y) AND saw(a) AND agent(a, x) AND patient(a, Mary) "
        "AND instrument(a, y)"], lexicon=WORDS, **BUDGET)
    assert e.readings[0].paraphrase == "A man saw Mary and Mary had a telescope."
    assert e.readings[1].paraphrase == "A man saw Mary by means of a telescope."
    sizes = {(s.holds, s.fails): s.size for s in e.situations}
    assert sizes == {(0, 1): 5, (1, 0): 4}  # man, Mary, telescope, seeing (+ having)
    assert all(s.constants == {"Mary": "mary"} for s in e.situations)


def test_lisp_facts_and_one_reading():
    e = explain_readings("a man", ["( exists x ( man x ) )"], fmt="lisp", **BUDGET)
    assert e.situations == [] and e.question is None and "one reading" in e.note
    e = explain_readings("u", ["( exists x ( AND ( man x ) ( slept x ) ) )", "( exists x ( man x ) )"], fmt="lisp",
                         **BUDGET)
    assert e.situations and all(f.startswith("( ") for s in e.situations for f in s.facts)


def test_equivalent_readings_have_nothing_to_tell_apart():
    e = explain_readings("u", ["exists x . man(x) AND boy(x)", "exists y . boy(y) AND man(y)"], **BUDGET)
    assert e.situations == [] and e.question is None and "equivalent" in e.note


GENERIC = [
    "exists x . blicket(x) AND forall y . foo_bar(x, y)",
    "forall x . man(x)",
    "exists x . exists y . man(x) AND man(y) AND saw(x, y)",
    "forall x . exists y . p(x) AND ( q(y) OR r(x, y) )",
    "exists e . saw(e) AND patient(e, Mary)",
    "exists x . exists x . man(x) AND ( exists x . boy(x) )",
    "forall x . forall y . ( a(x) OR b(y) ) AND c(x, y)",
]


def test_outside_the_fragment_generic_paraphrase_reads_back():
    checks = []
    for lf in GENERIC:
        f = logic.parse(lf)
        words = WordForms().covering([f])
        checks.append((f, read(verbalise(f, words), words)))
    assert all(v.verdict == "EQUIVALENT" for v in logic.equivalent_batch(checks, time_limit=HANG_GUARD_S))
    assert verbalise(logic.parse(GENERIC[0])).startswith("There is a blicket such that for every thing Y")


def test_wordforms_from_the_lexicon():
    assert WORDS.surface("picked_up") == "picked up" and WORDS.surface("binoculars") == "pair of binoculars"
    f = logic.parse("exists x . exists y . exists a . man(x) AND binoculars(y) AND picked_up(a) AND "
                    "agent(a, x) AND patient(a, y)")
    text = verbalise(f, WORDS)
    assert text == "A man picked up a pair of binoculars."
    assert logic.equivalent(read(text, WORDS), f, time_limit=HANG_GUARD_S).verdict == "EQUIVALENT"
    assert verbalise(f) == "A man picked up a binoculars."  # no lexicon: underscores as spaces


def test_logic_explain_does_not_import_generators():
    code = "import sys, ambit.logic.explain; print(any(m.startswith('ambit.generators') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_cli_json():
    lf0, lf1 = ("exists a . exists e . saw(a) AND agent(a, Ada) AND patient(a, Mary) AND waved(e) AND agent(e, Ada)",
                "exists a . exists e . saw(a) AND agent(a, Ada) AND patient(a, Mary) AND waved(e) AND agent(e, Mary)")
    out = subprocess.run([sys.executable, "-m", "ambit", "explain", "Ada saw Mary and she waved", "--lf", lf0,
                          "--lf", lf1, "--json", "--prolog-seconds", str(HANG_GUARD_S)], cwd=ROOT, capture_output=True, text=True, check=True)
    d = json.loads(out.stdout)
    assert d["quantifiers"] == "restricted"
    assert [r["paraphrase"] for r in d["readings"]] == ["Ada saw Mary and Ada waved.", "Ada saw Mary and Mary waved."]
    assert {(s["holds"], s["fails"]) for s in d["situations"]} == {(0, 1), (1, 0)}
    s = d["situations"][0]
    assert set(s) >= {"holds", "fails", "domain", "constants", "facts", "description"}
    assert s["constants"] == {"Ada": "ada", "Mary": "mary"} and "agent(e1, ada)" in s["facts"]
    assert d["question"]["text"].startswith("Do you mean (a) Ada saw Mary and Ada waved, or (b)")


def test_a_spent_budget_is_a_note_never_an_exception():
    """An inference budget too small for any search: the scene searches are given up and named
    (with the reason), the readings still explained; the same answer on any machine."""
    every = "forall x . exists y . exists a . boy(x) AND dog(y) AND saw(a) AND agent(a, x) AND patient(a, y)"
    one = "exists x . forall y . exists a . boy(y) AND dog(x) AND saw(a) AND agent(a, y) AND patient(a, x)"
    e = explain_readings("every boy saw a dog", [one, every], lexicon=WORDS, time_limit=HANG_GUARD_S,
                         inferences=1_000)
    assert e.situations == [] and len(e.readings) == 2 and e.question is not None
    assert "ran out of its Prolog budget" in e.note and "inference_limit" in e.note, e.note


def test_a_budget_error_out_of_pyswip_is_a_prolog_error_with_its_reason():
    """pyswip's own error for a budget met outside json_call's catch becomes the PrologError the
    engine turns into UNKNOWN (reason inference_limit, time_limit, memory); others stay errors."""
    from ambit.logic.runtime.cancel import budget_error

    said = "Caused by: 'call_with_inference_limit(json_call:json_call(...), 5, _)'. Returned: '{}'."
    for term, reason in (("inference_limit_exceeded", "inference_limit"), ("time_limit_exceeded", "time_limit"),
                         ("error(resource_error(stack), _)", "memory")):
        err = budget_error(RuntimeError(said.format(term)))
        assert err is not None and err.reason == reason, (term, err)
    assert budget_error(RuntimeError(said.format("error(type_error(integer, a), _)"))) is None
    assert budget_error(RuntimeError("no pyswip text at all")) is None


def test_a_degenerate_reading_keeps_the_boy_a_boy_and_is_named_in_the_note():
    """A model's `agent(x, x)` makes neither reading's boy a "boy event": both scenes read as
    English ("There is a boy. The boy waved."), and the note names the degenerate reading and its
    atom; a reading without one adds nothing to the note."""
    odd = "exists x . exists a . boy(x) AND waved(a) AND agent(x, x)"
    fine = "exists x . exists a . boy(x) AND waved(a) AND agent(a, x)"
    e = explain_readings("the boy waved", [odd, fine], lexicon=WORDS, **BUDGET)
    texts = {(s.holds, s.fails): s.description for s in e.situations}
    assert texts[(0, 1)].startswith("There is a boy. ") and "The boy has itself as its agent" in texts[(0, 1)]
    assert texts[(1, 0)] == "There is a boy. The boy waved."
    assert not any("boy event" in t or t.startswith("E1 ") for t in texts.values()), texts
    assert e.note is not None and e.note.startswith("degenerate reading (reading 0: agent(x, x)): "), e.note
    plain = explain_readings("the boy waved", [fine, "exists x . exists a . boy(x) AND waved(a) AND patient(a, x)"],
                             lexicon=WORDS, **BUDGET)
    assert "degenerate" not in (plain.note or "")


def test_a_degenerate_reading_is_described_in_english_and_named():
    """A role said of something that is no event (a model's `agent(x, x)`) is said in English and
    called degenerate, never "the boy stands in the agent relation to the boy"."""
    from ambit.logic.explain.describe import describe
    from ambit.logic.explain.situations import Scene

    one = Scene(("b1",), {"b1": "boy"}, {}, (("agent", ("b1", "b1")),))
    assert describe(one, WordForms()) == (
        "There is a boy. The boy has itself as its agent (a degenerate reading: agent relates an event to a "
        "participant, and here the boy, which is no event, to itself).")
    two = Scene(("b1", "d1"), {"b1": "boy", "d1": "dog"}, {}, (("patient", ("b1", "d1")), ("likes", ("d1", "d1"))))
    text = describe(two, WordForms())
    assert "The dog is the patient of the boy (a degenerate reading:" in text
    assert "The dog stands in the likes relation to itself." in text and "relation to the dog" not in text
