"""AmP generator: counts, lexical constraints, spec-as-data, prompts, determinism (no data files)."""

from __future__ import annotations

import collections
import io
import itertools
import json
import re
from contextlib import redirect_stdout

import pytest

from ambit import logic
from ambit.generators.amp import (
    AMBIGUOUS_TYPES, families, family_rows, fewshot_prompts, generate, lexicon, load_family,
    pairs, vocabulary, zeroshot_prompts,
)
from ambit.generators.amp import cli
from ambit.generators.amp.spec import SpecError

# Ambiguous utterances per type as AmP's own generate_pairs.py produces them.
AMP_COUNTS = {"pp": 3536, "scope": 4000, "revscope": 4000, "bound": 1680, "conj": 10080}


@pytest.fixture(scope="module")
def all_pairs() -> dict[str, list[dict]]:
    return {t: pairs(t) for t in AMBIGUOUS_TYPES}


def words(cls: str) -> set[str]:
    return {w.surface for w in lexicon().words(cls)}


def test_counts_match_amp(all_pairs):
    counts = {t: len({p["surface"] for p in ps}) for t, ps in all_pairs.items()}
    assert counts == AMP_COUNTS
    assert {t: len(ps) for t, ps in all_pairs.items()} == AMP_COUNTS  # one pair per utterance


def test_rows_have_amp_schema():
    rows = list(generate("bound", ambiguous_only=True))
    assert len(rows) == 2 * AMP_COUNTS["bound"]
    r = rows[0]
    assert list(r) == ["surface", "lf", "unfilled_template", "template_tags", "var_bindings", "template_idx", "type"]
    assert r["surface"] == "Marie saw Ada and she waved"
    assert r["template_tags"] == ["np1", "vp1", "np2", None, "vp2"]
    assert r["var_bindings"] == {"np1": "Marie", "vp1": "saw", "np2": "Ada", "vp2": "waved"}
    assert r["lf"] == r["unfilled_template"].format(**r["var_bindings"])
    assert [x["template_idx"] for x in rows[:4]] == [0, 1, 0, 1]
    assert {x["type"] for x in generate("revscope", ambiguous_only=True)} == {"scope_reverse"}


