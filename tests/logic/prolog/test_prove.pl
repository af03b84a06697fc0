/*  Plain-swipl tests of src/ambit/logic/engine/prolog/prove.pl:
        swipl -g run_tests -t halt tests/logic/prolog/test_prove.pl
*/
:- use_module('../../../src/ambit/logic/engine/prolog/prove').
:- use_module(library(plunit)).
:- use_module(library(time)).

:- begin_tests(prove).

%  Only infinite models: R serial, irreflexive, transitive (no proof, no finite model).
infinite([premise(0)-all(1, some(2, rel('R', [v(1), v(2)]))),
          premise(1)-all(3, not(rel('R', [v(3), v(3)]))),
          premise(2)-all(4, all(5, all(6, imp(and(rel('R', [v(4), v(5)]), rel('R', [v(5), v(6)])),
                                             rel('R', [v(4), v(6)])))))]).

spin(X) :- spin(X).
grow(L) :- length(L, 400000000).
thrower(_) :- throw(error(proof_replay_failed(x), _)).
answers(X, X).

test(modus_ponens_is_refuted_with_a_replayed_proof) :-
    status([premise(0)-all(1, imp(rel(p, [v(1)]), rel(q, [v(1)]))), premise(1)-rel(p, [a]),
            negated_conclusion-not(rel(q, [a]))], budget(100000, 4), S),
    S = unsat(start(_, _, _)).

test(a_countermodel_is_found) :-
    status([premise(0)-rel(p, [a]), negated_conclusion-not(rel(q, [a]))], budget(100000, 4), S),
    S = sat(model(1, [a-1], Trues, [])), Trues == [p-[1]].

test(a_spent_inference_budget_is_named) :-
    infinite(Fs),
    status([negated_conclusion-not(rel(p, [a]))|Fs], budget(20000, 3), S),
    S == unknown(inference_limit).

test(bounded_names_what_stopped_a_stage) :-
    prove:bounded(plunit_prove:spin, 10000, R1), R1 == inference_limit,
    prove:bounded(plunit_prove:answers(none), 10000, R2), R2 == failed,
    prove:bounded(plunit_prove:answers(7), 10000, R3), R3 == ok(7).

test(bounded_names_a_stack_overflow, [setup(( current_prolog_flag(stack_limit, L),
                                              set_prolog_flag(stack_limit, 64 000 000) )),
                                      cleanup(set_prolog_flag(stack_limit, L))]) :-
    prove:bounded(plunit_prove:grow, 1 000 000 000 000, R), R == memory_limit.

test(bounded_lets_a_time_limit_through) :-
    catch(call_with_time_limit(0.2, prove:bounded(plunit_prove:spin, 1 000 000 000 000, _)), E, true),
    E == time_limit_exceeded.

test(bounded_lets_other_errors_through) :-
    catch(prove:bounded(plunit_prove:thrower, 10000, _), E, true),
    E = error(proof_replay_failed(x), _).

test(each_item_keeps_its_own_time) :-
    infinite(Fs), pairs_values(Fs, Ps),
    batch_json([decide(Ps, rel(p, [a])), decide([rel(p, [a])], rel(p, [a]))], budget(1 000 000 000 000, 8, 0.3), [D1, D2]),
    D1 = json([seconds=S1, verdict='UNKNOWN'|Parts]), S1 >= 0.3,
    forall(member(P, [with_negated_conclusion, with_conclusion]),
           memberchk(P=json([status=unknown, reason=time_limit]), Parts)),
    D2 = json([seconds=S2, verdict='TRUE'|_]), number(S2).

test(function_terms_are_proved) :-
    status([premise(0)-all(1, imp(rel(p, [v(1)]), rel(p, [fn(f, [v(1)])]))), premise(1)-rel(p, [a]),
            negated_conclusion-not(rel(p, [fn(f, [fn(f, [a])])]))], budget(1000000, 4), unsat(_)).

test(function_terms_with_equality_are_proved) :-
    %  f injective, f(a) = f(b) |- a = b
    status([premise(0)-all(1, all(2, imp(eq(fn(f, [v(1)]), fn(f, [v(2)])), eq(v(1), v(2))))),
            premise(1)-eq(fn(f, [a]), fn(f, [b])),
            negated_conclusion-not(eq(a, b))], budget(1000000, 4), unsat(_)).

test(models_carry_function_tables) :-
    %  no fixed point: two elements at least, and f's table says where each goes
    status([premise(0)-all(1, not(eq(fn(f, [v(1)]), v(1))))], budget(1000000, 4), S),
    S = sat(model(2, [], [], Table)),
    msort(Table, [f-[1]-2, f-[2]-1]).


%  Pelletier 49: at most two elements, p(a), p(b), a ≠ b ⊢ ∀x p(x); the negated conclusion's
%  clausal form has constants only (a, b, two Skolem constants for the two elements, one
%  for the counterexample), so no model of at most 5 elements decides it.
p49([premise(0)-some(1, some(2, all(3, or(eq(v(3), v(1)), eq(v(3), v(2)))))),
     premise(1)-and(rel(p, [a]), rel(p, [b])),
     premise(2)-not(eq(a, b)),
     negated_conclusion-not(all(4, rel(p, [v(4)])))]).

test(a_function_free_problem_is_decided_by_exhausting_its_herbrand_bound) :-
    p49(Fs), prove:conj(Fs, F),
    prove:function_free_bound(Fs, 5, function_free(5)),
    prove:model_or_exhaustion(Fs, F, bound(5, function_free(5)), 8, S),
    S = unsat(exhausted(5, function_free(5), Tags)),
    Tags == [premise(0), premise(1), premise(2), negated_conclusion],
    prove:proof_json(exhausted(5, function_free(5), Tags), [json([step=exhausted|_])|Formulas]),
    length(Formulas, 4).

