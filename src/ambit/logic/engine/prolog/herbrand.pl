/*  herbrand.pl -- function-free clause sets decided by grounding and SAT (for prove.pl).

    A clause set without function symbols (the Bernays-Schönfinkel or EPR class; Skolem
    constants are constants) is unsatisfiable exactly when its instances over its own constants
    (the Herbrand universe, one fresh element when there is no constant) are propositionally
    unsatisfiable. So grounding and a complete SAT search decide it: no propositional model is a
    proof that there is no model at all, and a propositional model is a Herbrand model of the
    clauses. Equality is an ordinary predicate here: prove.pl's clausal form adds its axioms
    (reflexivity, symmetry, transitivity, substitution), so a model's true equations are a
    congruence, and its elements are their classes.

    Clauses are lists of literals A or -A, A = rel(Pred, Args), arguments Prolog variables or
    constants (names, sk(K)).

    The SAT search is DPLL over Prolog variables with two watched literals per clause (Howe and
    King, "A pearl on SAT and SMT solving in Prolog", 2012): a clause wakes (when/2) only when
    one of its two watched variables is bound, and then finds another watch or forces its last
    literal. Backtracking undoes bindings and watches together, so there is no trail to keep.
    All of it is plain Prolog, so an inference limit or a time limit stops it anywhere.
*/

:- module(herbrand, [ herbrand_decide/3, function_free/1, ground_size/2, sat_solve/2 ]).

:- use_module(library(lists)).
:- use_module(library(apply)).
:- use_module(library(assoc)).
:- use_module(library(pairs)).

%!  function_free(+Clauses:list) is semidet.
%
%   No argument of any literal is a compound term other than a Skolem constant sk(K): the
%   clauses are in the class that grounding decides.
function_free(Cs) :-
    \+ ( member(C, Cs), member(L, C), lit_atom(L, rel(_, As)), member(A, As), compound(A), A \= sk(_) ).

%!  ground_size(+Clauses:list, -N:nonneg) is det.
%
%   How many ground clause instances the Herbrand universe gives (the sum over clauses of
%   |universe| ^ |variables|); the caller refuses sets too large to ground.
ground_size(Cs, N) :-
    universe(Cs, U), length(U, K),
    foldl(instances_count(K), Cs, 0, N).

instances_count(K, C, N0, N) :- term_variables(C, Vs), length(Vs, V), N is N0 + K ** V.

%!  herbrand_decide(+Clauses:list, -Result, -Universe:list) is det.
%
%   Result is unsat (no Herbrand model: the clauses have no model) or sat(Elements, Trues):
%   Elements the classes of the universe's constants under the true equations (each a sorted
%   list), Trues the true atoms other than equations as Pred-ClassIndices (1-based, in
%   Elements' order). Universe is the constants the clauses were grounded over.
herbrand_decide(Cs, Result, U) :-
    universe(Cs, U),
    ground_clauses(Cs, U, GCs, Keys),
    pairs_values(Keys, Vars0),
    branch_order(Keys, Vars0, Vars),
    (   sat_solve(GCs, Vars)
    ->  herbrand_model(Keys, U, Elements, Trues), Result = sat(Elements, Trues)
    ;   Result = unsat
    ).

%  universe(+Clauses, -Constants): the constants in the clauses' arguments (sorted), or the one
%  fresh element '$e' when there is none
universe(Cs, U) :-
    findall(T, ( member(C, Cs), member(L, C), lit_atom(L, rel(_, As)), member(T, As), nonvar(T) ), Ts),
    sort(Ts, U0),
    ( U0 == [] -> U = ['$e'] ; U = U0 ).

lit_atom(-A, A) :- !.
lit_atom(A, A).

%  ground_clauses(+Clauses, +Universe, -GroundClauses, -Keys): every instance of every clause
%  over Universe, as a list of Var-Bool (the literal is true when Var = Bool); Keys pairs each
%  ground atom with its variable. An equation t = t is true, so an instance containing it is
%  dropped, and its negation is dropped from an instance; so are instances that contain a literal
%  and its complement.
ground_clauses(Cs, U, GCs, Keys) :-
    empty_assoc(A0),
    foldl(ground_clause(U), Cs, A0-GCs, A-[]),
    assoc_to_list(A, Keys).

ground_clause(U, C, S0, S) :-
    term_variables(C, Vs),
    findall(C, maplist(in_universe(U), Vs), Instances),
    foldl(instance_clause, Instances, S0, S).

in_universe(U, X) :- member(X, U).

instance_clause(C, A0-Out0, A-Out) :-
    (   simplified(C, C1)
    ->  foldl(encode, C1, Ls, A0, A), sort(Ls, SLs),
        (   tautology(SLs) -> Out0 = Out ; Out0 = [SLs|Out] )
    ;   A = A0, Out0 = Out                      % a true equation t = t: the instance holds
    ).

simplified([], []).
simplified([L|Ls], Out) :-
    (   L = rel('=', [X, Y]), X == Y -> fail
    ;   L = -rel('=', [X, Y]), X == Y -> simplified(Ls, Out)
    ;   Out = [L|Out1], simplified(Ls, Out1)
    ).

encode(-A, V-false, As0, As) :- !, atom_var(A, V, As0, As).
encode(A, V-true, As0, As) :- atom_var(A, V, As0, As).

atom_var(A, V, As0, As) :- ( get_assoc(A, As0, V) -> As = As0 ; put_assoc(A, As0, V, As) ).

%  a sorted clause with V-false and V-true for one V is always true
tautology(Ls) :- append(_, [V-false, W-true|_], Ls), V == W, !.

%  branch_order(+Keys, +Vars, -Ordered): the atoms of predicates first, equations last (an
%  equation between two constants is mostly settled by propagation from the others)
branch_order(Keys, _, Vars) :-
    partition(equation_key, Keys, Eqs, Others),
    pairs_values(Others, V1), pairs_values(Eqs, V2),
    append(V1, V2, Vars).

equation_key(rel('=', _)-_).


/* ------------------------------------------------------------------------------------
   SAT: DPLL with watched literals
   ------------------------------------------------------------------------------------ */

%!  sat_solve(+Clauses:list, +Vars:list) is nondet.
%
%   Binds the variables so that every clause (a list of Var-Bool) has a true literal; fails
%   when there is none (an empty clause fails at once). The search (branch/1) binds only the
%   atoms some clause needs, and Vars left unbound at the end are false: a static order would
%   branch, and backtrack, over every atom. On backtracking, further assignments.
sat_solve(Clauses, Vars) :-
    maplist(clause_setup, Clauses),
    include(positive_literal, Clauses, Candidates),  % only these are ever branched on
    branch(Candidates),
    maplist(default_false, Vars).

default_false(V) :- ( var(V) -> V = false ; true ).

positive_literal(C) :- memberchk(_-true, C).

clause_setup([V-B|Ls]) :- set_watch(Ls, V, B).

%  set_watch(+Rest, ?V1, +B1): V1 is watched together with the first literal of Rest; with no
%  literal left, V1's literal must be true
set_watch([], V1, B1) :- V1 = B1.
set_watch([V2-B2|Ls], V1, B1) :- when((nonvar(V1) ; nonvar(V2)), watch(V1, B1, V2, B2, Ls)).

watch(V1, B1, V2, B2, Ls) :-
    (   nonvar(V1) -> moved(V1, B1, V2, B2, Ls) ; moved(V2, B2, V1, B1, Ls) ).

%  moved(+Bound, +B, ?Other, +OtherB, +Rest): the bound watch's literal is true (the clause
%  holds) or false (Other is watched with the next literal of Rest)
moved(V, B, V2, B2, Ls) :- ( V == B -> true ; set_watch(Ls, V2, B2) ).

