/*  equivalence.pl -- entailment and equivalence of logical forms, Blackburn & Bos style.

    Formulas are plain terms:
        rel(Pred, Args)   an atom; Args are Prolog variables (bound variables) or atoms (names)
        and(F, G)   or(F, G)   some(X, F)   all(X, F)
    The language has no negation, so every formula is monotone: adding facts to a model never
    makes a true formula false. That is what makes the procedure below small.

    A |= B (GUIDE section 4):
      1. Skolemise A: each existential variable becomes sk(K, Us), a term over the universal
         variables Us in whose scope it stands. Split A into cases at every OR outside all
         universals; each case is a set of unit facts whose variables are universal.
      2. Herbrandise B: each universal variable becomes hb(K, Es), a fresh term over the
         existential variables Es in whose scope it stands; existential variables stay free.
      3. A |= B iff in every case some conjunction of the DNF of B's matrix is proved from the
         facts by SLD resolution with unify_with_occurs_check/2 (Horn: one goal clause suffices).
    This is sound and complete when A has no OR under a universal. Such an OR is dropped from
    A (a sound weakening): a proof still proves, a failure only says "unknown". Then a small
    connection prover (leanCoP style) tries to prove A |= B from A's full clause form, and a
    bounded countermodel search (domain sizes up to #names + #variables) tries to refute it;
    when both give up within their inference budgets the answer is unknown.
    A countermodel is always re-checked with the model checker satisfy/2 before it is returned.
    A definite answer is never a guess: true comes from a proof, false from a complete SLD
    refutation or a checked countermodel.

    Load with plain `swipl equivalence.pl`; try
        ?- equivalent(some(X, rel(p, [X])), some(Y, rel(p, [Y])), V).
*/

:- module(equivalence,
          [ entails/3,              % +A, +B, -true|false|unknown   (A |= B, no countermodel search)
            equivalent/3,           % +A, +B, -Result               (default budgets)
            check_pair/5,           % +A, +B, +Inferences, +MaxDomain, -Result
            countermodel/4,         % +A, +B, +MaxDomain, -Model
            satisfy/2,              % +Formula, +Model
            normal/2,               % +Formula, -Normal
            equiv_batch_json/3,     % +Pairs, +opts(Seconds, Inferences, MaxDomain), -Dicts
            entails_json/4          % +A, +B, +opts(...), -Dict
          ]).

:- use_module(library(lists)).
:- use_module(library(apply)).
:- use_module(library(ordsets)).
:- use_module(library(pairs)).
:- use_module(library(assoc)).
:- use_module(library(time)).
:- use_module(fol, [equiv_json/4]).


/* ------------------------------------------------------------------------------------
   Normal form (the fast path)
   ------------------------------------------------------------------------------------ */

%  normal(+F, -N): N is F with vacuous quantifiers dropped and and/or chains flattened into
%  and(List) / or(List). Formulas with variant normal forms (=@=) are equivalent.
normal(rel(P, Ts), rel(P, Ts)).
normal(and(F, G), and(Fs)) :- flat(and, and(F, G), Fs0, []), maplist(normal, Fs0, Fs).
normal(or(F, G), or(Fs)) :- flat(or, or(F, G), Fs0, []), maplist(normal, Fs0, Fs).
normal(some(X, F), N) :- normal(F, N0), quantified(some, X, N0, N).
normal(all(X, F), N) :- normal(F, N0), quantified(all, X, N0, N).

%  flat(+Op, +F, -Fs, ?Tail): Fs are the operands of the maximal Op-chain rooted at F.
flat(Op, F, Fs0, Fs) :- F =.. [Op, G, H], !, flat(Op, G, Fs0, Fs1), flat(Op, H, Fs1, Fs).
flat(_, F, [F|Fs], Fs).

%  quantified(+Q, +X, +F, -N): N binds X in F, or is F itself when X does not occur in F.
quantified(Q, X, F, N) :- occurs_in(X, F), !, N =.. [Q, X, F].
quantified(_, _, F, F).

occurs_in(X, F) :- term_variables(F, Vs), member(V, Vs), V == X, !.


/* ------------------------------------------------------------------------------------
   The antecedent: Skolemisation and cases
   ------------------------------------------------------------------------------------ */

