/*  finite_models.pl -- finite models of full first-order formulas (for prove.pl).

    Mace4 style: domain sizes 1, 2, ... ; a formula is grounded over {1..n}, each constant
    stands for the element chosen by propositional variables den(C, D) (exactly one per
    constant; the i-th constant may only take the first i elements: symmetry breaking), each
    function term for the value chosen by fval(F, Args, D) (exactly one per argument tuple),
    and the ground formula, put in clauses by a Tseitin encoding, is decided by a small DPLL
    procedure (unit propagation to a fixpoint, branching on atoms first).

    Formulas are prove.pl's terms: rel(Pred, Args), eq(S, T), not/and/or/imp/iff/xor, all(N, F),
    some(N, F), arguments v(N), fn(F, Args) or names.
*/

:- module(finite_models, [ find_model/3, model_json/2, flip/2, dual/2 ]).

:- use_module(library(lists)).
:- use_module(library(apply)).
:- use_module(library(assoc)).
:- use_module(library(pairs)).
:- use_module(library(occurs)).

%!  flip(?Sign, ?Opposite) is nondet.
%
%   The opposite sign: pos and neg (a subformula under a negation is grounded with it flipped).
flip(pos, neg).
flip(neg, pos).

%!  find_model(+F, +MaxDomain:nonneg, -Model) is det.
%
%   Model is a model of F over {1..n}, n = 1..MaxDomain, as model(N, Constants, TrueAtoms,
%   FunctionTables); none when there is none that small (the least size is found first).
find_model(F, MaxDom, Model) :-
    constants_of(F, Cs),
    functions_of(F, Fs),
    (   between(1, MaxDom, N), model_of_size(F, Cs, Fs, N, Model) -> true ; Model = none ).

constants_of(F, Cs) :- findall(C, ( term_in(F, T), const_term(T, C) ), Cs0), list_to_set(Cs0, Cs).
functions_of(F, Fs) :- findall(Name/N, ( term_in(F, T), sub_term(fn(Name, As), T), length(As, N) ), Fs0), sort(Fs0, Fs).

%  term_in(+F, -T): on backtracking, every argument term of an atom or equation of F
term_in(rel(_, As), T) :- member(T, As).
term_in(eq(A, B), T) :- member(T, [A, B]).
term_in(F, T) :- F =.. [Op|Gs], memberchk(Op, [not, and, or, imp, iff, xor]), member(G, Gs), term_in(G, T).
term_in(all(_, G), T) :- term_in(G, T).
term_in(some(_, G), T) :- term_in(G, T).

%  const_term(+T, -C): on backtracking, the constants in term T
const_term(v(_), _) :- !, fail.
const_term(fn(_, As), C) :- !, member(A, As), const_term(A, C).
const_term(C, C).

model_of_size(F, Cs, Fs, N, model(N, Vals, Trues, Tables)) :-
    numlist(1, N, D),
    empty_assoc(E),
    ground_formula(F, pos, E, D, G),
    constant_axioms(Cs, 1, N, Ax),
    function_axioms(Fs, D, FAx),
    append(Ax, FAx, Axioms),
    tseitin([G|Axioms], Clauses0, Keys),
    atoms_first(Keys, Clauses0, Clauses),
    sat(Clauses),
    extract(Keys, Cs, Vals, Trues, Tables).

%  atoms_first(+Keys, +Clauses, -Ordered): each clause with the literals of atoms (the keys'
%  variables) before those of the variables tseitin/3 adds for subformulas, so that the search
%  branches on atoms: a subformula's variable is implied by them, and branching on it first
%  multiplies the search (with unit propagation to a fixpoint, Pelletier 34's search over three
%  elements went from 10.2 million inferences to 0.22 million); tautologies are dropped.
atoms_first(Keys, Clauses0, Clauses) :-
    pairs_values(Keys, Vs),
    maplist(mark_atom, Vs),
    exclude(tautology, Clauses0, Clauses1),
    maplist(atom_literals_first, Clauses1, Clauses),
    maplist(unmark_atom, Vs).

mark_atom(V) :- put_attr(V, finite_models, atom).
unmark_atom(V) :- del_attr(V, finite_models).

atom_literals_first(C, Ordered) :-
    partition(atom_literal, C, As, Bs), append(As, Bs, Ordered).

