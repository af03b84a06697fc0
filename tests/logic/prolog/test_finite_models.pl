/*  Plain-swipl tests of src/ambit/logic/engine/prolog/finite_models.pl:
        swipl -g run_tests -t halt tests/logic/prolog/test_finite_models.pl
*/
:- use_module('../../../src/ambit/logic/engine/prolog/finite_models').
:- use_module(library(plunit)).

:- begin_tests(finite_models).

test(the_smallest_model_is_found) :-
    %  P(a), ¬P(b): a and b differ, so two elements
    find_model(and(rel(p, [a]), not(rel(p, [b]))), 4, M),
    M = model(2, Vals, Trues, []), msort(Vals, [a-1, b-2]), Trues == [p-[1]].

test(no_model_that_small_is_none) :-
    %  a serial, irreflexive, transitive R has only infinite models
    F = and(all(1, some(2, rel(r, [v(1), v(2)]))),
            and(all(3, not(rel(r, [v(3), v(3)]))),
                all(4, all(5, all(6, imp(and(rel(r, [v(4), v(5)]), rel(r, [v(5), v(6)])), rel(r, [v(4), v(6)]))))))),
    find_model(F, 3, M), M == none.

test(function_tables_are_part_of_the_model) :-
    %  no fixed point: two elements at least, and f's table says where each goes
    find_model(all(1, not(eq(fn(f, [v(1)]), v(1)))), 4, model(2, [], [], Table)),
    msort(Table, [f-[1]-2, f-[2]-1]).

test(the_model_json_names_constants_atoms_and_functions) :-
    model_json(model(2, [a-1], [p-[2]], [f-[1]-2]), json([size=2, constants=json([a=1]), atoms=[[p, 2]], functions=[[f, [1], 2]]])).

test(the_search_branches_on_atoms_first_and_drops_tautologies) :-
    finite_models:atoms_first([atom(p, [1])-A], [[T-true, A-true], [T-false, A-true, A-false]], Cs),
    Cs == [[A-true, T-true]].

test(unit_propagation_runs_to_a_fixpoint_in_one_pass) :-
    %  a, a → b, b → c: all three set without branching
    finite_models:propagate([[A-true], [A-false, B-true], [B-false, C-true]], Open),
    Open == [], A == true, B == true, C == true.

test(a_conflict_fails, [fail]) :-
    finite_models:sat([[A-true], [A-false]]).

:- end_tests(finite_models).