%  skolemise(+F, +Us, +K0, -K, -S): S is F with each existential variable bound to sk(K, Us),
%  Us the universal variables in whose scope it stands; all(X, _) stays, X a variable.
%  K0..K numbers the Skolem functions.
skolemise(rel(P, Ts), _, K, K, rel(P, Ts)).
skolemise(and(F, G), Us, K0, K, and(F1, G1)) :-
    skolemise(F, Us, K0, K1, F1), skolemise(G, Us, K1, K, G1).
skolemise(or(F, G), Us, K0, K, or(F1, G1)) :-
    skolemise(F, Us, K0, K1, F1), skolemise(G, Us, K1, K, G1).
skolemise(some(sk(K0, Us), F), Us, K0, K, S) :-
    K1 is K0 + 1, skolemise(F, Us, K1, K, S).
skolemise(all(X, F), Us, K0, K, all(X, S)) :-
    skolemise(F, [X|Us], K0, K, S).

%  case(+S, -Facts, -Complete): on backtracking, Facts runs through the cases of the Skolemised
%  S (one disjunct chosen at each OR outside every universal); S is the disjunction of its
%  cases. An OR under a universal is dropped, a sound weakening, and Complete = false.
case(S, Facts, Complete) :- case(S, outside, Facts, [], true, Complete).

case(rel(P, Ts), _, [rel(P, Ts)|Fs], Fs, C, C).
case(and(F, G), W, Fs0, Fs, C0, C) :- case(F, W, Fs0, Fs1, C0, C1), case(G, W, Fs1, Fs, C1, C).
case(or(F, G), outside, Fs0, Fs, C0, C) :-
    (   case(F, outside, Fs0, Fs, C0, C)
    ;   case(G, outside, Fs0, Fs, C0, C)
    ).
case(or(_, _), under_all, Fs, Fs, _, false).
case(all(_, F), _, Fs0, Fs, C0, C) :- case(F, under_all, Fs0, Fs, C0, C).


/* ------------------------------------------------------------------------------------
   The consequent: Herbrandisation and goals
   ------------------------------------------------------------------------------------ */

%  herbrandise(+F, +Es, +K0, -K, -M): M is the matrix of F with each universal variable bound to
%  hb(K, Es), Es the existential variables in whose scope it stands; existential variables
%  stay free and become goal variables.
herbrandise(rel(P, Ts), _, K, K, rel(P, Ts)).
herbrandise(and(F, G), Es, K0, K, and(F1, G1)) :-
    herbrandise(F, Es, K0, K1, F1), herbrandise(G, Es, K1, K, G1).
herbrandise(or(F, G), Es, K0, K, or(F1, G1)) :-
    herbrandise(F, Es, K0, K1, F1), herbrandise(G, Es, K1, K, G1).
herbrandise(some(X, F), Es, K0, K, M) :-
    herbrandise(F, [X|Es], K0, K, M).
herbrandise(all(hb(K0, Es), F), Es, K0, K, M) :-
    K1 is K0 + 1, herbrandise(F, Es, K1, K, M).

%  disjunct(+M, -Goals): on backtracking, Goals runs through the conjunctions of M's DNF.
disjunct(rel(P, Ts), [rel(P, Ts)]).
disjunct(and(F, G), Goals) :- disjunct(F, G1), disjunct(G, G2), append(G1, G2, Goals).
disjunct(or(F, G), Goals) :- ( disjunct(F, Goals) ; disjunct(G, Goals) ).


/* ------------------------------------------------------------------------------------
   Entailment
   ------------------------------------------------------------------------------------ */

%  proves(+Index, +Goals): every goal is an instance of a fact, under one substitution of the
%  goal variables. Facts are universally closed: each use takes a fresh copy.
proves(_, []).
proves(Index, [Goal|Goals]) :-
    Goal = rel(P, _),
    get_assoc(P, Index, Facts),
    member(Fact, Facts),
    ( ground(Fact) -> Instance = Fact ; copy_term(Fact, Instance) ),
    unify_with_occurs_check(Goal, Instance),
    proves(Index, Goals).

