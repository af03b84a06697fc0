/*  monotone.pl -- the second step of AmP's first stage: proofs and countermodels that only a
    formula without negation has, found without a general search.

    Formulas are equivalence.pl's terms: rel(Pred, Args) (Args Prolog variables or names),
    and(F, G), or(F, G), some(X, F), all(X, F). Both formulas are monotone (no negation), which
    gives each question a shape of its own:

    Proofs (clause_proof/3). Skolemise A into its cases (one disjunct chosen at each OR outside
    every universal), each case a set of clauses: A's universally closed subformulas in
    conjunctive normal form, every clause positive. Herbrandise B: its matrix, with B's
    existential variables free, in conjunctive normal form. A |= B when in every case one
    instance of B's matrix (one substitution of its existential variables) has every clause
    of its CNF contain an instance of one of the case's clauses (or, where one is not enough, the
    disjunction of two or three instances with their own existential variables: by Herbrand's
    theorem some finite disjunction does it when A |= B): a positive clause entails
    every clause that contains an instance of it, so the case entails that instance of B's
    matrix and thus B. Each clause of A is universally closed on its own (its use takes a
    fresh copy); each instance's substitution is one for all its clauses. Unification is with the occurs
    check (a Herbrand term of B cannot contain the existential variable it depends on, nor a
    Skolem term of A its own universal). This is sound, and it proves what the first stage's
    SLD proves and more: what a universal over a disjunction in A entails (a prefix ∃∀ that
    became ∀∃ in B, one variable renamed into another's place). What needs more instances it
    leaves to prove.pl.

    Countermodels (countermodel/4). A |= B fails exactly when some model makes A true and B
    false; by monotonicity a least model of A (no atom true that A does not need) is the best
    candidate there is. The search grounds A over a domain of 1..N elements, choosing a
    witness for each existential and a disjunct for each OR, and adds only the atoms A needs;
    B's grounding over the same domain is compiled once into a circuit of and/or nodes whose
    counters (changed with setarg/3, undone on backtracking) say the moment B becomes true, so
    a choice that makes B true is undone at once, not after A's whole grounding. A part of A
    already true is not grounded again (by monotonicity it stays true); an existential tries
    the elements in use and one unused element (the unused ones are interchangeable). Two
    names may denote one element (tried first, up to a renaming of the elements: the smaller
    model). Python checks every model found with the one model checker, as it checks every
    other model.

    Both are bounded by their caller (call_with_inference_limit/3): this stage is cheap or it
    gives way to prove.pl's stages.
*/

:- module(monotone, [ clause_proof/3, countermodel/4 ]).

:- use_module(library(lists)).
:- use_module(library(apply)).
:- use_module(library(assoc)).
:- use_module(library(pairs)).


/* ------------------------------------------------------------------------------------
   Proofs: every clause of an instance of B's matrix contains an instance of a clause of A
   ------------------------------------------------------------------------------------ */

%!  clause_proof(+A, +B, +Inferences:integer) is semidet.
%
%   A |= B, shown as above: in every case of A, one, two or three instances of B's Herbrand
%   matrix whose disjunction has every CNF clause contain an instance of a clause of the case.
%   Each number of instances gets its own share of Inferences (a search that fails with two
%   can be long, and three can be quick). Fails when none is found (which proves nothing) or
%   when a normal form would pass cnf_limit/1 clauses.
clause_proof(A, B, L) :-
    copy_term(A-B, A1-B1),
    skolemise(A1, [], 0, _, SA),
    herbrandise(B1, [], 0, _, MB),
    findall(Case, case(SA, Case), Cases),
    length(Cases, NC), LK is max(1, L // (3 * max(1, NC))),
    forall(member(Items, Cases),
           ( case_clauses(Items, AClauses),
             between(1, 3, K),
             call_with_inference_limit(instances_entailed(K, MB, AClauses), LK, R),
             R \== inference_limit_exceeded
           ->  true )).

%  instances_entailed(+K, +MB, +AClauses): the disjunction of K copies of B's matrix MB (each
%  with its own existential variables) has every CNF clause contain an instance of a clause of A
instances_entailed(K, MB, AClauses) :-
    length(Ms, K), maplist(copy_term(MB), Ms),
    disjunction(Ms, D),
    cnf(D, BClauses),
    maplist(candidates(AClauses), BClauses, Keyed),
    keysort(Keyed, Sorted),
    \+ \+ maplist(subsumed, Sorted).

