/*  Plain-swipl tests of src/ambit/logic/engine/prolog/situations.pl:
        swipl -g run_tests -t halt tests/logic/prolog/test_situations.pl
*/
:- use_module('../../../src/ambit/logic/engine/prolog/situations').
:- use_module(library(plunit)).

:- begin_tests(situations).

test(a_scene_separates_the_two_scopes) :-
    A = every(X, [boy], ex(Y, [dog], rel(saw, [X, Y]))),
    B = ex(Y2, [dog], every(X2, [boy], rel(saw, [X2, Y2]))),
    situation(A, B, [boy, dog], [], [], [], [boy], 6, M),
    holds(A, M), \+ holds(B, M).

test(no_scene_when_one_reading_entails_the_other, [fail]) :-
    A = ex(Y, [dog], every(X, [boy], rel(saw, [X, Y]))),
    B = every(X2, [boy], ex(Y2, [dog], rel(saw, [X2, Y2]))),
    situation(A, B, [boy, dog], [], [], [], [boy], 5, _).

test(readings_that_differ_only_in_names) :-
    A = rel(walker, ['TM']),
    B = rel(walker, ['DBA']),
    situation(A, B, [], ['TM', 'DBA'], ['TM'-[walker], 'DBA'-[walker]], [], [], 3, M),
    holds(A, M), \+ holds(B, M).

:- end_tests(situations).
