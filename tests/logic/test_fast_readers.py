"""The hand-written TPTP reader (logic/syntax/readers/tptp_read.py) against the Lark grammar it
stands in for: equal trees where it accepts, and never an acceptance where Lark rejects, on
rendered random formulas, on random token strings (most of them malformed) and on tricky
strings; and a TPTP file's statements split the same by the fast path and the general one."""

from __future__ import annotations

import lark
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ambit.logic import LFParseError, parse, render
from ambit.logic.syntax.ast import free_vars
from ambit.logic.syntax.dialect import dialect
from ambit.logic.syntax.full_parse import dialect_parser, read_dialect
from ambit.logic.syntax.readers.tptp_read import READER_DEPTH, Reject, read
from tests.logic.test_fol_dialects import formulas


def lark_tree(text: str):
    """Lark's tree, or None when Lark rejects the text."""
    try:
        return dialect_parser("tptp").parse(text)
    except lark.exceptions.UnexpectedInput:
        return None


def fast_tree(text: str):
    """The fast reader's tree, or None when it rejects; its free-variable flag checked on the way."""
    try:
        f, free = read(text)
    except Reject:
        return None
    assert free == bool(free_vars(f)), text
    return f


def same(text: str, must_accept: bool = False) -> None:
    """The fast reader accepts only what Lark accepts, with Lark's tree; the dialect's reader
    (fast first) gives what Lark's path gives, error or tree."""
    fast, slow = fast_tree(text), lark_tree(text)
    if must_accept:
        assert fast is not None, text
    if fast is not None:
        assert fast == slow, text
    d = dialect("tptp")
    try:
        want = read_dialect(text, d)
    except LFParseError as e:
        with pytest.raises(LFParseError) as got:
            d.read(text)
        assert (got.value.pos, got.value.kind, got.value.expected) == (e.pos, e.kind, e.expected)
        return
    assert d.read(text) == want


@settings(max_examples=400, deadline=None)
@given(formulas(["X", "Y"], ["dog", "Likes", "r0"], ["bonnie", "Świątek", "2009", "1.5", "a b"]))
def test_rendered_formulas_read_as_lark_reads_them(f):
    text = render(f, "tptp")
    same(text, must_accept=True)
    same(text.replace("(", " ( ").replace("&", "\t&\n").replace(",", " ,"))


TOKENS = ["![X]:", "?[X,Y]:", "![X, Y] :", "!", "?", "[", "]", ":", "X", "Y", "p", "q(X)", "r(a, Y)", "f(X)",
          "f(f(X))", "'a b'", "'it\\'s'", "''", "1.5", "2", "$true", "$false", "$tru", "~", "&", "~&", "|", "~|",
          "=>", "<=", "<=>", "<~>", "=", "!=", "(", ")", ",", " ", "fof", "fof(a, axiom, p).", "% c\n",
          "/* c */", "<", ">", ".", "\u00a0", "\n"]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=14), st.sampled_from([" ", ""]))
def test_random_token_strings_never_accepted_where_lark_rejects(toks, sep):
    same(sep.join(toks))


TRICKY = [
    "![X]: p(X) & q(X)",            # the quantifier takes the unit right after it
    "![X]: (p(X) & q(X))",
    "~p & q", "~(p & q)", "~~p", "~ ![X]: p(X)",
    "p & q | r & s", "p | q & r", "p => q => r", "p <= q <= r", "p <= q => r", "p => q <= r",
    "p <=> q <=> r", "p <~> q <=> r", "p ~| q ~| r", "p ~& q & r", "p & q ~& r", "p | q ~| r | s",
    "(p | q) | r", "p | (q | r)", "((p))", "(p & q) & (r & s)",
    "$true", "$false", "~$true | $false", "$true = $false",
    "X = Y", "X != Y", "f(X) = g(Y, a)", "a = b", "'A'(X)", "'q\\\\'(a)", "'x\\'y' = X", "p('a,b')",
    "1 = 2", "p(1.5e3)", "12abc(X)", "p()", "p(X,)", "p(X", "p)", "X", "f(X)", "![X]:", "![x]: p(x)",
    "?[X]: ?[Y]: r(X, Y)", "![X,Y,Z]: (r(X,Y) & r(Y,Z) => r(X,Z))", "fof(a, axiom, p).", "fof", "p & fof",
    "p % comment\n & q", "p /* c */ & q", "p & ", "& p", "p q", "p\t&\nq", "p&q", "p|q", "~p=>q",
    "p != q", "p(X) != q", "X = f(X) & p(X)", "![X]: X = X", "?[X]: (X)", "f(X) & p",
    "(" * (READER_DEPTH + 2) + "p" + ")" * (READER_DEPTH + 2),
    " => ".join(["p"] * (READER_DEPTH + 3)), " <=> ".join(["p"] * 300), " & ".join(["p"] * 300),
]


@pytest.mark.parametrize("text", TRICKY)
def test_tricky_strings(text):
    same(text)


@pytest.mark.parametrize("text", ["p(X)", "![X]: p(X) & q(X)", "p <= q => r", "'it\\'s'(a) ~| $true"])
def test_common_input_is_read_by_the_fast_reader(text):
    assert fast_tree(text) is not None


def test_deep_and_long_input_goes_to_lark_with_its_errors():
    deep = "~" * 300 + "p"
    with pytest.raises(LFParseError) as e:
        parse(deep, "tptp")
    assert e.value.kind == "too_deep"
    assert fast_tree("p(X) &") is None and fast_tree("p(X) % c") is None