%  candidates(+AClauses, +C, -N-(Ps-C)): the clauses Ps of A that could be in C on their own
%  (each atom unifies with one of C's), N of them: the clauses of B with fewest go first
candidates(AClauses, C, N-(Ps-C)) :-
    include(could_subsume(C), AClauses, Ps), length(Ps, N).

could_subsume(C, P) :- \+ \+ ( copy_term(P, P1), maplist(in_clause(C), P1) ).

disjunction([M], M) :- !.
disjunction([M|Ms], or(M, D)) :- disjunction(Ms, D).

%  subsumed(+Candidates-C): some clause of A, copied, has each of its atoms unify with an atom of C
subsumed(_-(AClauses-C)) :-
    member(P0, AClauses),
    copy_term(P0, P),
    maplist(in_clause(C), P).

in_clause(C, L) :- member(M, C), unify_with_occurs_check(L, M).

%  case_clauses(+Items, -Clauses): a case's clauses: each item (an atom, or a universally
%  closed subformula) in CNF
case_clauses(Items, Clauses) :-
    foldl(item_clauses, Items, Clauses, []).

item_clauses(I, Cs0, Cs) :- cnf(I, Cs1), append(Cs1, Cs, Cs0).

%  cnf(+F, -Clauses): F's quantifier-free matrix (universal markers dropped) in CNF, each
%  clause a list of atoms, F's variables shared (no copies: B's existential variables stand
%  for one term in all its clauses); fails past cnf_limit/1 clauses
cnf(rel(P, Ts), [[rel(P, Ts)]]).
cnf(all(_, F), Cs) :- cnf(F, Cs).
cnf(and(F, G), Cs) :- cnf(F, C1), cnf(G, C2), append(C1, C2, Cs), limited(Cs).
cnf(or(F, G), Cs) :-
    cnf(F, C1), cnf(G, C2),
    length(C1, N1), length(C2, N2), cnf_limit(Max), N1 * N2 =< Max,
    foldl(unions(C2), C1, Cs, []).

%  unions(+Ys, +X, -Cs0, ?Cs): X joined with each clause of Ys (a difference list)
unions([], _, Cs, Cs).
unions([Y|Ys], X, [C|Cs0], Cs) :- append(X, Y, C), unions(Ys, X, Cs0, Cs).

limited(Cs) :- cnf_limit(Max), length(Cs, N), N =< Max.

%  the most clauses a normal form may have (a larger one is left to prove.pl)
cnf_limit(4096).

%  skolemise(+F, +Us, +K0, -K, -S): as equivalence.pl's: existential variables bound to
%  sk(K, Us) over the universal variables Us in whose scope they stand
skolemise(rel(P, Ts), _, K, K, rel(P, Ts)).
skolemise(and(F, G), Us, K0, K, and(F1, G1)) :- skolemise(F, Us, K0, K1, F1), skolemise(G, Us, K1, K, G1).
skolemise(or(F, G), Us, K0, K, or(F1, G1)) :- skolemise(F, Us, K0, K1, F1), skolemise(G, Us, K1, K, G1).
skolemise(some(sk(K0, Us), F), Us, K0, K, S) :- K1 is K0 + 1, skolemise(F, Us, K1, K, S).
skolemise(all(X, F), Us, K0, K, all(X, S)) :- skolemise(F, [X|Us], K0, K, S).

%  herbrandise(+F, +Es, +K0, -K, -M): as equivalence.pl's: universal variables bound to
%  hb(K, Es) over the existential variables Es in whose scope they stand
herbrandise(rel(P, Ts), _, K, K, rel(P, Ts)).
herbrandise(and(F, G), Es, K0, K, and(F1, G1)) :- herbrandise(F, Es, K0, K1, F1), herbrandise(G, Es, K1, K, G1).
herbrandise(or(F, G), Es, K0, K, or(F1, G1)) :- herbrandise(F, Es, K0, K1, F1), herbrandise(G, Es, K1, K, G1).
herbrandise(some(X, F), Es, K0, K, M) :- herbrandise(F, [X|Es], K0, K, M).
herbrandise(all(hb(K0, Es), F), Es, K0, K, M) :- K1 is K0 + 1, herbrandise(F, Es, K1, K, M).

%  case(+S, -Items): on backtracking, the cases of the Skolemised S: one disjunct chosen at
%  each OR outside every universal; an item is an atom or a universally closed subformula
case(S, Items) :- case(S, Items, []).

case(rel(P, Ts), [rel(P, Ts)|Is], Is).
case(and(F, G), Is0, Is) :- case(F, Is0, Is1), case(G, Is1, Is).
case(or(F, G), Is0, Is) :- ( case(F, Is0, Is) ; case(G, Is0, Is) ).
case(all(X, F), [all(X, F)|Is], Is).


/* ------------------------------------------------------------------------------------
   Countermodels: a least model of A over 1..N in which B's circuit stays false
   ------------------------------------------------------------------------------------ */

