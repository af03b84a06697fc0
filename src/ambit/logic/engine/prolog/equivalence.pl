/*  equivalence.pl -- the first stage of the one engine for AmP's positive fragment.

    Formulas are plain terms:
        rel(Pred, Args)   an atom; Args are Prolog variables (bound variables) or atoms (names)
        and(F, G)   or(F, G)   some(X, F)   all(X, F)
    The language has no negation, so every formula is monotone: adding facts to a model never
    makes a true formula false. That is what makes the stage below small and cheap.

    A |= B by SLD resolution (GUIDE section 4):
      1. Skolemise A: each existential variable becomes sk(K, Us), a term over the universal
         variables Us in whose scope it stands. Split A into cases at every OR outside all
         universals; each case is a set of unit facts whose variables are universal.
      2. Herbrandise B: each universal variable becomes hb(K, Es), a fresh term over the
         existential variables Es in whose scope it stands; existential variables stay free.
      3. A |= B iff in every case some conjunction of the DNF of B's matrix is proved from the
         facts by SLD resolution with unify_with_occurs_check/2 (Horn: one goal clause suffices).
    This is sound and complete when A has no OR under a universal. Such an OR is dropped from
    A (a sound weakening): a proof still proves, a failure only says "unknown".

    A direction this stage refutes completely comes with its countermodel candidate at almost no
    cost: the failing case's facts, when they are ground, read as a model (candidate/3). Python
    checks it with the one model checker (logic/engine/model_check.py: holds) like every other model,
    and asks again without candidates for a pair whose candidate fails the check.
    A direction SLD leaves open (an OR under a universal of A) meets the stage's second step,
    monotone.pl, within the same inference budget: a proof from instances of B's matrix whose
    every clause holds an instance of a clause of A (proved_by: instances), and the least model
    of A in which B stays false (a candidate, checked like the others).
    Everything else this stage does not settle goes on, within the same budget and time limit,
    to the one first-order engine (prove.pl): its connection prover, its finite-model search
    (finite_models.pl, herbrand.pl), the same stages and the same evidence as for every other
    dialect. A direction this stage refutes completely is not entailed even when the search
    finds no model within its budget (the witness then has "model": null). A definite answer is
    never a guess.

    The budget is prove.pl's: budget(Inferences, MaxDomain, Seconds), the same term for every
    question (logic/engine/budget.py writes it).

    Load with plain `swipl equivalence.pl`; try
        ?- entails(some(X, rel(p, [X])), some(Y, rel(p, [Y])), R).
*/

