"""The nltk and tptp dialects against their references: NLTK's own parser (`nltk.sem.logic`) as
the oracle on generated formulas, and E (which reads TPTP as TPTP defines it) on examples of the
TPTP syntax: every connective, quantifiers over variable lists, $true/$false, (in)equality,
quoted names, comments and annotated fof lines."""

from __future__ import annotations

import shutil
import subprocess
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ambit.logic import parse, render
from ambit.logic.syntax.ast import And, Atom, Const, Eq, Formula, Func, Iff, Implies, Not, Or, Quant, Var, Xor

nltk_logic = pytest.importorskip("nltk.sem.logic", reason="nltk is a test dependency (the oracle of the nltk dialect)")

# --------------------------------------------------------------------------- NLTK as the oracle

PREDICATES = ["dog", "likes", "Cat", "R2", "rain"]
CONSTANTS = ["bonnie", "john", "Mary"]
VARIABLES = ["x", "y", "z1", "e"]  # NLTK's variable spelling: one lower-case letter and digits
FUNCTIONS = ["mother", "best_friend"]
SPELLINGS = {  # every spelling nltk.sem.logic reads
    "all": ["all", "forall"], "exists": ["exists", "exist", "some"], "not": ["-", "!", "not "],
    "and": ["&", "^", "and"], "or": ["|", "or"], "imp": ["->", "=>", "implies"], "iff": ["<->", "<=>", "iff"],
    "eq": ["=", "=="], "neq": ["!="],
}


def _spell(kind: str):
    return st.sampled_from(SPELLINGS[kind])


def _terms(depth: int = 1):
    names = st.sampled_from(CONSTANTS + VARIABLES)
    if depth == 0:
        return names
    return st.one_of(names, st.builds(lambda f, args: f"{f}({', '.join(args)})", st.sampled_from(FUNCTIONS),
                                      st.lists(_terms(depth - 1), min_size=1, max_size=2)))


def _atoms():
    app = st.builds(lambda p, args: f"{p}({','.join(args)})" if args else p, st.sampled_from(PREDICATES),
                    st.lists(_terms(), max_size=3))
    eq = st.builds(lambda a, op, b: f"{a} {op} {b}", _terms(), st.one_of(_spell("eq"), _spell("neq")), _terms())
    return st.one_of(app, app, eq.map(lambda t: ("EQ", t)))


def _text(depth: int):
    """NLTK text, parenthesised only sometimes: both readers' precedence and grouping rules are
    what is compared. Returns (text, whether it starts with an unparenthesised equation)."""
    if depth == 0:
        return _atoms().map(lambda a: (a[1], True) if isinstance(a, tuple) else (a, False))
    sub = _text(depth - 1)

    def neg(op, s):  # NLTK reads `- x = y` as an equation over a negated term (not first-order):
        text, eq_first = s  # a negation before an equation gets ( )
        return (f"{op}({text})" if eq_first else f"{op}{text}", False)

    def binary(a, op, b):
        return (f"{a[0]} {op} {b[0]}", a[1])

    def quant(q, vs, s):
        return (f"{q} {' '.join(vs)}.{s[0]}", False)

    return st.one_of(
        sub,
        st.builds(neg, _spell("not"), sub),
        st.builds(lambda s: (f"({s[0]})", False), sub),
        st.builds(binary, sub, st.one_of(*(_spell(k) for k in ("and", "or", "imp", "iff"))), sub),
        st.builds(quant, st.one_of(_spell("all"), _spell("exists")),
                  st.lists(st.sampled_from(VARIABLES), min_size=1, max_size=2, unique=True), sub),
    )


def _from_nltk(e) -> Formula:
    """NLTK's expression as ambit's AST (n-ary chains flattened by `_flat` afterwards)."""
    L = nltk_logic
    if isinstance(e, L.AllExpression | L.ExistsExpression):
        return Quant("forall" if isinstance(e, L.AllExpression) else "exists", e.variable.name, _from_nltk(e.term))
    if isinstance(e, L.NegatedExpression):
        return Not(_from_nltk(e.term))
    if isinstance(e, L.EqualityExpression):
        return Eq(_term(e.first), _term(e.second))
    binary = {L.AndExpression: And, L.OrExpression: Or, L.ImpExpression: Implies, L.IffExpression: Iff}
    for cls, ours in binary.items():
        if type(e) is cls:
            a, b = _from_nltk(e.first), _from_nltk(e.second)
            return ours((a, b)) if ours in (And, Or) else ours(a, b)
    if isinstance(e, L.ApplicationExpression):
        f, args = e.uncurry()
        return Atom(f.variable.name, tuple(_term(a) for a in args))
    if isinstance(e, L.ConstantExpression | L.FunctionVariableExpression):  # `rain`, `R2` (NLTK: a function variable)
        return Atom(e.variable.name, ())
    raise AssertionError(f"not a formula for this test: {e!r}")


