"""The hand-written FOLIO reader (logic/syntax/readers/folio_read.py) against the Lark grammar it stands in
for: the same trees, and the same accept/reject, on rendered formulas and on random token
strings (most of them malformed)."""

from __future__ import annotations

import lark
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ambit.logic import LFParseError, parse, render
from ambit.logic.syntax.full_parse import dialect_parser
from ambit.logic.syntax.readers.folio_read import Reject, read
from tests.helpers.formulas import formulas


def lark_tree(text: str):
    """Lark's tree (names as constants, like `read`), or None when Lark rejects the text."""
    try:
        return dialect_parser("folio").parse(text)
    except lark.exceptions.UnexpectedInput:
        return None


def fast_tree(text: str):
    try:
        return read(text)
    except Reject:
        return None


@settings(max_examples=200, deadline=None)
@given(formulas(["x", "y"], ["Dog", "Likes", "R0"], ["bonnie", "Świątek", "2009", "1.3billion"]))
def test_rendered_formulas_read_as_lark_reads_them(f):
    text = render(f, "folio")
    assert fast_tree(text) is not None and fast_tree(text) == lark_tree(text)
    spaced = text.replace("(", " ( ").replace("∧", "\t∧\n")
    assert fast_tree(spaced) == lark_tree(spaced)


TOKENS = ["∀x", "∃y", "∀", "x", "y", "P", "Q(x)", "R(a, y)", "a", "¬", "∧", "∨", "⊕", "→", "↔", "⟷",
          "=", "≠", "(", ")", ",", " ", "Dog(bonnie)", "2009", "x.", "_", "!"]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=12), st.sampled_from([" ", ""]))
def test_random_token_strings_same_accept_reject_and_trees(toks, sep):
    text = sep.join(toks)
    assert fast_tree(text) == lark_tree(text)


@pytest.mark.parametrize("text", ["∀x (Dog(x) → Animal(x)))", "Likes(bonnie, x", "P(a,) ∧ Q", "P ∧"])
def test_malformed_input_gets_lark_error(text):
    with pytest.raises(LFParseError) as e:
        parse(text, "folio")
    assert e.value.pos is not None and e.value.expected
