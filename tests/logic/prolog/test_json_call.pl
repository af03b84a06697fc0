/*  Plain-swipl tests of src/ambit/logic/engine/prolog/json_call.pl:
        swipl -g run_tests -t halt tests/logic/prolog/test_json_call.pl
*/
:- use_module('../../../src/ambit/logic/engine/prolog/json_call').
:- use_module(library(plunit)).

:- begin_tests(json_call).

test(a_value_comes_back_as_json) :-
    json_call("X = json([a=1, b=[true, null, \"q\\\"uote\"]])", 'X', 1.0, R),
    R == "ok {\"a\":1,\"b\":[true,null,\"q\\\"uote\"]}".

test(a_goal_past_its_time_says_timeout) :-
    json_call("repeat, fail", 'X', 0.1, R), R == "timeout".

test(an_error_is_written_out) :-
    json_call("X is foo + 1", 'X', 1.0, R), sub_string(R, 0, 6, _, "error ").

test(a_failed_goal_fails, [fail]) :-
    json_call("fail", 'X', 1.0, _).

test(control_characters_are_escaped) :-
    atom_codes(A, [0'a, 1, 0'\n]), format(string(G), "X = ~q", [A]),
    json_call(G, 'X', 1.0, R), R == "ok \"a\\u0001\\n\"".

test(the_output_name_must_be_an_atom, [throws(error(type_error(atom, 1), _))]) :-
    json_call("X = 1", 1, 1.0, _).

:- end_tests(json_call).
