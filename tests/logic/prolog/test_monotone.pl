/*  Plain-swipl tests of src/ambit/logic/engine/prolog/monotone.pl (the second step of AmP's first
    stage: proofs by instances of the antecedent's clauses, least countermodels):
        swipl -g run_tests -t halt tests/logic/prolog/test_monotone.pl
*/
:- use_module('../../../src/ambit/logic/engine/prolog/monotone').
:- use_module(library(plunit)).

:- begin_tests(monotone).

%  ∃x ∀y r(x, y) and ∀y ∃x r(x, y): the first entails the second, not the other way round
ea(some(X, all(Y, rel(r, [X, Y])))).
ae(all(Y, some(X, rel(r, [X, Y])))).

test(a_prefix_swapped_to_the_weaker_one_is_proved) :-
    ea(A), ae(B), clause_proof(A, B, 1000000).

test(the_stronger_prefix_is_not_proved, [fail]) :-
    ea(A), ae(B), clause_proof(B, A, 1000000).

test(an_or_under_a_universal_is_one_clause_of_its_instances) :-
    % ∀x (p(x) ∨ q(Mary)) |= (∀y p(y)) ∨ q(Mary): SLD drops the OR under ∀x; one instance does it
    A = all(X, or(rel(p, [X]), rel(q, ['Mary']))),
    B = or(all(Y, rel(p, [Y])), rel(q, ['Mary'])),
    clause_proof(A, B, 1000000).

test(an_instance_at_a_herbrand_constant) :-
    % ∀x (p(x) ∨ q(x)) |= (∃y p(y)) ∨ (∀z q(z)) needs the clause at z's Herbrand constant
    A = all(X, or(rel(p, [X]), rel(q, [X]))),
    B = or(some(Y, rel(p, [Y])), all(Z, rel(q, [Z]))),
    clause_proof(A, B, 1000000).

test(an_existential_of_the_consequent_is_one_term_in_all_its_clauses, [fail]) :-
    % ∃x p(x) ∧ ∃y q(y) does not entail ∃z (p(z) ∧ q(z)): z cannot be both witnesses
    A = and(some(X, rel(p, [X])), some(Y, rel(q, [Y]))),
    B = some(Z, and(rel(p, [Z]), rel(q, [Z]))),
    clause_proof(A, B, 1000000).

test(the_least_countermodel_has_two_elements) :-
    ae(A), ea(B),
    countermodel(A, B, 4, model(N, [], Facts)),
    N == 2, Facts == [rel(r, [1, 1]), rel(r, [2, 2])].

test(no_countermodel_of_an_entailment, [fail]) :-
    ea(A), ae(B), countermodel(A, B, 3, _).

test(names_apart_when_they_must_be) :-
    % p(Mary) does not entail p(John): Mary and John apart, p only of Mary
    countermodel(rel(p, ['Mary']), rel(p, ['John']), 3, model(2, Names, Facts)),
    msort(Names, ['John'-J, 'Mary'-M]), J \== M, Facts == [rel(p, [M])].

test(two_names_on_one_element_make_the_smaller_model) :-
    % p(Mary) ∧ q(John) does not entail ∃x (p(x) ∧ r(x)): one element, both names on it
    countermodel(and(rel(p, ['Mary']), rel(q, ['John'])), some(X, and(rel(p, [X]), rel(r, [X]))), 3,
                 model(1, ['John'-1, 'Mary'-1], [rel(p, [1]), rel(q, [1])])).

test(a_part_already_true_is_not_grounded_again) :-
    % (∃x p(x)) ∧ p(Mary): the existential is true once p(Mary) is, so one atom suffices
    A = and(rel(p, ['Mary']), some(X, rel(p, [X]))),
    B = rel(q, ['Mary']),
    countermodel(A, B, 2, model(1, ['Mary'-1], [rel(p, [1])])).

:- end_tests(monotone).
