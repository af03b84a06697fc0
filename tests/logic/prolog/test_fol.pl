/*  Plain-swipl tests of logic/prolog/fol.pl:
        swipl -g run_tests -t halt tests/logic/prolog/test_fol.pl
*/
:- use_module('../../../logic/prolog/fol').
:- use_module(library(plunit)).
:- use_module(library(time)).

:- begin_tests(fol).

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
    fol:bounded(plunit_fol:spin, 10000, R1), R1 == inference_limit,
    fol:bounded(plunit_fol:answers(none), 10000, R2), R2 == failed,
    fol:bounded(plunit_fol:answers(7), 10000, R3), R3 == ok(7).

test(bounded_names_a_stack_overflow, [setup(( current_prolog_flag(stack_limit, L),
                                              set_prolog_flag(stack_limit, 64 000 000) )),
                                      cleanup(set_prolog_flag(stack_limit, L))]) :-
    fol:bounded(plunit_fol:grow, 1 000 000 000 000, R), R == memory_limit.

test(bounded_lets_a_time_limit_through) :-
    catch(call_with_time_limit(0.2, fol:bounded(plunit_fol:spin, 1 000 000 000 000, _)), E, true),
    E == time_limit_exceeded.

test(bounded_lets_other_errors_through) :-
    catch(fol:bounded(plunit_fol:thrower, 10000, _), E, true),
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

:- end_tests(fol).