%  a clause with a literal and its complement is always true
tautology(C) :- member(V-true, C), member(W-false, C), V == W, !.

atom_literal(V-_) :- get_attr(V, finite_models, atom).

attr_unify_hook(_, _).

%  ground_formula(+F, +Sign, +Env, +Domain, -G): F (negated when Sign = neg) over Domain, as a
%  propositional formula in NNF over p(Key) / n(Key) literals and true/false; a constant C in
%  an argument position stands for the element D with e(C, D) true.
ground_formula(rel(P, As), S, Env, D, G) :- !, ground_args(As, Env, Ts), atom_choice(Ts, P, S, D, G).
ground_formula(eq(A, B), S, Env, D, G) :- !, ground_args([A, B], Env, Ts), atom_choice(Ts, '=', S, D, G).
ground_formula(not(F), S, Env, D, G) :- !, flip(S, S1), ground_formula(F, S1, Env, D, G).
ground_formula(and(F1, F2), S, Env, D, G) :- !, junction(S, and, F1, F2, Env, D, G).
ground_formula(or(F1, F2), S, Env, D, G) :- !, junction(S, or, F1, F2, Env, D, G).
ground_formula(imp(F1, F2), S, Env, D, G) :- !, ground_formula(or(not(F1), F2), S, Env, D, G).
ground_formula(iff(F1, F2), S, Env, D, G) :- !, ground_formula(and(or(not(F1), F2), or(F1, not(F2))), S, Env, D, G).
ground_formula(xor(F1, F2), S, Env, D, G) :- !, ground_formula(not(iff(F1, F2)), S, Env, D, G).
ground_formula(all(X, F), S, Env, D, G) :- !, ( S == pos -> Op = and ; Op = or ), instances(Op, X, F, S, Env, D, G).
ground_formula(some(X, F), S, Env, D, G) :- ( S == pos -> Op = or ; Op = and ), instances(Op, X, F, S, Env, D, G).

junction(pos, Op, F1, F2, Env, D, G) :- ground_formula(F1, pos, Env, D, A), ground_formula(F2, pos, Env, D, B), G =.. [Op, [A, B]].
junction(neg, Op0, F1, F2, Env, D, G) :- dual(Op0, Op), ground_formula(F1, neg, Env, D, A), ground_formula(F2, neg, Env, D, B), G =.. [Op, [A, B]].
%!  dual(?Op, ?Dual) is nondet.
%
%   The dual junction: and and or (De Morgan, for a junction under a negation).
dual(and, or).
dual(or, and).

instances(Op, X, F, S, Env, D, G) :-
    findall(I, ( member(E, D), put_assoc(X, Env, e(E), Env1), ground_formula(F, S, Env1, D, I) ), Is),
    G =.. [Op, Is].

ground_args([], _, []).
ground_args([v(X)|As], Env, [T|Ts]) :- !, get_assoc(X, Env, T), ground_args(As, Env, Ts).
ground_args([fn(F, Bs)|As], Env, [f(F, Us)|Ts]) :- !, ground_args(Bs, Env, Us), ground_args(As, Env, Ts).
ground_args([C|As], Env, [c(C)|Ts]) :- ground_args(As, Env, Ts).

%  atom_choice(+Args, +P, +Sign, +Domain, -G): P(Args) where constant arguments range over
%  their possible elements: the disjunction, over element tuples, of "the constants denote
%  these elements and P holds of them" (exact, since each constant denotes exactly one).
atom_choice(Ts, P, S, D, G) :-
    (   elements(Ts, Es) -> ground_lit(P, Es, S, G)  % no constant: the one alternative, as simp/2 leaves it
    ;   findall(and([and(Conds), Lit]), ( choose(Ts, D, Es, Conds), ground_lit(P, Es, S, Lit) ), Alts),
        G = or(Alts)
    ).

elements([], []).
elements([e(E)|Ts], [E|Es]) :- elements(Ts, Es).

choose([], _, [], []).
choose([T|Ts], D, [E|Es], Cs) :- denotation(T, D, E, Cs, Cs1), choose(Ts, D, Es, Cs1).

