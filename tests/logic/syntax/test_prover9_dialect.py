"""The `prover9` dialect reads LADR's syntax as Prover9's manual ("Clauses and Formulas")
documents it, and numerals and list terms where Prover9 reads them: checked against the
manual's own examples, by round trips (prover9 -> AST -> prover9 -> the same AST), and by E,
which must find each formula, written to TPTP by ambit, equivalent to the TPTP written by hand."""

from __future__ import annotations

import shutil
import subprocess
import tempfile

import pytest

from ambit.logic import LFParseError, parse
from ambit.logic.errors import RenderError
from ambit.logic.syntax.ast import Atom, Const, Func, Not, Or, Quant, Var
from ambit.logic.syntax.dialect import dialect
from ambit.logic.syntax.reading import ProblemError, SymbolKindError, read_story

needs_e = pytest.mark.skipif(shutil.which("eprover") is None, reason="E prover (eprover) not installed")
P9 = dialect("prover9")


def _cons(*items, tail=Const("$nil")):
    for t in reversed(items):
        tail = Func("$cons", (t, tail))
    return tail


# --------------------------------------------------------------------------- the manual's examples

def test_the_manuals_clauses_and_lists():
    # "-man(x) | mortal(x)." and "man(george).": a clause, its free x closed under all
    assert parse("-man(x) | mortal(x).", "prover9") == Quant("forall", "x", Or((
        Not(Atom("man", (Var("x"),))), Atom("mortal", (Var("x"),)))))
    assert parse("man(george).", "prover9") == Atom("man", (Const("george"),))
    # the list notation table: [] is $nil, [a,b,c] is $cons(a,$cons(b,$cons(c,$nil))), [a:b] is $cons(a,b)
    a, b, c = Const("a"), Const("b"), Const("c")
    assert parse("p([])", "prover9") == Atom("p", (Const("$nil"),))
    assert parse("p([a,b,c])", "prover9") == Atom("p", (_cons(a, b, c),))
    assert parse("p([a:b])", "prover9") == Atom("p", (_cons(a, tail=b),))
    assert parse("p([a,b:c])", "prover9") == Atom("p", (_cons(a, b, tail=c),))
    # "a=b | a!=c" (the manual's example without the postfix ', which is out of scope)
    assert P9.render(parse("a=b | a!=c", "prover9")) == "a = b | a != c"


def test_variables_are_free_names_from_u_to_z_and_quoted_symbols_are_names():
    f, closed = P9.read("p(york) & q(anna, value)")
    assert closed == ("york", "value")  # LADR: a name starting with u-z is a variable
    assert f == Quant("forall", "york", Quant("forall", "value", f.body.body))
    assert parse('"New York"(anna)', "prover9") == Atom("New York", (Const("anna"),))
    # a constant starting with u-z would read back as a variable: it cannot be written
    with pytest.raises(RenderError, match="would read as a variable in prover9"):
        P9.render(Atom("p", (Const("york"),)))


def test_a_quoted_symbol_is_a_constant_whatever_it_spells():
    """In LADR a double-quoted symbol is a constant, never a variable: p("x") is about one
    constant (LADR keeps the quotes: "x" is neither the variable x nor a name x)."""
    f, closed = P9.read('p("x")')
    assert f == Atom("p", (Const('"x"'),)) and closed == ()
    assert P9.render(f) == 'p("x")' and parse(P9.render(f), "prover9") == f
    g = parse('all x (p(x) & q("x"))', "prover9")
    assert g.body.children[1] == Atom("q", (Const('"x"'),))  # the quantifier binds x, not "x"


@pytest.mark.parametrize("text, where", [('all 3 p(3)', 5), ('all "x" p("x")', 5), ('exists 42.3 p(a)', 8),
                                         ('all $T p(a)', 5)])
def test_a_quantifier_binds_only_a_variable(text, where):
    with pytest.raises(LFParseError) as e:
        parse(text, "prover9")
    assert f"character {where}" in str(e.value) and "a variable" in str(e.value)


def test_dollar_t_is_a_truth_value_only_as_a_whole_symbol():
    assert parse("$Tfoo", "prover9") == Atom("$Tfoo", ())
    assert parse("$Fx | p(a)", "prover9") == Or((Atom("$Fx", ()), Atom("p", (Const("a"),))))
    assert parse("$T", "prover9") == parse("$true", "tptp")