%!  countermodel(+A, +B, +MaxDomain:nonneg, -Model) is semidet.
%
%   Model = model(N, Names, Facts) makes A true and B false: its domain is 1..N (the least N
%   up to MaxDomain for which the search finds one), Names maps each name to its element, Facts are the true atoms rel(P, Elements), every other atom false
%   (the shape of equivalence.pl's candidate/3). Fails when there is none that small.
countermodel(A, B, MaxDom, model(N, Names, Facts)) :-
    names(A-B, Ns),
    between(1, MaxDom, N),
    name_elements(Ns, N, 0, Named, K), pairs_keys_values(Names, Ns, Named),
    list_to_assoc(Names, Denote),
    numlist(1, N, D),
    copy_term(A-B, A1-B1),
    circuit(B1, D, Denote, Circuit),
    empty_assoc(S0),
    once(least(A1, ctx(D, Denote, Circuit), st(S0, K), st(S, _))),
    assoc_to_keys(S, Facts),
    !.

%  name_elements(+Names, +N, +Used0, -Elements, -Used): on backtracking, each way the names may
%  denote elements of 1..N up to a renaming of the elements: the next name takes one already
%  taken or the first one not yet (two names on one element first: the smaller model)
name_elements([], _, U, [], U).
name_elements([_|Ns], N, U0, [E|Es], U) :-
    Top is min(N, U0 + 1), between(1, Top, E), U1 is max(U0, E),
    name_elements(Ns, N, U1, Es, U).

%  least(+F, +Ctx, +State0, -State): State adds to State0 the atoms F needs (a choice at each
%  existential and OR, on backtracking, unless it is true already), none of which makes B
%  true. State is st(Trues, Used): Trues the true atoms (an assoc), elements 1..Used in use.
least(rel(P, Ts), Ctx, st(S0, U), st(S, U)) :-
    Ctx = ctx(_, Denote, Circuit),
    maplist(denote(Denote), Ts, Es), Key = rel(P, Es),
    (   get_assoc(Key, S0, _) -> S = S0
    ;   put_assoc(Key, S0, true, S),
        becomes_true(Circuit, Key)
    ).
least(and(F, G), Ctx, St0, St) :- least(F, Ctx, St0, St1), least(G, Ctx, St1, St).
least(or(F, G), Ctx, St0, St) :-
    (   holds(or(F, G), Ctx, St0) -> St = St0
    ;   ( least(F, Ctx, St0, St) ; least(G, Ctx, St0, St) )
    ).
least(some(X, F), Ctx, St0, St) :-
    (   holds(some(X, F), Ctx, St0) -> St = St0
    ;   St0 = st(S0, U0), Ctx = ctx(D, _, _), length(D, N),
        Top is min(N, U0 + 1), between(1, Top, E),
        U1 is max(U0, E),
        instance(X, F, E, G),
        least(G, Ctx, st(S0, U1), St)
    ).
least(all(X, F), Ctx, st(S0, _), St) :-
    Ctx = ctx(D, _, _), length(D, N),
    foldl(least_at(X, F, Ctx), D, st(S0, N), St).

least_at(X, F, Ctx, E, St0, St) :- instance(X, F, E, G), least(G, Ctx, St0, St).

%  holds(+F, +Ctx, +State): F is true where exactly the atoms of State are
holds(F, ctx(D, Denote, _), st(S, _)) :- \+ \+ true_in(F, D, Denote, S).

true_in(rel(P, Ts), _, Denote, S) :-
    maplist(denote_open(Denote), Ts, Es),
    (   ground(Es) -> get_assoc(rel(P, Es), S, _) ; gen_assoc(rel(P, Es), S, _) ).
true_in(and(F, G), D, Denote, S) :- true_in(F, D, Denote, S), true_in(G, D, Denote, S).
true_in(or(F, G), D, Denote, S) :- ( true_in(F, D, Denote, S) ; true_in(G, D, Denote, S) ).
true_in(some(X, F), D, Denote, S) :- true_in(F, D, Denote, S), ( var(X) -> X = 1 ; true ).
true_in(all(X, F), D, Denote, S) :-
    term_variables(all(X, F), Vs0), exclude(==(X), Vs0, Vs),  % the variables F shares with the outside
    maplist(bind_free(D, X, F), Vs),
    forall(member(E, D), ( instance(X, F, E, G), true_in(G, D, Denote, S) )).

%  a variable bound outside all(X, F) but not yet looked up takes each element in turn; a
%  variable bound inside F (by a quantifier there) is left alone
bind_free(D, X, F, V) :- ( bound_in(V, F) -> true ; V \== X, member(V, D) ).

bound_in(V, some(X, F)) :- ( X == V -> true ; bound_in(V, F) ).
bound_in(V, all(X, F)) :- ( X == V -> true ; bound_in(V, F) ).
bound_in(V, and(F, G)) :- ( bound_in(V, F) -> true ; bound_in(V, G) ).
bound_in(V, or(F, G)) :- ( bound_in(V, F) -> true ; bound_in(V, G) ).

denote(_, E, E) :- integer(E), !.
denote(Denote, C, E) :- get_assoc(C, Denote, E).

denote_open(_, T, T) :- ( var(T) ; integer(T) ), !.
denote_open(Denote, C, E) :- get_assoc(C, Denote, E).

%  instance(+X, +F, +E, -G): F with element E for the variable X (F's other variables shared)
instance(X, F, E, G) :- copy_term(X-F, E-G).


/*  B's circuit: B grounded over the domain as a tree of and/or nodes, node(Kind, Left, Parent)
    in one term nodes(N1, N2, ...): Left is how many children must still become true before the
    node is (an and: all of them; an or: 1), Parent the number of the node above (0 for B
    itself). Atoms maps each ground atom to the nodes it is a child of, once per occurrence.
    A node whose Left reaches 0 is true and tells its parent; B true is a failure. Left is
    changed by setarg/3, which backtracking undoes. */

%  circuit(+B, +D, +Denote, -circuit(Nodes, Atoms)): B's circuit over D, every node false
circuit(B, D, Denote, circuit(Nodes, Atoms)) :-
    empty_assoc(A0),
    grounded(B, 0, D, Denote, 1-[], Next-Rev, A0, Atoms),
    N is Next - 1, length(Rev, N),
    reverse(Rev, List), Nodes =.. [nodes|List].

%  grounded(+F, +Parent, +D, +Denote, +Next0-Nodes0, -Next-Nodes, +Atoms0, -Atoms): F's nodes
%  added below Parent (numbered from Next0 on, Nodes last first), its atoms to Atoms
grounded(rel(P, Ts), Parent, _, Denote, S, S, A0, A) :-
    maplist(denote(Denote), Ts, Es), Key = rel(P, Es),
    ( get_assoc(Key, A0, Ps) -> true ; Ps = [] ),
    put_assoc(Key, A0, [Parent|Ps], A).
grounded(and(F, G), Parent, D, Denote, S0, S, A0, A) :- junction(and, [F, G], Parent, D, Denote, S0, S, A0, A).
grounded(or(F, G), Parent, D, Denote, S0, S, A0, A) :- junction(or, [F, G], Parent, D, Denote, S0, S, A0, A).
grounded(all(X, F), Parent, D, Denote, S0, S, A0, A) :-
    findall(G, ( member(E, D), instance(X, F, E, G) ), Gs), junction(and, Gs, Parent, D, Denote, S0, S, A0, A).
grounded(some(X, F), Parent, D, Denote, S0, S, A0, A) :-
    findall(G, ( member(E, D), instance(X, F, E, G) ), Gs), junction(or, Gs, Parent, D, Denote, S0, S, A0, A).

junction(Kind, Gs, Parent, D, Denote, Next0-Nodes0, S, A0, A) :-
    length(Gs, Count), ( Kind == and -> Left = Count ; Left = 1 ),
    Me = Next0, Next1 is Next0 + 1,
    children(Gs, Me, D, Denote, Next1-[node(Kind, Left, Parent)|Nodes0], S, A0, A).

children([], _, _, _, S, S, A, A).
children([G|Gs], Me, D, Denote, S0, S, A0, A) :-
    grounded(G, Me, D, Denote, S0, S1, A0, A1),
    children(Gs, Me, D, Denote, S1, S, A1, A).

%  becomes_true(+Circuit, +Key): the atom Key is now true; fails when that makes B true
becomes_true(circuit(Nodes, Atoms), Key) :-
    (   get_assoc(Key, Atoms, Parents) -> maplist(child_true(Nodes), Parents) ; true ).

child_true(_, 0) :- !, fail.
child_true(Nodes, I) :-
    arg(I, Nodes, Node), arg(2, Node, Left),
    (   Left =:= 0 -> true
    ;   Left1 is Left - 1, setarg(2, Node, Left1),
        (   Left1 =:= 0 -> arg(3, Node, Parent), child_true(Nodes, Parent) ; true )
    ).


%  names(+T, -Ns): the names (atoms in argument position) of the formulas in T, sorted
names(T, Ns) :- findall(N, ( sub_rel(T, rel(_, Ts)), member(N, Ts), atom(N) ), Ns0), sort(Ns0, Ns).

sub_rel(T, R) :-
    compound(T),
    (   T = rel(_, _) -> R = T
    ;   arg(_, T, A), sub_rel(A, R)
    ).
