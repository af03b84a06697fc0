"""AmP zero-shot prompts made from the test sentence's own words (issue #17, the AmP paper's
appendix A.2): ingredient counts, words, and Prolog non-equivalence to both readings."""

from __future__ import annotations

import collections
import io
import json
import random
import time
from contextlib import redirect_stdout

import pytest

from ambit import logic
from ambit.generators.amp import AMBIGUOUS_TYPES, SpecError, families, family_rows, lexicon, load_family, pairs, zeroshot_prompts
from ambit.generators.amp import cli
from ambit.generators.amp.ingredients import check_ingredients, item_ingredients

# Ingredients per prompt, by type (issue #17's table, after the paper's appendix A.2).
INGREDIENT_COUNTS = {"pp": 3, "scope": 2, "revscope": 2, "bound": 4, "conj": 2}
ARTICLES = {"a", "an"}  # "an elephant" in an ingredient for "every elephant ..."


def demos_of(prompt: str) -> list[tuple[str, str]]:
    """(utterance, LF) pairs of a prompt, checking the layout on the way."""
    instruction, body = prompt.split("\n\n", 1)
    assert instruction == "Let's translate what a human user says into what a computer might say."
    blocks = body.split("\n\n")
    assert blocks[-1].startswith("Human: ") and blocks[-1].endswith("\nComputer:")
    out = []
    for b in blocks[:-1]:
        human, computer = b.split("\n")
        assert human.startswith("Human: ") and computer.startswith("Computer: ")
        out.append((human[len("Human: "):], computer[len("Computer: "):]))
    return out


@pytest.fixture(scope="module")
def own_fol() -> list[dict]:
    """Zero-shot prompts (default construction, FOL) for every ambiguous item of every type."""
    return zeroshot_prompts("all", seed=0)


def extra_words(rec: dict) -> set[str]:
    test = set(rec["surface"].split())
    return {w for s, _ in demos_of(rec["prompt"]) for w in s.split()} - test - ARTICLES


def test_every_item_gets_its_own_ingredients(own_fol):
    by_type = collections.Counter(r["type"] for r in own_fol)
    assert by_type == {t: len(pairs(t)) for t in AMBIGUOUS_TYPES}  # every ambiguous item
    intransitive = {w.surface for w in lexicon().words("any_intransitive")}
    for rec in own_fol:
        demos = demos_of(rec["prompt"])
        assert len(demos) == INGREDIENT_COUNTS[rec["type"]], rec["id"]
        assert rec["prompt"].endswith(f"\n\nHuman: {rec['surface']}\nComputer:")
        assert rec["surface"] not in {s for s, _ in demos}
        extra = extra_words(rec)
        if rec["type"] == "bound":  # one other intransitive verb, in one ingredient
            assert len(extra) == 1 and extra <= intransitive, (rec["id"], extra)
            assert sum(bool(set(s.split()) & extra) for s, _ in demos) == 1
        else:
            assert not extra, (rec["id"], extra)


def test_bound_extra_verb_follows_the_seed(own_fol):
    bound0 = {r["id"]: extra_words(r) for r in own_fol if r["type"] == "bound"}
    assert len({w for ws in bound0.values() for w in ws}) > 1  # not one fixed verb
    bound1 = {r["id"]: extra_words(r) for r in zeroshot_prompts("bound", seed=1, limit=200)}
    assert bound1.keys() <= bound0.keys() and any(bound0[i] != ws for i, ws in bound1.items())
    assert bound1 == {r["id"]: extra_words(r) for r in zeroshot_prompts("bound", seed=1, limit=200)}


def _reading_pairs(recs: list[dict]) -> list[tuple[str, str]]:
    return [(lf, rec[k]) for rec in recs for _, lf in demos_of(rec["prompt"]) for k in ("lf0", "lf1")]


def _assert_none_equivalent(recs: list[dict], fmt: str) -> None:
    todo = _reading_pairs(recs)
    verdicts = logic.equivalent_batch(todo, fmt)
    bad = [(p, v.verdict) for p, v in zip(todo, verdicts) if v.verdict != "NOT_EQUIVALENT"]
    assert not bad, bad[:5]


