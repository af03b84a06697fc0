/*  Plain-swipl tests of src/ambit/logic/engine/prolog/equivalence.pl:
        swipl -g run_tests -t halt tests/logic/prolog/test_equivalence.pl
*/
:- use_module('../../../src/ambit/logic/engine/prolog/equivalence').
:- use_module(library(plunit)).

:- begin_tests(equivalence).

boy_cup_ea(some(X, all(Y, some(E, and(rel(boy, [Y]), and(rel(cup, [X]),
           and(rel(agent, [E, Y]), rel(patient, [E, X])))))))).
boy_cup_ae(all(X, some(Y, some(E, and(rel(boy, [X]), and(rel(cup, [Y]),
           and(rel(agent, [E, X]), rel(patient, [E, Y])))))))).

test(scope_one_way) :-
    boy_cup_ea(A), boy_cup_ae(B),
    entails(A, B, true), entails(B, A, false).

test(scope_verdict_with_checked_countermodel) :-
    boy_cup_ea(A), boy_cup_ae(B),
    equivalent(A, B, result('NOT_EQUIVALENT', true, false, countermodel(b_entails_a, M))),
    satisfy(B, M), \+ satisfy(A, M).

test(renaming_is_equivalent) :-
    equivalent(some(X, rel(p, [X])), some(Y, rel(p, [Y])), result('EQUIVALENT', true, true, _)).

test(distributivity) :-
    equivalent(some(X, and(rel(p, [X]), or(rel(a, [X]), rel(b, [X])))),
               some(Y, or(and(rel(p, [Y]), rel(a, [Y])), and(rel(p, [Y]), rel(b, [Y])))),
               result('EQUIVALENT', _, _, _)).

test(occurs_check_separates_scopes) :-
    entails(all(X, some(Y, rel(r, [X, Y]))), some(Y2, all(X2, rel(r, [X2, Y2]))), false).

test(or_under_forall_is_not_a_false_refutation) :-
    entails(all(X, or(rel(p, [X]), rel(q, [X]))), some(Y, or(rel(p, [Y]), rel(q, [Y]))), R),
    R \== false.

test(countermodel_is_checked) :-
    countermodel(rel(p, ['Mary']), all(X, rel(p, [X])), 3, M),
    satisfy(rel(p, ['Mary']), M), \+ satisfy(all(X, rel(p, [X])), M).

test(connection_prover_proves_or_under_forall) :-
    % (forall x . p(x) OR q(Mary)) |= (forall x . p(x)) OR q(Mary): beyond SLD, within leanCoP.
    A = all(X, or(rel(p, [X]), rel(q, ['Mary']))),
    B = or(all(Y, rel(p, [Y])), rel(q, ['Mary'])),
    entails(A, B, unknown),
    equivalent(A, B, result('EQUIVALENT', true, true, proved(connection))).

test(or_under_forall_refuted_by_a_checked_countermodel) :-
    A = all(X, or(rel(p, [X]), rel(q, [X]))),
    B = or(all(Y, rel(p, [Y])), all(Z, rel(q, [Z]))),
    equivalent(A, B, result('NOT_EQUIVALENT', false, true, countermodel(a_entails_b, M))),
    satisfy(A, M), \+ satisfy(B, M).

test(model_checker_reads_like_the_truth_definition) :-
    M = model([1, 2], ['Mary'-1], [rel(r, [1, 2]), rel(r, [2, 1])]),
    satisfy(all(X, some(Y, rel(r, [X, Y]))), M),
    \+ satisfy(some(Y, all(X, rel(r, [X, Y]))), M),
    satisfy(some(Y, rel(r, ['Mary', Y])), M).

:- end_tests(equivalence).
