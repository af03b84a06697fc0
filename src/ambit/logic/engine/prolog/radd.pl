/*  radd.pl -- reasoning about ambiguous definite descriptions (RADD).

    An instance is a set of numbered premises about one entity:

        premise(p(N), relation(Entity, Relation, Start, End))   % (PN) entity--relation span
        premise(p(N), property(Relation, Values))                % (PN) the relation's value
        premise(p(N), regularity(Text))                          % (PN) values never change

    plus the current date and the sentence's date and asserted value:

        now(T)                  sentence(T, Values)

    Dates are month indices, T = Year*12 + Month, and a span holds at every month from
    Start to End inclusive (touching spans therefore share their boundary month). A value is a
    sorted, duplicate-free list of items: one item for most pairs, several for the
    "bodies of water" pair, whose lists are compared as sets. A relation may have several
    property premises (several values); it has a value V when one of them equals V.

    The sentence is ambiguous between two interpretations (terms):

        de_dicto(Tq, V)  the relation that held at Tq had V (at Tq);
        de_re(Tq, V)     the relation that holds now had V at Tq.

    By the regularity a relation has a value at Tq iff it has it at all, so each reading comes
    down to one property look-up for the right referent. Each option names its relation in
    parentheses; we reason with the named relation and check that the premises put it at the
    reading's reference time (a name the dates contradict is reported as a finding, and the
    dates decide instead when they can).

    Entry points:  radd_verify(+InstanceDict, -ResultDict)
                   radd_verify_json(+JsonText, -Results)   % a JSON list of instances
    Load with plain `swipl radd.pl`; `radd_demo.` runs a small worked example.
*/

:- module(radd, [radd_verify/2, radd_verify_json/2, radd_demo/0,
                 relation/4, property/2, holds_at/3, value_at/4]).

:- use_module(library(http/json)).
:- use_module(library(error)).
:- use_module(library(lists)).
:- use_module(library(apply)).

% the instance being verified: thread_local, so that Prolog threads verifying instances side by
% side never see each other's premises (load_instance/1 replaces them, per thread)
:- thread_local premise/2, now/1, sentence/2.

% ---------------------------------------------------------------------------------------
% The knowledge base of one instance.

%!  relation(?Entity, ?Relation, ?Start, ?End) is nondet.
%
%   A stated span of the entity's relation (months, Start and End included).
relation(E, R, S, T) :- premise(_, relation(E, R, S, T)).

%!  property(?Relation, ?Value) is nondet.
%
%   A stated value of the relation (possibly several per relation).
property(R, V) :- premise(_, property(R, V)).

%!  holds_at(?Relation, +T:integer, -Id) is nondet.
%
%   Premise Id puts Relation at month T (Start =< T =< End).
holds_at(R, T, Id) :-
    premise(Id, relation(_, R, S, E)),
    S =< T, T =< E.

%!  value_at(?Relation, ?Value, +T:integer, -Used:list) is nondet.
%
%   By the regularity, Relation has Value at any month T exactly when a premise gives it Value;
%   Used = the property and regularity premises.
value_at(R, V, _T, [PId, RegId]) :-
    premise(RegId, regularity(_)),
    premise(PId, property(R, V)).

% referent_time(+Reading, +Tq, +Now, -T): the month at which the description picks its referent.
referent_time(de_dicto, Tq, _, Tq).
referent_time(de_re, _, Now, Now).

% holders(+T, -Relations): every relation the premises put at month T (sorted, no duplicates).
holders(T, Rs) :-
    ( setof(R, Id^holds_at(R, T, Id), Rs) -> true ; Rs = [] ).

% ---------------------------------------------------------------------------------------
% Evaluating one interpretation.

% interpretation(+Reading, +Named, -Result): the verdict on Reading, given the relation Named
% in its option. Result is a dict: verdict (consistent | inconsistent | undetermined),
% referent, placed (does a premise put Named at the reference time?), holders, derivation,
% premises (the P-numbers used) and findings.
interpretation(Reading, Named, Result) :-
    now(Now), sentence(Tq, V),
    referent_time(Reading, Tq, Now, T),
    holders(T, Holders),
    referent(Named, T, Holders, Referent, PlaceSteps, PlaceUsed, Findings),
    judge(Referent, V, Tq, Verdict, JudgeSteps, JudgeUsed),
    reading_name(Reading, RName),
    append(PlaceUsed, JudgeUsed, Used0), sort(Used0, Used),
    maplist(premise_label, Used, UsedLabels),
    atomic_list_concat(UsedLabels, ', ', UsedText),
    format(string(Concl), "~w: ~w (~w).", [RName, Verdict, UsedText]),
    append([PlaceSteps, JudgeSteps, [Concl]], Steps),
    ( memberchk(Named, Holders) -> Placed = true ; Placed = false ),
    Result = _{reading: Reading, relation: Named, referent: Referent, placed: Placed,
               holders: Holders, verdict: Verdict, derivation: Steps,
               premises: UsedLabels, findings: Findings}.