%  Pelletier 49's first premise says every element is one of two: no model has more
test(a_domain_closure_bounds_the_model_search) :-
    p49(Fs), prove:conj(Fs, F),
    prove:finite_bound(Fs, F, N, Why), N == 2, Why == closure(2),
    prove:model_or_exhaustion(Fs, F, bound(N, Why), 8, S),
    S = unsat(exhausted(2, closure(2), _)),
    prove:proof_json(exhausted(2, closure(2), [premise(0)]), [json([step=exhausted, depth=0, literal=T])|_]),
    sub_string(T, _, _, _, "one of 2 named ones").

test(a_function_free_clausal_form_is_decided_by_grounding) :-
    p49(Fs), prove:conj(Fs, F),
    prove:herbrand_bound(Fs, Bound), Bound = herbrand(_, 5),
    prove:model_or_exhaustion(Fs, F, Bound, 8, S),
    S = unsat(exhausted(5, herbrand(5), Tags)), length(Tags, 4),
    status(Fs, budget(1000000, 8), unsat(_)).

test(a_grounded_model_is_the_smallest_one_found) :-
    %  p(a), ¬p(b), ∀x (p(x) ∨ q(x)): a model of two elements, a ↦ 1, b ↦ 2
    Fs = [premise(0)-and(rel(p, [a]), not(rel(p, [b]))), premise(1)-all(1, or(rel(p, [v(1)]), rel(q, [v(1)])))],
    prove:conj(Fs, F),
    prove:herbrand_bound(Fs, Bound),
    prove:model_or_exhaustion(Fs, F, Bound, 8, S),
    S = sat(model(2, Vals, Trues, [])),
    msort(Vals, [a-1, b-2]), memberchk(p-[1], Trues), memberchk(q-[2], Trues).

test(the_herbrand_model_is_the_answer_past_the_largest_domain) :-
    %  five named elements, pairwise distinct; MaxDomain 2: the Herbrand model, classes of one each
    Names = [a, b, c, d, e],
    findall(not(eq(X, Y)), ( member(X, Names), member(Y, Names), X @< Y ), Ds),
    prove:tagged(Ds, 0, Fs), prove:conj(Fs, F),
    prove:herbrand_bound(Fs, Bound),
    prove:model_or_exhaustion(Fs, F, Bound, 2, S),
    S = sat(model(5, Vals, [], [])), msort(Vals, [a-1, b-2, c-3, d-4, e-5]).

test(pigeonhole_as_inconsistent_axioms_is_refuted) :-
    %  three distinct pigeons, each in one of two holes, no two in one hole
    Ps = [p1, p2, p3],
    findall(or(rel(in, [P, h1]), rel(in, [P, h2])), member(P, Ps), Housed),
    findall(not(eq(P, Q)), ( member(P, Ps), member(Q, Ps), P @< Q ), Distinct),
    One = all(1, all(2, all(3, imp(and(rel(in, [v(1), v(3)]), rel(in, [v(2), v(3)])), eq(v(1), v(2)))))),
    append([Housed, [One], Distinct], Axioms), prove:tagged(Axioms, 0, Fs),
    status(Fs, budget(2000000, 8), S),
    S = unsat(exhausted(5, herbrand(5), _)).

test(a_monadic_formula_is_bounded_by_its_types) :-
    F = not(iff(some(1, all(2, iff(rel(p, [v(1)]), rel(p, [v(2)])))),
                iff(some(3, rel(q, [v(3)])), all(4, rel(p, [v(4)]))))),
    once(prove:finite_bound([negated_conclusion-F], F, N, Why)), N == 4, Why == monadic(2).

test(a_skolem_function_leaves_no_bound, [fail]) :-
    F = all(1, some(2, rel(r, [v(1), v(2)]))),
    prove:finite_bound([premise(0)-F], F, _, _).

test(a_model_within_the_bound_is_a_model) :-
    F = and(rel(p, [a]), not(rel(p, [b]))),
    prove:model_or_exhaustion([premise(0)-F], F, bound(2, function_free(2)), 8, S),
    S = sat(model(2, _, _, _)).

test(unit_equations_are_refuted_by_completion_with_a_replayed_proof) :-
    status([premise(0)-all(1, all(2, all(3, eq(fn(f, [fn(f, [v(1), v(2)]), v(3)]), fn(f, [v(1), fn(f, [v(2), v(3)])]))))),
            premise(1)-all(4, eq(fn(f, [a, v(4)]), v(4))),
            premise(2)-all(5, eq(fn(f, [v(5), v(5)]), a)),
            negated_conclusion-not(all(6, all(7, eq(fn(f, [v(6), v(7)]), fn(f, [v(7), v(6)])))))],
           budget(2000000, 4), S),
    S = unsat(eqproof(_, goal(_, negated_conclusion, _, _, _))),
    S = unsat(P), prove:proof_json(P, Steps), last(Steps, json([step=goal|_])).

test(batch_json_checks_its_items_and_budget, [throws(error(type_error(list, equiv(a, b)), _))]) :-
    batch_json(equiv(a, b), budget(1000, 2, 1.0), _).

test(batch_json_takes_a_budget_without_seconds) :-
    batch_json([], budget(1000, 2), []).

:- end_tests(prove).
