/*  Plain-swipl tests of src/ambit/logic/engine/prolog/clausal.pl (the one engine's clausal form):
        swipl -g run_tests -t halt tests/logic/prolog/test_clausal.pl
*/
:- use_module('../../../src/ambit/logic/engine/prolog/clausal').
:- use_module(library(plunit)).
:- use_module(library(lists)).

:- begin_tests(clausal).

clauses(F, Cs) :- clausal_form([f-F], Tagged), findall(C, member(f-C, Tagged), Cs).

test(an_existential_becomes_a_skolem_constant) :-
    clauses(some(1, rel(p, [v(1)])), [[rel(p, [Sk])]]),
    Sk =.. [sk, 1].

test(a_universal_over_an_existential_gives_a_skolem_function) :-
    clauses(all(1, some(2, rel(r, [v(1), v(2)]))), [[rel(r, [X, Sk])]]),
    var(X), Sk =.. [sk, 1, Y], Y == X.

test(negation_is_pushed_to_the_atoms) :-
    clauses(not(and(rel(p, [a]), rel(q, [a]))), [[-rel(p, [a]), -rel(q, [a])]]).

test(an_implication_is_a_clause) :-
    clauses(all(1, imp(rel(p, [v(1)]), rel(q, [v(1)]))), [[-rel(p, [X]), rel(q, [Y])]]), X == Y.

test(an_iff_of_compound_operands_is_defined_once_per_polarity) :-
    F = iff(and(rel(p, [a]), rel(q, [a])), or(rel(r, [a]), rel(s, [a]))),
    clauses(F, Cs),
    findall(D, ( member(C, Cs), member(L, C), atom_of(L, rel(def(D), _)) ), Ds0), sort(Ds0, Ds),
    length(Ds, 2).

test(equality_brings_its_axioms) :-
    clausal_form([f-rel(p, [a]), g-not(eq(a, b))], Tagged),
    memberchk(equality-[rel('=', [X, X1])], Tagged), X == X1,
    once(( member(equality-C, Tagged), length(C, 3), memberchk(rel(p, _), C) )).

test(no_equality_no_axioms) :-
    clausal_form([f-rel(p, [a])], Tagged),
    \+ memberchk(equality-_, Tagged).

test(complement_both_ways) :-
    complement(rel(p, [a]), N), N == -rel(p, [a]),
    complement(N, P), P == rel(p, [a]).

test(memberchk_eq_does_not_unify) :-
    memberchk_eq(X, [a, X]),
    \+ memberchk_eq(_, [a, b]).

:- end_tests(clausal).