def test_a_symbol_kind_error_names_each_use_where_it_is():
    with pytest.raises(ProblemError) as e:
        read_story(["p(a) & a"], "q(b)", "prover9")
    uses = e.value.cause.to_dict()["uses"]
    assert [(u["symbol_kind"], u["pos"]) for u in uses] == [("function", 2), ("predicate", 7)]
    with pytest.raises(ProblemError) as e:
        read_story(["f(b) = c & f"], "q(b)", "prover9")
    assert [u["pos"] for u in e.value.cause.to_dict()["uses"]] == [0, 11]


def test_quantifiers_bind_one_variable_and_the_next_unit_formula():
    assert parse("all x all y r(x, y)", "prover9") == Quant("forall", "x", Quant("forall", "y", Atom(
        "r", (Var("x"), Var("y")))))
    # LADR's own output writes all x (p(x) -> q(x)); without the parentheses the scope is p(x)
    assert parse("all x p(x) & q(a)", "prover9") == parse("(all x p(x)) & q(a)", "prover9")
    assert parse("allergic(a)", "prover9") == Atom("allergic", (Const("a"),))  # `all` only as a word


@pytest.mark.parametrize("text, where", [
    ("p(a) -> q(a) -> r(a)", 14),  # -> does not chain in LADR (xfx)
    ("p(3.)", 4),  # a numeral's '.' must be followed by a digit
    ("p(a) + q(a)", 6),  # infix term operators are out of scope
    ("all x", 6),
])
def test_what_prover9_refuses_names_the_character(text, where):
    with pytest.raises(LFParseError) as e:
        parse(text, "prover9")
    assert f"character {where}" in str(e.value)


def test_numerals_are_constants_in_prover9_and_nltk():
    for fmt, text in (("prover9", "all x (Revenue(x, 42.3billion) -> Big(x)) & Cost(a, 3.5) & Year(a, 1716)"),
                      ("nltk", "all x.(Revenue(x, 42.3billion) -> Big(x)) & Cost(a, 3.5) & Year(a, 1716)")):
        f = parse(text, fmt)
        consts = {c.name for c in _consts(f)}
        assert {"42.3billion", "3.5", "1716"} <= consts, fmt
        assert parse(dialect(fmt).render(f), fmt) == f
    with pytest.raises(LFParseError) as e:
        parse("P(3.)", "nltk")
    assert "character 4" in str(e.value)


def test_nltk_reads_list_terms_as_prover9_does():
    assert parse("P([A, B, C])", "nltk") == Atom("P", (_cons(Const("A"), Const("B"), Const("C")),))
    assert parse("P([])", "nltk") == Atom("P", (Const("$nil"),))
    # and writes them back as lists (a tail, which NLTK's syntax has no way to say, only in prover9)
    assert dialect("nltk").render(parse("P([A, B, C]) & Q([])", "nltk")) == "P([A, B, C]) & Q([])"
    assert P9.render(parse("p([a,b:c])", "prover9")) == "p([a, b : c])"
    with pytest.raises(RenderError, match="cannot be written in nltk"):
        dialect("nltk").render(parse("p([anna : bob])", "prover9"))


def test_one_name_space_in_prover9():
    with pytest.raises(ProblemError) as e:
        read_story(["airline(greyhound)", "all x (greyhound(x) -> bus(x))"], "bus(greyhound)", "prover9")
    assert isinstance(e.value.cause, SymbolKindError)
    read_story(["airline(greyhound)", "all x (greyhound(x) -> bus(x))"], "bus(greyhound)", "prover9",
               symbols="separate")


def _consts(f):
    from ambit.logic.syntax.ast import subformulas, subterms, terms

    for g in subformulas(f):
        for a in terms(g):
            for u in subterms(a):
                if type(u) is Const:
                    yield u


# --------------------------------------------------------------------------- round trips through E

