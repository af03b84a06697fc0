/*  json_call.pl -- solve a goal given as text and return one variable's value as JSON text.

    Used by PrologWorker.query_json (and query_json_quiet, submit_json_quiet): the goal is read
    here, inside Prolog, so the only variable pyswip sees (and converts to Python) is Reply,
    however large the goal and its bindings are (pyswip converts every named variable of a
    query, ~0.1 ms each at best).
*/

:- module(json_call, [json_call/4]).

:- use_module(library(time)).
:- use_module(library(http/json)).

%  json_call(+Text, +OutName, +Seconds, -Reply): solve the goal read from Text once within
%  Seconds. Reply is a string: "ok " followed by the JSON of the variable named OutName,
%  "timeout", or "error " followed by the error term. Fails when the goal fails.
json_call(Text, OutName, Seconds, Reply) :-
    term_string(Goal, Text, [variable_names(Bindings), module(user)]),
    ( memberchk(OutName = Out, Bindings) -> true ; Out = null ),
    catch(call_with_time_limit(Seconds, user:Goal), Error, true),
    reply(Error, Out, Reply).

reply(Error, Out, Reply) :-
    var(Error), !,
    with_output_to(string(Reply), ( write('ok '), json_write_dict(current_output, Out, [width(0)]) )).
reply(time_limit_exceeded, _, "timeout") :- !.
reply(Error, _, Reply) :- format(string(Reply), "error ~q", [Error]).
