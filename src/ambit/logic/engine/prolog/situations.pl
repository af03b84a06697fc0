/*  situations.pl -- candidate scenes for the smallest scene in which one reading is true and
    another false; which candidate is the scene is the one model checker's to say.

    Readings come in the restricted reading of logic/explain/restricted.py:
        rel(P, Args)          an atom (Args: bound variables or names)
        ex(X, Kinds, F)       there is an X of Kinds (a list of unary predicates) such that F
        every(X, Kinds, F)    every X of Kinds is such that F      (F = true: nothing more)
        and(Fs)   or(Fs)      n-ary
    A scene is model(Dom, Names, Sorts, Facts): elements 1..N; Names pairs each name with its
    element (distinct names, distinct elements); Sorts gives every unnamed element exactly one
    sort (its noun, or its verb for an event) and a named element none or one of the nouns the
    readings say of that name (NameKinds: Name-Nouns pairs), so that readings that differ only
    in which name a noun is said of (walker(TM) against walker(DBA)) are told apart; Facts is an
    ordered set of binary rel(P, [E1, E2]). A unary atom is true of an element iff it is the
    element's sort. Each event has at most one filler per role (the Functional predicates).
    Presupposition: every noun a universal ranges over has at least one element. Required: the
    sorts that A cannot be true without (its existentials outside every OR), a pruning only.

    Candidates (candidate/8), for one domain size: every sort assignment (each name none or one
    of its nouns; unnamed elements in sort order, which loses nothing since they are
    interchangeable); then the facts that A's witnesses make true (an existential whose body has
    no binary atom takes one witness: any other gives the same facts). Once sorts are fixed both
    readings are monotone in the binary facts (restrictors are unary), so if any scene of that
    size and sorts makes A true and B false, one made of A's witnesses alone does: taking sizes
    from the number of names up, the first candidate with A true and B false is a least scene
    within the bound. Witnesses for an existential are taken among the elements already used and
    the first unused element of the right sort (the unused ones are interchangeable).

    There is no truth definition here: logic/explain/situations.py asks for the candidates of
    each size in order (candidates_json/10, a page at a time) and keeps the first that the one
    model checker (logic/engine/model_check.py holds) finds A true and B false in.

    Load with plain `swipl situations.pl`; try
        ?- candidate(every(X,[boy],ex(Y,[dog],rel(saw,[X,Y]))), [boy,dog], [], [], [], [boy], 4, M).
*/

:- module(situations, [candidate/8, candidates_json/10]).

:- use_module(library(lists)).
:- use_module(library(apply)).
:- use_module(library(ordsets)).
:- use_module(library(pairs)).
:- use_module(library(error)).
:- use_module(library(solution_sequences)).


/* ------------------------------------------------------------------------------------
   The candidates
   ------------------------------------------------------------------------------------ */

%!  candidate(+A, +Sorts:list, +Names:list, +NameKinds:list, +Functional:list,
%!            +Presupposed:list, +N:nonneg, -M) is nondet.
%
%   M is a scene of N elements made of A's witnesses (see the head of this file), on
%   backtracking every one in the order the search tries them; none when N is less than the
%   number of names.
candidate(A, Sorts, Names, NameKinds, Functional, Presupposed, N, M) :-
    length(Names, K), N >= K,
    numlist(1, N, Dom),
    length(Named, K), append(Named, Unnamed, Dom),
    pairs_keys_values(NameEls, Names, Named),
    maplist(named_sort(NameKinds), Names, NamedSorts),
    length(Unnamed, U), sort_sequence(U, Sorts, UnnamedSorts),
    append(NamedSorts, UnnamedSorts, SortList),
    pairs_keys_values(ElSorts, Dom, SortList),
    include(has_sort, ElSorts, SortOf),
    forall(member(S, Presupposed), memberchk(_-S, SortOf)),
    M0 = model(Dom, NameEls, SortOf, []),
    copy_term(A, A1),
    build(A1, M0, Functional, Named, _, [], Facts),
    M = model(Dom, NameEls, SortOf, Facts).

%  denotes(+M, +T, -E): the element a term of a built reading stands for (an element, or a name)
denotes(_, T, T) :- integer(T), !.
denotes(M, T, E) :- M = model(_, Names, _, _), memberchk(T-E, Names).

sort_of(M, E, S) :- M = model(_, _, Sorts, _), memberchk(E-S, Sorts).

of_kinds(M, Ks, E) :- forall(member(K, Ks), sort_of(M, E, K)).

