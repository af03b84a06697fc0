/*  Plain-swipl tests of src/ambit/logic/engine/prolog/radd.pl:
        swipl -g run_tests -t halt tests/logic/prolog/test_radd.pl
*/
:- use_module('../../../src/ambit/logic/engine/prolog/radd').
:- use_module(library(plunit)).
:- use_module(library(http/json)).

:- begin_tests(radd).

instance(_{id: t, entity: 'Wilhelmshaven',
           spans: [_{premise: 1, relation: 'Johann Janssen', start: [1961, 1], end: [1972, 1]},
                   _{premise: 2, relation: 'Andreas Wagner', start: [2011, 11], end: [2019, 10]}],
           properties: [_{premise: 3, relation: 'Johann Janssen', values: ['Schortens']},
                        _{premise: 4, relation: 'Andreas Wagner', values: ['Munich']}],
           regularity: _{premise: 5, text: 'A person\'s birth place does not change over time.'},
           current: [2013, 3],
           sentence: _{date: [1962, 7], values: ['Schortens']},
           options: [_{number: 1, reading: de_dicto, relation: 'Johann Janssen'},
                     _{number: 2, reading: de_re, relation: 'Andreas Wagner'}]}).

test(the_de_dicto_reading_holds) :-
    instance(I), radd_verify(I, Out),
    Out.answer_option == 1,
    member(R, Out.interpretations), R.reading == de_dicto, R.verdict == consistent, !.

test(the_instance_is_unloaded_after) :-
    instance(I), radd_verify(I, _),
    \+ relation(_, _, _, _).

test(the_other_thread_sees_none_of_it) :-
    instance(I),
    radd:load_instance(I),
    thread_create(\+ radd:premise(_, _), Id, []),
    thread_join(Id, Status),
    radd:unload_instance,
    Status == true.

test(a_json_list_of_instances) :-
    instance(I), atom_json_dict(Text, [I], []),
    radd_verify_json(Text, [Out]), Out.answer_option == 1.

test(the_json_must_be_text, [throws(error(type_error(text, 1), _))]) :-
    radd_verify_json(1, _).

:- end_tests(radd).
