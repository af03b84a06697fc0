/*  equational.pl -- unit equality: unfailing completion, for prove.pl's proof stages.

    A clause set whose clauses are all single equations (s = t, universally closed) or
    single negated equations (the goals, s ≠ t) is refuted by unfailing Knuth-Bendix
    completion (Bachmair, Dershowitz, Plaisted 1989, as in Waldmeister and E's unit mode):
    equations are oriented by a Knuth-Bendix order (every symbol and variable of weight 1,
    precedence by arity, then by name), those that no orientation suits are used for
    ordered rewriting only, critical pairs are formed between every pair of equations (one
    side overlapping a non-variable subterm of another), and each equation is kept in normal
    form before it is used (the lightest first: a given-clause loop). A goal s ≠ t is refuted
    when the normal forms of s and t unify. Equality problems of this shape (groups, Pelletier
    63 to 65) are out of reach of a connection prover with equality axioms.

    Every equation carries its justification: the input clause it is, or a chain of terms
    T0 = T1 = ... = Tn, each link one replacement at a position by an earlier equation (in
    either direction, any instance). equational_proof_ok/2 replays a proof link by link,
    independently of the search: a proof that does not replay is an error, never an answer.

    Terms inside the search are app(Symbol, Args) (Symbol c(Name), fn(Name) or sk(K)) or
    Prolog variables; prove.pl's own terms (names, fn(F, Args), sk(K, Args...)) are converted on
    the way in and back on the way out.
*/

:- module(equational, [ unit_equational/2, complete/2, equational_proof_ok/2 ]).

:- use_module(library(lists)).
:- use_module(library(apply)).
:- use_module(library(assoc)).
:- use_module(library(heaps)).
:- use_module(library(varnumbers)).


/* ------------------------------------------------------------------------------------
   The fragment
   ------------------------------------------------------------------------------------ */