%  branch(+Clauses): model generation (as hyper tableaux and SATCHMO do it, on ground clauses):
%  the search branches only on a clause whose negative literals are all false (its atoms true),
%  making one of its positive atoms true or else false. When no open clause is like that, each
%  open clause has an unbound negative literal, and the unbound atoms all false satisfy them all.
%  Among such clauses the first with the fewest unbound positive atoms is taken (a unit was forced
%  by its watches already, so two is the fewest: the scan stops at the first with two). The
%  clauses found true on the way are dropped for the next step.
branch(Clauses) :-
    open_clauses(Clauses, Open, none, Best),
    (   Best == none -> true
    ;   Best = _-V,
        (   V = true ; V = false ),
        branch(Open)
    ).

open_clauses([], [], Best, Best).
open_clauses([C|Cs], Open, Best0, Best) :-
    (   clause_state(C, 0, P, 0, N, V)
    ->  Open = [C|Open1],
        (   N == 0, P > 0, ( Best0 == none ; Best0 = P0-_, P < P0 ) -> Best1 = P-V ; Best1 = Best0 ),
        (   Best1 = P1-_, P1 =< 2       % none is shorter (units are forced): the rest unscanned
        ->  Open1 = Cs, Best = Best1
        ;   open_clauses(Cs, Open1, Best1, Best)
        )
    ;   open_clauses(Cs, Open, Best0, Best)
    ).

%  clause_state(+Clause, +P0, -P, +N0, -N, -V): fails when a literal of Clause is true; else P
%  and N count its unbound positive and negative literals, V is the first unbound positive atom
clause_state([], P, P, N, N, _).
clause_state([V-B|Ls], P0, P, N0, N, A) :-
    (   var(V)
    ->  (   B == true -> ( P0 == 0 -> A = V ; true ), P1 is P0 + 1, clause_state(Ls, P1, P, N0, N, A)
        ;   N1 is N0 + 1, clause_state(Ls, P0, P, N1, N, A)
        )
    ;   V \== B, clause_state(Ls, P0, P, N0, N, A)
    ).


/* ------------------------------------------------------------------------------------
   The model
   ------------------------------------------------------------------------------------ */

%  herbrand_model(+Keys, +Universe, -Elements, -Trues): the classes of Universe under the true
%  equations (each sorted; classes in the order of their least constant) and the true atoms over
%  class indices, without duplicates and without equations
herbrand_model(Keys, U, Elements, Trues) :-
    findall(C-D, ( member(rel('=', [C, D])-V, Keys), V == true ), Eqs),
    maplist(class_of(Eqs, U), U, Classes),
    sort(Classes, Elements),
    findall(C-I, ( nth1(K, U, C), nth1(K, Classes, Class), nth1(I, Elements, Class) ), Index0),
    list_to_assoc(Index0, Index),
    findall(P-Is, ( member(rel(P, As)-V, Keys), V == true, P \== '=',
                    maplist(index_of(Index), As, Is) ), Trues0),
    sort(Trues0, Trues).

%  the constants equal to C (C among them), sorted
class_of(Eqs, U, C, Class) :-
    findall(D, ( member(D, U), ( D == C -> true ; memberchk(C-D, Eqs) ) ), Class0),
    sort(Class0, Class).

index_of(Index, C, I) :- get_assoc(C, Index, I).
