/*  clausal.pl -- the clausal form of the one engine (prove.pl): negation normal form, Skolem
    terms for existentials, definitions for subformulas whose distribution would multiply
    clauses (so the clausal form stays linear in the formula), and the equality axioms.

    Formulas are prove.pl's terms (rel/2, eq/2, not/1, and/2, or/2, imp/2, iff/2, xor/2, all/2,
    some/2, bound variables v(N)); a clause is a list of literals A or -A.
*/

:- module(clausal, [ clausal_form/2, complement/2, atom_of/2, memberchk_eq/2 ]).

:- use_module(library(lists)).
:- use_module(library(apply)).
:- use_module(library(assoc)).
:- use_module(library(pairs)).
:- use_module(library(occurs)).
:- use_module(finite_models, [flip/2, dual/2]).


%  nnf(+F, +Sign, +Env, +Universals, -N, +St0, -St): N is F (negated when Sign = neg) in
%  negation normal form over lit(L) / and / or, with bound variables replaced through Env: a
%  universal by a fresh Prolog variable, an existential by a Skolem term over the universals in
%  scope. St0/St thread st(Count, Definitions): the Skolem functions and definition atoms
%  numbered so far, and the definitions made (newest first).
nnf(rel(P, As), S, Env, _, lit(L), St, St) :- !, args(As, Env, Ts), signed(S, rel(P, Ts), L).
nnf(eq(A, B), S, Env, _, lit(L), St, St) :- !, args([A, B], Env, Ts), signed(S, rel('=', Ts), L).
nnf(not(F), S, Env, Us, N, St0, St) :- !, flip(S, S1), nnf(F, S1, Env, Us, N, St0, St).
nnf(and(F, G), S, Env, Us, N, St0, St) :- !, nnf_junction(S, and, F, G, Env, Us, N, St0, St).
nnf(or(F, G), S, Env, Us, N, St0, St) :- !, nnf_junction(S, or, F, G, Env, Us, N, St0, St).
nnf(imp(F, G), S, Env, Us, N, St0, St) :- !, nnf(or(not(F), G), S, Env, Us, N, St0, St).
nnf(iff(F, G), S, Env, Us, N, St0, St) :- !,
    named(F, Env, Us, A, St0, St1), named(G, Env, Us, B, St1, St), iff_nnf(S, A, B, N).
nnf(xor(F, G), S, Env, Us, N, St0, St) :- !, nnf(not(iff(F, G)), S, Env, Us, N, St0, St).
nnf(all(X, F), pos, Env, Us, N, St0, St) :- !, universal(X, F, pos, Env, Us, N, St0, St).
nnf(some(X, F), neg, Env, Us, N, St0, St) :- !, universal(X, F, neg, Env, Us, N, St0, St).
nnf(some(X, F), pos, Env, Us, N, St0, St) :- !, existential(X, F, pos, Env, Us, N, St0, St).
nnf(all(X, F), neg, Env, Us, N, St0, St) :- existential(X, F, neg, Env, Us, N, St0, St).

%  nnf_junction: and/or of two formulas, the dual under a negation
nnf_junction(pos, Op, F, G, Env, Us, N, St0, St) :-
    nnf(F, pos, Env, Us, A, St0, St1), nnf(G, pos, Env, Us, B, St1, St), N =.. [Op, A, B].
nnf_junction(neg, Op0, F, G, Env, Us, N, St0, St) :-
    dual(Op0, Op), nnf(F, neg, Env, Us, A, St0, St1), nnf(G, neg, Env, Us, B, St1, St), N =.. [Op, A, B].

universal(X, F, S, Env, Us, N, St0, St) :- put_assoc(X, Env, V, Env1), nnf(F, S, Env1, [V|Us], N, St0, St).
existential(X, F, S, Env, Us, N, St0, St) :-
    next_number(K, St0, St1), Sk =.. [sk, K|Us],
    put_assoc(X, Env, Sk, Env1), nnf(F, S, Env1, Us, N, St1, St).

next_number(K, st(K0, Ds), st(K, Ds)) :- K is K0 + 1.

%  iff_nnf(+Sign, +A, +B, -N): A ↔ B (Sign pos) or A ⊕ B (neg) over literals A, B
iff_nnf(pos, lit(A), lit(B), and(or(lit(NA), lit(B)), or(lit(A), lit(NB)))) :- complement(A, NA), complement(B, NB).
iff_nnf(neg, lit(A), lit(B), and(or(lit(A), lit(B)), or(lit(NA), lit(NB)))) :- complement(A, NA), complement(B, NB).