%  instance(+X, +F, +E, -G): G is F with element E for X (F's free variables are already bound).
instance(X, F, E, G) :- copy_term(X-F, E-G).

has_sort(_-S) :- S \== none.

%  named_sort(+NameKinds, +Name, -S): a name has no noun, or one the readings predicate of it.
named_sort(NameKinds, Name, S) :-
    (   memberchk(Name-Ks, NameKinds)
    ->  member(S, [none|Ks])
    ;   S = none
    ).

%  sort_sequence(+N, +Sorts, -Seq): Seq is a list of N sorts in the order of Sorts (a multiset).
sort_sequence(0, _, []) :- !.
sort_sequence(N, Sorts, [S|Ss]) :-
    append(_, [S|Rest], Sorts),
    N1 is N - 1,
    sort_sequence(N1, [S|Rest], Ss).

%  build(+F, +M, +Functional, +Used0, -Used, +Facts0, -Facts): Facts adds to Facts0 the binary
%  atoms that make F true in M, choosing a witness for each existential (among the elements of
%  its kinds in Used0, or the first unused one) and a disjunct for each OR; unary atoms are
%  checked against the sorts.
build(true, _, _, U, U, Fs, Fs).
build(rel(P, [T]), M, _, U, U, Fs, Fs) :- denotes(M, T, E), sort_of(M, E, P).
build(rel(P, [T1, T2]), M, Functional, U, U, Fs0, Fs) :-
    denotes(M, T1, E1), denotes(M, T2, E2),
    (   memberchk(P, Functional)
    ->  \+ ( member(rel(P, [E1, E]), Fs0), E \== E2 )
    ;   true
    ),
    ord_add_element(Fs0, rel(P, [E1, E2]), Fs).
build(and(Gs), M, Fn, U0, U, Fs0, Fs) :- foldl(build_in(M, Fn), Gs, U0-Fs0, U-Fs).
build(or(Gs), M, Fn, U0, U, Fs0, Fs) :- member(G, Gs), build(G, M, Fn, U0, U, Fs0, Fs).
build(ex(X, Ks, G), M, Fn, U0, U, Fs0, Fs) :-
    (   adds_facts(G)
    ->  witness(M, Ks, U0, X), ord_add_element(U0, X, U1),
        build(G, M, Fn, U1, U, Fs0, Fs)
    ;   % no binary atom below: every witness gives the same facts, so one is enough
        once(( witness(M, Ks, U0, X), ord_add_element(U0, X, U1), build(G, M, Fn, U1, U, Fs0, Fs) ))
    ).
build(every(X, Ks, G), M, Fn, U0, U, Fs0, Fs) :-
    M = model(Dom, _, _, _),
    include(of_kinds(M, Ks), Dom, Es),
    ord_union(U0, Es, U1),
    foldl(build_for(X, G, M, Fn), Es, U1-Fs0, U-Fs).

build_in(M, Fn, G, U0-Fs0, U-Fs) :- build(G, M, Fn, U0, U, Fs0, Fs).

build_for(X, G, M, Fn, E, U0-Fs0, U-Fs) :- instance(X, G, E, G1), build(G1, M, Fn, U0, U, Fs0, Fs).

%  adds_facts(+F): F has a binary atom, so how it is made true changes the facts.
adds_facts(rel(_, [_, _])).
adds_facts(and(Fs)) :- member(F, Fs), adds_facts(F), !.
adds_facts(or(Fs)) :- member(F, Fs), adds_facts(F), !.
adds_facts(ex(_, _, F)) :- adds_facts(F).
adds_facts(every(_, _, F)) :- adds_facts(F).

%  witness(+M, +Kinds, +Used, -E): E is of Kinds and used already, or the first unused such.
witness(M, Ks, Used, E) :-
    M = model(Dom, _, _, _),
    include(of_kinds(M, Ks), Dom, Es),
    (   member(E, Es), ord_memberchk(E, Used)
    ;   member(E, Es), \+ ord_memberchk(E, Used), !
    ).


/* ------------------------------------------------------------------------------------
   JSON interface (logic/explain/situations.py)
   ------------------------------------------------------------------------------------ */

%!  candidates_json(+A, +Sorts:list, +Names:list, +NameKinds:list, +Functional:list,
%!                  +Presupposed:list, +N:nonneg, +Skip:nonneg, +Max:positive_integer,
%!                  -Dict) is det.
%
%   A page of candidate/8's scenes of N elements: the Max after the first Skip, as
%   _{scenes: [_{constants, sorts, facts}...], more: Bool, inferences: I}, more true when
%   scenes follow the page, I the inferences the page took (the caller keeps one budget over
%   its pages). Called from Python (logic/explain/situations.py), so its arguments are checked.
candidates_json(A, Sorts, Names, NameKinds, Fn, Pre, N, Skip, Max, Dict) :-
    must_be(callable, A),
    maplist(must_be(list(atom)), [Sorts, Names, Fn, Pre]),
    must_be(list(pair), NameKinds),
    must_be(nonneg, N), must_be(nonneg, Skip), must_be(positive_integer, Max),
    statistics(inferences, I0),
    Max1 is Max + 1,
    findall(M, limit(Max1, offset(Skip, candidate(A, Sorts, Names, NameKinds, Fn, Pre, N, M))), Ms0),
    (   length(Ms0, Max1) -> More = true, append(Ms, [_], Ms0) ; More = false, Ms = Ms0 ),
    maplist(scene_json, Ms, Scenes),
    statistics(inferences, I1), I is I1 - I0,
    Dict = _{scenes: Scenes, more: More, inferences: I}.

scene_json(model(_, NameEls, SortOf, Facts), _{constants: Cs, sorts: SD, facts: FD}) :-
    dict_pairs(Cs, _, NameEls),
    findall([E, S], member(E-S, SortOf), SD),
    findall([P, Es], member(rel(P, Es), Facts), FD).