% referent(+Named, +T, +Holders, -Referent, -Steps, -Used, -Findings):
% the named relation when a premise puts it at T; otherwise the one relation the dates give
% (and a finding that the name contradicts the premises); otherwise none.
referent(Named, T, Holders, Named, Steps, Used, Findings) :-
    findall(Id, holds_at(Named, T, Id), [Id|_]), !,
    premise(Id, relation(_, Named, S, E)),
    span_step(Id, Named, S, E, T, Step),
    exclude(==(Named), Holders, Others),
    (   Others == []
    ->  Steps = [Step], Findings = []
    ;   date_text(T, TT), atomic_list_concat(Others, '; ', OT),
        format(string(Note), "the dates alone do not pick one relation at ~w: ~w also held then; the option names ~w.",
               [TT, OT, Named]),
        Steps = [Step, Note], Findings = [Note]
    ),
    Used = [Id].
referent(Named, T, Holders, Referent, Steps, Used, [Finding|More]) :-
    date_text(T, TT),
    format(string(Finding), "no premise puts ~w at ~w: the option's name contradicts the dates.", [Named, TT]),
    (   Holders = [Only]
    ->  Referent = Only, once(holds_at(Only, T, Id)),
        premise(Id, relation(_, Only, S, E)),
        span_step(Id, Only, S, E, T, Step),
        Steps = [Finding, Step], Used = [Id], More = []
    ;   Holders == []
    ->  Referent = none, Used = [], More = [],
        format(string(Gap), "no premise puts any relation at ~w (a gap).", [TT]),
        Steps = [Finding, Gap]
    ;   Referent = none, Used = [],
        atomic_list_concat(Holders, '; ', HT),
        format(string(Over), "several relations hold at ~w (~w).", [TT, HT]),
        Steps = [Finding, Over], More = [Over]
    ).

% judge(+Referent, +V, +Tq, -Verdict, -Steps, -Used): does Referent have value V at Tq?
judge(none, _, _, undetermined, ["no referent, so the reading is undetermined."], []) :- !.
judge(R, V, Tq, consistent, [Step, RegStep], [PId, RegId]) :-
    value_at(R, V, Tq, [PId, RegId]), !,
    premise_label(PId, PL), value_text(V, VT),
    format(string(Step), "~w: ~w has the value ~w.", [PL, R, VT]),
    regularity_step(RegId, R, V, Tq, RegStep).
judge(R, V, Tq, inconsistent, [Step, RegStep], [RegId|PIds]) :-
    findall(PId, premise(PId, property(R, _)), PIds), PIds \== [], !,
    premise(RegId, regularity(_)),
    findall(VT, (property(R, V1), value_text(V1, VT)), VTs),
    atomic_list_concat(VTs, '; ', Has),
    maplist(premise_label, PIds, PLs), atomic_list_concat(PLs, ', ', PLT),
    value_text(V, VText),
    format(string(Step), "~w: ~w has the value ~w, not ~w.", [PLT, R, Has, VText]),
    premise_label(RegId, RL), date_text(Tq, TqT),
    format(string(RegStep), "~w (regularity): values do not change over time, so ~w did not have ~w in ~w either.",
           [RL, R, VText, TqT]).
judge(R, _, _, undetermined, [Step], []) :-
    format(string(Step), "no premise gives ~w a value.", [R]).

% ---------------------------------------------------------------------------------------
% The instance's answer.

% answer(+Results, -Status, -Reading): the one consistent reading when the other is
% inconsistent (Status = one); otherwise Status = both | neither | undetermined, Reading = null.
answer(Results, Status, Reading) :-
    include(has_verdict(consistent), Results, Consistent),
    include(has_verdict(inconsistent), Results, Inconsistent),
    (   Consistent = [C], Inconsistent = [_]
    ->  Status = one, get_dict(reading, C, Reading)
    ;   length(Consistent, 2)
    ->  Status = both, Reading = null
    ;   length(Inconsistent, 2)
    ->  Status = neither, Reading = null
    ;   Status = undetermined, Reading = null
    ).

% ---------------------------------------------------------------------------------------
% Loading an instance (a dict as decoded from JSON) and verifying it.

%!  radd_verify(+Inst:dict, -Out:dict) is det.
%
%   Load Inst's facts, judge both options, unload (the facts are thread_local, so verifications
%   in other threads never see them).
radd_verify(Inst, Out) :-
    setup_call_cleanup(load_instance(Inst), verify_loaded(Inst, Out), unload_instance).

verify_loaded(Inst, Out) :-
    maplist(option_result, Inst.options, Pairs),
    pairs_values(Pairs, Results),
    answer(Results, Status, Reading),
    (   Reading == null
    ->  Number = null
    ;   once(( member(Number-R, Pairs), get_dict(reading, R, Reading) ))
    ),
    maplist(dict_value(findings), Results, Fss),
    append(Fss, Findings1), coincide(Status, Results, Findings1, Findings0),
    list_to_set(Findings0, Findings),
    ( get_dict(id, Inst, Id) -> true ; Id = null ),
    Out = _{id: Id, status: Status, answer: Reading, answer_option: Number,
            interpretations: Results, findings: Findings}.

has_verdict(V, Result) :- get_dict(verdict, Result, V).