%  named(+F, +Env, +Us, -Lit): a literal equivalent to F: F's own when F is an atom or a
%  negated one, else a definition atom D over the universals F mentions, with D → F and
%  ¬D → ¬F added to the state's definitions (so an operand of ↔ or ⊕ is written once per polarity,
%  not copied into every clause: the clausal form stays linear in the formula).
named(F, Env, Us, lit(L), St0, St) :- literal_formula(F), !, nnf(F, pos, Env, Us, lit(L), St0, St).
named(F, Env, Us, lit(D), St0, st(K, [or(lit(D), Q), or(lit(ND), P)|Ds])) :-
    nnf(F, pos, Env, Us, P, St0, St1), nnf(F, neg, Env, Us, Q, St1, St2),
    term_variables(P-Q, All), universals_in(All, Us, Vs),
    next_number(K, St2, st(K, Ds)), D = rel(def(K), Vs), complement(D, ND).

universals_in([], _, []).
universals_in([V|Vs], Us, Out) :-
    ( memberchk_eq(V, Us) -> Out = [V|Out1] ; Out = Out1 ), universals_in(Vs, Us, Out1).

literal_formula(rel(_, _)).
literal_formula(eq(_, _)).
literal_formula(not(F)) :- literal_formula(F).

signed(pos, A, A).
signed(neg, A, -A).

args([], _, []).
args([A|As], Env, [T|Ts]) :- arg_term(A, Env, T), args(As, Env, Ts).
arg_term(v(X), Env, T) :- !, get_assoc(X, Env, T).
arg_term(fn(F, As), Env, fn(F, Ts)) :- !, args(As, Env, Ts).
arg_term(C, _, C).

%  cnf(+N, -Clauses, +Defs0, -Defs, +K0, -K): the clauses of NNF formula N (lists of literals);
%  a disjunct that would multiply more than a few clauses is replaced by a definition atom D
%  over its variables, with clauses ¬D ∨ C for its clauses C (added to Defs); K0..K number the
%  definition atoms.
cnf(lit(L), [[L]], D, D, K, K).
cnf(and(A, B), Cs, D0, D, K0, K) :- cnf(A, CA, D0, D1, K0, K1), cnf(B, CB, D1, D, K1, K), append(CA, CB, Cs).
cnf(or(A, B), Cs, D0, D, K0, K) :-
    cnf(A, CA0, D0, D1, K0, K1), cnf(B, CB0, D1, D2, K1, K2),
    length(CA0, NA), length(CB0, NB),
    (   NA > 1, NB > 1, NA * NB > 4
    ->  define(A, CA0, CA, D2, D3, K2, K3), define(B, CB0, CB, D3, D, K3, K)
    ;   CA = CA0, CB = CB0, D = D2, K = K2
    ),
    product(CA, CB, Cs).

%  product(+CA, +CB, -Cs): every clause of A joined with every clause of B (built without
%  findall, which would copy the variables the clauses share)
product([], _, []).
product([X|Xs], CB, Cs) :- joined(CB, X, Cs, Rest), product(Xs, CB, Rest).
joined([], _, Cs, Cs).
joined([Y|Ys], X, [C|Cs], Rest) :- append(X, Y, C), joined(Ys, X, Cs, Rest).

define(_, [C], [C], D, D, K, K) :- !.
define(F, Cs, [[Def]], D0, D, K0, K) :-
    term_variables(F, Vs), K is K0 + 1,
    Def = rel(def(K), Vs),
    guarded(Cs, -Def, DefCs),
    append(D0, DefCs, D).

%!  clausal_form(+TaggedFormulas:list, -Clauses:list) is det.
%
%   Tag-Clause for every clause (a list of literals A or -A) of every formula, tagged with
%   where it came from; equality axioms (tag equality) included when equality occurs. The
%   clausal form stays linear in the formula, so the connection prover's input is never blown up.
clausal_form(TFs, Clauses) :-
    formulas_clauses(TFs, 0, Clauses0),
    pairs_values(Clauses0, Cs),
    equality_axioms(Cs, Eqs),
    findall(equality-C, member(C, Eqs), TEqs),
    append(Clauses0, TEqs, Clauses).

