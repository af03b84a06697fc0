"""RADD generator: mirror instances from facts, deterministic, parse back with the loader."""

from __future__ import annotations

import json

import pytest

from ambit.generators.__main__ import main as generators_main
from ambit.generators.radd import load_jsonl, parse_row, render_messages
from ambit.generators.radd.generate import FactRow, FactSet, generate, load_facts, parse_date, to_row
from ambit.generators.radd.prompts import PROMPT_STYLES
from tests.paths import SRC

DEMO = SRC / "generators" / "radd" / "data" / "demo_facts.json"


def _rows(seed=42, style="direct"):
    return [to_row(i) for n, fs in enumerate(load_facts(DEMO)) for i in generate(fs, seed=seed + n, style=style)]


def test_demo_covers_all_five_pairs_and_parses_back():
    rows = _rows()
    assert {parse_row(r).pair for r in rows} == {"P6_P19", "P159_P206", "P286_P17", "P7779_Q21506450", "P8047_P30"}
    for r in rows:
        inst = parse_row(r)
        assert render_messages(inst) == r["messages"]
        assert inst.label_name == r["label_name"] and inst.label_nr == r["label_nr"]


def test_mirror_instances_share_premises_and_dates():
    rows = _rows()
    assert len(rows) % 2 == 0
    for dd, dr in zip(rows[::2], rows[1::2]):
        a, b = parse_row(dd), parse_row(dr)
        assert (a.label_name, b.label_name) == ("de_dicto", "de_re")
        assert a.spans == b.spans and a.entity == b.entity
        assert a.option("de_dicto").relation == b.option("de_dicto").relation
        assert a.value_text != b.value_text


def test_dates_lie_in_the_named_spans_and_premises_list_distractors():
    for r in _rows():
        inst = parse_row(r)
        dd, de = inst.option("de_dicto").relation, inst.option("de_re").relation
        assert any(s.relation == dd and s.start <= inst.sentence_date <= s.end for s in inst.spans)
        assert any(s.relation == de and s.start <= inst.current_date <= s.end for s in inst.spans)
        assert inst.regularity_premise == len(inst.spans) + len(inst.properties) + 1
    northaven = [parse_row(r) for r in _rows() if r["entity"] == "Northaven"]
    assert all(len(i.spans) == 5 for i in northaven)


def test_option_order_is_shuffled():
    firsts = {parse_row(r).options[0].reading for r in _rows()}
    assert firsts == {"de_dicto", "de_re"}


def test_same_seed_same_bytes_other_seed_differs(tmp_path):
    a, b, c = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    assert generators_main(["radd", "--facts", str(DEMO), "--seed", "7", "--out", str(a)]) == 0
    assert generators_main(["radd", "--facts", str(DEMO), "--seed", "7", "--out", str(b)]) == 0
    assert generators_main(["radd", "--facts", str(DEMO), "--seed", "8", "--out", str(c)]) == 0
    assert a.read_bytes() == b.read_bytes() != c.read_bytes()
    assert len(load_jsonl(a)) == len(_rows())


def test_chain_of_thought_style_has_two_turns(tmp_path):
    rows = _rows(style="step_by_step5")
    assert all(r["messages"][1:] == PROMPT_STYLES["step_by_step5"][1:] for r in rows)
    assert parse_row(rows[0]).prompt_style == "step_by_step5"


def test_pairs_with_a_shared_value_are_skipped():
    rows = (
        FactRow("E", "A", parse_date("1990-01"), parse_date("1992-01"), "Italy"),
        FactRow("E", "B", parse_date("1993-01"), parse_date("1995-01"), "Italy"),
        FactRow("E", "C", parse_date("1996-01"), parse_date("1998-01"), "Greece"),
        FactRow("E", "C", parse_date("1996-01"), parse_date("1998-01"), "Italy"),  # C has both values
        FactRow("E", "D", parse_date("1999-01"), parse_date("1999-06"), "Spain"),
        FactRow("E", "X", parse_date("1991-01"), parse_date("1990-01"), "France"),  # end before start: dropped
    )
    insts = generate(FactSet("P286_P17", rows), seed=1)
    pairs = {(i.option("de_dicto").relation, i.option("de_re").relation) for i in insts}
    assert pairs == {("A", "D"), ("B", "D"), ("C", "D")}
    assert all("France" not in i.value_text for i in insts)


def test_overlapping_relations_are_not_paired():
    rows = (
        FactRow("E", "A", parse_date("1990-01"), parse_date("1995-01"), "Italy"),
        FactRow("E", "B", parse_date("1994-01"), parse_date("1996-01"), "Greece"),
    )
    assert generate(FactSet("P286_P17", rows)) == []


def test_wikidata_sparql_json_input(tmp_path):
    def b(entity, relation, value, start, end):
        return {"entityLabel": {"type": "literal", "value": entity},
                "relationLabel": {"type": "literal", "value": relation},
                "propertyLabel": {"type": "literal", "value": value},
                "startTimeLabel": {"type": "literal", "value": start},
                "endTimeLabel": {"type": "literal", "value": end}}
    data = {"head": {"vars": ["entity", "entityLabel", "relation", "relationLabel", "property", "propertyLabel",
                              "startTimeLabel", "endTimeLabel"]},
            "results": {"bindings": [
                b("MS Tern", "Norway", "Europe", "1952-01-01T00:00:00Z", "1980-01-01T00:00:00Z"),
                b("MS Tern", "Barbados", "North America", "1982-01-01T00:00:00Z", "1990-01-01T00:00:00Z"),
                {"entityLabel": {"value": "MS Tern"}},  # incomplete row: dropped
            ]}}
    f = tmp_path / "q.json"
    f.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError, match="--pair"):
        load_facts(f)
    out = tmp_path / "out.jsonl"
    assert generators_main(["radd", "--facts", str(f), "--pair", "P8047_P30", "--out", str(out)]) == 0
    insts = load_jsonl(out)
    assert [i.label_name for i in insts] == ["de_dicto", "de_re"]
    assert insts[0].value_text == "Europe" and insts[1].value_text == "North America"


def test_parse_date_formats():
    assert parse_date("1961-01") == parse_date("1961-01-01") == parse_date("+1961-01-01T00:00:00Z")
    assert parse_date("July 1962").month == 7


def test_radd_parse_cli(tmp_path, capsys):
    gen = tmp_path / "g.jsonl"
    assert generators_main(["radd", "--facts", str(DEMO), "--out", str(gen), "--limit", "3"]) == 0
    assert generators_main(["radd-parse", str(gen)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3 and json.loads(lines[0])["pair"] == "P6_P19"
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"messages": ["nonsense"]}\n', encoding="utf-8")
    assert generators_main(["radd-parse", str(bad)]) == 1
    assert "bad.jsonl:1" in capsys.readouterr().err
