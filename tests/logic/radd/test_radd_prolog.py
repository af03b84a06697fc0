"""RADD reasoning in Prolog (logic/engine/prolog/radd.pl through logic.radd): the benchmark and edge cases."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from ambit.generators.radd import MonthDate, Option, PropertyFact, RaddInstance, RelationSpan, load_jsonl, render_prompt
from ambit.logic.radd.phrasings import default_phrasings
from tests.paths import SRC, need_shared

pytest.importorskip("pyswip")
if shutil.which("swipl") is None:
    pytest.skip("SWI-Prolog is not installed", allow_module_level=True)

from ambit.logic.radd import verify, verify_batch, verify_text  # noqa: E402

PL = SRC / "logic" / "engine" / "prolog" / "radd.pl"


def _instances() -> list[RaddInstance]:
    seen, out = set(), []
    for f in sorted(need_shared("radd/benchmark").glob("*/*_results_direct.jsonl")):
        for inst in load_jsonl(f):
            text = render_prompt(inst)
            if text not in seen:
                seen.add(text)
                out.append(inst)
    return out


@pytest.fixture(scope="module")
def benchmark():
    insts = _instances()
    return insts, verify_batch(insts)


def test_all_500_instances(benchmark):
    insts, verdicts = benchmark
    assert len(insts) == 500
    decided = [(i, v) for i, v in zip(insts, verdicts) if v.status == "one"]
    # every instance the premises decide is answered with its label
    assert all(v.answer_option == i.label_nr and v.answer_label == i.label_name for i, v in decided)
    # the rest (4 of 500) are the instances where one relation has both values: both readings are
    # consistent, so the premises cannot decide; they are reported, never guessed
    rest = [(i, v) for i, v in zip(insts, verdicts) if v.status != "one"]
    assert len(decided) == 496 and len(rest) == 4
    for i, v in rest:
        assert v.status == "both" and v.answer_option is None
        assert i.option("de_dicto").relation == i.option("de_re").relation
        assert any("coincide" in n for n in v.notes)


def test_every_derivation_cites_the_premises_it_used(benchmark):
    insts, verdicts = benchmark
    for inst, v in zip(insts, verdicts):
        n_premises = inst.regularity_premise
        for reading, iv in v.interpretations.items():
            assert iv.premises, (inst.source, reading)
            text = " ".join(iv.derivation)
            for p in iv.premises:
                assert re.search(rf"\b{p}\b", text)
                assert 1 <= int(p[1:]) <= n_premises
            assert f"P{inst.regularity_premise}" in iv.premises  # the regularity is always used
            assert iv.placed  # the benchmark never names a relation its dates contradict


def test_overlapping_dates_are_resolved_by_the_named_relation(benchmark):
    insts, verdicts = benchmark
    overlaps = [v for v in verdicts if any(len(iv.holders) > 1 for iv in v.interpretations.values())]
    assert overlaps  # about 6% of instances
    assert all(any("do not pick one relation" in n for n in v.notes) for v in overlaps)


def test_verify_text_on_the_raw_prompt():
    insts = _instances()
    v = verify_text(render_prompt(insts[0]))
    assert v.answer_option == insts[0].label_nr
    assert v.to_dict()["interpretations"]["de_dicto"]["verdict"] in ("consistent", "inconsistent")


# -- edge cases ---------------------------------------------------------------------------

REG = default_phrasings()["P286_P17"].regularity


def make(spans, props, now, when, value, dd, dr) -> RaddInstance:
    """A P286_P17 instance: spans [(relation, (y, m), (y, m))], props {relation: [values]}."""
    rs = tuple(RelationSpan(i, r, MonthDate(*s), MonthDate(*e)) for i, (r, s, e) in enumerate(spans, 1))
    ps, n = [], len(rs)
    for rel, vals in props.items():
        for v in vals:
            n += 1
            ps.append(PropertyFact(n, rel, v, (v,)))
    return RaddInstance(
        pair="P286_P17", entity="Coach", spans=rs, properties=tuple(ps), regularity=REG, regularity_premise=n + 1,
        current_date=MonthDate(*now), sentence_date=MonthDate(*when), value_text=value, values=(value,),
        options=(Option(1, "de_dicto", dd), Option(2, "de_re", dr)),
    )


SPANS = [("A", (1990, 1), (1992, 1)), ("B", (1992, 1), (1994, 6)), ("C", (1996, 1), (1999, 1))]
PROPS = {"A": ["Italy"], "B": ["Greece"], "C": ["Spain"]}


def test_plain_de_dicto_and_de_re():
    v = verify(make(SPANS, PROPS, (1997, 5), (1991, 3), "Italy", "A", "C"))
    assert (v.status, v.answer_option, v.answer_label) == ("one", 1, "de_dicto")
    assert v.interpretations["de_re"].verdict == "inconsistent"
    assert set(v.interpretations["de_dicto"].premises) == {"P1", "P4", "P7"}
    v = verify(make(SPANS, PROPS, (1997, 5), (1991, 3), "Spain", "A", "C"))
    assert (v.answer_option, v.answer_label) == (2, "de_re")


def test_touching_spans_share_the_boundary_month():
    # January 1992 is in both A (to Jan 1992) and B (from Jan 1992): the option's name decides
    v = verify(make(SPANS, PROPS, (1997, 5), (1992, 1), "Greece", "B", "C"))
    iv = v.interpretations["de_dicto"]
    assert iv.holders == ("A", "B") and iv.placed and iv.verdict == "consistent"
    assert v.answer_label == "de_dicto" and any("do not pick one relation" in n for n in v.notes)


def test_overlapping_spans():
    spans = SPANS + [("D", (1997, 1), (1998, 1))]
    v = verify(make(spans, {**PROPS, "D": ["Peru"]}, (1997, 5), (1991, 3), "Spain", "A", "C"))
    assert v.interpretations["de_re"].holders == ("C", "D")
    assert v.answer_label == "de_re"


def test_sentence_date_in_a_gap():
    # June 1995 falls between B (to June 1994) and C (from 1996): nothing held then
    v = verify(make(SPANS, PROPS, (1997, 5), (1995, 6), "Greece", "B", "C"))
    iv = v.interpretations["de_dicto"]
    assert iv.verdict == "undetermined" and iv.referent is None and not iv.placed and iv.holders == ()
    assert any("no premise puts B at June 1995" in n for n in v.notes)
    assert v.answer_option is None and v.status == "undetermined"


def test_current_date_after_every_span_ends():
    v = verify(make(SPANS, PROPS, (2005, 1), (1991, 3), "Italy", "A", "C"))
    iv = v.interpretations["de_re"]
    assert iv.verdict == "undetermined" and iv.holders == () and not iv.placed
    assert v.interpretations["de_dicto"].verdict == "consistent"
    assert v.answer_option is None  # the de re reading cannot be ruled out


def test_named_relation_contradicted_but_dates_decide():
    # the option says C held in March 1991, the premises put A there: a finding; the dates decide
    v = verify(make(SPANS, PROPS, (1997, 5), (1991, 3), "Italy", "C", "C"))
    iv = v.interpretations["de_dicto"]
    assert not iv.placed and iv.referent == "A" and iv.verdict == "consistent"
    assert any("contradicts the dates" in n for n in v.notes)


def test_multiple_property_values():
    props = {**PROPS, "A": ["Italy", "San Marino"]}
    for value in ("Italy", "San Marino"):
        v = verify(make(SPANS, props, (1997, 5), (1991, 3), value, "A", "C"))
        assert v.answer_label == "de_dicto"
    v = verify(make(SPANS, props, (1997, 5), (1991, 3), "Spain", "A", "C"))
    assert v.answer_label == "de_re"
    assert "Italy; San Marino" in " ".join(v.interpretations["de_dicto"].derivation)


def test_both_consistent_when_values_are_identical():
    props = {**PROPS, "C": ["Italy"]}
    v = verify(make(SPANS, props, (1997, 5), (1991, 3), "Italy", "A", "C"))
    assert v.status == "both" and v.answer_option is None and v.answer_label is None
    assert any("both interpretations are consistent" in n for n in v.notes)


def test_neither_consistent():
    v = verify(make(SPANS, PROPS, (1997, 5), (1991, 3), "Peru", "A", "C"))
    assert v.status == "neither" and v.answer_option is None


def test_list_values_compare_as_sets():
    ph = default_phrasings()["P159_P206"]
    base = make(SPANS, PROPS, (1997, 5), (1991, 3), "x", "A", "C")
    props = (PropertyFact(4, "A", "Sea, River", ("Sea", "River")), PropertyFact(5, "B", "Lake", ("Lake",)),
             PropertyFact(6, "C", "River", ("River",)))
    inst = base.__class__(**{**base.__dict__, "pair": "P159_P206", "regularity": ph.regularity, "properties": props,
                             "value_text": "River, Sea", "values": ("River", "Sea")})
    assert verify(inst).answer_label == "de_dicto"
    inst = inst.__class__(**{**inst.__dict__, "value_text": "River", "values": ("River",)})
    assert verify(inst).answer_label == "de_re"  # A's {Sea, River} is not {River}


def test_program_loads_in_plain_swipl():
    out = subprocess.run(["swipl", "-q", "-g", "radd_demo", "-t", "halt", str(PL)], capture_output=True, text=True,
                         timeout=180)
    assert out.returncode == 0, out.stderr
    assert "answer: option 1 (de_dicto)" in out.stdout and "de re: inconsistent" in out.stdout