%!  unit_equational(+Clauses:list, -Problem) is semidet.
%
%   Clauses (I-Tag-Clause, prove.pl's clausal form with its equality axioms left out) are all
%   unit equations, at least one negated: Problem = problem(Equations, Goals), in prove.pl's
%   terms, eq(I, Tag, S, T) each. Fails otherwise: only this shape goes to completion.
unit_equational(Clauses, problem(Eqs, Goals)) :-
    Clauses \== [],
    unit_literals(Clauses, Eqs, Goals),
    Goals \== [].

unit_literals([], [], []).
unit_literals([I-Tag-[L]|Cs], Eqs, Goals) :-
    (   L = rel('=', [S, T]) -> Eqs = [eq(I, Tag, S, T)|Eqs1], Goals = Goals1
    ;   L = -rel('=', [S, T]) -> Goals = [eq(I, Tag, S, T)|Goals1], Eqs = Eqs1
    ),
    unit_literals(Cs, Eqs1, Goals1).


/* ------------------------------------------------------------------------------------
   Completion
   ------------------------------------------------------------------------------------ */

%!  complete(+Problem, -Proof) is semidet.
%
%   Proof = eqproof(Records, goal(I, Tag, First, Last, Chain)): Records the equations the
%   refutation uses (e(Id, L, R, Justification), prove.pl's terms, parents first), and Chain
%   (T0, then s(Id, Position, Direction, T) links) the conversion from First to Last, an
%   instance of goal clause I's two sides. Fails when the completion saturates without a
%   refutation (the unit set is then satisfiable when its goals are ground); runs on otherwise
%   (the caller bounds it).
complete(problem(Eqs, Goals), Proof) :-
    set_least_constant(Eqs, Goals),
    maplist(input_record, Eqs, Ids, Records),
    foldl(add_record, Records, t, All0),
    empty_heap(H0),
    foldl(push_passive, Records, H0, H1),
    maplist(goal_app, Goals, GoalApps),
    max_list([0|Ids], N0),
    loop(H1, [], All0, N0, GoalApps, Found),
    found_proof(Found, Proof).

input_record(eq(I, Tag, S, T), I, e(I, L, R, input(I, Tag))) :- to_app(S, L), to_app(T, R).
goal_app(eq(I, Tag, S, T), g(I, Tag, L, R)) :- to_app(S, L), to_app(T, R).

add_record(e(Id, L, R, J), All0, All) :- ( All0 == t -> empty_assoc(E) ; E = All0 ), put_assoc(Id, E, e(Id, L, R, J), All).

push_passive(e(Id, L, R, J), H0, H) :- size(L, A), size(R, B), W is A + B, add_to_heap(H0, W-Id, e(Id, L, R, J), H).

%  loop(+Passive, +Active, +All, +LastId, +Goals, -Found): the given-clause loop
loop(H0, Active0, All0, N0, Goals, Found) :-
    (   get_from_heap(H0, _, Given0, H1)
    ->  simplified(Given0, Active0, N0, Given, N1, All0, All1),
        (   Given = e(_, L, R, _), ( L == R ; redundant(L, R, Active0) )
        ->  loop(H1, Active0, All1, N1, Goals, Found)
        ;   oriented(Given, Rule),
            backward(Active0, Rule, Kept, Moved),
            foldl(push_passive, Moved, H1, H2),
            Active1 = [Rule|Kept],
            (   goal_closed(Goals, Active1, Found0) -> Found = Found0-All1
            ;   critical_pairs(Rule, Active1, N1, N2, New),
                foldl(add_record, New, All1, All2),
                foldl(push_passive, New, H2, H3),
                loop(H3, Active1, All2, N2, Goals, Found)
            )
        )
    ;   fail
    ).

%  simplified(+Record, +Active, +N0, -Record1, -N, +All0, -All): Record with both sides in
%  normal form; a new record (number N0 + 1, its chain extended) when a side changed
simplified(e(Id, L, R, J), Active, N0, Out, N, All0, All) :-
    normal_form(L, Active, L1, CL),
    normal_form(R, Active, R1, CR),
    (   CL = [_], CR = [_] -> Out = e(Id, L, R, J), N = N0, All = All0
    ;   N is N0 + 1,
        reverse_chain(CL, RL),
        concat_chains([RL, [L, s(Id, [], lr, R)], CR], Chain),
        Out = e(N, L1, R1, conv(Chain)),
        add_record(Out, All0, All)
    ).

%  redundant(+L, +R, +Active): L = R is an instance of an active equation (either way round)
redundant(L, R, Active) :-
    member(r(_, L0, R0, _), Active),
    ( subsumes_term(L0-R0, L-R) ; subsumes_term(R0-L0, L-R) ), !.

%  oriented(+Record, -Rule): r(Id, L, R, Kind), Kind rule (L > R) or equation (neither way)
oriented(e(Id, L, R, _), r(Id, L1, R1, K)) :-
    (   kbo(L, R) -> L1 = L, R1 = R, K = rule(lr)
    ;   kbo(R, L) -> L1 = R, R1 = L, K = rule(rl)
    ;   L1 = L, R1 = R, K = equation
    ).

%  backward(+Active, +NewRule, -Kept, -Moved): active equations a side of which the new one
%  rewrites go back to the passive set (to be simplified when chosen again)
backward([], _, [], []).
backward([A|As], New, Kept, Moved) :-
    A = r(Id, L, R, K),
    (   ( rewrites_somewhere(New, L) ; rewrites_somewhere(New, R) )
    ->  Kept = Kept1, Moved = [e(Id, L0, R0, moved)|Moved1], unorient(K, L, R, L0, R0)
    ;   Kept = [A|Kept1], Moved = Moved1
    ),
    backward(As, New, Kept1, Moved1).

unorient(rule(rl), L, R, R, L) :- !.
unorient(_, L, R, L, R).

rewrites_somewhere(Rule, T) :- sub_position(T, _, U), nonvar(U), rewrite_at_root(Rule, U, _, _), !.

%  goal_closed(+Goals, +Active, -goal(I, Tag, First, Last, Chain)): a goal whose sides' normal
%  forms unify (or whose sides are, together, an instance of an active equation)
goal_closed(Goals, Active, goal(I, Tag, First, Last, Chain)) :-
    member(g(I, Tag, S0, T0), Goals),
    copy_term(S0-T0, S-T),
    normal_form(S, Active, S1, CS),
    normal_form(T, Active, T1, CT),
    (   unify_with_occurs_check(S1, T1)
    ->  reverse_chain(CT, RT), concat_chains([CS, RT], Chain)
    ;   member(r(Id, L0, R0, _), Active), copy_term(L0-R0, L-R),
        (   unify_with_occurs_check(S1-T1, L-R) -> Dir = lr ; unify_with_occurs_check(S1-T1, R-L), Dir = rl ),
        reverse_chain(CT, RT), concat_chains([CS, [S1, s(Id, [], Dir, T1)], RT], Chain)
    ),
    !,
    Chain = [First|_], last_term(Chain, Last).

%  critical_pairs(+Rule, +Active, +N0, -N, -Records): the critical pairs of Rule with every
%  active equation (itself included), numbered from N0 + 1
critical_pairs(Rule, Active, N0, N, Records) :-
    findall(L-R-Chain, ( member(Other, Active), overlap(Rule, Other, L, R, Chain)
                       ; member(Other, Active), Other \== Rule, overlap(Other, Rule, L, R, Chain) ), CPs),
    number_pairs(CPs, N0, N, Records).

number_pairs([], N, N, []).
number_pairs([L-R-C|CPs], N0, N, [e(N1, L, R, conv(C))|Rs]) :-
    N1 is N0 + 1, number_pairs(CPs, N1, N, Rs).

%  overlap(+Outer, +Inner, -L, -R, -Chain): a view l1 → r1 of Inner unifies with a non-variable
%  subterm at P of a view l2 → r2 of Outer: the critical pair l2σ[r1σ]P = r2σ, its chain
%  through the peak l2σ
overlap(Outer, Inner, CL, R2, [CL, s(I1, P, D1inv, L2), s(I2, [], D2, R2)]) :-
    view(Outer, I2, L2, R2, D2),
    view(Inner, I1, L1, R1, D1),
    sub_position(L2, P, U),
    nonvar(U),
    \+ ( P == [], I1 == I2, D1 == D2 ),
    unify_with_occurs_check(U, L1),
    \+ kbo(R1, L1), L1 \== R1,
    \+ kbo(R2, L2), L2 \== R2,
    replace(L2, P, R1, CL),
    CL \== R2,
    inverse(D1, D1inv).

%  view(+Active, -Id, -L, -R, -Dir): a fresh copy of an active equation used left to right
%  (a rule in its order; an unorientable equation either way). Dir says which way round the
%  equation's record (not the rule) is read.
view(r(Id, L0, R0, K), Id, L, R, Dir) :-
    copy_term(L0-R0, L1-R1),
    (   K = rule(D) -> L = L1, R = R1, Dir = D
    ;   ( L = L1, R = R1, Dir = lr ; L = R1, R = L1, Dir = rl )
    ).

inverse(lr, rl).
inverse(rl, lr).


/* ------------------------------------------------------------------------------------
   Rewriting
   ------------------------------------------------------------------------------------ */

%  normal_form(+T, +Active, -NF, -Chain): T rewritten (outermost first) while an active rule,
%  or an unorientable equation whose instance decreases, applies; Chain from T to NF
normal_form(T, Active, NF, [T|Steps]) :- rewrite_all(T, Active, NF, Steps).

rewrite_all(T, Active, NF, Steps) :-
    (   sub_position(T, P, U), nonvar(U), member(Rule, Active), rewrite_at_root(Rule, U, V, Id-Dir)
    ->  replace(T, P, V, T1), Steps = [s(Id, P, Dir, T1)|Steps1], rewrite_all(T1, Active, NF, Steps1)
    ;   NF = T, Steps = []
    ).

%  rewrite_at_root(+Rule, +U, -V, -Id-Dir): U is an instance of the rule's left side (U's
%  variables kept: matching, not unification), V the instance of its right side; an
%  unorientable equation only where the instance decreases
rewrite_at_root(r(Id, L0, R0, K), U, V, Id-Dir) :-
    (   K = rule(D) -> copy_term(L0-R0, L-R), subsumes_term(L, U), L = U, V = R, Dir = D
    ;   ( copy_term(L0-R0, L-R), Dir = lr ; copy_term(R0-L0, L-R), Dir = rl ),
        subsumes_term(L, U), L = U, V = R, least_instance(V, U), kbo(U, V)
    ),
    % a rule's right side may have variables its left side lacks only for unorientable ones
    !.

%  least_instance(?V, +U): V's variables that U lacks (an equation's side with variables of
%  its own) become the least constant of the problem, so that a ground instance is compared
%  and rewritten as unfailing completion's ground totality needs (f(X) = g(Y) rewrites
%  f(f(c)) to g(c0)); any instance of an equation holds, so the chain stays a proof
least_instance(V, U) :-
    term_variables(V, Vs), term_variables(U, Us),
    nb_getval(equational_least, C),
    bind_new(Vs, Us, C).