:- module(equivalence,
          [ entails/3,              % +A, +B, -true|false|unknown   (A |= B by SLD: the first stage)
            sld_pair/4,             % +A, +B, +Inferences, -Result  (the first stage on a pair)
            normal/2,               % +Formula, -Normal
            equiv_batch_json/3,     % +Pairs, +budget(Inferences, MaxDomain, Seconds), -Dicts
            equiv_batch_json/4,     % +Pairs, +Budget, +Candidates (true|false), -Dicts
            candidate/3,            % +A, +B, -Model                (a refuted direction's model)
            entails_json/4          % +A, +B, +budget(Inferences, MaxDomain, Seconds), -Dict
          ]).

:- use_module(library(lists)).
:- use_module(library(apply)).
:- use_module(library(pairs)).
:- use_module(library(assoc)).
:- use_module(library(time)).
:- use_module(library(error)).
:- use_module(prove, [parts_json/4, a_model/1]).  % a_model: "stop at the first model of any part"
:- use_module(monotone, [clause_proof/3, countermodel/4]).


/* ------------------------------------------------------------------------------------
   Normal form (the fast path)
   ------------------------------------------------------------------------------------ */

%!  normal(+Formula, -Normal) is det.
%
%   Normal is Formula with vacuous quantifiers dropped and and/or chains flattened into
%   and(List) / or(List). Formulas with variant normal forms (=@=) are equivalent: the fast path.
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

%!  entails(+A, +B, -Result) is det.
%
%   Result = true when A |= B, false when A does not entail B and the failing case of A is
%   complete (no OR under a universal was dropped), unknown otherwise: the first stage alone.
entails(A, B, R) :- refutation(A, B, R0), ( R0 = refuted(_) -> R = false ; R = R0 ).

%  refutation(+A, +B, -R): entails/3 with the evidence of a refutation: R = refuted(Facts), the
%  facts of a complete case of A that do not prove B (its countermodel candidate, candidate/3)
refutation(A, B, R) :-
    copy_term(A-B, A1-B1),
    skolemise(A1, [], 0, _, SA),
    herbrandise(B1, [], 0, _, MB),
    findall(Facts-Complete, case(SA, Facts, Complete), Cases),
    entailment(Cases, MB, R).

entailment(Cases, M, refuted(Facts)) :- member(Facts-true, Cases), \+ horn_entails(Facts, M), !.
entailment(Cases, M, unknown) :- member(Facts-false, Cases), \+ horn_entails(Facts, M), !.
entailment(_, _, true).


/* ------------------------------------------------------------------------------------
   The pair: the first stage, then the one engine
   ------------------------------------------------------------------------------------ */

%  within(:G, +L): G succeeds within L inferences (first solution only).
within(G, L) :- call_with_inference_limit(G, L, R), R \== inference_limit_exceeded, !.

%  sld(+A, +B, +L, -R): the first stage on one direction: true, refuted(Facts) (a complete
%  refutation, with its case's facts), or unknown (outside the complete fragment, or over L inferences).
sld(A, B, L, R) :- ( within(refutation(A, B, R0), L) -> R = R0 ; R = unknown ).

%!  sld_pair(+A, +B, +Inferences:integer, -Result) is det.
%
%   Result is canonical (variant normal forms: equivalent without a proof search), or
%   sld(AB, BA), each direction true, false or unknown within Inferences.
sld_pair(A, B, L, R) :-
    first_stage(A, B, L, R0),
    ( R0 = sld(AB0, BA0) -> R = sld(AB, BA), refuted_false(AB0, AB), refuted_false(BA0, BA) ; R = R0 ).

refuted_false(refuted(_), false) :- !.
refuted_false(R, R).

%  first_stage(+A, +B, +L, -Result): sld_pair/4 with each refutation's facts kept
first_stage(A, B, _, canonical) :- normal(A, NA), normal(B, NB), NA =@= NB, !.
first_stage(A, B, L, sld(AB, BA)) :- sld(A, B, L, AB), sld(B, A, L, BA).

%!  equiv_batch_json(+Pairs:list, +Budget, -Dicts:list) is det.
%
%   One dict per p(A, B), in order: _{canonical: true}, or _{sld: [AB, BA], a_not_b: J1,
%   b_not_a: J2} where J1 and J2 are prove.pl's answers (status unsat with a proof, sat with a
%   model, unknown with a reason) on A ∧ ¬B and B ∧ ¬A for each direction the first stage did
%   not prove (null otherwise, and null for a direction the search stopped before, once a model
%   of the other was found). A model that is the first stage's candidate says so
%   (candidate: true). Budget is budget(Inferences, MaxDomain, Seconds): each pair has Seconds
%   of its own. Called from Python (logic/engine/equivalence.py), so its arguments are checked.
equiv_batch_json(Pairs, Budget, Dicts) :- equiv_batch_json(Pairs, Budget, true, Dicts).

%!  equiv_batch_json(+Pairs:list, +Budget, +Candidates:boolean, -Dicts:list) is det.
%
%   equiv_batch_json/3 with Candidates = false leaving every model to prove.pl's search (for a
%   pair whose candidate the checker refused). MaxDomain 0 turns off candidates as well as the
%   search: no model at all. Its arguments are checked once per call (must_be/2), not per pair.
equiv_batch_json(Pairs, Budget, Candidates, Dicts) :-
    must_be(list, Pairs), must_be(budget, Budget), must_be(boolean, Candidates),
    maplist(pair_json(Budget, Candidates), Pairs, Dicts).

