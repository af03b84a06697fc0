"""The FOL/Lisp readers: trees, round trips, conversion, and the errors people see."""

from __future__ import annotations

import pytest

from ambit import logic
from ambit.logic import And, Atom, Const, LFParseError, Or, Quant, Var, parse, parse_with_lark, render

SCOPE0 = "exists x . forall y . exists a . bird(y) AND sweater(x) AND held(a) AND agent(a, y) AND patient(a, x)"
CONJ = (
    "exists x . exists a . exists e . exists i . bird(x) AND ( ( left(a) AND agent(a, x) ) OR "
    "( walked(e) AND agent(e, x) AND ate(i) AND agent(i, x) ) )"
)
LISP = "( exists x ( exists a ( AND ( agent a Alan ) ( spied a ) ( spyglass x ) ) ) )"


def test_fol_tree():
    f = parse("exists x . man(x) AND saw(x, Mary)")
    assert f == Quant("exists", "x", And((Atom("man", (Var("x"),)), Atom("saw", (Var("x"), Const("Mary"))))))


def test_and_or_group_to_the_right():
    # AmP's readers give AND and OR equal precedence and group an unparenthesised chain to the right
    f = parse("exists x . a(x) AND b(x) OR c(x) AND d(x)")
    a, b, c, d = (Atom(p, (Var("x"),)) for p in "abcd")
    assert f.body == And((a, Or((b, And((c, d))))))


def test_parentheses_keep_their_node():
    f = parse("exists x . ( a(x) AND b(x) ) AND c(x)")
    assert f.body == And((And((Atom("a", (Var("x"),)), Atom("b", (Var("x"),)))), Atom("c", (Var("x"),))))


def test_lisp_tree_and_conversion():
    f = parse(LISP, "lisp")
    assert f.body.body == And((Atom("agent", (Var("a"), Const("Alan"))), Atom("spied", (Var("a"),)), Atom("spyglass", (Var("x"),))))
    fol = logic.convert(LISP, "lisp", "fol")
    assert fol == "exists x . exists a . agent(a, Alan) AND spied(a) AND spyglass(x)"
    assert logic.convert(fol, "fol", "lisp") == LISP


@pytest.mark.parametrize("text", [SCOPE0, CONJ, "forall x . exists y . man(x) OR ( woman(y) AND saw(x, y) )"])
def test_round_trip_fol(text):
    f = parse(text)
    assert parse(render(f, "fol")) == f
    assert parse(render(f, "lisp"), "lisp") == f
    assert parse_with_lark(text, "fol") == f


def test_prolog_rendering():
    t = logic.to_prolog(parse("exists x . forall y . saw(x, y) AND man(x) AND Mary_is(Mary)".replace("Mary_is", "named")))
    assert t == "some(V_x, all(V_y, and(rel('saw', [V_x, V_y]), and(rel('man', [V_x]), rel('named', ['Mary'])))))"



def test_one_prolog_writer_for_every_term_language():
    """render.prolog_term writes the public `prolog` format, equivalence.pl's terms (fresh
    variables per quantifier) and prove.pl's (numbered quantifiers), over the whole AST."""
    from ambit.logic.syntax.ast import Eq, Implies, Not
    from ambit.logic.engine.equivalence import to_prolog_bb
    from ambit.logic.engine.prove import to_term
    from ambit.logic.syntax.render import prolog_term

    f = parse("exists x . forall y . saw(x, y) AND ( exists x . man(x) ) AND named(Mary)")
    assert to_prolog_bb(f, "3a") == ("some(V3a_0,all(V3a_1,and(rel('saw',[V3a_0,V3a_1]),"
                                     "and(some(V3a_2,rel('man',[V3a_2])),rel('named',['Mary'])))))")
    assert to_term(f) == "some(1,all(2,and(rel('saw',[v(1),v(2)]),and(some(3,rel('man',[v(3)])),rel('named',['Mary'])))))"
    assert prolog_term(f) == logic.to_prolog(f)
    full = Quant("forall", "x", Implies(Not(Atom("o'k", (Var("x"),))), Eq(Var("x"), Const("A\\b"))))
    assert to_term(full) == "all(1,imp(not(rel('o\\'k',[v(1)])),eq(v(1),'A\\\\b')))"
    assert prolog_term(full) == "all(V_x, imp(not(rel('o\\'k', [V_x])), eq(V_x, 'A\\\\b')))"
    for writer in (logic.to_prolog, to_prolog_bb):  # AmP's fragment only
        with pytest.raises(TypeError):
            writer(full)


def test_closed_grammar_accepts_lexicon_only():
    import lark

    g = logic.closed_grammar("fol", unary=["man", "saw"], binary=["agent"], constants=["Mary"])
    p = lark.Lark(g, parser="lalr")
    p.parse("exists x . exists a . man(x) AND saw(a) AND agent(a, Mary)")
    for bad in ["exists x . woman(x)", "exists x . agent(x)", "exists x . man(John)", "exists w . man(w)"]:
        with pytest.raises(lark.exceptions.UnexpectedInput):
            p.parse(bad)
    gl = logic.closed_grammar("lisp", unary=["man"], binary=["agent"], constants=[])
    lark.Lark(gl, parser="lalr").parse("( exists x ( exists a ( AND ( man x ) ( agent a x ) ) ) )")


# ---------------------------------------------------------------- errors


def err(text, fmt="fol") -> LFParseError:
    with pytest.raises(LFParseError) as info:
        parse(text, fmt)
    return info.value


def test_empty():
    e = err("   ")
    assert e.kind == "empty" and "empty" in str(e)


def test_unbalanced_parenthesis_reports_position_and_expectation():
    text = "exists x . ( man(x) AND woman(x)"
    e = err(text)
    assert e.kind == "syntax"
    assert e.pos == len(text)
    assert any("' )'" in x for x in e.expected)
    assert "end of input" in str(e)


def test_unknown_token():
    e = err("exists x . man(x) & woman(x)")
    assert e.pos == len("exists x . man(x)")
    assert "AND" in str(e) and "character 18" in str(e)


def test_unbound_variable_is_reported():
    e = err("exists x . saw(x, y)")
    assert e.kind == "unbound_variable" and e.token == "y" and e.pos == len("exists x . saw(x, ")
    e = err("( exists x ( saw x y ) )", "lisp")
    assert e.kind == "unbound_variable" and e.token == "y"


def test_quantifier_over_constant():
    e = err("exists Mary . man(Mary)")
    assert e.kind == "quantified_constant" and e.pos == len("exists ")
    assert "not the constant 'Mary'" in str(e)
    e = err("( exists Mary ( man Mary ) )", "lisp")
    assert e.kind == "quantified_constant"


def test_lisp_errors():
    e = err("( exists x ( man x )", "lisp")
    assert e.pos == len("( exists x ( man x )")
    e = err("( AND ( man x ) )", "lisp")  # one operand, and x unbound: the syntax error comes first
    assert e.kind == "syntax"


def test_deep_nesting_is_an_error_not_a_crash():
    text = "exists x . " + "( " * 5000 + "man(x)" + " )" * 5000
    e = err(text)
    assert e.kind == "too_deep"


def test_large_flat_formula_parses():
    text = "exists x . " + " AND ".join(f"p{i}(x)" for i in range(10000))
    f = parse(text)
    assert len(f.body.children) == 10000


def test_error_dict_is_serialisable():
    import json

    d = err("exists x . man(").to_dict()
    assert json.loads(json.dumps(d))["kind"] == "syntax"


def test_unknown_format():
    with pytest.raises(ValueError, match="unknown LF format"):
        parse("man(x)", "xml")