def _term(e):
    L = nltk_logic
    if isinstance(e, L.ApplicationExpression):
        f, args = e.uncurry()
        return Func(f.variable.name, tuple(_term(a) for a in args))
    if isinstance(e, L.IndividualVariableExpression):  # event variables too
        return Var(e.variable.name)
    if isinstance(e, L.ConstantExpression):
        return Const(e.variable.name)
    raise AssertionError(f"not a term for this test: {e!r}")


def _flat(f: Formula) -> Formula:
    """`f` with nested chains of one associative connective merged (NLTK nests them binary)."""
    t = type(f)
    if t is And or t is Or:
        out = []
        for c in map(_flat, f.children):
            out.extend(c.children if type(c) is t else (c,))
        return t(tuple(out))
    if t is Quant:
        return Quant(f.kind, f.var, _flat(f.body))
    if t is Not:
        return Not(_flat(f.body))
    if t in (Implies, Iff, Xor):
        return t(_flat(f.left), _flat(f.right))
    return f


def _close(f: Formula) -> Formula:
    """NLTK's free variables closed under ∀, outermost first in order of first use (the nltk
    dialect's default reading); NLTK itself leaves them free."""
    order: list[str] = []

    def terms(t, bound):
        if type(t) is Var and t.name not in bound and t.name not in order:
            order.append(t.name)
        elif type(t) is Func:
            for a in t.args:
                terms(a, bound)

    def walk(g, bound):
        tg = type(g)
        if tg is Atom:
            for a in g.args:
                terms(a, bound)
        elif tg is Eq:
            terms(g.left, bound), terms(g.right, bound)
        elif tg is Quant:
            walk(g.body, bound | {g.var})
        elif tg is Not:
            walk(g.body, bound)
        elif tg in (And, Or):
            for c in g.children:
                walk(c, bound)
        else:
            walk(g.left, bound), walk(g.right, bound)

    walk(f, frozenset())
    for v in reversed(order):
        f = Quant("forall", v, f)
    return f


@pytest.mark.filterwarnings("ignore::hypothesis.errors.HypothesisWarning")
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_text(3).map(lambda s: s[0]))
def test_nltk_dialect_reads_what_nltk_reads_the_same_way(text):
    expected = _close(_flat(_from_nltk(nltk_logic.Expression.fromstring(text))))
    assert _flat(parse(text, "nltk")) == expected, text
    # and with free variables kept as names, as NLTK's tree has them
    assert _flat(parse(text, "nltk", free_variables="constant")) == _flat(_consts(_from_nltk(
        nltk_logic.Expression.fromstring(text))))


def _consts(f: Formula) -> Formula:
    """NLTK's tree with its free variables as constants (the `constant` reading)."""
    from ambit.logic.syntax.grammar import _rename_terms
    from ambit.logic.syntax.ast import free_vars

    return _rename_terms(f, frozenset(free_vars(f)), Const)


@pytest.mark.parametrize("text,reading", [
    ("forall x. (P(x) | Q(x))", "all x.(P(x) | Q(x))"),  # `forall`: NLTK's other spelling of `all`
    ("some x.dog(x) and not cat(x)", "(exists x.dog(x)) & -cat(x)"),  # a quantifier binds tightly
    ("dog(a) -> cat(a) -> rat(a)", "(dog(a) -> cat(a)) -> rat(a)"),  # -> groups to the left
    ("all x y.likes(x, y) <=> likes(y,x)", "(all x.all y.likes(x, y)) <-> likes(y, x)"),
    ("dog(john) ^ !cat(john) implies x == y", "(dog(john) & -cat(john)) -> x = y"),
])
def test_nltk_spellings_and_conventions(text, reading):
    assert parse(text, "nltk", free_variables="constant") == parse(reading, "nltk", free_variables="constant")
    oracle = _consts(_from_nltk(nltk_logic.Expression.fromstring(text)))
    assert _flat(parse(text, "nltk", free_variables="constant")) == _flat(oracle)


def test_nltk_lambda_is_out_of_scope():
    from ambit.logic import LFParseError

    with pytest.raises(LFParseError):
        parse(r"\x.dog(x)", "nltk")