def test_sampled_items_no_ingredient_is_equivalent_to_a_reading():
    """Prolog on 40 items per type, FOL and Lisp (the full run is the slow test below)."""
    fol = zeroshot_prompts("all", seed=4, limit=40)
    lisp = zeroshot_prompts("all", seed=4, limit=40, fmt="lisp")
    _assert_none_equivalent(fol, "fol")
    _assert_none_equivalent(lisp, "lisp")
    for f, l in zip(fol, lisp):  # the same prompt, its LFs AmP's canonical Lisp
        assert f["id"] == l["id"]
        as_lisp = [(s, logic.canonical_form(lf, "fol", to="lisp")) for s, lf in demos_of(f["prompt"])]
        assert as_lisp == demos_of(l["prompt"])


@pytest.mark.slow
def test_every_item_no_ingredient_is_equivalent_to_a_reading(own_fol):
    start = time.perf_counter()
    _assert_none_equivalent(own_fol, "fol")
    print(f"{len(_reading_pairs(own_fol))} ingredient/reading pairs in {time.perf_counter() - start:.1f} s")


def _item(type: str, surface: str) -> dict:
    return next(p for p in pairs(type) if p["surface"] == surface)


def _ingredients(type: str, surface: str, seed: int = 0) -> list[tuple[str, str]]:
    item = _item(type, surface)
    return item_ingredients(item["template"], item["row0"]["var_bindings"], random.Random(seed))


def _canon(pairs_: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(s, logic.canonical_form(lf)) for s, lf in pairs_]


def test_the_papers_appendix_prompts():
    """The appendix's own examples: the same sentences, in order, with LFs equal in canonical form."""
    assert _canon(_ingredients("pp", "Galileo saw Mary with the camera")) == _canon([
        ("Galileo saw Mary", "exists a . saw(a) AND agent(a, Galileo) AND patient(a, Mary)"),
        ("Mary with the camera", "exists x . exists a . camera(x) AND have(a) AND agent(a, Mary) AND patient(a, x)"),
        ("Galileo saw with the camera",
         "exists x . exists a . camera(x) AND saw(a) AND agent(a, Galileo) AND instrument(a, x)"),
    ])
    assert _canon(_ingredients("conj", "the bird left or walked and ate")) == _canon([
        ("the bird left and walked and ate",
         "exists x . exists a . exists e . exists i . bird(x) AND ( left(a) AND agent(a, x) AND walked(e) "
         "AND agent(e, x) ) AND ate(i) AND agent(i, x)"),
        ("the bird left or walked or ate",
         "exists x . exists a . exists e . exists i . bird(x) AND ( left(a) AND agent(a, x) ) OR "
         "( ( walked(e) AND agent(e, x) ) OR ( ate(i) AND agent(i, x) ) )"),
    ])
    bound = _ingredients("bound", "the woman saw Marie and she smiled")
    v3 = bound[2][0].split()[2]  # "the woman <v3> and smiled": the seed's other verb
    assert v3 in {w.surface for w in lexicon().words("bound_verb")} - {"smiled"}
    assert _canon(bound) == _canon([
        ("the woman saw Marie", "exists x . exists a . woman(x) AND saw(a) AND agent(a, x) AND patient(a, Marie)"),
        ("Marie smiled", "exists a . smiled(a) AND agent(a, Marie)"),
        (f"the woman {v3} and smiled",
         f"exists x . exists a . exists e . woman(x) AND {v3}(a) AND agent(a, x) AND smiled(e) AND agent(e, x)"),
        ("the woman smiled", "exists x . exists a . woman(x) AND smiled(a) AND agent(a, x)"),
    ])
    assert _canon(_ingredients("scope", "each bird held a sweater")) == _canon([
        ("a bird held a sweater",
         "exists x . exists y . exists a . bird(x) AND sweater(y) AND held(a) AND agent(a, x) AND patient(a, y)"),
        ("each bird", "forall x . bird(x)"),
    ])
    assert [s for s, _ in _ingredients("revscope", "a dog spotted each hat")] == ["a dog spotted a hat", "each hat"]


