"""RADD loader: every benchmark row parses, and re-rendering reproduces messages[0] exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ambit.generators.radd import MonthDate, RaddParseError, load_jsonl, parse_prompt, render_messages, render_prompt
from ambit.logic.radd.phrasings import default_phrasings, match, prefix_candidates
from tests.paths import need_shared

PAIRS = ("P6_P19", "P159_P206", "P286_P17", "P7779_Q21506450", "P8047_P30")


def _files() -> list[Path]:
    files = sorted(need_shared("radd/benchmark").glob("*/*_results_direct.jsonl"))
    assert len(files) == 15
    return files


@pytest.fixture(scope="module")
def rows():
    out = []
    for f in _files():
        raw = [json.loads(line) for line in f.read_text(encoding="utf-8").splitlines()]
        out += list(zip(raw, load_jsonl(f)))
    return out


def test_all_rows_parse_and_round_trip(rows):
    assert len(rows) == 1500
    assert len({raw["messages"][0] for raw, _ in rows}) == 500
    for raw, inst in rows:
        assert render_prompt(inst) == raw["messages"][0], inst.source
        assert render_messages(inst) == raw["messages"]
        assert inst.label_nr == raw["label_nr"] and inst.label_name == raw["label_name"]
        assert inst.option(inst.label_name).number == inst.label_nr
        assert inst.entity == raw["entity"] and inst.value_text == raw["property"]


def test_all_five_pairs_present(rows):
    assert {inst.pair for _, inst in rows} == set(PAIRS)


def test_structure_of_first_instance(rows):
    raw, inst = next((r, i) for r, i in rows if i.pair == "P6_P19" and i.source.endswith("chatgpt/P6_P19_results_direct.jsonl:1"))
    assert inst.entity == "Wilhelmshaven"
    assert inst.spans[2].relation == "Johann Janßen" and inst.spans[2].premise == 3
    assert inst.spans[2].start == MonthDate(1961, 1) and inst.spans[2].end == MonthDate(1972, 1)
    assert inst.properties[1].relation == "Johann Janßen" and inst.properties[1].values == ("Schortens",)
    assert inst.regularity_premise == 15
    assert inst.current_date == MonthDate(2013, 3) and inst.sentence_date == MonthDate(1962, 7)
    assert inst.option("de_dicto").relation == "Johann Janßen" and inst.option("de_dicto").number == 1
    assert inst.option("de_re").relation == "Andreas Wagner"
    assert (inst.label_nr, inst.label_name) == (1, "de_dicto")


def test_list_valued_property_is_split(rows):
    inst = next(i for _, i in rows if i.pair == "P159_P206" and len(i.values) > 1)
    assert ", ".join(inst.values) == inst.value_text


def test_dict_round_trip(rows):
    for _, inst in rows[:50]:
        assert type(inst).from_dict(json.loads(json.dumps(inst.to_dict()))) == inst


def test_unparseable_row_names_file_and_line(tmp_path, rows):
    raw = dict(rows[0][0])
    bad = dict(raw, messages=[raw["messages"][0].replace("If it is currently", "If it were currently")])
    f = tmp_path / "bad.jsonl"
    f.write_text(json.dumps(raw) + "\n" + json.dumps(bad) + "\n", encoding="utf-8")
    with pytest.raises(RaddParseError, match=r"bad\.jsonl:2"):
        load_jsonl(f)


def test_label_that_disagrees_with_options_is_an_error(tmp_path, rows):
    raw = dict(rows[0][0])
    bad = dict(raw, label_name="de_re" if raw["label_name"] == "de_dicto" else "de_dicto")
    f = tmp_path / "bad.jsonl"
    f.write_text(json.dumps(bad) + "\n", encoding="utf-8")
    with pytest.raises(RaddParseError, match=r"bad\.jsonl:1: label"):
        load_jsonl(f)


def test_garbage_is_rejected():
    with pytest.raises(RaddParseError):
        parse_prompt("hello")


def test_entity_containing_the_templates_own_words():
    ph = default_phrasings()["P8047_P30"]
    line = "MS was registered with Ltd was registered with Norway from January 1952 to January 1980."
    cands = prefix_candidates(ph.entity_relation, line, "entity")
    assert cands == ["MS", "MS was registered with Ltd"]
    assert match(ph.entity_relation, line, entity=cands[1])["relation"] == "Norway"