bind_new([], _, _).
bind_new([V|Vs], Us, C) :- ( memberchk_eq(V, Us) -> true ; V = C ), bind_new(Vs, Us, C).

memberchk_eq(X, [Y|Ys]) :- ( X == Y -> true ; memberchk_eq(X, Ys) ).

%  the least constant of the problem's equations and goals (a fresh one when there is none:
%  an instance at a new constant is an instance all the same)
set_least_constant(Eqs, Goals) :-
    findall(K-C, ( ( member(eq(_, _, S, T), Eqs) ; member(eq(_, _, S, T), Goals) ),
                   ( to_app(S, A) ; to_app(T, A) ), sub_position(A, _, U), nonvar(U), U = app(C, []),
                   K = 0-C ), Cs),
    (   Cs == [] -> Least = app(c('$least'), [])
    ;   msort(Cs, [_-C0|_]), Least = app(C0, [])
    ),
    nb_setval(equational_least, Least).

%  sub_position(+T, -P, -U): on backtracking, every subterm U of T at position P (a list of
%  argument numbers), outermost first
sub_position(T, [], T).
sub_position(T, [I|P], U) :- nonvar(T), T = app(_, As), nth1(I, As, A), sub_position(A, P, U).

%  replace(+T, +P, +V, -T1): T with its subterm at P replaced by V
replace(_, [], V, V).
replace(app(F, As), [I|P], V, app(F, Bs)) :-
    nth1(I, As, A, Rest), replace(A, P, V, B), nth1(I, Bs, B, Rest).

