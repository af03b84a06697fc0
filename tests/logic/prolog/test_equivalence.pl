/*  Plain-swipl tests of src/ambit/logic/engine/prolog/equivalence.pl (the first stage of the one
    engine, and the pair's way on to prove.pl):
        swipl -g run_tests -t halt tests/logic/prolog/test_equivalence.pl
*/
:- use_module('../../../src/ambit/logic/engine/prolog/equivalence').
:- use_module(library(plunit)).

:- begin_tests(equivalence).

boy_cup_ea(some(X, all(Y, some(E, and(rel(boy, [Y]), and(rel(cup, [X]),
           and(rel(agent, [E, Y]), rel(patient, [E, X])))))))).
boy_cup_ae(all(X, some(Y, some(E, and(rel(boy, [X]), and(rel(cup, [Y]),
           and(rel(agent, [E, X]), rel(patient, [E, Y])))))))).

budget(budget(1000000, 8, 10.0)).

test(scope_one_way) :-
    boy_cup_ea(A), boy_cup_ae(B),
    entails(A, B, true), entails(B, A, false).

test(scope_pair_refuted_direction_has_the_first_stage_candidate) :-
    boy_cup_ea(A), boy_cup_ae(B), budget(Bu),
    equiv_batch_json([p(A, B)], Bu, [D]),
    D.sld == [true, false],
    D.a_not_b == null,                        % proved by the first stage: not searched
    D.b_not_a = json(Fields), memberchk(status=sat, Fields), memberchk(candidate=true, Fields).

test(without_candidates_the_refuted_direction_goes_on_to_the_model_search) :-
    boy_cup_ea(A), boy_cup_ae(B), budget(Bu),
    equiv_batch_json([p(A, B)], Bu, false, [D]),
    D.sld == [true, false],
    D.b_not_a = json(Fields), memberchk(status=sat, Fields), \+ memberchk(candidate=_, Fields).

test(ground_candidate_is_the_failing_case_with_a_fresh_element) :-
    % exists a . saw(a) AND agent(a, Mary)  |/=  exists a . saw(a) AND agent(a, John)
    A = some(E, and(rel(saw, [E]), rel(agent, [E, 'Mary']))),
    B = some(F, and(rel(saw, [F]), rel(agent, [F, 'John']))),
    candidate(A, B, model(N, Names, Facts)),
    N == 4,                                   % John, Mary, the event, one fresh element
    msort(Names, ['John'-_, 'Mary'-M]),
    memberchk(rel(agent, [Ev, M]), Facts), memberchk(rel(saw, [Ev]), Facts),
    memberchk('John'-J, Names), \+ memberchk(rel(agent, [_, J]), Facts).

test(unfolded_candidate_gives_each_element_its_own_witness) :-
    % forall x . exists y . r(x, y): no element is its own witness, and none is everyone's
    A = all(X, some(Y, rel(r, [X, Y]))),
    B = some(Z, all(W, rel(r, [W, Z]))),
    entails(A, B, false),
    candidate(A, B, model(N, [], Facts)),
    N > 1,
    forall(between(1, N, I), memberchk(rel(r, [I, _]), Facts)),
    \+ ( between(1, N, Z1), forall(between(1, N, W1), memberchk(rel(r, [W1, Z1]), Facts)) ).

test(no_candidate_for_a_direction_the_first_stage_proves, [fail]) :-
    boy_cup_ea(A), boy_cup_ae(B),
    candidate(A, B, _).

test(renaming_is_canonical) :-
    sld_pair(some(X, rel(p, [X])), some(Y, rel(p, [Y])), 1000, canonical).

test(distributivity_by_sld) :-
    sld_pair(some(X, and(rel(p, [X]), or(rel(a, [X]), rel(b, [X])))),
             some(Y, or(and(rel(p, [Y]), rel(a, [Y])), and(rel(p, [Y]), rel(b, [Y])))),
             1000000, sld(true, true)).

test(occurs_check_separates_scopes) :-
    entails(all(X, some(Y, rel(r, [X, Y]))), some(Y2, all(X2, rel(r, [X2, Y2]))), false).

test(or_under_forall_is_not_a_false_refutation) :-
    entails(all(X, or(rel(p, [X]), rel(q, [X]))), some(Y, or(rel(p, [Y]), rel(q, [Y]))), R),
    R \== false.