pair_json(budget(L, MaxDom, T), Candidates, p(A, B), Dict) :-
    catch(call_with_time_limit(T, pair_answer(A, B, budget(L, MaxDom), Candidates, Dict)), Error,
          ( out_of_budget(Error, Why), Dict = _{unknown: Why} )).

pair_answer(A, B, budget(L, MaxDom), Candidates, Dict) :-
    first_stage(A, B, L, R),
    (   R == canonical
    ->  Dict = _{canonical: true}
    ;   R = sld(AB0, BA0),
        clause_step(AB0, A, B, L, AB, ByAB), clause_step(BA0, B, A, L, BA, ByBA),
        json_bool(AB, JAB), json_bool(BA, JBA),
        (   AB == true, BA == true
        ->  J1 = null, J2 = null
        ;   Candidates == true, MaxDom > 0, quick_model(AB, BA, A-B, L, J1, J2)
        ->  true
        ;   Candidates == true, MaxDom > 0, least_model(AB, BA, A, B, L, MaxDom, J1, J2)
        ->  true
        ;   fol_term(A, FA), fol_term(B, FB),
            open_parts(AB, [a-FA, negated_b-not(FB)], P1),
            open_parts(BA, [b-FB, negated_a-not(FA)], P2),
            append(P1, P2, Parts),
            engine_inferences(L, LE), parts_json(Parts, budget(LE, MaxDom), a_model, Results),
            answers(AB, BA, Results, J1, J2)
        ),
        Dict = _{sld: [JAB, JBA], proved_by: [ByAB, ByBA], a_not_b: J1, b_not_a: J2}
    ).

