/*  Plain-swipl tests of src/ambit/logic/engine/prolog/situations.pl:
        swipl -g run_tests -t halt tests/logic/prolog/test_situations.pl
    Which candidate is the scene is the one model checker's to say (tests/logic/explain/test_explain.py).
*/
:- use_module('../../../src/ambit/logic/engine/prolog/situations').
:- use_module(library(plunit)).
:- use_module(library(lists)).

:- begin_tests(situations).

every_boy_a_dog(every(X, [boy], ex(Y, [dog], rel(saw, [X, Y])))).

%  two boys who saw different dogs: the scene that tells every boy/a dog from a dog/every boy
test(the_candidates_hold_the_scene_that_separates_the_two_scopes) :-
    every_boy_a_dog(A),
    findall(Facts, candidate(A, [boy, dog], [], [], [], [boy], 4, model(_, _, _, Facts)), All),
    memberchk([rel(saw, [1, 3]), rel(saw, [2, 4])], All).

test(every_candidate_is_made_of_the_first_readings_witnesses) :-
    every_boy_a_dog(A),
    forall(candidate(A, [boy, dog], [], [], [], [boy], 3, model(_, _, Sorts, Facts)),
           forall(member(B-boy, Sorts), ( member(rel(saw, [B, D]), Facts), memberchk(D-dog, Sorts) ))).

test(no_candidate_has_fewer_elements_than_names, [fail]) :-
    candidate(rel(walker, ['TM']), [], ['TM', 'DBA'], ['TM'-[walker], 'DBA'-[walker]], [], [], 1, _).

test(readings_that_differ_only_in_names_get_a_scene_with_the_noun_on_one_name) :-
    candidate(rel(walker, ['TM']), [], ['DBA', 'TM'], ['DBA'-[walker], 'TM'-[walker]], [], [], 2,
              model(_, Names, Sorts, _)),
    memberchk('TM'-E, Names), Sorts == [E-walker].

test(pages_of_candidates_add_up_to_all_of_them, [nondet]) :-
    every_boy_a_dog(A), Args = [[boy, dog], [], [], [], [boy]],
    findall(M, ( C =.. [candidate, A|Args], call(C, 4, M) ), All), length(All, N), N > 2,
    C2 =.. [candidates_json, A|Args],
    call(C2, 4, 0, 2, D1), call(C2, 4, 2, 100, D2),
    D1.more == true, D2.more == false,
    append(D1.scenes, D2.scenes, Scenes), length(Scenes, N).

test(candidates_json_checks_its_lists, [throws(error(type_error(list(atom), boy), _))]) :-
    candidates_json(true, boy, [], [], [], [], 2, 0, 10, _).

:- end_tests(situations).