%  formulas_clauses(+TaggedFormulas, +K0, -Clauses): K0 Skolem functions and definitions
%  numbered so far (the numbers run on from formula to formula)
formulas_clauses([], _, []).
formulas_clauses([Tag-F|TFs], K0, Out) :-
    empty_assoc(E),
    nnf(F, pos, E, [], N, st(K0, []), st(K1, Ds)),
    reverse(Ds, Gs),
    nnfs_clauses([N|Gs], K1, K2, Cs),
    tag_all(Cs, Tag, Out, Rest),
    formulas_clauses(TFs, K2, Rest).

%  (written without yall lambdas: their copy semantics depend on whether library(yall) was
%  loaded when this file was compiled, and a copied Def would lose its shared variables)
guarded([], _, []).
guarded([C|Cs], G, [[G|C]|Gs]) :- guarded(Cs, G, Gs).

tag_all([], _, Rest, Rest).
tag_all([C|Cs], Tag, [Tag-C|Out], Rest) :- tag_all(Cs, Tag, Out, Rest).

nnfs_clauses([], K, K, []).
nnfs_clauses([N|Ns], K0, K, Cs) :-
    cnf(N, Cs0, [], Defs, K0, K1), append(Cs0, Defs, Cs1), append(Cs1, Rest, Cs),
    nnfs_clauses(Ns, K1, K, Rest).

equality_axioms(Cs, []) :- \+ ( member(C, Cs), member(L, C), atom_of(L, rel('=', _)) ), !.
equality_axioms(Cs, [[rel('=', [X, X])],
                     [-rel('=', [X1, Y1]), rel('=', [Y1, X1])],
                     [-rel('=', [X2, Y2]), -rel('=', [Y2, Z2]), rel('=', [X2, Z2])]
                    | Subst]) :-
    findall(P/N, ( member(C, Cs), member(L, C), atom_of(L, rel(P, As)), P \== '=', length(As, N) ), Ps0),
    term_functors(Cs, Fs),
    sort(Ps0, Ps),
    findall(Ax, ( member(P/N, Ps), between(1, N, I), pred_substitution(P, N, I, Ax) ), PAx),
    findall(Ax, ( member(K/N, Fs), between(1, N, I), fun_substitution(K, N, I, Ax) ), FAx),
    append(PAx, FAx, Subst).

%  term_functors(+Clauses, -Fs): the functions of the clauses' terms with their arity (N > 0):
%  sk(K)/N for Skolem functions, fn(Name)/N for the formulas' own
term_functors(Cs, Fs) :-
    findall(G/N, ( member(C, Cs), member(L, C), atom_of(L, rel(_, As)), sub_term(T, As), compound(T),
                   functor_of(T, G, N), N > 0 ), Fs0),
    sort(Fs0, Fs).

functor_of(T, sk(K), N) :- T =.. [sk, K|Us], !, length(Us, N).
functor_of(fn(F, As), fn(F), N) :- is_list(As), length(As, N).

%!  atom_of(+Literal, -Atom) is det.
%
%   The atom of a literal A or -A (its sign dropped), shared by the provers that index clauses.
atom_of(-A, A) :- !.
atom_of(A, A).

%  X = Y → (P(..X..) → P(..Y..)) for argument position I of predicate P/N
pred_substitution(P, N, I, [-rel('=', [X, Y]), -rel(P, As), rel(P, Bs)]) :-
    length(As, N), same_but(I, As, Bs, X, Y).
%  X = Y → f(..X..) = f(..Y..), for a Skolem function sk(K) or a function fn(F)
fun_substitution(G, N, I, [-rel('=', [X, Y]), rel('=', [S, T])]) :-
    length(As, N), same_but(I, As, Bs, X, Y), applied(G, As, S), applied(G, Bs, T).

applied(sk(K), As, S) :- S =.. [sk, K|As].
applied(fn(F), As, fn(F, As)).

same_but(1, [X|As], [Y|As], X, Y) :- !.
same_but(I, [A|As], [A|Bs], X, Y) :- I1 is I - 1, same_but(I1, As, Bs, X, Y).

%!  complement(+Literal, -Complement) is det.
%
%   The complementary literal: -A for A, A for -A (a connection joins a literal and its complement).
complement(-A, A) :- !.
complement(A, -A).

%!  memberchk_eq(+X, +List:list) is semidet.
%
%   X is an element of List, identical (==), not unified: a check on a path or a lemma list must
%   not bind the variables of the literal it looks for.
memberchk_eq(X, [Y|Ys]) :- ( X == Y -> true ; memberchk_eq(X, Ys) ).