def _spec(tmp_path, ingredient: str) -> tuple:
    spec = tmp_path / "attach.yaml"
    spec.write_text(
        "name: attach\ntype: attach\nambiguous: true\n"
        "templates:\n"
        "  - surface: \"{np1} saw the {np2}\"\n"
        "    slots: {np1: name, np2: animal}\n"
        "    lf:\n"
        "      - \"exists x . exists a . {np2}(x) AND saw(a) AND agent(a, {np1}) AND patient(a, x)\"\n"
        "      - \"exists x . exists a . {np2}(x) AND saw(a) AND agent(a, x) AND patient(a, {np1})\"\n"
        "    ingredients:\n" + ingredient)
    fam = load_family(spec)
    r0, r1 = list(family_rows(fam))[:2]
    return fam.templates[0], r0, r1


def test_a_new_type_declares_its_ingredients_as_data(tmp_path):
    t, r0, r1 = _spec(tmp_path,
                      "      - surface: \"the {np2} {vp}\"\n"
                      "        slots: {vp: bound_verb}\n"
                      "        lf: \"exists x . exists a . {np2}(x) AND {vp}(a) AND agent(a, x)\"\n")
    demos = item_ingredients(t, r0["var_bindings"], random.Random(0))
    assert len(demos) == 1 and demos[0][0].startswith("the bird ")
    check_ingredients(demos, (r0["lf"], r1["lf"]), frozenset({r0["surface"]}))
    # an ingredient that shows a reading of the test sentence is refused
    t, r0, r1 = _spec(tmp_path,
                      "      - surface: \"{np1} saw the {np2}\"\n"
                      "        lf: \"exists y . exists e . {np2}(y) AND saw(e) AND patient(e, y) AND agent(e, {np1})\"\n")
    with pytest.raises(SpecError, match="reading of the test sentence"):
        check_ingredients(item_ingredients(t, r0["var_bindings"], random.Random(0)),
                          (r0["lf"], r1["lf"]), frozenset())
    with pytest.raises(SpecError, match="example of the ambiguous construction"):
        check_ingredients([(r0["surface"], "exists x . bird(x)")], (r0["lf"], r1["lf"]), frozenset({r0["surface"]}))
    with pytest.raises(SpecError, match="do not match"):
        _spec(tmp_path, "      - surface: \"{np1} {vp}\"\n        lf: \"exists a . {vp}(a)\"\n")


def test_sampled_construction_stays_available():
    own = zeroshot_prompts("pp", seed=2, limit=5)
    sampled = zeroshot_prompts("pp", seed=2, limit=5, ingredients="sampled")
    assert [r["id"] for r in own] == [r["id"] for r in sampled]
    assert all(len(demos_of(r["prompt"])) == sum(families()["pp"].zeroshot.values()) for r in sampled)
    assert all(extra_words(r) for r in sampled)  # other words than the test sentence's
    with pytest.raises(ValueError):
        zeroshot_prompts("pp", limit=1, ingredients="other")


def _cli(*argv: str) -> list[dict]:
    buf = io.StringIO()
    with redirect_stdout(buf):
        assert cli.main(["amp-prompts", "--setting", "zeroshot", "--type", "conj", "--limit", "3", *argv]) == 0
    return [json.loads(line) for line in buf.getvalue().splitlines()]


def test_cli_ingredients_option():
    assert _cli() == _cli("--ingredients", "own") == zeroshot_prompts("conj", limit=3)
    assert _cli("--ingredients", "sampled", "--format", "lisp") == zeroshot_prompts(
        "conj", limit=3, fmt="lisp", ingredients="sampled")


@pytest.mark.parametrize("ingredients", ["own", "sampled"])
def test_prompt_for_an_item_sentence_is_the_generated_prompt(ingredients):
    from ambit.generators.amp import prompt_for_utterance
    for rec in zeroshot_prompts(type="pp", seed=2, limit=3, ingredients=ingredients):
        assert prompt_for_utterance(rec["surface"], setting="zeroshot", type="pp", seed=2,
                                    ingredients=ingredients) == rec["prompt"]


def test_prompt_for_any_other_sentence_falls_back_to_sampled_ingredients():
    from ambit.generators.amp import prompt_for_utterance
    first = zeroshot_prompts(type="scope", seed=0, limit=1, ingredients="sampled")[0]
    other = prompt_for_utterance("every blicket saw a dax", setting="zeroshot", type="scope", seed=0)
    head = first["prompt"][: first["prompt"].rindex("Human:")]
    assert other == head + "Human: every blicket saw a dax\nComputer:"
