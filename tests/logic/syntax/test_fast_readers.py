"""The hand-written TPTP and NLTK readers (logic/syntax/readers/) against the Lark grammars they
stand in for: equal trees where it accepts, and never an acceptance where Lark rejects, on
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
from ambit.logic.syntax import tptp_problem
from ambit.logic.syntax.readers import nltk_read
from ambit.logic.syntax.readers.tptp_read import READER_DEPTH, Reject, read
from ambit.logic.syntax.tptp_problem import TPTPProblemError
from tests.helpers.formulas import formulas


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


# --------------------------------------------------------------------------- a file's statements

PIECES = ["fof(a, axiom, p(X)).", "fof(b,axiom,p & (q | r)).", "fof( c , conjecture ,\n ![X]: q(X) ).",
          "include('Axioms/x.ax').", "% a comment\n", "/* a block\n comment */", "\n", "  ", "fof(d, axiom, p)",
          "fof(e, axiom, p)) .", "fof(f, axiom, (p).", "fof(g, axiom, 'q)'(a)).", "fof(h, axiom, p /* c */ & q).",
          "fof(i, axiom, p % c\n).", "cnf(j, axiom, p).", "fof(k, lemma, p) % after\n.", "fof(l, axiom, p(1.5)).",
          "fof(m, axiom, p) & (q).", "fof(n, axiom, p(X)) & q(Y)).", "fof (o, axiom, p).", "include('y.ax', [a]).",
          "fof(p, axiom, p, file('x', y)).", "fof(q, axiom, \"r\")."]


def _statements(read, text):
    try:
        return read(text)
    except TPTPProblemError as e:
        return str(e)


@settings(max_examples=800, deadline=None)
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=8), st.sampled_from(["", "\n", " "]))
def test_a_file_splits_alike_in_one_scan_and_character_by_character(pieces, sep):
    text = sep.join(pieces)
    fast = tptp_problem._fast_statements(text)
    slow = _statements(lambda t: tptp_problem._read_statements(t, "<input>", True), text)
    if fast is not None:
        assert fast == slow, text
    assert _statements(tptp_problem.statements, text) == slow
    unchecked = tptp_problem._fast_statements(text, checked=False)
    if unchecked is not None and fast is None:  # a body whose parentheses do not balance: the reader looks again
        assert any(not tptp_problem._balanced(s.body) for s in unchecked if s.kind == "fof")


def test_a_problem_reads_alike_through_both_paths(monkeypatch):
    text = "\n".join(p for p in PIECES[:4] if "include" not in p) + "\nfof(z, axiom, ~q(Y) <= ![X]: r(X, f(X))).\n"
    fast = tptp_problem.read_problem(text, "p.p")
    monkeypatch.setattr(tptp_problem, "_fast_statements", lambda t, checked=True: None)
    monkeypatch.setattr(tptp_problem, "_fast_formula", lambda body, terms: None)
    slow = tptp_problem.read_problem(text, "p.p")
    assert fast == slow and len(fast.premises) == 3


# --------------------------------------------------------------------------- NLTK

def nltk_lark_tree(text: str):
    try:
        return dialect_parser("nltk").parse(text)
    except lark.exceptions.UnexpectedInput:
        return None


def nltk_fast_tree(text: str):
    try:
        return nltk_read.read(text)
    except nltk_read.Reject:
        return None


def nltk_same(text: str, must_accept: bool = False) -> None:
    """As `same`, for nltk: the fast reader's tree (names as constants) is Lark's, and the
    dialect's reader gives what Lark's path gives, error or tree."""
    fast = nltk_fast_tree(text)
    if must_accept:
        assert fast is not None, text
    if fast is not None:
        assert fast == nltk_lark_tree(text), text
    d = dialect("nltk")
    try:
        want = read_dialect(text, d)
    except LFParseError as e:
        with pytest.raises(LFParseError) as got:
            d.read(text)
        assert (got.value.pos, got.value.kind, got.value.expected) == (e.pos, e.kind, e.expected)
        return
    assert d.read(text) == want


@settings(max_examples=400, deadline=None)
@given(formulas(["x", "y"], ["dog", "likes", "r0"], ["bonnie", "a_1", "3.5"], xor=False))
def test_nltk_rendered_formulas_read_as_lark_reads_them(f):
    text = render(f, "nltk")
    nltk_same(text, must_accept=True)
    nltk_same(text.replace("(", " ( ").replace("&", "\tand\n").replace("|", " or ").replace("->", "implies"))


NLTK_TOKENS = ["all x.", "exists y.", "all x y.", "some x.", "forall", "exist", "all", "x", "y", "p", "q(x)",
               "r(a, y)", "f(x)", "f(f(x))", "3.5", "42.3billion", "a'", "-", "!", "not", "&", "^", "and", "|",
               "or", "->", "=>", "implies", "<->", "<=>", "iff", "=", "==", "!=", "(", ")", ",", ".", " ", "[",
               "]", "[a, b]", "\\x.", "_", "\n", "\u00a0"]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(NLTK_TOKENS), min_size=1, max_size=14), st.sampled_from([" ", ""]))
def test_nltk_random_token_strings_never_accepted_where_lark_rejects(toks, sep):
    nltk_same(sep.join(toks))


NLTK_TRICKY = [
    "all x.dog(x) & cat(x)", "all x.(dog(x) & cat(x))", "-all x.p(x)", "--p", "- p = q", "-(p = q)",
    "p -> q -> r", "p <-> q <-> r", "p & q | r & s", "p | q & r", "p ^ q and r & s", "p or q | r",
    "p implies q => r -> s", "p iff q", "a = b", "a == b", "a != b", "f(a) = g(b, c)", "p(3.5)", "p(1.2.3x)",
    "exists x y z.r(x, y, z)", "all x.exists y.likes(x, y)", "some x.p(x)", "exist x.p(x)",
    "p(all)", "p(some)", "all all.p", "not p", "notable(x)", "allergic(x) & andy(y)", "p(x) not q",
    "p(x)-q(x)", "p -", "p & ", "(p", "p)", "p()", "p(x,)", "[a, b] = c", "p([])", "\\x.p(x)", "x.y",
    "all x.p(x) -> q(x)", "all x.(p(x) -> q(x))", "dog (x)", "p\t&\nq", "P(x) & Q",
    "(" * (nltk_read.READER_DEPTH + 2) + "p" + ")" * (nltk_read.READER_DEPTH + 2),
    " & ".join(["p(x)"] * 300), " -> ".join(["p"] * 300),
]


@pytest.mark.parametrize("text", NLTK_TRICKY)
def test_nltk_tricky_strings(text):
    nltk_same(text)


@pytest.mark.parametrize("text", ["all x.(dog(x) -> -cat(x))", "exists x y.(likes(x, y) & x != y)",
                                  "forall x.(P(x) | Q(x))", "all x.dog(x) & cat(x)"])
def test_common_nltk_input_is_read_by_the_fast_reader(text):
    assert nltk_fast_tree(text) is not None