def test_nltk_free_variables_follow_nltks_spelling():
    # `x` and `e2` are variables in NLTK when free; `john` and `Mary` constants
    f = parse("likes(x, john) & likes(e2, Mary)", "nltk")
    assert type(f) is Quant and f.var == "x" and type(f.body) is Quant and f.body.var == "e2"
    with pytest.raises(Exception, match="never quantified"):
        parse("likes(x, john)", "nltk", free_variables="error")


# --------------------------------------------------------------------------- TPTP, with E as the reference

needs_e = pytest.mark.skipif(shutil.which("eprover") is None, reason="E (eprover) is not installed")

TPTP_EXAMPLES = [
    ("~ p", Not(Atom("p", ()))),
    ("p & q & r", And((Atom("p", ()), Atom("q", ()), Atom("r", ())))),
    ("p | q", Or((Atom("p", ()), Atom("q", ())))),
    ("p => q", Implies(Atom("p", ()), Atom("q", ()))),
    ("p <= q", Implies(Atom("q", ()), Atom("p", ()))),
    ("p <=> q", Iff(Atom("p", ()), Atom("q", ()))),
    ("p <~> q", Xor(Atom("p", ()), Atom("q", ()))),
    ("p ~| q", Not(Or((Atom("p", ()), Atom("q", ()))))),
    ("p ~& q", Not(And((Atom("p", ()), Atom("q", ()))))),
    ("![X, Y]: r(X, Y)", Quant("forall", "X", Quant("forall", "Y", Atom("r", (Var("X"), Var("Y")))))),
    ("?[X]: (p(X) & ~q(X))", Quant("exists", "X", And((Atom("p", (Var("X"),)), Not(Atom("q", (Var("X"),))))))),
    ("![X]: p(X) & q(a)", And((Quant("forall", "X", Atom("p", (Var("X"),))), Atom("q", (Const("a"),))))),
    ("$true", Eq(Const("⊤"), Const("⊤"))),
    ("~ $false", Not(Not(Eq(Const("⊤"), Const("⊤"))))),
    ("a = b", Eq(Const("a"), Const("b"))),
    ("f(a) != b", Not(Eq(Func("f", (Const("a"),)), Const("b")))),
    ("'Dog'('Mary Ann') & 'it''s'", None),  # quoted names (a doubled quote is not TPTP: refused)
    ("'Dog'('Mary Ann')", Atom("Dog", (Const("Mary Ann"),))),
    ("p % a comment to the end of the line\n & q", And((Atom("p", ()), Atom("q", ())))),
    ("/* a block\n comment */ p", Atom("p", ())),
    ("fof(ax1, axiom, ![X]: (man(X) => mortal(X))).",
     Quant("forall", "X", Implies(Atom("man", (Var("X"),)), Atom("mortal", (Var("X"),))))),
    ("fof(c, conjecture, mortal(socrates), file('x.p', c), [status(thm)]).", Atom("mortal", (Const("socrates"),))),
]


@pytest.mark.parametrize("text,tree", TPTP_EXAMPLES)
def test_tptp_syntax_examples(text, tree):
    from ambit.logic import LFParseError

    if tree is None:
        with pytest.raises(LFParseError):
            parse(text, "tptp")
        return
    assert parse(text, "tptp") == tree


def _e_proves(problem: str) -> bool:
    with tempfile.NamedTemporaryFile("w", suffix=".p") as fh:
        fh.write(problem)
        fh.flush()
        out = subprocess.run(["eprover", "--auto", "--cpu-limit=10", "-s", fh.name], capture_output=True, text=True,
                             timeout=60).stdout
    return "SZS status Theorem" in out


# formulas TPTP reads one way only; E must find each equivalent to ambit's reading, written back
E_CHECKED = [
    "(p => q) <=> (~q => ~p)",
    "(p ~| q) <=> (~p & ~q)",
    "(p ~& q) <=> (~p | ~q)",
    "(p <~> q) <=> ~(p <=> q)",
    "(p <= q) <=> (q => p)",
    "![X]: ?[Y]: (r(X, Y) | ~'Big Dog'(f(X)))",
    "? [X,Y] : (X != Y & p(X) & ~p(Y))",
    "(![X]: p(X)) & ($true | $false)",
    "~(![X]: (p(X) => q(X))) <=> (?[X]: (p(X) & ~q(X)))",
]


@needs_e
@pytest.mark.parametrize("text", E_CHECKED)
def test_tptp_reading_agrees_with_e(text):
    ours = render(parse(text, "tptp"), "tptp")
    assert _e_proves(f"fof(c, conjecture, ({text}) <=> ({ours})).\n")
    assert _e_proves(f"fof(c, conjecture, {text}).\n") == _e_proves(f"fof(c, conjecture, {ours}).\n")
