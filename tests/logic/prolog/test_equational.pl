/*  Plain-swipl tests of src/ambit/logic/engine/prolog/equational.pl:
        swipl -g run_tests -t halt tests/logic/prolog/test_equational.pl
*/
:- use_module('../../../src/ambit/logic/engine/prolog/equational').
:- use_module(library(plunit)).

:- begin_tests(equational).

f(X, Y, fn(f, [X, Y])).

%  Pelletier 65: associativity, a left identity, every element its own inverse; the goal
%  f(sk1, sk2) ≠ f(sk2, sk1) (commutativity, negated and Skolemized)
p65([1-premise(0)-[rel('=', [fn(f, [fn(f, [X, Y]), Z]), fn(f, [X, fn(f, [Y, Z])])])],
     2-premise(1)-[rel('=', [fn(f, [a, U]), U])],
     3-premise(2)-[rel('=', [fn(f, [V, V]), a])],
     4-negated_conclusion-[-rel('=', [fn(f, [sk(1), sk(2)]), fn(f, [sk(2), sk(1)])])]]).

clauses(Numbered, Cs) :- findall(C, member(_-_-C, Numbered), Cs).

test(pelletier_65_is_refuted_and_the_proof_replays) :-
    p65(N), unit_equational(N, P), once(complete(P, Proof)),
    clauses(N, Cs), once(equational_proof_ok(Proof, Cs)),
    Proof = eqproof(Records, goal(4, negated_conclusion, _, _, _)),
    memberchk(e(1, _, _, input(1, premise(0))), Records).

test(a_tampered_link_does_not_replay) :-
    p65(N), unit_equational(N, P), once(complete(P, eqproof(Records, Goal))),
    clauses(N, Cs),
    Goal = goal(I, Tag, F, L, [T0, s(Id, Pos, Dir, T1)|Links]),
    Id \== 2,   % the left identity f(a, X) = X: not what joins the goal's sides
    \+ equational_proof_ok(eqproof(Records, goal(I, Tag, F, L, [T0, s(2, Pos, Dir, T1)|Links])), Cs).

test(a_record_that_claims_another_input_does_not_replay) :-
    p65(N), unit_equational(N, P), once(complete(P, eqproof([e(1, L, R, input(1, T))|Rs], G))),
    clauses(N, Cs),
    \+ equational_proof_ok(eqproof([e(1, L, R, input(2, T))|Rs], G), Cs).

test(an_equation_with_a_variable_of_its_own_rewrites_ground_terms) :-
    % Pelletier 58: f(X) = g(Y) ⊢ f(f(c)) = f(g(d))
    N = [1-premise(0)-[rel('=', [fn(f, [X]), fn(g, [_Y])])],
         2-negated_conclusion-[-rel('=', [fn(f, [fn(f, [c])]), fn(f, [fn(g, [d])])])]],
    X = X,
    unit_equational(N, P), once(complete(P, Proof)), clauses(N, Cs), once(equational_proof_ok(Proof, Cs)).

test(a_satisfiable_unit_set_saturates_without_a_proof, [fail]) :-
    N = [1-premise(0)-[rel('=', [fn(f, [a]), b])], 2-negated_conclusion-[-rel('=', [a, b])]],
    unit_equational(N, P), complete(P, _).

test(only_unit_equations_are_taken, [fail]) :-
    unit_equational([1-premise(0)-[rel('=', [a, b]), rel('=', [a, c])], 2-negated_conclusion-[-rel('=', [b, c])]], _).

test(predicates_are_not_taken, [fail]) :-
    unit_equational([1-premise(0)-[rel(p, [a])], 2-negated_conclusion-[-rel('=', [a, b])]], _).

test(without_a_goal_nothing_is_taken, [fail]) :-
    unit_equational([1-premise(0)-[rel('=', [a, b])]], _).

test(the_order_orients_associativity_and_is_not_total_on_variables) :-
    A = app(fn(f), [app(fn(f), [X, Y]), Z]), B = app(fn(f), [X, app(fn(f), [Y, Z])]),
    equational:kbo(A, B), \+ equational:kbo(B, A),
    FX = app(fn(f), [X]), GY = app(fn(g), [Y]),
    \+ equational:kbo(FX, GY), \+ equational:kbo(GY, FX).

:- end_tests(equational).