% dict_value(+Key, +Dict, -Value). (No yall lambdas here: library(yall) autoloads
% library(error) on its first call, which in a Prolog with other threads at work has failed
% with existence_error(procedure, yall:must_be/2).)
dict_value(Key, Dict, Value) :- get_dict(Key, Dict, Value).

% coincide(+Status, +Results, +Findings0, -Findings): when both readings are consistent
% because both pick the same relation, the sentence is not ambiguous here: say so.
coincide(both, Results, F0, [Note|F0]) :-
    maplist(dict_value(referent), Results, [Ref1|Refs]),
    Ref1 \== none, maplist(==(Ref1), Refs), !,
    format(string(Note), "both readings pick the same relation (~w), so they coincide.", [Ref1]).
coincide(_, _, F, F).

option_result(Opt, Num-Result) :-
    Num = Opt.number,
    interpretation(Opt.reading, Opt.relation, Result).

load_instance(I) :-
    unload_instance,
    forall(member(S, I.spans),
           ( date_index(S.start, T0), date_index(S.end, T1),
             assertz(premise(p(S.premise), relation(I.entity, S.relation, T0, T1))) )),
    forall(member(P, I.properties),
           ( value(P.values, V), assertz(premise(p(P.premise), property(P.relation, V))) )),
    assertz(premise(p(I.regularity.premise), regularity(I.regularity.text))),
    date_index(I.current, Now), assertz(now(Now)),
    date_index(I.sentence.date, Tq), value(I.sentence.values, V), assertz(sentence(Tq, V)).

unload_instance :-
    retractall(premise(_, _)), retractall(now(_)), retractall(sentence(_, _)).

%!  radd_verify_json(+Text:text, -Results:list) is det.
%
%   Text is a JSON list of instances; Results one radd_verify/2 dict each, in order. Called
%   from Python (logic/radd/verify.py), so Text is checked.
radd_verify_json(Text, Results) :-
    must_be(text, Text),
    atom_json_dict(Text, Insts, [value_string_as(atom)]),
    maplist(radd_verify, Insts, Results).

% ---------------------------------------------------------------------------------------
% Small helpers: dates, values, wording.

% date_index(+[Year, Month], -T): T = Year*12 + Month.
date_index([Y, M], T) :- T is Y * 12 + M.

index_date(T, Y, M) :- Y is (T - 1) // 12, M is T - Y * 12.

date_text(T, Text) :-
    index_date(T, Y, M), month_name(M, Name),
    format(atom(Text), "~w ~w", [Name, Y]).

month_name(1, 'January').   month_name(2, 'February').  month_name(3, 'March').
month_name(4, 'April').     month_name(5, 'May').       month_name(6, 'June').
month_name(7, 'July').      month_name(8, 'August').    month_name(9, 'September').
month_name(10, 'October').  month_name(11, 'November'). month_name(12, 'December').

% value(+Items, -V): a value is compared as a set of items.
value(Items, V) :- sort(Items, V).

value_text(V, T) :- atomic_list_concat(V, ', ', T).

premise_label(p(N), L) :- format(atom(L), "P~w", [N]).

reading_name(de_dicto, 'de dicto').
reading_name(de_re, 'de re').

span_step(Id, R, S, E, T, Step) :-
    premise_label(Id, L), date_text(S, ST), date_text(E, ET), date_text(T, TT),
    format(string(Step), "~w: ~w held from ~w to ~w, which includes ~w.", [L, R, ST, ET, TT]).

regularity_step(RegId, R, V, Tq, Step) :-
    premise_label(RegId, L), value_text(V, VT), date_text(Tq, TqT),
    format(string(Step), "~w (regularity): values do not change over time, so ~w had ~w in ~w.",
           [L, R, VT, TqT]).

% ---------------------------------------------------------------------------------------
% A worked example (run `swipl radd.pl` then `?- radd_demo.`).

%!  radd_demo is det.
%
%   Verify a small worked instance and print its answer and derivations.
radd_demo :-
    Inst = _{id: demo, entity: 'Wilhelmshaven',
             spans: [_{premise: 1, relation: 'Johann Janssen', start: [1961, 1], end: [1972, 1]},
                     _{premise: 2, relation: 'Andreas Wagner', start: [2011, 11], end: [2019, 10]}],
             properties: [_{premise: 3, relation: 'Johann Janssen', values: ['Schortens']},
                          _{premise: 4, relation: 'Andreas Wagner', values: ['Munich']}],
             regularity: _{premise: 5, text: 'A person\'s birth place does not change over time.'},
             current: [2013, 3],
             sentence: _{date: [1962, 7], values: ['Schortens']},
             options: [_{number: 1, reading: de_dicto, relation: 'Johann Janssen'},
                       _{number: 2, reading: de_re, relation: 'Andreas Wagner'}]},
    radd_verify(Inst, Out),
    format("answer: option ~w (~w)~n", [Out.answer_option, Out.answer]),
    forall(member(R, Out.interpretations),
           ( format("~w: ~w~n", [R.reading, R.verdict]),
             forall(member(S, R.derivation), format("  ~s~n", [S])) )).