%  fact_index(+Facts, -Index): Facts grouped by predicate name (an AVL tree), so that a goal
%  meets only the facts it could match, however many there are.
fact_index(Facts, Index) :-
    map_list_to_pairs(predicate_of, Facts, Keyed),
    keysort(Keyed, Sorted),
    group_pairs_by_key(Sorted, Groups),
    list_to_assoc(Groups, Index).

predicate_of(rel(P, _), P).

%  horn_entails(+Facts, +M): the quantifier-free Herbrand matrix M holds in every model of Facts.
horn_entails(Facts, M) :-
    fact_index(Facts, Index),
    \+ \+ ( disjunct(M, Goals), proves(Index, Goals) ).

%  entails(+A, +B, -R): R = true when A |= B, false when A does not entail B and the failing
%  case of A is complete (no OR under a universal was dropped), unknown otherwise.
entails(A, B, R) :-
    copy_term(A-B, A1-B1),
    skolemise(A1, [], 0, _, SA),
    herbrandise(B1, [], 0, _, MB),
    findall(Facts-Complete, case(SA, Facts, Complete), Cases),
    entailment(Cases, MB, R).

entailment(Cases, M, false) :- member(Facts-true, Cases), \+ horn_entails(Facts, M), !.
entailment(Cases, M, unknown) :- member(Facts-false, Cases), \+ horn_entails(Facts, M), !.
entailment(_, _, true).


/* ------------------------------------------------------------------------------------
   Beyond Horn: a connection prover (leanCoP style, Otten)
   ------------------------------------------------------------------------------------ */

