/*  Plain-swipl tests of src/ambit/logic/engine/prolog/herbrand.pl:
        swipl -g run_tests -t halt tests/logic/prolog/test_herbrand.pl
*/
:- use_module('../../../src/ambit/logic/engine/prolog/herbrand').
:- use_module(library(plunit)).
:- use_module(library(lists)).

:- begin_tests(herbrand).

%  pigeonhole PHP(N+1, N) as ground clauses: each pigeon in a hole, no two in one hole
php(N, Cs) :-
    N1 is N + 1, numlist(1, N1, Ps), numlist(1, N, Hs),
    findall(C, ( member(P, Ps), findall(rel(in, [P, H]), member(H, Hs), C) ), Some),
    findall([-rel(in, [P, H]), -rel(in, [Q, H])], ( member(H, Hs), member(P, Ps), member(Q, Ps), P < Q ), Excl),
    append(Some, Excl, Cs).

sat_vars(Clauses, Vars) :- term_variables(Clauses, Vars).

test(pigeonhole_has_no_model) :-
    forall(between(2, 5, N), ( php(N, Cs), herbrand_decide(Cs, R, _), R == unsat )).

test(n_pigeons_fit_n_holes) :-
    php(3, Cs0), Cs0 = [_|Cs],                   % drop the 4th pigeon's clause: 3 pigeons, 3 holes
    herbrand_decide(Cs, sat(_, Trues), _),
    findall(P, member(in-[P, _], Trues), Ps), msort(Ps, Sorted), sort(Ps, Sorted).

test(sat_solve_finds_an_assignment_of_every_clause, [nondet]) :-
    Cs = [[A-true, B-true], [A-false, C-true], [B-false, C-false], [C-true, A-true]],
    sat_vars(Cs, Vs),
    sat_solve(Cs, Vs),
    forall(member(Cl, Cs), ( member(V-Bo, Cl), V == Bo )).

test(sat_solve_fails_on_a_contradiction, [fail]) :-
    Cs = [[A-true, B-true], [A-false, B-true], [A-true, B-false], [A-false, B-false]],
    sat_vars(Cs, Vs), sat_solve(Cs, Vs).

test(an_empty_clause_has_no_model, [fail]) :-
    sat_solve([[]], []).

test(universal_clauses_are_grounded_over_the_constants) :-
    %  p(a), ∀x (p(x) → q(x)), ¬q(a): unsatisfiable
    herbrand_decide([[rel(p, [a])], [-rel(p, [X]), rel(q, [X])], [-rel(q, [a])]], R, U),
    R == unsat, U == [a], var(X).

test(without_constants_one_element_stands_for_all) :-
    herbrand_decide([[rel(p, [X])], [-rel(p, [Y]), -rel(q, [Y])]], sat(Elements, Trues), U),
    var(X), var(Y), U == ['$e'], Elements == [['$e']], Trues == [p-[1]].

test(true_equations_merge_constants_into_one_element) :-
    %  a = b with equality's axioms (reflexivity, symmetry, transitivity, substitution for p)
    Cs = [[rel('=', [a, b])], [rel(p, [a])],
          [rel('=', [X, X])], [-rel('=', [X1, Y1]), rel('=', [Y1, X1])],
          [-rel('=', [X2, Y2]), -rel('=', [Y2, Z2]), rel('=', [X2, Z2])],
          [-rel('=', [X3, Y3]), -rel(p, [X3]), rel(p, [Y3])]],
    herbrand_decide(Cs, sat(Elements, Trues), _),
    Elements == [[a, b]], Trues == [p-[1]].

test(function_free_admits_skolem_constants_only) :-
    function_free([[rel(p, [sk(1), a, _])]]),
    \+ function_free([[rel(p, [sk(1, _)])]]),
    \+ function_free([[rel(p, [fn(f, [a])])]]).

test(ground_size_counts_instances) :-
    ground_size([[rel(p, [a, b])], [rel(q, [_, _])]], N), N == 5.

:- end_tests(herbrand).