%  engine_inferences(+L, -LE): the inferences per stage prove.pl gets for what both steps of the
%  first stage left open: a share of L (engine_share/1), so that its last proof stage, at
%  prove.pl's proof_factor/1 times that, ends by its inference limit in well under a second's CPU
%  rather than by the time limit: the same UNKNOWN on a busy machine, not a different one (a
%  twentieth: the 2,000 tail pairs and 700 hard pairs get the verdicts a tenth gave them, and the
%  slowest pair 0.67 s CPU, not 1.07)
engine_inferences(L, LE) :- engine_share(D), LE is max(1, L // D).

engine_share(20).

%  clause_step(+SLD, +A, +B, +L, -R, -By): a direction SLD left open (an OR under a universal
%  of A) proved within L inferences by monotone.pl's clause_proof/3 (By = instances); a
%  direction SLD proved is By = sld; any other keeps its answer (By = null)
clause_step(unknown, A, B, L, R, By) :- clause_proof(A, B, L), !, R = true, By = instances.
clause_step(true, _, _, _, true, sld) :- !.
clause_step(R, _, _, _, R, null).

%  least_model(+AB, +BA, +A, +B, +L, +MaxDom, -J1, -J2): a direction not proved has a least
%  model of its antecedent in which its consequent is false (monotone.pl's countermodel/4,
%  within L inferences, at most MaxDom elements): the pair's witness, and the other direction
%  is not searched (null)
least_model(AB, _, A, B, L, MaxDom, J, null) :-
    AB \== true, within(countermodel(A, B, MaxDom, M), L), !, candidate_json(M, J).
least_model(_, BA, A, B, L, MaxDom, null, J) :-
    BA \== true, within(countermodel(B, A, MaxDom, M), L), candidate_json(M, J).

%  open_parts(+SLD, +Part, -Parts): the part, unless the first stage proved its direction; for a
%  direction it refuted completely, the part has a model: only the model search runs (model(Part))
open_parts(true, _, []) :- !.
open_parts(refuted(_), Part, [model(Part)]) :- !.
open_parts(_, Part, [Part]).

%  quick_model(+AB, +BA, +A, +B, +L, -J1, -J2): a direction the first stage refuted completely
%  has its candidate within L inferences: the pair's witness, and the other direction is not
%  searched (null), as when prove.pl's search stops at the first model of either
quick_model(refuted(Facts), _, AB, L, J, null) :- within(model_of_facts(AB, Facts, M), L), !, candidate_json(M, J).
quick_model(_, refuted(Facts), AB, L, null, J) :- within(model_of_facts(AB, Facts, M), L), candidate_json(M, J).

candidate_json(model(N, Vals, Trues), json([status=sat, candidate=true, model=M])) :-
    findall(C=E, member(C-E, Vals), CJ),
    findall([P|Es], member(rel(P, Es), Trues), AJ),
    M = json([size=N, constants=json(CJ), atoms=AJ, functions=[]]).

%!  candidate(+A, +B, -Model) is semidet.
%
%   Model = model(N, Names, Facts): the quick countermodel candidate of A |= B, built
%   (not searched for) from a complete case of A whose Skolemised facts do not prove B's Herbrand
%   matrix. Its domain is 1..N, Names maps each name to its element, Facts are true atoms over
%   elements: every other atom is false. By monotonicity the least model of the case's facts is
%   the best candidate there is; the candidate is a finite picture of it:
%   - facts that are ground (no universal in the case): the facts themselves, over the names,
%     the Skolem terms and one fresh element (so that a universal of B can fail);
%   - facts with universal variables: the Herbrand universe unfolded once. The base elements
%     are the names, the Skolem constants and two fresh elements; each Skolem function applied
%     to base elements is an element of its own; applied to such a derived element, it takes
%     the value it has at the base element after the one the derived element came from (so
%     that a function never maps everything to one fixed point, which a reading with the
%     quantifiers swapped could use as its witness). The facts hold of every instance.
%   Python checks the candidate with the one model checker; a refused candidate only costs the
%   pair a search by prove.pl.
candidate(A, B, Model) :- refutation(A, B, refuted(Facts)), model_of_facts(A-B, Facts, Model).

%  model_of_facts(+AB, +Facts, -Model): candidate/3's model of the facts of a case of A that do
%  not prove B (AB = A-B, for the names of both)
model_of_facts(AB, Facts0, Model) :-
    names(AB, Ns),
    (   ground(Facts0)
    ->  findall(T, ( member(rel(_, Ts), Facts0), member(T, Ts) ), Ts0),
        append(Ns, [fresh(0)], Ns1), append(Ns1, Ts0, Ts1), sort(Ts1, Terms),
        numbered_model(Terms, Facts0, Model)
    ;   unfolded(Ns, Facts0, Terms, Facts1),
        numbered_model(Terms, Facts1, Model)
    ).

%  numbered_model(+Terms, +Facts, -model(N, Names, ElementFacts)): Terms numbered 1..N
numbered_model(Terms, Facts0, model(N, Names, Facts)) :-
    length(Terms, N),
    numlist(1, N, Es), pairs_keys_values(TermElems, Terms, Es),
    include(names_a_name, TermElems, Names),
    list_to_assoc(TermElems, Elem),
    maplist(element_fact(Elem), Facts0, Facts1), sort(Facts1, Facts).

%  unfolded(+Names, +Facts, -Terms, -GroundFacts): the unfolded universe of non-ground facts
%  (candidate/3) and every instance of the facts over it
unfolded(Ns, Facts, Terms, Ground) :-
    term_variables(Facts, Us),
    findall(T, ( member(rel(_, Ts), Facts), member(T, Ts), nonvar(T), T = sk(_, []) ), Cs),
    append([Ns, Cs, [fresh(1), fresh(2)]], Base0), sort(Base0, Base),
    findall(K-Vs, ( member(rel(_, Ts), Facts), member(T, Ts), nonvar(T), T = sk(K, Vs), Vs \== [] ), Fs0), sort(Fs0, Fs),
    findall(sk(K, Bs), ( member(K-Vs, Fs), length(Vs, Ar), length(Bs, Ar), maplist(in(Base), Bs) ), Derived),
    append(Base, Derived, Terms0), sort(Terms0, Terms),
    length(Terms, NT), length(Us, NU), NT ** NU =< 256,   % a small picture, or none (prove.pl searches)
    findall(G, ( maplist(in(Terms), Us), member(F, Facts), instance(Base, F, G) ), Ground0),
    sort(Ground0, Ground).

in(Xs, X) :- member(X, Xs).

%  instance(+Base, +Fact, -Ground): Fact, its universals bound to elements, with each Skolem
%  term evaluated in the unfolded universe
instance(Base, rel(P, Ts), rel(P, Es)) :- maplist(value(Base), Ts, Es).

value(_, T, T) :- atom(T), !.
value(_, sk(K, []), sk(K, [])) :- !.
value(_, fresh(I), fresh(I)) :- !.
value(Base, sk(K, Args), sk(K, Bs)) :- !, maplist(base_of(Base), Args, Bs).

%  base_of(+Base, +E, -B): E itself when it is a base element; a derived element sk(_, [A|_])
%  stands for the base element after A (in Base's order, cyclically)
base_of(Base, E, E) :- memberchk(E, Base), !.
base_of(Base, sk(_, [A|_]), B) :- nth0(I, Base, A), !, length(Base, L), J is (I + 1) mod L, nth0(J, Base, B).

%  names(+T, -Ns): the names (atoms in argument position) of the formulas in T, sorted
names(T, Ns) :- findall(N, ( sub_rel(T, rel(_, Ts)), member(N, Ts), atom(N) ), Ns0), sort(Ns0, Ns).

sub_rel(T, R) :-
    compound(T),
    (   T = rel(_, _) -> R = T
    ;   arg(_, T, A), sub_rel(A, R)
    ).

names_a_name(T-_) :- atom(T).

element_fact(Elem, rel(P, Ts), rel(P, Es)) :- maplist(term_element(Elem), Ts, Es).

term_element(Elem, T, E) :- get_assoc(T, Elem, E).

answers(true, _, [_-J2], null, J2) :- !.
answers(_, true, [_-J1], J1, null) :- !.
answers(_, _, [_-J1, _-J2], J1, J2).

%  fol_term(+F, -G): F in prove.pl's term language: quantifiers numbered 1, 2, ... in pre-order
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

%!  entails_json(+A, +B, +Budget, -Dict) is det.
%
%   One direction only: _{sld: R, a_not_b: J}, J null when the first stage settled it (proved,
%   or refuted completely), else prove.pl's answer on A ∧ ¬B; or _{unknown: Why} when the time
%   ran out outside the search. Budget is budget(Inferences, MaxDomain, Seconds). Called from
%   Python (logic/engine/equivalence.py), so its arguments are checked.
entails_json(A, B, Budget, Dict) :-
    must_be(compound, A), must_be(compound, B), must_be(budget, Budget),
    Budget = budget(L, MaxDom, T),
    catch(call_with_time_limit(T, direction_answer(A, B, budget(L, MaxDom), Dict)), Error,
          ( out_of_budget(Error, Why), Dict = _{unknown: Why} )).

direction_answer(A, B, budget(L, MaxDom), _{sld: JR, a_not_b: J}) :-
    sld(A, B, L, R0), clause_step(R0, A, B, L, R, _), json_bool(R, JR),
    (   R \== unknown                        % proved, or refuted completely: nothing to search
    ->  J = null
    ;   MaxDom > 0, within(countermodel(A, B, MaxDom, M), L)
    ->  candidate_json(M, J)
    ;   fol_term(A, FA), fol_term(B, FB),
        open_parts(R, [a-FA, negated_b-not(FB)], Parts),
        engine_inferences(L, LE), parts_json(Parts, budget(LE, MaxDom), a_model, [_-J])
    ).

json_bool(true, true).
json_bool(false, false).
json_bool(refuted(_), false).
json_bool(unknown, null).