size(T, 1) :- var(T), !.
size(app(_, As), N) :- foldl(add_size, As, 1, N).
add_size(A, N0, N) :- size(A, K), N is N0 + K.


/* ------------------------------------------------------------------------------------
   The Knuth-Bendix order
   ------------------------------------------------------------------------------------ */

%  kbo(+S, +T): S > T; every symbol and variable weighs 1, a symbol of greater arity precedes
%  one of smaller, and names break ties (a total order on ground terms)
kbo(S, T) :-
    S \== T,
    vars_with_repeats(S, VS), vars_with_repeats(T, VT),
    \+ ( member(V, VT), count_eq(V, VT, NT), count_eq(V, VS, NS), NS < NT ),
    size(S, WS), size(T, WT),
    (   WS > WT -> true
    ;   WS =:= WT, kbo_tie(S, T)
    ).

kbo_tie(S, _) :- var(S), !, fail.
kbo_tie(_, T) :- var(T), !.      % S a non-variable of T's weight that holds T's variable
kbo_tie(app(F, As), app(G, Bs)) :-
    length(As, N), length(Bs, M),
    (   F == G -> lex_kbo(As, Bs)
    ;   compare(O, N-F, M-G), O == (>)
    ).

lex_kbo([A|As], [B|Bs]) :- ( A == B -> lex_kbo(As, Bs) ; kbo(A, B) ).