%  With an OR under a universal, A's Skolem form is not a set of facts but a set of positive
%  clauses. A |= B iff A's clauses plus the negative clauses of B's Herbrand matrix (one per DNF
%  conjunction) are unsatisfiable, i.e. every path through this matrix holds a connection
%  (a pair L, neg(L') with L and L' unifiable). The search below starts from a clause of B,
%  extends along connections with fresh copies of clauses, reduces against the path, reuses
%  lemmas, and deepens the path limit up to MaxDepth. A proof is a proof; failing to find one is
%  only "unknown".

%  connection_entails(+A, +B, +MaxDepth): A |= B, shown by a connection proof.
connection_entails(A, B, MaxDepth) :-
    copy_term(A-B, A1-B1),
    skolemise(A1, [], 0, _, SA),
    herbrandise(B1, [], 0, _, MB),
    findall(C, cnf_clause(SA, C), ClausesA),
    findall(C, ( disjunct(MB, Goals), maplist(negated, Goals, C) ), ClausesB),
    append(ClausesB, ClausesA, Matrix),
    between(1, MaxDepth, Depth),
    member(Start, ClausesB),
    copy_term(Start, Start1),
    prove_all(Start1, Matrix, [], Depth, []),
    !.

negated(A, neg(A)).

%  cnf_clause(+S, -C): on backtracking, C runs through the clauses (lists of atoms) of the CNF
%  of the Skolemised S; the universal markers all(X, _) are dropped (X stays a variable).
cnf_clause(rel(P, Ts), [rel(P, Ts)]).
cnf_clause(and(F, G), C) :- ( cnf_clause(F, C) ; cnf_clause(G, C) ).
cnf_clause(or(F, G), C) :- cnf_clause(F, C1), cnf_clause(G, C2), append(C1, C2, C).
cnf_clause(all(_, F), C) :- cnf_clause(F, C).

%  complement(+L, -N): N is the complementary literal of L.
complement(neg(A), A) :- !.
complement(A, neg(A)).

%  prove_all(+Literals, +Matrix, +Path, +Depth, +Lemmas): every literal is closed.
prove_all([], _, _, _, _).
prove_all([Lit|Lits], Matrix, Path, Depth, Lemmas) :-
    \+ ( member(P, Path), P == Lit ),                      % regularity
    complement(Lit, Neg),
    (   member(L, Lemmas), L == Lit                          % lemma
    ->  true
    ;   member(P, Path), unify_with_occurs_check(P, Neg)     % reduction
    ;   length(Path, K), K < Depth,                          % extension
        member(Clause, Matrix),
        copy_term(Clause, Clause1),
        select(L1, Clause1, Rest),
        unify_with_occurs_check(L1, Neg),
        prove_all(Rest, Matrix, [Lit|Path], Depth, [])
    ),
    prove_all(Lits, Matrix, Path, Depth, [Lit|Lemmas]).


/* ------------------------------------------------------------------------------------
   Models: the checker and the countermodel search
   ------------------------------------------------------------------------------------ */

%  A model is model(Domain, Names, Facts): Domain a list of integers, Names a list Name-Element,
%  Facts an ordered set of ground rel(Pred, Elements); everything else is false.

%  satisfy(+F, +M): F is true in M (the truth definition, variables by substitution).
satisfy(F, M) :- \+ \+ true_in(F, M).

%  true_in(+F, +M): as satisfy/2, but binds F's variables. The language is positive, so an
%  existential variable need not be enumerated: it stays a logic variable and looking atoms up
%  among the facts binds it. A universal body is checked separately for each element, once
%  the variables it shares with the outside are fixed.
true_in(rel(P, Ts), M) :-
    maplist(denotes(M), Ts, Es), M = model(_, _, Facts),
    ( ground(Es) -> ord_memberchk(rel(P, Es), Facts) ; member(rel(P, Es), Facts) ).
true_in(and(F, G), M) :- true_in(F, M), true_in(G, M).
true_in(or(F, G), M) :- ( true_in(F, M) ; true_in(G, M) ).
true_in(some(_, F), M) :- true_in(F, M).
true_in(all(X, F), M) :-
    M = model(D, _, _),
    free_variables(all(X, F), Vs), maplist(element_of(D), Vs),
    forall(member(E, D), ( instance(X, F, E, G), true_in(G, M) )).

%  free_variables(+F, -Vs): the variables of F not bound by a quantifier inside F.
free_variables(F, Vs) :-
    term_variables(F, All),
    bound_variables(F, Bs),
    exclude(in_vars(Bs), All, Vs).

in_vars(Vs, V) :- member(W, Vs), W == V, !.

element_of(D, E) :- member(E, D).

bound_variables(rel(_, _), []).
bound_variables(and(F, G), Bs) :- bound_variables(F, B1), bound_variables(G, B2), append(B1, B2, Bs).
bound_variables(or(F, G), Bs) :- bound_variables(F, B1), bound_variables(G, B2), append(B1, B2, Bs).
bound_variables(some(X, F), [X|Bs]) :- bound_variables(F, Bs).
bound_variables(all(X, F), [X|Bs]) :- bound_variables(F, Bs).

%  instance(+X, +F, +E, -G): G is F with element E for X (F's other free variables are bound).
instance(X, F, E, G) :- copy_term(X-F, E-G).

%  denotes(+M, +T, -E): the term T (an element, a name, or a still unbound variable) denotes E.
denotes(_, T, T) :- ( var(T) ; integer(T) ), !.
denotes(model(_, Names, _), T, E) :- memberchk(T-E, Names).

%  countermodel(+A, +B, +MaxN, -M): M, with at most MaxN elements, makes A true and B false.
%  Names denote distinct elements. By monotonicity it suffices to try minimal models of A:
%  ground A over the domain, choosing a witness for each existential and a disjunct for each
%  OR, and keep exactly the atoms so made true.
countermodel(A, B, MaxN, M) :-
    names(A-B, Ns),
    length(Ns, NN), MinN is max(1, NN),
    between(MinN, MaxN, N),
    numlist(1, N, Dom),
    pairs_keys_values(Names, Ns, Dom0), prefix(Dom0, Dom),
    copy_term(A, A1),
    model_facts(A1, model(Dom, Names, _), [], Facts),
    M = model(Dom, Names, Facts),
    \+ satisfy(B, M),
    satisfy(A, M),
    !.

%  herbrand_countermodel(+A, +B, -M): the quick candidate when A has a case whose facts are
%  ground: its terms plus one fresh element as the domain, its facts as the extensions.
%  Kept only if the model checker confirms A true and B false.
herbrand_countermodel(A, B, M) :-
    copy_term(A, A1),
    skolemise(A1, [], 0, _, SA),
    case(SA, Facts0, true),
    ground(Facts0),
    herbrand_domain(A-B, Facts0, Terms),
    length(Terms, NT), N is NT + 1, numlist(1, N, Dom),
    pairs_keys_values(TermElems, Terms, Dom0), prefix(Dom0, Dom),
    include(names_a_name, TermElems, Names),
    maplist(element_fact(TermElems), Facts0, Facts1), sort(Facts1, Facts),
    M = model(Dom, Names, Facts),
    \+ satisfy(B, M),
    satisfy(A, M),
    !.

%  herbrand_domain(+AB, +Facts, -Terms): the names of both formulas and the terms of Facts.
herbrand_domain(AB, Facts, Terms) :-
    names(AB, Ns),
    findall(T, ( member(rel(_, Ts), Facts), member(T, Ts) ), Ts0),
    append(Ns, Ts0, Ts1), sort(Ts1, Terms).

names_a_name(T-_) :- atom(T).

%  element_fact(+TermElems, +Fact, -ElementFact): Fact with each term replaced by its element.
element_fact(TermElems, rel(P, Ts), rel(P, Es)) :- maplist(term_element(TermElems), Ts, Es).

term_element(TermElems, T, E) :- memberchk(T-E, TermElems).

%  model_facts(+F, +M, +Fs0, -Fs): Fs adds to Fs0 ground atoms that make F true in M's domain.
model_facts(rel(P, Ts), M, Fs0, Fs) :- maplist(denotes(M), Ts, Es), ord_add_element(Fs0, rel(P, Es), Fs).
model_facts(and(F, G), M, Fs0, Fs) :- model_facts(F, M, Fs0, Fs1), model_facts(G, M, Fs1, Fs).
model_facts(or(F, G), M, Fs0, Fs) :- ( model_facts(F, M, Fs0, Fs) ; model_facts(G, M, Fs0, Fs) ).
model_facts(some(X, F), M, Fs0, Fs) :- M = model(D, _, _), member(X, D), model_facts(F, M, Fs0, Fs).
model_facts(all(X, F), M, Fs0, Fs) :- M = model(D, _, _), foldl(model_facts_for(X, F, M), D, Fs0, Fs).

model_facts_for(X, F, M, E, Fs0, Fs) :- instance(X, F, E, G), model_facts(G, M, Fs0, Fs).

%  names(+T, -Ns): the names (atoms in argument position) occurring in the formulas of T.
names(T, Ns) :- findall(N, ( sub_rel(T, rel(_, Ts)), member(N, Ts), atom(N) ), Ns0), sort(Ns0, Ns).

%  predicates(+T, -Ps): Pred/Arity of every atom in the formulas of T.
predicates(T, Ps) :- findall(P/Ar, ( sub_rel(T, rel(P, Ts)), length(Ts, Ar) ), Ps0), sort(Ps0, Ps).

sub_rel(T, R) :-
    compound(T),
    (   T = rel(_, _) -> R = T
    ;   arg(_, T, A), sub_rel(A, R)
    ).

%  domain_bound(+A, +B, -N): search bound on the domain size: #names + #variables.
domain_bound(A, B, N) :-
    names(A-B, Ns), length(Ns, NN),
    term_variables(A-B, Vs), length(Vs, NV),
    N is max(1, NN + NV).


/* ------------------------------------------------------------------------------------
   Verdicts, under budgets
   ------------------------------------------------------------------------------------ */

%  within(:G, +L): G succeeds within L inferences (first solution only).
within(G, L) :- call_with_inference_limit(G, L, R), R \== inference_limit_exceeded, !.

%  direction(+A, +B, +L, +MaxN, +Witness, -R, -Why): R in true/false/unknown decides A |= B; for true, Why
%  names the proof (sld, connection); for false, a model(...) or none; for unknown, what gave up.
%  Witness = no skips the countermodel search when the refutation is already complete.
direction(A, B, L, MaxN, Witness, R, Why) :-
    ( within(entails(A, B, R0), L) -> true ; R0 = unknown, Out = inference_limit ),
    (   R0 == true
    ->  R = true, Why = sld
    ;   R0 == unknown, within(connection_entails(A, B, 6), L)
    ->  R = true, Why = connection
    ;   R0 == false, Witness == no
    ->  R = false, Why = none
    ;   R0 == false, within(herbrand_countermodel(A, B, M), L)
    ->  R = false, Why = M
    ;   ( MaxN == bound -> domain_bound(A, B, MaxN1) ; MaxN1 = MaxN ),
        MaxN1 > 0, within(countermodel(A, B, MaxN1, M), L)
    ->  R = false, Why = M
    ;   R0 == false
    ->  R = false, Why = none
    ;   R = unknown,
        ( var(Out) -> Why = outside_fragment ; Why = Out )
    ).

%  check_pair(+A, +B, +L, +MaxN, -result(V, AB, BA, W)): verdict V with both directions and a
%  witness (the failing direction and its countermodel, or why undecided).
%  MaxN < 0 means the bound #names + #variables (computed when needed, MaxN = bound inside);
%  MaxN = 0 switches the countermodel search off.
check_pair(A, B, _, _, result('EQUIVALENT', true, true, canonical)) :-
    normal(A, NA), normal(B, NB), NA =@= NB, !.
check_pair(A, B, L, MaxN0, result(V, AB, BA, W)) :-
    ( MaxN0 < 0 -> MaxN = bound ; MaxN = MaxN0 ),
    direction(A, B, L, MaxN, yes, AB, W1),
    ( W1 = model(_, _, _) -> Wanted = no ; Wanted = yes ),   % one countermodel is witness enough
    direction(B, A, L, MaxN, Wanted, BA, W2),
    verdict(AB, BA, V),
    witness(V, AB-W1, BA-W2, W).

verdict(true, true, 'EQUIVALENT') :- !.
verdict(AB, BA, 'NOT_EQUIVALENT') :- ( AB == false ; BA == false ), !.
verdict(_, _, 'UNKNOWN').

witness('EQUIVALENT', _-W1, _-W2, proved(M)) :- ( W1 == sld, W2 == sld -> M = sld ; M = connection ).
witness('NOT_EQUIVALENT', AB-W1, BA-W2, W) :-
    (   AB == false, W1 = model(_, _, _) -> W = countermodel(a_entails_b, W1)
    ;   BA == false, W2 = model(_, _, _) -> W = countermodel(b_entails_a, W2)
    ;   AB == false -> W = no_model(a_entails_b)
    ;   W = no_model(b_entails_a)
    ).
witness('UNKNOWN', AB-W1, _-W2, unknown(Why)) :- ( AB == unknown -> Why = W1 ; Why = W2 ).

%  equivalent(+A, +B, -Result): check_pair with the default budgets.
equivalent(A, B, Result) :- check_pair(A, B, 1000000, -1, Result).


/* ------------------------------------------------------------------------------------
   JSON interface (used from Python through logic/runtime/worker.py)
   ------------------------------------------------------------------------------------ */

%  Formulas arrive as terms with Prolog variables, no two formulas sharing one.

%  equiv_batch_json(+Pairs, +Opts, -Dicts): one result dict per p(A, B), in order.
equiv_batch_json(Pairs, Opts, Dicts) :- maplist(pair_json(Opts), Pairs, Dicts).

pair_json(opts(T, L, MaxN), p(A, B), Dict) :-
    catch(call_with_time_limit(T, ( check_pair(A, B, L, MaxN, R), full_fol(R, A, B, L, MaxN, Full) )), Error,
          ( out_of_budget(Error, Why), R = result('UNKNOWN', unknown, unknown, unknown(Why)), Full = null )),
    result_dict(A, B, R, Dict0),
    ( Full == null -> Dict = Dict0 ; Dict = Dict0.put(full_fol, Full) ).

%  full_fol(+Result, +A, +B, +L, +MaxN, -Full): one engine for every format: a pair this
%  procedure leaves UNKNOWN goes on, within the same time limit, to the full first-order
%  engine (fol.pl: connection proofs, finite models up to 8 elements, or MaxN when set);
%  Full is its answer (logic/engine/prove.py reads it), or null when this procedure decided.
full_fol(result('UNKNOWN', _, _, _), A, B, L, MaxN, Full) :- !,
    fol_term(A, FA), fol_term(B, FB),
    ( MaxN < 0 -> MaxDom = 8 ; MaxDom = MaxN ),
    equiv_json(FA, FB, budget(L, MaxDom), Full).
full_fol(_, _, _, _, _, null).

%  fol_term(+F, -G): F in fol.pl's term language: quantifiers numbered 1, 2, ... in pre-order
%  and their variables v(N) (bound on a copy, so F keeps its own variables)
fol_term(F, G) :- copy_term(F, F1), fol_term(F1, G, 1, _).

fol_term(rel(P, As), rel(P, As), N, N).
fol_term(and(F, G), and(F1, G1), N0, N) :- fol_term(F, F1, N0, N1), fol_term(G, G1, N1, N).
fol_term(or(F, G), or(F1, G1), N0, N) :- fol_term(F, F1, N0, N1), fol_term(G, G1, N1, N).
fol_term(some(X, F), some(N0, G), N0, N) :- X = v(N0), N1 is N0 + 1, fol_term(F, G, N1, N).
fol_term(all(X, F), all(N0, G), N0, N) :- X = v(N0), N1 is N0 + 1, fol_term(F, G, N1, N).

%  out_of_budget(+Error, -Why): Error is a spent budget (time or memory); other errors propagate.
out_of_budget(time_limit_exceeded, time_limit) :- !.
out_of_budget(error(resource_error(_), _), memory_limit) :- !.
out_of_budget(Error, _) :- throw(Error).

%  entails_json(+GA, +GB, +Opts, -Dict): one direction only; Dict = _{entails: true|false|null, ...}.
%  A direction this procedure leaves unknown goes on to fol.pl (a proof, or a model that Python
%  checks: witness full_fol_model), as pair_json/3 does.
entails_json(A, B, opts(T, L, MaxN0), _{entails: E, witness: WD}) :-
    ( MaxN0 < 0 -> MaxN = bound ; MaxN = MaxN0 ),
    catch(call_with_time_limit(T, ( direction(A, B, L, MaxN, yes, R0, W0), full_entails(R0, W0, A, B, L, MaxN0, R, W) )),
          Error, ( out_of_budget(Error, W), R = unknown )),
    json_bool(R, E),
    (   W = model(_, _, _) -> model_dict(A, B, W, MD), WD = _{direction: a_entails_b, model: MD}
    ;   W = full_fol_model(MJ) -> WD = _{direction: a_entails_b, full_fol_model: MJ}
    ;   R == unknown -> WD = _{reason: W}
    ;   WD = null
    ).

full_entails(unknown, _, A, B, L, MaxN, R, W) :- !,
    fol_term(A, FA), fol_term(B, FB),
    ( MaxN < 0 -> MaxDom = 8 ; MaxDom = MaxN ),
    fol:status([a-FA, negated_b-not(FB)], budget(L, MaxDom), S),
    (   S = unsat(_) -> R = true, W = connection
    ;   S = sat(M) -> R = false, fol:model_json(M, MJ), W = full_fol_model(MJ)
    ;   S = unknown(Why) -> R = unknown, W = Why
    ).
full_entails(R, W, _, _, _, _, R, W).

result_dict(A, B, result(V, AB, BA, W), _{verdict: V, a_entails_b: JAB, b_entails_a: JBA, witness: WD}) :-
    json_bool(AB, JAB), json_bool(BA, JBA),
    witness_dict(A, B, W, WD).

json_bool(true, true).
json_bool(false, false).
json_bool(unknown, null).

witness_dict(_, _, canonical, _{method: canonical}).
witness_dict(_, _, proved(M), _{method: M}).
witness_dict(_, _, unknown(Why), _{reason: Why}).
witness_dict(_, _, no_model(Dir), _{direction: Dir, model: null}).
witness_dict(A, B, countermodel(Dir, M), _{direction: Dir, model: MD}) :- model_dict(A, B, M, MD).

%  model_dict(+A, +B, +M, -Dict): the model with every predicate of A and B listed, empty or not.
model_dict(A, B, model(Dom, Names, Facts), _{domain: Dom, constants: CD, extensions: ED}) :-
    dict_pairs(CD, _, Names),
    predicates(A-B, Ps),
    findall(P-Tuples, ( member(P/_, Ps), findall(Es, member(rel(P, Es), Facts), Tuples) ), EPairs0),
    keysort(EPairs0, EPairs1), group_pairs_by_key(EPairs1, EPairs2),
    findall(P-Ts, ( member(P-Tss, EPairs2), append(Tss, Ts0), sort(Ts0, Ts) ), EPairs),
    dict_pairs(ED, _, EPairs).