%  denotation(+T, +Domain, -E, -Conds, ?Tail): on backtracking, each element E term T may denote,
%  with the conditions (a difference list) under which it does: a constant C denotes E when
%  den(C, E); f(T1..Tn) denotes E when its arguments denote E1..En and fval(f, [E1..En], E).
denotation(e(E), _, E, Cs, Cs).
denotation(c(C), D, E, [p(den(C, E))|Cs], Cs) :- member(E, D).
denotation(f(F, Ts), D, E, Cs0, Cs) :-
    choose(Ts, D, Es, Conds), append(Conds, [p(fval(F, Es, E))|Cs], Cs0), member(E, D).

ground_lit('=', [A, B], S, L) :- !, ( A == B -> T = pos ; T = neg ), ( T == S -> L = true ; L = false ).
ground_lit(P, Es, pos, p(atom(P, Es))).
ground_lit(P, Es, neg, n(atom(P, Es))).

%  each constant denotes exactly one element; the i-th only one of the first i (symmetry)
constant_axioms([], _, _, []).
constant_axioms([C|Cs], I, N, [or(Some), and(AtMostOne)|Ax]) :-
    M is min(I, N), numlist(1, M, Allowed),
    findall(p(den(C, E)), member(E, Allowed), Some),
    findall(or([n(den(C, E1)), n(den(C, E2))]), ( member(E1, Allowed), member(E2, Allowed), E1 < E2 ), AtMostOne0),
    findall(n(den(C, E)), ( between(1, N, E), E > M ), Out),
    append(AtMostOne0, Out, AtMostOne),
    I1 is I + 1, constant_axioms(Cs, I1, N, Ax).

%  each function has exactly one value at each tuple of arguments
function_axioms([], _, []).
function_axioms([F/N|Fs], D, Ax) :-
    length(Es0, N),
    findall([or(Some), and(AtMostOne)],
            ( copy_term(Es0, Es), maplist(member_of(D), Es),
              findall(p(fval(F, Es, E)), member(E, D), Some),
              findall(or([n(fval(F, Es, E1)), n(fval(F, Es, E2))]), ( member(E1, D), member(E2, D), E1 < E2 ), AtMostOne) ),
            Ax0),
    append(Ax0, Ax1),
    function_axioms(Fs, D, Ax2),
    append(Ax1, Ax2, Ax).

member_of(D, E) :- member(E, D).

%  tseitin(+Formulas, -Clauses, -Keys): clauses (lists of Var-Bool) whose models are those of
%  the conjunction of Formulas; Keys pairs each atom key with its variable.
tseitin(Fs, Clauses, Keys) :-
    foldl(simplify_into, Fs, [], Gs0), reverse(Gs0, Gs),
    (   memberchk(false, Gs) -> Clauses = [[]], Keys = []
    ;   exclude(==(true), Gs, Gs1),
        empty_assoc(A0),
        foldl(top_clauses, Gs1, A0-[], A-Clauses0),
        Clauses = Clauses0,
        assoc_to_list(A, Keys)
    ).

simplify_into(F, Acc, [G|Acc]) :- simp(F, G).

%  simp(+F, -G): true/false propagated out of and/or; nested same operators flattened
simp(p(K), p(K)).
simp(n(K), n(K)).
simp(true, true).
simp(false, false).
simp(and(Fs), G) :- ( junct(Fs, and, true, false, Gs) -> wrap(Gs, and, true, G) ; G = false ).
simp(or(Fs), G) :- ( junct(Fs, or, false, true, Gs) -> wrap(Gs, or, false, G) ; G = true ).

%  junct(+Fs, +Op, +Unit, +Zero, -Gs): the simplified operands of Op(Fs) in order, an operand
%  that is itself an Op spliced in and Unit dropped; fails when one is Zero (one pass).
junct([], _, _, _, []).
junct([F|Fs], Op, Unit, Zero, Out) :-
    simp(F, G),
    (   G == Zero -> fail
    ;   G == Unit -> Out = Rest
    ;   functor(G, Op, 1) -> arg(1, G, Inner), append(Inner, Rest, Out)
    ;   Out = [G|Rest]
    ),
    junct(Fs, Op, Unit, Zero, Rest).

wrap([], _, Unit, Unit) :- !.
wrap([G], _, _, G) :- !.
wrap(Gs, Op, _, G) :- G =.. [Op, Gs].

