"""Prolog replies cross as JSON written by json_call.pl's own writer: every value Python reads
back is the value Prolog meant (escapes, Unicode, nesting, dicts, numbers), and a term that
is not JSON is an error, not a guess."""

from __future__ import annotations

import shutil

import pytest

from ambit.logic.runtime.worker import PrologError, worker

pytestmark = pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog not installed")


@pytest.mark.parametrize("term, value", [
    ('json([a="x\\"y\\\\z\\n\\u0001é\\ttab", b=[true, false, null, 1.5, -2, 0.1, 1.0e20], c=[]])',
     {"a": 'x"y\\z\n\x01é\ttab', "b": [True, False, None, 1.5, -2, 0.1, 1e20], "c": []}),
    ("_{z: 1, a: \"q\", m: [json([k=v, 'two words'-json([])])]}", {"a": "q", "m": [{"k": "v", "two words": {}}], "z": 1}),
    ("'Świątek'", "Świątek"),
    ('"plain"', "plain"),
    ("[[1, [2, []]], 'rel(x)']", [[1, [2, []]], "rel(x)"]),
    ("12345678901234567890", 12345678901234567890),
])
def test_values_cross_intact(term, value):
    got = worker().query_json_quiet(f"Out = {term}")
    assert got == value
    if term.startswith("_{"):
        assert list(got) == ["a", "m", "z"]  # a dict's keys in standard order, as json_write_dict writes them


@pytest.mark.parametrize("term", ["f(x)", "json([a=f(x)])", "[1, g(2)]"])
def test_a_term_that_is_not_json_is_an_error(term):
    with pytest.raises(PrologError) as e:
        worker().query_json_quiet(f"Out = {term}")
    assert e.value.reason == "error" and "json" in str(e.value)
    assert worker().query_json_quiet("Out = 1") == 1


def test_every_control_character_and_nul_is_escaped():
    codes = list(range(0, 32)) + [ord('"'), ord("\\"), 0x7F, 0xE9, 0x1F600]
    got = worker().query_json_quiet(f"atom_codes(A, [97, {', '.join(map(str, codes))}, 98]), Out = json([k=A])")
    assert got == {"k": "a" + "".join(map(chr, codes)) + "b"}