def test_readings_differ_and_parse(all_pairs):
    for t, ps in all_pairs.items():
        for p in ps[:: max(1, len(ps) // 200)]:
            assert logic.canonical_form(p["lf0"]) != logic.canonical_form(p["lf1"]), p


def test_no_lexeme_twice(all_pairs):
    for ps in all_pairs.values():
        for p in ps:
            vals = list(p["row0"]["var_bindings"].values())
            assert len(set(vals)) == len(vals), p["surface"]


def test_pp_sense_constraints(all_pairs):
    visual, tactile = words("visual_verb"), words("tactile_verb")
    for p in all_pairs["pp"]:
        b = p["row0"]["var_bindings"]
        verb = "picked up" if b["vp1"] == "picked_up" else b["vp1"]
        assert (verb in visual and b["np3"] in words("visual_instrument")) or (
            verb in tactile and b["np3"] in words("tactile_instrument")), p["surface"]


def test_bound_gender_constraints(all_pairs):
    male = words("male_name") | words("male_human")
    female = words("female_name") | words("female_human")
    for p in all_pairs["bound"]:
        b = p["row0"]["var_bindings"]
        gender = male if " he " in p["surface"] else female
        assert {b["np1"], b["np2"]} <= gender, p["surface"]
    for r in family_rows(families()["bound_unambig"]):
        b = r["var_bindings"]
        assert ({b["np1"], b["np2"]} <= male) is False and ({b["np1"], b["np2"]} <= female) is False


def test_conj_uses_intransitive_verbs(all_pairs):
    intrans = words("intransitive_verb")
    for p in all_pairs["conj"]:
        b = p["row0"]["var_bindings"]
        assert {b["vp1"], b["vp2"], b["vp3"]} <= intrans


def test_articles_and_plurals():
    surfaces = {r["surface"] for t in ("pp", "scope", "revscope", "transitive", "quantifier")
                for r in generate(t, ambiguous_only=t in AMBIGUOUS_TYPES)}
    assert "an elephant saw every boy" in surfaces          # a -> an
    assert "a cat saw each pair of binoculars" in surfaces  # singular after a determiner
    assert "every bird held a pair of gloves" in surfaces
    assert "the woman spotted the boy with the binoculars" in surfaces  # AmP keeps "with the <plural>"
    assert not any(re.search(r"\ba [aeiou]", s) for s in surfaces)
    assert not any(re.search(r"\b(a|every|each) (binoculars|gloves|mittens|ovenmitts|pants|pyjamas)\b", s)
                   for s in surfaces)
    row = next(r for r in generate("scope", ambiguous_only=True) if "pair of binoculars" in r["surface"])
    assert row["var_bindings"]["np2"] == "binoculars" and "binoculars(" in row["lf"]


def test_conj_readings_follow_released_data(all_pairs):
    p = next(p for p in all_pairs["conj"] if p["surface"] == "the woman drank and ate or slept")
    assert logic.canonical_form(p["lf0"]) == logic.canonical_form(
        "exists x . exists a . exists e . exists i . woman(x) AND drank(a) AND agent(a, x) AND "
        "( ( ate(e) AND agent(e, x) ) OR ( slept(i) AND agent(i, x) ) )")


def test_lisp_is_canonical_conversion():
    fol = itertools.islice(generate("scope", ambiguous_only=True), 6)
    lisp = list(itertools.islice(generate("scope", fmt="lisp", ambiguous_only=True), 6))
    assert len(lisp) == 6
    for f, l in zip(fol, lisp):
        assert l["lf"] == logic.canonical_form(f["lf"], "fol", to="lisp")
        assert l["lf"].startswith("( ")


def test_a_new_ambiguity_type_is_a_spec_file(tmp_path):
    spec = tmp_path / "attach.yaml"
    spec.write_text(
        "name: attach\ntype: attach\nambiguous: true\n"
        "templates:\n"
        "  - surface: \"{np1} $v the {np2}\"\n"
        "    slots: {np1: name, np2: $cls}\n"
        "    params: [{v: saw, cls: animal}]\n"
        "    lf:\n"
        "      - \"exists x . exists a . {np2}(x) AND saw(a) AND agent(a, {np1}) AND patient(a, x)\"\n"
        "      - \"exists x . exists a . {np2}(x) AND saw(a) AND agent(a, x) AND patient(a, {np1})\"\n")
    fam = load_family(spec)
    rows = list(family_rows(fam))
    assert len(rows) == 2 * 10 * 6
    assert rows[0]["surface"] == "Galileo saw the bird" and rows[0]["template_tags"] == ["np1", None, "np2"]
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: b\ntype: b\nambiguous: true\ntemplates:\n  - surface: \"{np1}\"\n"
                   "    slots: {np1: nosuchclass}\n    lf: [\"a\", \"b\"]\n")
    with pytest.raises(SpecError):
        load_family(bad)


def test_vocabulary_feeds_closed_grammar():
    v = vocabulary()
    assert "picked_up" in v["unary"] and "have" in v["unary"] and "agent" in v["binary"]
    assert "Mary" in v["constants"]
    text = logic.closed_grammar("fol", v["unary"], v["binary"], v["constants"])
    assert "picked_up(" in text


def _prompt_pairs(prompt: str) -> list[tuple[str, str]]:
    body = prompt.split("\n\n", 1)[1]
    blocks = body.split("\n\n")
    out = []
    for b in blocks[:-1]:
        human, computer = b.split("\n")
        assert human.startswith("Human: ") and computer.startswith("Computer: ")
        out.append((human[7:], computer[10:]))
    assert blocks[-1].startswith("Human: ") and blocks[-1].endswith("\nComputer:")
    return out


def test_zeroshot_sampled_prompts_use_only_ingredient_families(all_pairs):
    recs = zeroshot_prompts("all", seed=3, limit=3, ingredients="sampled")
    assert len(recs) == 15
    for rec in recs:
        assert rec["prompt"].startswith("Let's translate what a human user says into what a computer might say.\n\nHuman: ")
        assert rec["prompt"].endswith(f"Human: {rec['surface']}\nComputer:")
        demos = _prompt_pairs(rec["prompt"])
        fam = families()[rec["type"]]
        assert len(demos) == sum(fam.zeroshot.values())
        own = {p["surface"] for p in all_pairs[rec["type"]]}
        assert not any(s in own for s, _ in demos)  # no example of the tested type
        assert {"id", "type", "prompt", "lf0", "lf1", "surface"} <= set(rec)


@pytest.mark.parametrize("ratio", [0.0, 0.3, 0.5, 0.7, 1.0])
def test_fewshot_ratio(ratio, all_pairs):
    recs = fewshot_prompts("scope", ratios=[ratio], seed=5, limit=4)
    by_surface = {p["surface"]: p for p in all_pairs["scope"]}
    for rec in recs:
        demos = _prompt_pairs(rec["prompt"])
        assert len(demos) == 10 and rec["ratio"] == ratio
        assert rec["surface"] not in {s for s, _ in demos}
        n0 = sum(lf == logic.canonical_form(by_surface[s]["lf0"]) for s, lf in demos)
        n1 = sum(lf == logic.canonical_form(by_surface[s]["lf1"]) for s, lf in demos)
        assert (n0, n1) == (round(10 * ratio), 10 - round(10 * ratio))


def test_fewshot_default_ratios_and_shared_demos():
    recs = fewshot_prompts("bound", seed=0, limit=1)
    assert [r["ratio"] for r in recs] == [i / 10 for i in range(11)]
    demo_sets = {frozenset(s for s, _ in _prompt_pairs(r["prompt"])) for r in recs}
    assert len(demo_sets) == 1  # the same utterances at every ratio
    assert len({r["id"] for r in recs}) == 11


def _run_cli(*argv: str) -> bytes:
    buf = io.StringIO()
    with redirect_stdout(buf):
        assert cli.main(list(argv)) == 0
    return buf.getvalue().encode()


def test_same_seed_same_bytes():
    a = _run_cli("amp-prompts", "--setting", "fewshot", "--type", "all", "--seed", "7", "--limit", "2", "--ratios", "0,0.5,1")
    b = _run_cli("amp-prompts", "--setting", "fewshot", "--type", "all", "--seed", "7", "--limit", "2", "--ratios", "0,0.5,1")
    c = _run_cli("amp-prompts", "--setting", "fewshot", "--type", "all", "--seed", "8", "--limit", "2", "--ratios", "0,0.5,1")
    assert a == b and a != c
    z1 = _run_cli("amp-prompts", "--setting", "zeroshot", "--seed", "1", "--limit", "3", "--format", "lisp")
    assert z1 == _run_cli("amp-prompts", "--setting", "zeroshot", "--seed", "1", "--limit", "3", "--format", "lisp")
    assert len(z1.splitlines()) == 15
    assert _run_cli("amp", "--type", "bound", "--ambiguous-only") == _run_cli("amp", "--type", "bound", "--ambiguous-only")


def test_cli_amp_rows():
    out = _run_cli("amp", "--type", "pp", "--ambiguous-only")
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 2 * AMP_COUNTS["pp"] and {r["type"] for r in rows} == {"pp"}
    types = collections.Counter(json.loads(l)["type"] for l in _run_cli("amp", "--type", "pp").splitlines())
    assert types["pp"] == 2 * AMP_COUNTS["pp"] and types["possession"] > 0 and types["instr_unambig"] > 0