top_clauses(and(Fs), S0, S) :- !, foldl(top_clauses, Fs, S0, S).
top_clauses(F, A0-Cs0, A-[C|Cs0]) :- clause_lits(F, C, A0-Cs0, A-_), !.
top_clauses(F, A0-Cs0, A-Cs) :- disj(F, C, A0-Cs0, A-Cs1), Cs = [C|Cs1].

clause_lits(p(K), [V-true], A0-_, A-_) :- var_of(K, V, A0, A).
clause_lits(n(K), [V-false], A0-_, A-_) :- var_of(K, V, A0, A).

%  disj(+F, -Clause, +State0, -State): F (an or of literals and subformulas) as one clause;
%  a conjunction inside gets a fresh variable T with clauses ¬T ∨ Ci (T → each conjunct).
disj(or(Fs), C, S0, S) :- !, foldl(disj_lit, Fs, C0-S0, []-S), C = C0.
disj(F, C, S0, S) :- disj_lit(F, C-S0, []-S).

disj_lit(p(K), [V-true|T]-(A0-Cs), T-(A-Cs)) :- !, var_of(K, V, A0, A).
disj_lit(n(K), [V-false|T]-(A0-Cs), T-(A-Cs)) :- !, var_of(K, V, A0, A).
disj_lit(and(Fs), [X-true|T]-S0, T-S) :- !, foldl(implied(X), Fs, S0, S).
disj_lit(or(Fs), L-S0, T-S) :- foldl(disj_lit, Fs, L-S0, T-S).

implied(X, F, S0, A-[[X-false|C]|Cs]) :- disj(F, C, S0, A-Cs).

var_of(K, V, A0, A) :- ( get_assoc(K, A0, V) -> A = A0 ; put_assoc(K, A0, V, A) ).

%  sat(+Clauses): binds the variables (true/false) so that every clause has a true literal:
%  DPLL with unit propagation, branching on a literal of a shortest clause.
sat(Clauses) :-
    propagate(Clauses, Rest),
    (   Rest == [] -> true
    ;   shortest(Rest, [V-B|_]),
        ( V = B ; negate(B, NB), V = NB ),
        sat(Rest)
    ).

negate(true, false).
negate(false, true).

%  propagate(+Clauses, -Open): clauses not yet satisfied, without their false literals, after
%  unit propagation to a fixpoint (a clause left with one literal makes it true at once, within
%  the pass); fails on a clause with no literal left.
propagate(Clauses, Open) :-
    reduce(Clauses, Open0, Changed),
    (   Changed == true -> propagate(Open0, Open) ; Open = Open0 ).

reduce([], [], _).
reduce([C|Cs], Out, Changed) :-
    (   open_lits(C, C1)
    ->  (   C1 = [V-B] -> V = B, Changed = true, Out = Out1
        ;   C1 \== [], Out = [C1|Out1]
        )
    ;   Out = Out1
    ),
    reduce(Cs, Out1, Changed).

%  open_lits(+Clause, -Open): fails when a literal of Clause is true; else Open is its literals
%  not yet assigned, in order (one pass, no meta-calls: this is the model search's inner loop).
open_lits([], []).
open_lits([V-B|Ls], Out) :-
    (   var(V) -> Out = [V-B|Out1], open_lits(Ls, Out1)
    ;   V \== B, open_lits(Ls, Out)
    ).

shortest([C|Cs], S) :- length(C, N), foldl(shorter, Cs, N-C, _-S).
shorter(C, N0-C0, N-S) :- length(C, L), ( L < N0 -> N-S = L-C ; N-S = N0-C0 ).

extract(Keys, Cs, Vals, Trues, Tables) :-
    findall(C-E, ( member(C, Cs), member(den(C, E)-V, Keys), V == true ), Vals),
    findall(P-Es, ( member(atom(P, Es)-V, Keys), V == true ), Trues),
    findall(F-Es-E, ( member(fval(F, Es, E)-V, Keys), V == true ), Tables).

%!  model_json(+Model, -Json) is det.
%
%   A model of find_model/3 as json([size, constants, atoms, functions]), the shape Python
%   reads back and checks with the one model checker (logic/engine/model_check.py).
model_json(model(N, Vals, Trues, Tables), json([size=N, constants=json(CJ), atoms=AJ, functions=FJ])) :-
    findall(C=E, member(C-E, Vals), CJ),
    findall([P|Es], member(P-Es, Trues), AJ),
    findall([F, Es, E], member(F-Es-E, Tables), FJ).