vars_with_repeats(T, Vs) :- vars_(T, Vs, []).
vars_(T, [T|Vs], Vs) :- var(T), !.
vars_(app(_, As), Vs0, Vs) :- foldl(vars_, As, Vs0, Vs).

count_eq(V, L, N) :- count_eq_(L, V, 0, N).
count_eq_([], _, N, N).
count_eq_([X|Xs], V, N0, N) :- ( X == V -> N1 is N0 + 1 ; N1 = N0 ), count_eq_(Xs, V, N1, N).


/* ------------------------------------------------------------------------------------
   Chains and the proof
   ------------------------------------------------------------------------------------ */

%  reverse_chain(+Chain, -Reversed): [T0, s(I1, P1, D1, T1), ..., s(In, Pn, Dn, Tn)] read
%  from Tn back to T0 (each link's direction inverted)
reverse_chain([T0|Steps], Rev) :- rev_steps(Steps, T0, [], Rev).
rev_steps([], Prev, Acc, [Prev|Acc]).
rev_steps([s(I, P, D, T)|Steps], Prev, Acc, Rev) :-
    inverse(D, D1), rev_steps(Steps, T, [s(I, P, D1, Prev)|Acc], Rev).

%  concat_chains(+Chains, -Chain): chains each starting where the previous one ends
concat_chains([C], C) :- !.
concat_chains([[T0|S0], [_|S1]|Cs], C) :- append(S0, S1, S), concat_chains([[T0|S]|Cs], C).

last_term([T], T) :- !.
last_term([_|Steps], T) :- last(Steps, s(_, _, _, T)).

%  found_proof(+Goal-All, -eqproof(Records, Goal)): the equations the goal's chain needs,
%  each with the ones its own chain needs before it, converted to prove.pl's terms
found_proof(goal(I, Tag, F, L, Chain)-All, eqproof(Records, goal(I, Tag, F1, L1, Chain1))) :-
    chain_ids(Chain, Ids0),
    needed(Ids0, All, [], Needed),
    sort(Needed, Ids),
    maplist(record_out(All), Ids, Records),
    copy_term(goal(F, L, Chain), goal(F0, L0, C0)),
    from_app(F0, F1), from_app(L0, L1), chain_out(C0, Chain1).

chain_ids([_|Steps], Ids) :- findall(Id, member(s(Id, _, _, _), Steps), Ids).

needed([], _, Seen, Seen).
needed([Id|Ids], All, Seen, Out) :-
    (   memberchk(Id, Seen) -> needed(Ids, All, Seen, Out)
    ;   get_assoc(Id, All, e(_, _, _, J)),
        ( J = conv(C) -> chain_ids(C, More) ; More = [] ),
        append(More, Ids, Ids1),
        needed(Ids1, All, [Id|Seen], Out)
    ).

record_out(All, Id, e(Id, L, R, J)) :-
    get_assoc(Id, All, e(_, L0, R0, J0)),
    copy_term(e(L0, R0, J0), e(L1, R1, J1)),
    from_app(L1, L), from_app(R1, R),
    ( J1 = conv(C1) -> chain_out(C1, C), J = conv(C) ; J = J1 ).

chain_out([T0|Steps], [U0|Out]) :- from_app(T0, U0), maplist(link_out, Steps, Out).
link_out(s(I, P, D, T), s(I, P, D, U)) :- from_app(T, U).

%!  equational_proof_ok(+Proof, +Clauses:list) is semidet.
%
%   Every record's justification holds (an input record is its clause, either way round; a
%   derived one's chain starts at its left side, ends at its right, and each link replaces an
%   instance of an earlier record's sides), and the goal's chain connects an instance of the
%   goal clause's two sides. The replay is independent of the search, so a wrong proof is caught.
equational_proof_ok(eqproof(Records, goal(I, _, F, L, Chain)), Clauses) :-
    maplist(varnumbers, Records, Rs),
    varnumbers(goal(F, L, Chain), goal(F1, L1, C1)),
    records_ok(Rs, Clauses, [], Known),
    nth1(I, Clauses, [-rel('=', [S, T])]),
    to_app(S, SA), to_app(T, TA),
    to_app(F1, FA), to_app(L1, LA),
    subsumes_term(SA-TA, FA-LA),
    chain_app(C1, CA),
    chain_ok(CA, FA, LA, Known).

records_ok([], _, Known, Known).
records_ok([e(Id, L, R, J)|Rs], Clauses, Known0, Known) :-
    \+ memberchk(Id-_, Known0),
    to_app(L, LA), to_app(R, RA),
    (   J = input(I, _) -> nth1(I, Clauses, [rel('=', [S, T])]), to_app(S, SA), to_app(T, TA),
        ( subsumes_term(SA-TA, LA-RA) -> true ; subsumes_term(TA-SA, LA-RA) )
    ;   J = conv(C) -> chain_app(C, CA), chain_ok(CA, LA, RA, Known0)
    ),
    records_ok(Rs, Clauses, [Id-(LA-RA)|Known0], Known).

chain_app([T0|Steps], [A0|As]) :- to_app(T0, A0), maplist(link_app, Steps, As).
link_app(s(I, P, D, T), s(I, P, D, A)) :- to_app(T, A).

%  chain_ok(+Chain, +First, +Last, +Known): the chain runs from First to Last by known links
chain_ok([T0|Steps], First, Last, Known) :-
    T0 == First,
    links_ok(Steps, T0, Known, End),
    End == Last.

links_ok([], T, _, T).
links_ok([s(Id, P, D, T)|Steps], Prev, Known, End) :-
    memberchk(Id-(L0-R0), Known),
    position_pair(Prev, T, P, U, V),
    copy_term(L0-R0, L-R),
    (   D == lr -> subsumes_term(L-R, U-V) ; D == rl, subsumes_term(R-L, U-V) ),
    links_ok(Steps, T, Known, End).

%  position_pair(+S, +T, +P, -U, -V): S and T differ at most at position P, where S has U and
%  T has V
position_pair(S, T, [], S, T) :- !.
position_pair(app(F, As), app(G, Bs), [I|P], U, V) :-
    F == G, length(As, N), length(Bs, N),
    nth1(I, As, A, RestA), nth1(I, Bs, B, RestB),
    RestA == RestB,
    position_pair(A, B, P, U, V).


/* ------------------------------------------------------------------------------------
   Terms
   ------------------------------------------------------------------------------------ */

%  to_app(+T, -A) / from_app(+A, -T): prove.pl's terms and the search's
to_app(V, V) :- var(V), !.
to_app(fn(F, As), app(fn(F), Bs)) :- !, maplist(to_app, As, Bs).
to_app(T, app(sk(K), Bs)) :- compound(T), T =.. [sk, K|As], !, maplist(to_app, As, Bs).
to_app(C, app(c(C), [])).

from_app(V, V) :- var(V), !.
from_app(app(c(C), []), C) :- !.
from_app(app(fn(F), Bs), fn(F, As)) :- !, maplist(from_app, Bs, As).
from_app(app(sk(K), Bs), T) :- maplist(from_app, Bs, As), T =.. [sk, K|As].