# (prover9 text, the same formula in TPTP written by hand)
E_CHECKED = [
    ("all x (man(x) -> mortal(x))", "![X]: (man(X) => mortal(X))"),
    ("man(x) -> mortal(x)", "![X]: (man(X) => mortal(X))"),
    ("-man(x) | mortal(x).", "![X]: (~man(X) | mortal(X))"),
    ("man(george)", "man(george)"),
    ("exists x (p(x) & x != a)", "?[X]: (p(X) & X != a)"),
    ("all x exists y r(x, y)", "![X]: ?[Y]: r(X, Y)"),
    ("exists y all x r(x, y)", "?[Y]: ![X]: r(X, Y)"),
    ("p(a) <-> -q(a)", "p(a) <=> ~q(a)"),
    ("p(a) <- q(a)", "q(a) => p(a)"),
    ("p(a) | q(a) & r(a)", "p(a) | (q(a) & r(a))"),
    ("p(a) & q(a) -> r(a) | s(a)", "(p(a) & q(a)) => (r(a) | s(a))"),
    ("-(p(a) & q(a)) <-> -p(a) | -q(a)", "~(p(a) & q(a)) <=> (~p(a) | ~q(a))"),
    ("all x (p(x) -> q(f(x)))", "![X]: (p(X) => q(f(X)))"),
    ("f(a) = b & b != c", "f(a) = b & b != c"),
    ("x = x", "![X]: X = X"),
    ("all x all y (x = y -> y = x)", "![X, Y]: (X = Y => Y = X)"),
    ("p(york) -> q(york)", "![Y]: (p(Y) => q(Y))"),  # york is a variable in LADR
    ("p(anna) -> q(anna)", "p(anna) => q(anna)"),
    ('"New York"(a) & -"New York"(b)', "'New York'(a) & ~'New York'(b)"),
    ("$T & -$F", "$true & ~$false"),
    ("all x (p(x) -> (q(x) -> r(x)))", "![X]: (p(X) => (q(X) => r(X)))"),
    ("(all x p(x)) -> p(a)", "(![X]: p(X)) => p(a)"),
    ("member(a, [a, b])", "member(a, '$cons'(a, '$cons'(b, '$nil')))"),
    ("head([a : b]) = a", "head('$cons'(a, b)) = a"),
    ("cost(a, 3.5) & year(a, 1716)", "cost(a, '3.5') & year(a, '1716')"),
    ("all x (revenue(x, 42.3billion) -> big(x)) % a comment", "![X]: (revenue(X, '42.3billion') => big(X))"),
    # a quoted symbol is a constant whatever it spells (LADR keeps its quotes: "x" is no variable)
    ('p("x") & -p(a)', "p('\"x\"') & ~p(a)"),
    ('all x p(x) -> p("x")', "(![X]: p(X)) => p('\"x\"')"),
    ('p("a") | -p(a)', "p('\"a\"') | ~p(a)"),
    ("$Tfoo & $T", "'$Tfoo' & $true"),
]


def _e_proves(problem: str) -> bool:
    with tempfile.NamedTemporaryFile("w", suffix=".p") as fh:
        fh.write(problem)
        fh.flush()
        out = subprocess.run(["eprover", "--auto", "--cpu-limit=10", "-s", fh.name], capture_output=True, text=True,
                             timeout=60).stdout
    return "SZS status Theorem" in out


def test_there_are_at_least_twenty_e_checked_examples():
    assert len(E_CHECKED) >= 20


@pytest.mark.parametrize("text, tptp", E_CHECKED)
def test_prover9_round_trip(text, tptp):
    f = parse(text, "prover9")
    assert parse(P9.render(f), "prover9") == f


@needs_e
@pytest.mark.parametrize("text, tptp", E_CHECKED)
def test_prover9_reading_agrees_with_e(text, tptp):
    mine = dialect("tptp").render(parse(text, "prover9"))
    assert _e_proves(f"fof(c, conjecture, ({mine}) <=> ({tptp})).\n"), (text, mine)


@needs_e
def test_a_quoted_name_is_no_variable_for_entailment_as_e_reads_ladr():
    """The issue's wrong verdicts: p("x") does not entail p(a), and all x p(x) is not p("x"):
    ambit's answers, and E's on the TPTP ambit writes (the quoted symbol a constant)."""
    from ambit.logic.provers import portfolio

    d = portfolio.decide(['p("x")'], "p(a)", "prover9", prover="prolog")
    assert d.verdict == "UNCERTAIN" and d.entailed is False
    v = portfolio.equivalent('all x p(x)', 'p("x")', "prover9", prover="prolog")
    assert v.verdict == "NOT_EQUIVALENT" and v.b_entails_a is False and v.a_entails_b is not False
    tptp = dialect("tptp")
    premise, goal = tptp.render(parse('p("x")', "prover9")), tptp.render(parse("p(a)", "prover9"))
    assert not _e_proves(f"fof(p, axiom, {premise}).\nfof(c, conjecture, {goal}).\n")
    assert _e_proves(f"fof(p, axiom, {tptp.render(parse('all x p(x)', 'prover9'))}).\nfof(c, conjecture, {premise}).\n")
