/*  json_call.pl -- solve a goal given as text and return one variable's value as JSON text.

    Used by PrologWorker.query_json (and query_json_quiet, submit_json_quiet): the goal is read
    here, inside Prolog, so the only variable pyswip sees (and converts to Python) is Reply,
    however large the goal and its bindings are (pyswip converts every named variable of a
    query, ~0.1 ms each at best).
*/

:- module(json_call, [json_call/4]).

:- use_module(library(time)).
:- use_module(library(error)).

%!  json_call(+Text:text, +OutName:atom, +Seconds:number, -Reply:string) is semidet.
%
%   Solve the goal read from Text once within Seconds. Reply is a string: "ok " followed by
%   the JSON of the variable named OutName, "timeout", or "error " followed by the error term.
%   Fails when the goal fails. Every Python query comes through here (runtime/worker.py), so
%   its arguments are checked.
json_call(Text, OutName, Seconds, Reply) :-
    must_be(text, Text), must_be(atom, OutName), must_be(number, Seconds),
    term_string(Goal, Text, [variable_names(Bindings), module(user)]),
    ( memberchk(OutName = Out, Bindings) -> true ; Out = null ),
    catch(call_with_time_limit(Seconds, user:Goal), Error, true),
    reply(Error, Out, Reply).

reply(Error, Out, Reply) :-
    var(Error), !,
    catch(with_output_to(string(Reply), ( write('ok '), json(Out) )), E, reply(E, Out, Reply)).
reply(time_limit_exceeded, _, "timeout") :- !.
reply(Error, _, Reply) :- format(string(Reply), "error ~q", [Error]).


/*  A JSON writer for the replies (library(http/json) takes longer to load than everything
    else a short-lived process asks of Prolog). It writes what json_write_dict/3 writes for
    these terms: dicts and json([Key=Value, Key-Value ...]) as objects (a dict's keys in
    standard order), lists as arrays, true/false/null as themselves, other atoms and strings
    as JSON strings, numbers as numbers; anything else is a type_error(json_term, X).
*/

json(X) :- var(X), !, instantiation_error(X).
json(X) :- atom(X), !, atom_json(X).
json(X) :- string(X), !, string_json(X).
json(X) :- number(X), !, number_json(X).
json([]) :- !, write('[]').
json([X|Xs]) :- !, put_char('['), json(X), items(Xs), put_char(']').
json(json(Pairs)) :- !, object(Pairs).
json(X) :- is_dict(X), !, dict_pairs(X, _, Pairs), object(Pairs).
json(X) :- type_error(json_term, X).

atom_json(true) :- !, write(true).
atom_json(false) :- !, write(false).
atom_json(null) :- !, write(null).
atom_json(A) :- string_json(A).

number_json(X) :- integer(X), !, write(X).
number_json(X) :- X =:= X, abs(X) =\= inf, !, write(X).  % finite floats; NaN and infinities are no JSON
number_json(X) :- type_error(json_term, X).

items([]) :- !.
items([X|Xs]) :- !, put_char(','), json(X), items(Xs).
items(T) :- type_error(list, T).

object([]) :- !, write('{}').
object([P|Ps]) :- put_char('{'), member_json(P), members(Ps), put_char('}').

members([]).
members([P|Ps]) :- put_char(','), member_json(P), members(Ps).

member_json(K=V) :- !, key(K), put_char(':'), json(V).
member_json(K-V) :- !, key(K), put_char(':'), json(V).
member_json(P) :- type_error(json_member, P).

key(K) :- ( atom(K) ; string(K) ), !, string_json(K).
key(K) :- number(K), !, format("\"~w\"", [K]).
key(K) :- type_error(json_key, K).

%  a string as JSON: text without ", \ or control characters (found by split_string/4, in C)
%  written as it is; otherwise code by code, those escaped
string_json(S) :-
    put_char('"'),
    (   specials(Sep, Nul), split_string(S, Sep, "", [_]), \+ sub_atom(S, _, _, _, Nul)
    ->  write(S)
    ;   atom_codes(S, Cs), maplist(code_json, Cs)
    ),
    put_char('"').

%  specials(-Sep, -Nul): ", \ and the control characters 1-31 as split_string/4's separators
%  (which stop at a NUL), and NUL, looked for apart
:- dynamic specials/2.
:- numlist(1, 31, Cs), string_codes(Sep, [0'", 0'\\|Cs]), atom_codes(Nul, [0]), assertz(specials(Sep, Nul)).

code_json(0'") :- !, write('\\"').
code_json(0'\\) :- !, write('\\\\').
code_json(0'\n) :- !, write('\\n').
code_json(0'\t) :- !, write('\\t').
code_json(0'\r) :- !, write('\\r').
code_json(C) :- C < 32, !, format("\\u~|~`0t~16r~4+", [C]).
code_json(C) :- put_code(C).