test(what_sld_leaves_open_the_second_step_proves) :-
    % (forall x . p(x) OR q(Mary)) |= (forall x . p(x)) OR q(Mary): beyond SLD (an OR under a
    % universal), one instance of A's clause inside B's (monotone.pl), named by proved_by
    A = all(X, or(rel(p, [X]), rel(q, ['Mary']))),
    B = or(all(Y, rel(p, [Y])), rel(q, ['Mary'])),
    entails(A, B, unknown), budget(Bu),
    equiv_batch_json([p(A, B)], Bu, [D]),
    D.sld == [true, true], D.proved_by == [instances, sld],
    D.a_not_b == null, D.b_not_a == null.

test(an_or_under_forall_refuted_by_the_least_countermodel) :-
    % (forall x . p(x) OR q(x)) does not entail (forall y . p(y)) OR (forall z . q(z)): neither
    % step proves it, and the least countermodel search (a candidate) refutes it
    A = all(X, or(rel(p, [X]), rel(q, [X]))),
    B = or(all(Y, rel(p, [Y])), all(Z, rel(q, [Z]))), budget(Bu),
    equiv_batch_json([p(A, B)], Bu, [D]),
    D.sld == [null, true], D.proved_by == [null, sld],
    D.a_not_b = json(Fields), memberchk(status=sat, Fields), memberchk(candidate=true, Fields).

test(without_candidates_what_neither_step_settles_goes_on_to_prove_pl) :-
    A = all(X, or(rel(p, [X]), rel(q, [X]))),
    B = or(all(Y, rel(p, [Y])), all(Z, rel(q, [Z]))), budget(Bu),
    equiv_batch_json([p(A, B)], Bu, false, [D]),
    D.sld == [null, true],
    D.a_not_b = json(Fields), memberchk(status=sat, Fields), \+ memberchk(candidate=_, Fields).

test(or_under_forall_refuted_by_the_one_model_search) :-
    A = all(X, or(rel(p, [X]), rel(q, [X]))),
    B = or(all(Y, rel(p, [Y])), all(Z, rel(q, [Z]))),
    budget(Bu), entails_json(A, B, Bu, D),
    D.sld == null,
    D.a_not_b = json(Fields), memberchk(status=sat, Fields).

%  A pair that outlasts its time limit however busy the machine: on a pair solved in a fraction
%  of a millisecond, a 1 us limit was met only when the timer got the CPU before the pair ended
%  (on a loaded machine the answer came first). This one keeps the first stage seconds: that the
%  complete bipartite graph K(6,6) holds an 11-cycle is refuted only by trying every path.
test(time_runs_out_as_unknown) :-
    bipartite_and_odd_cycle(A, B),
    equiv_batch_json([p(A, B)], budget(1000000000, 8, 0.01), [D]),
    dict_pairs(D, _, [unknown-time_limit]).

%  A: exists 12 elements, six on each side, with an edge each way between the sides; B: exists an
%  11-cycle of edges (odd: no map of it into A's graph, which only the search over paths finds)
bipartite_and_odd_cycle(A, B) :-
    length(Ls, 6), length(Rs, 6), phrase(edges(Ls, Rs), Es), append(Ls, Rs, Vs), closed(Vs, Es, A),
    length(Cs, 11), Cs = [C|_], cycle(Cs, C, Ks), closed(Cs, Ks, B).

edges([], _) --> [].
edges([X|Xs], Ys) --> both(Ys, X), edges(Xs, Ys).

both([], _) --> [].
both([Y|Ys], X) --> [rel(e, [X, Y]), rel(e, [Y, X])], both(Ys, X).

cycle([X], C, [rel(e, [X, C])]) :- !.
cycle([X, Y|T], C, [rel(e, [X, Y])|Es]) :- cycle([Y|T], C, Es).

closed([], Es, F) :- conj(Es, F).
closed([V|Vs], Es, some(V, F)) :- closed(Vs, Es, F).

conj([E], E) :- !.
conj([E|Es], and(E, F)) :- conj(Es, F).

%  the arguments Python sends are checked once per call: a wrong one is a type error, not a failure
test(a_budget_that_is_no_budget_is_a_type_error, [throws(error(type_error(budget, budget(0, 8, 1.0)), _))]) :-
    equiv_batch_json([], budget(0, 8, 1.0), _).

test(candidates_must_be_a_boolean, [throws(error(type_error(boolean, maybe), _))]) :-
    budget(Bu), equiv_batch_json([], Bu, maybe, _).

:- end_tests(equivalence).
