/*  prove.pl -- full first-order logic: connection proofs and finite countermodels.

    Formulas arrive as plain terms (logic/engine/prove.py writes them):
        rel(Pred, Args)   an atom; Args are v(N) (the variable bound by quantifier N) or names
        eq(S, T)   not(F)   and(F, G)   or(F, G)   imp(F, G)   iff(F, G)   xor(F, G)
        all(N, F)   some(N, F)
    Bound variables are numbered names, not Prolog variables, so that a subformula copied by
    the expansion of iff/xor gets fresh variables each time it is read.

    status(+Fs, +Budget, -S): Fs is a list of Tag-Formula; S is unsat(Proof) (no model: a
    connection proof or an equational one, replayed by proof_ok/2 before it is returned, or an
    exhausted finite search), sat(Model) (a finite model of F), or unknown(Which) when the
    inference budget of that stage ran out.

    Proofs (leanCoP style): F is put in clausal form (negation normal form, Skolem terms for
    existentials, a definition for a disjunct whose distribution would multiply clauses), then
    a connection proof is searched from a positive start clause with iterative deepening on
    the length of the active path, regularity (no literal twice on a path), lemmata (a literal
    proved on this branch is closed again for free) and restricted backtracking (a first pass
    commits to the first way a literal is closed; a complete pass follows). Equality is
    handled by its axioms (reflexivity, symmetry, transitivity, substitution), except in a
    clause set of unit equations and negated ones, which unfailing completion refutes first
    (equational.pl: rewriting, with its own replayed proof).

    Models: finite_models.pl (Mace4 style: domain sizes 1, 2, ..., the formula grounded and
    decided by a small DPLL procedure). Where a finite bound is known (a monadic formula, or a
    clausal form without functions: finite_bound/4), no model up to it is a proof, and the model
    search is a decision (the proof: exhausted).
*/

:- module(prove, [ status/3, decide_json/4, equiv_json/4, batch_json/3, parts_json/4, a_model/1, stash/2, unstash/1 ]).

:- use_module(library(lists)).
:- use_module(library(apply)).
:- use_module(library(assoc)).
:- use_module(library(pairs)).
:- use_module(library(occurs)).
:- use_module(library(time)).
:- use_module(library(error)).
:- use_module(clausal).
:- use_module(equational).
:- use_module(finite_models).
:- use_module(herbrand).

:- thread_local lit/4, clause_of/3, path_limit_hit/0, stashed/2.


/* ------------------------------------------------------------------------------------
   Decisions
   ------------------------------------------------------------------------------------ */

%!  decide_json(+Premises:list, +Goal, +Budget, -Dict) is det.
%
%   The story-level verdict, Budget = budget(Inferences, MaxDomain). TRUE: premises ∧ ¬goal
%   has no model and premises ∧ goal has one; FALSE the reverse; UNCERTAIN both have models;
%   INCONSISTENT neither has. The two parts are searched side by side (parts_json/4), and a
%   part settled keeps its answer when the other is not.
decide_json(Premises, Goal, Budget, json([verdict=V, with_negated_conclusion=J1, with_conclusion=J2])) :-
    tagged(Premises, 0, Tagged),
    parts_json([[negated_conclusion-not(Goal)|Tagged], [conclusion-Goal|Tagged]], Budget, never,
               [S1-J1, S2-J2]),
    story_verdict(S1, S2, V).

%  story_verdict(+StatusWithNegatedGoal, +StatusWithGoal, -Verdict)
story_verdict(unsat(_), sat(_), 'TRUE') :- !.
story_verdict(sat(_), unsat(_), 'FALSE') :- !.
story_verdict(sat(_), sat(_), 'UNCERTAIN') :- !.
story_verdict(unsat(_), unsat(_), 'INCONSISTENT') :- !.
story_verdict(_, _, 'UNKNOWN').

%!  equiv_json(+A, +B, +Budget, -Dict) is det.
%
%   A ∧ ¬B and B ∧ ¬A both without a model: equivalent. The search stops at the first model of
%   either (the other direction is then null).
equiv_json(A, B, Budget, json([a_not_b=J1, b_not_a=J2])) :-
    parts_json([[a-A, negated_b-not(B)], [b-B, negated_a-not(A)]], Budget, a_model, [_-J1, _-J2]).

never(_) :- fail.

%!  a_model(+States:list) is semidet.
%
%   Some part's search has found a model: the Enough of parts_json/4 for an equivalence, whose
%   other direction then need not be searched.
a_model(States) :- member(St, States), arg(3, St, done(sat(_), _)), !.

%!  parts_json(+Parts:list, +Budget, :Enough, -Results:list) is det.
%
%   Status-Json for each part (a list of Tag-Formula whose satisfiability is asked, or
%   model(List) for one known to be satisfiable), stage by stage across the parts: the first stage
%   (a small model) of every part, then the second (a short proof) of every part still open, and
%   so on (stages/3), so that a part settled cheaply never waits behind another part's long
%   search. A part's JSON is written as soon as it is settled (while its clauses are the indexed
%   ones). Enough(States) true stops the search: the parts still open are then none (JSON null). When
%   the item's time runs out (item_json/3's alarm), the parts settled keep their answers and the
%   open ones are unknown(time_limit); the alarm is spent, so the item then returns at once.
parts_json(Parts, Budget, Enough, Results) :-
    maplist(part_state(Budget), Parts, States),
    run_stages(1, States, Enough),
    maplist(part_result, States, Results).

%  a part's state: st(Stages, Ends, Outcome): Ends how its stages so far ended (last first),
%  Outcome open or done(Status, Json)
part_state(Budget, model(Fs), st(Stages, [], open)) :- !, model_stages(Fs, Budget, Stages).
part_state(Budget, Fs, st(Stages, [], open)) :- stages(Fs, Budget, Stages).

%  model_stages(+TaggedFormulas, +Budget, -Stages): stages/3 with its two proof attempts replaced
%  by stages that end at once, for a part known to have a model (a part model(Fs):
%  equivalence.pl's first stage refuted its direction completely, so a proof search could only
%  spend the budget and fail)
model_stages(Fs, Budget, [S1, sat-no_answer-1, S3, sat-no_answer-1]) :- stages(Fs, Budget, [S1, _, S3, _]).

no_answer(none).

run_stages(K, States, Enough) :-
    (   K > 4 -> true
    ;   call(Enough, States) -> true
    ;   run_stage(States, K, States, Enough, TimedOut),
        (   TimedOut == true -> true
        ;   K1 is K + 1, run_stages(K1, States, Enough)
        )
    ).

run_stage([], _, _, _, false).
run_stage([St|Sts], K, All, Enough, TimedOut) :-
    (   arg(3, St, open), \+ call(Enough, All)
    ->  arg(1, St, Stages), nth1(K, Stages, Tag-Goal-Spec),
        catch(( stage_inferences(Spec, Inf), bounded(Goal, Inf, R) ), time_limit_exceeded, R = time_limit),
        (   R = ok(Out) -> tagged_answer(Tag, Out, S), status_json(S, J), setarg(3, St, done(S, J))
        ;   R == time_limit -> true
        ;   arg(2, St, Ends), setarg(2, St, [R|Ends])
        ),
        (   R == time_limit -> TimedOut = true, time_out(All)
        ;   run_stage(Sts, K, All, Enough, TimedOut)
        )
    ;   run_stage(Sts, K, All, Enough, TimedOut)
    ).

%  time_out(+States): every open part is unknown(time_limit) (a loop, not forall/2: forall
%  backtracks, and would undo setarg/3)
time_out([]).
time_out([St|Sts]) :-
    (   arg(3, St, open) -> status_json(unknown(time_limit), J), setarg(3, St, done(unknown(time_limit), J))
    ;   true
    ),
    time_out(Sts).

%  part_result(+State, -Status-Json): a part left open after every stage is unknown(Reason) for
%  how its full stages ended (worst_reason/2); one the search stopped before is none (JSON null).
part_result(st(_, Ends, Outcome), S-J) :-
    (   Outcome = done(S, J) -> true
    ;   length(Ends, 4) -> Ends = [Last, BeforeLast|_], worst_reason([Last, BeforeLast], Why),
        S = unknown(Why), status_json(S, J)
    ;   S = none, J = null
    ).

%!  batch_json(+Items:list, +Budget, -Dicts:list) is det.
%
%   equiv(A, B) and decide(Premises, Goal) items, in order. With budget(Inferences, MaxDomain,
%   Seconds) each item has Seconds of its own: one that runs past them, or out of stack outside
%   a stage, is json([seconds=S, unknown=time_limit|memory_limit]); every item's dict starts
%   with seconds=S, the wall-clock seconds it took (a portfolio gives its other provers what is
%   left of the item's time). Called from Python (logic/engine/prove.py), so Items and Budget
%   are checked once per call.
batch_json(Items, Budget, Dicts) :-
    must_be(list, Items), must_be(budget, Budget),
    maplist(item_json(Budget), Items, Dicts).

%  the type budget, for must_be/2: budget(Inferences, MaxDomain, Seconds) as logic/engine/budget.py
%  writes it (Inferences >= 1, MaxDomain >= 0, Seconds a number), or budget(Inferences, MaxDomain)
%  for a search without a time limit of its own
:- multifile error:has_type/2.
error:has_type(budget, budget(I, D)) :- integer(I), I >= 1, integer(D), D >= 0.
error:has_type(budget, budget(I, D, S)) :- integer(I), I >= 1, integer(D), D >= 0, number(S).

item_json(budget(Inf, MaxDom, T), Item, json([seconds=S|Fields])) :- !,
    get_time(T0),
    catch(call_with_time_limit(T, item_json(budget(Inf, MaxDom), Item, json(Fields))), E,
          item_error(E, json(Fields))),
    get_time(T1), S is T1 - T0.
item_json(Budget, decide(stash(Key), G), D) :- !,
    findall(P, ( stashed(Key, Ps), member(P, Ps) ), Premises),
    decide_json(Premises, G, Budget, D).
item_json(Budget, equiv(A, B), D) :- equiv_json(A, B, Budget, D).
item_json(Budget, decide(Ps, G), D) :- decide_json(Ps, G, Budget, D).

%!  stash(+Key:atom, +Premises:list) is det.
%
%   Keep Premises (more of a story's premises, in order) under Key, for an item
%   decide(stash(Key), Goal) of batch_json/3: a problem too large to send in one goal is sent in
%   parts, each read (its text parsed) in a call of its own, so that its caller can stop between
%   two parts once its time is spent (parsing a goal's text cannot be interrupted). Called from
%   Python (logic/engine/prove.py), so its arguments are checked.
stash(Key, Premises) :- must_be(atom, Key), must_be(list, Premises), assertz(stashed(Key, Premises)).

%!  unstash(+Key:atom) is det.
%
%   Forget the premises kept under Key (stash/2).
unstash(Key) :- must_be(atom, Key), retractall(stashed(Key, _)).

%  item_error(+E, -D): a spent budget is the item's answer; anything else is an error, raised
item_error(time_limit_exceeded, json([unknown=time_limit])) :- !.
item_error(error(resource_error(_), _), json([unknown=memory_limit])) :- !.
item_error(E, _) :- throw(E).

tagged([], _, []).
tagged([F|Fs], I, [premise(I)-F|Ts]) :- I1 is I + 1, tagged(Fs, I1, Ts).

conj([_-F], F) :- !.
conj([_-F|Fs], and(F, G)) :- conj(Fs, G).

status_json(unsat(Proof), json([status=unsat, proof=Steps])) :- proof_json(Proof, Steps).
status_json(sat(Model), json([status=sat, model=M])) :- model_json(Model, M).
status_json(unknown(Why), json([status=unknown, reason=Why])).

%!  status(+TaggedFormulas:list, +Budget, -Status) is det.
%
%   One part, Budget = budget(Inferences, MaxDomain), searched by
%   parts_json/4's loop: a search for a small model (most stories have one of one or two
%   elements), a short proof attempt, then the full model search within Inferences (decision_factor/1
%   times it where a finite bound makes it a decision), then the full proof attempt within
%   proof_factor/1 times Inferences (a model search that ends without a model is cheap to repeat
%   and rarely helped by more inferences; a proof search deepens on, and Pelletier 46, 47 and 48
%   need the larger budget). unknown(Reason) names what stopped the last two: memory_limit (a
%   stage ran out of stack), inference_limit (a stage ran out of inferences), domain_limit (no
%   model up to MaxDomain, and the proof search ended without a proof), or time_limit (the
%   caller's alarm, as in parts_json/4).
status(Fs, Budget, S) :- parts_json([Fs], Budget, never, [S-_]).

%  stages(+TaggedFormulas, +Budget, -Stages): status/3's four stages, Tag-Goal-Inferences each
%  (the full model search's inferences settled when it is reached: stage_inferences/2)
stages(Fs, Budget, [sat-find_model(F, SmallDom)-Small, unsat-refute(Fs)-Small,
                    either-model_or_exhaustion(Fs, F, Bound, MaxDom)-later(Inf, Fs, F, MaxDom, Bound),
                    unsat-refute(Fs)-ProofInf]) :-
    budget_inferences(Budget, Inf), budget_domain(Budget, MaxDom),
    Small is max(1, Inf // 20),
    conj(Fs, F),
    SmallDom is min(2, MaxDom),
    proof_factor(Factor), ProofInf is Inf * Factor.

%  stage_inferences(+Spec, -Inferences): a stage's inferences; the full model search's are
%  settled when it is reached (most parts are settled before it, and the finite bound needs the
%  clausal form): with Bound = herbrand(Clauses, C) for a function-free clausal form small
%  enough to ground (herbrand_bound/2), proof_factor/1 times the budget's (the grounded search
%  decides: the full proof search after it can only repeat it in other words); with Bound =
%  bound(N, Why) where a finite bound makes the model search a decision, decision_factor/1 times
%  the budget's; else the budget's, with Bound = none
stage_inferences(later(Inf, Fs, F, MaxDom, Bound), ModelInf) :- !,
    (   herbrand_bound(Fs, Bound0)
    ->  Bound = Bound0, proof_factor(PF), ModelInf is Inf * PF
    ;   finite_bound(Fs, F, N, Why), N =< MaxDom
    ->  Bound = bound(N, Why), decision_factor(DF), ModelInf is Inf * DF
    ;   Bound = none, ModelInf = Inf
    ).
stage_inferences(Inf, Inf).

proof_factor(25).

%  the full model search's inferences, as a multiple of the budget's, when it is a decision
%  (finite_bound/4: no model up to the bound is a proof)
decision_factor(5).

%  tagged_answer(+Tag, +Out, -Status): a stage's answer: sat(Out) or unsat(Out), or Out itself
%  from a stage that may answer either (either)
tagged_answer(either, S, S) :- !.
tagged_answer(Tag, Out, S) :- S =.. [Tag, Out].

budget_inferences(budget(Inf, _, _), Inf).
budget_inferences(budget(Inf, _), Inf).
budget_domain(budget(_, MaxDom, _), MaxDom).
budget_domain(budget(_, MaxDom), MaxDom).

%  worst_reason(+Ends, -Reason): memory_limit or inference_limit when a stage ended so;
%  domain_limit when both ended by themselves (no model up to the largest domain searched,
%  and a proof search that closed without a proof).
worst_reason(Ends, Why) :-
    (   member(Why, [memory_limit, inference_limit]), memberchk(Why, Ends) -> true
    ;   Why = domain_limit
    ).

%  bounded(:Goal(-Out), +Inferences, -R): R = ok(Out) for Goal's answer (not none), else how
%  it ended: inference_limit, memory_limit (a resource error: the stack) or failed (Goal failed
%  or answered none). Every other exception, time_limit_exceeded and proof_replay_failed among
%  them, is not this stage's to judge: it propagates to the caller.
bounded(Goal, Inf, R) :-
    catch(call_with_inference_limit(call(Goal, Out), Inf, L), error(resource_error(_), _), L = memory),
    !,
    (   L == inference_limit_exceeded -> R = inference_limit
    ;   L == memory -> R = memory_limit
    ;   Out == none -> R = failed
    ;   R = ok(Out)
    ).
bounded(_, _, failed).


/* ------------------------------------------------------------------------------------
   Connection proofs
   ------------------------------------------------------------------------------------ */

%  refute(+F, -Proof): a connection proof that F's clauses are unsatisfiable, replayed by
%  proof_ok/2 (a proof that does not replay is an error, never an answer); fails when there
%  is none (the search space was finite) and runs on otherwise (the caller bounds it).
refute(Fs, Proof) :-
    clausal_form(Fs, Tagged),
    index_clauses(Tagged),
    search(Tagged, Proof0),
    copy_term(Proof0, Proof),
    numbervars(Proof, 0, _),
    pairs_values(Tagged, Clauses),
    (   proof_ok(Proof, Clauses) -> true
    ;   throw(error(proof_replay_failed(Proof), _))
    ).

%  search(+Tagged, -Proof): a set of unit equations and negated ones is left to unfailing
%  completion first (equational.pl: equality there is rewriting, not axioms); when that
%  saturates without a refutation, and for every other clause set, a connection proof is
%  searched.
search(Tagged, Proof) :-
    findall(I-Tag-C, ( nth1(I, Tagged, Tag-C), Tag \== equality ), Numbered),
    unit_equational(Numbered, Problem),
    complete(Problem, Proof),
    !.
search(_, Proof) :- deepen(1, Proof).

index_clauses(Clauses) :-
    retractall(lit(_, _, _, _)), retractall(clause_of(_, _, _)),
    forall(nth1(I, Clauses, Tag-C),
           ( assertz(clause_of(I, C, Tag)),
             forall(select(L, C, Rest), ( key(L, K), assertz(lit(K, L, Rest, I)) )) )).

key(-rel(P, As), neg(P, N)) :- !, length(As, N).
key(rel(P, As), pos(P, N)) :- length(As, N).

%  deepen(+Limit, -Proof): iterative deepening on the path length. Below complete_from/1
%  only restricted backtracking (each literal closed in its first way) is tried; the
%  complete search joins once the limit reaches it, or earlier when the restricted pass
%  failed without meeting the limit (so restricting was what failed). Fails once no pass
%  reached its limit (the search space is finite).
deepen(Lim, Proof) :-
    retractall(path_limit_hit),
    (   start(Lim, rb, Proof) -> true
    ;   complete_from(C), Lim < C, path_limit_hit -> Lim1 is Lim + 1, deepen(Lim1, Proof)
    ;   retractall(path_limit_hit), start(Lim, full, Proof) -> true
    ;   path_limit_hit, Lim1 is Lim + 1, deepen(Lim1, Proof)
    ).

complete_from(5).

%  start: a clause with positive literals only opens the proof (an unsatisfiable clause set
%  always has one).
start(Lim, Mode, start(I, C, Sub)) :-
    clause_of(I, C0, _), \+ member(-_, C0),
    copy_term(C0, C),
    prove(C, [], Lim, Mode, [], Sub).

%  prove(+Clause, +Path, +Limit, +Mode, +Lemmas, -Steps): every literal of Clause is closed.
prove([], _, _, _, _, []).
prove([L|Ls], Path, Lim, Mode, Lem, [S|Ss]) :-
    (   Mode == rb -> once(close(L, Path, Lim, Mode, Lem, S)) ; close(L, Path, Lim, Mode, Lem, S) ),
    prove(Ls, Path, Lim, Mode, [L|Lem], Ss).

%  close(+L, +Path, +Limit, +Mode, +Lemmas, -Step): L is a lemma, connects to a complementary
%  literal on the path (reduction), or to one in a fresh copy of a clause (extension) whose
%  other literals are then closed with L on the path.
close(L, _, _, _, Lem, lemma(L)) :- member(M, Lem), M == L, !.
close(L, Path, Lim, Mode, _, Step) :-
    complement(L, N), key(N, K),
    (   member(P, Path), unify_with_occurs_check(P, N), Step = reduction(L)
    ;   lit(K, N0, Rest, I), ( ground(Rest) -> Ground = true ; Ground = false ),
        unify_with_occurs_check(N0, N),
        within_limit(Ground, Path, Lim),
        regular([L|Path], Rest),
        Step = extension(L, I, [N0|Rest], Sub),
        prove(Rest, [L|Path], Lim, Mode, [], Sub)
    ).

%  within_limit(+Ground, +Path, +Limit): an input clause that is ground (checked before the
%  connection binds it: an instance made ground by unification still counts) may extend any
%  path; any other only a path shorter than Limit.
within_limit(Ground, Path, Lim) :-
    (   Ground == true -> true
    ;   length(Path, N), N < Lim -> true
    ;   ( path_limit_hit -> true ; assertz(path_limit_hit) ), fail
    ).

%  regularity: no literal of the new clause is already on the path
regular(Path, Rest) :- \+ ( member(L, Rest), member(P, Path), L == P ).

%  proof_ok(+Proof, +Clauses): an independent replay of a (ground) proof: every clause used is
%  an instance of an input clause, every extension connects complementary literals, every
%  reduction meets its complement on the path, every lemma was closed before on its branch.
proof_ok(eqproof(Records, Goal), Clauses) :- !, equational_proof_ok(eqproof(Records, Goal), Clauses).
proof_ok(start(I, C, Sub), Clauses) :-
    nth1(I, Clauses, C0), subsumes_term(C0, C),
    \+ member(-_, C),
    steps_ok(C, Sub, [], [], Clauses).

steps_ok([], [], _, _, _).
steps_ok([L|Ls], [S|Ss], Path, Lem, Clauses) :-
    step_ok(S, L, Path, Lem, Clauses),
    steps_ok(Ls, Ss, Path, [L|Lem], Clauses).

step_ok(lemma(L0), L, _, Lem, _) :- L0 == L, memberchk_eq(L, Lem).
step_ok(reduction(L0), L, Path, _, _) :- L0 == L, complement(L, N), memberchk_eq(N, Path).
step_ok(extension(L0, I, [N|Rest], Sub), L, Path, _, Clauses) :-
    L0 == L, complement(L, N0), N0 == N,
    nth1(I, Clauses, C0), permutation_instance(C0, [N|Rest]),
    steps_ok(Rest, Sub, [L|Path], [], Clauses).


%  the clause instance lists the connected literal first; the rest keep their order
permutation_instance(C0, [N|Rest]) :-
    select(M, C0, Rest0), subsumes_term([M|Rest0], [N|Rest]), !.

%  proof_json(+Proof, -Steps): the proof as a list of steps; each names its clause by number
%  and writes the literal it closes.
proof_json(eqproof(Records, goal(I, Tag, F, L, Chain)), Steps) :- !,
    findall(Id, member(e(Id, _, _, _), Records), Ids),
    maplist(record_json(Ids), Records, RSteps),
    tag_json(Tag, From), lit_text(-rel('=', [F, L]), Text),
    chain_uses(Chain, Ids, Uses),
    append(RSteps, [json([step=goal, depth=0, clause=I, from=From, literal=Text, uses=Uses])], Steps).
proof_json(exhausted(N, Why, Tags), [json([step=exhausted, depth=0, literal=Text])|Inputs]) :- !,
    exhaustion_text(Why, N, Text),
    findall(json([step=formula, depth=1, from=From]), ( member(Tag, Tags), tag_json(Tag, From) ), Inputs).
proof_json(start(I, C, Sub), [json([step=start, clause=I, from=From, literals=Ls])|Steps]) :-
    clause_of(I, _, Tag), tag_json(Tag, From),
    maplist(lit_text, C, Ls),
    foldl(step_json(0), Sub, Steps0, []),
    Steps = Steps0.

step_json(Depth, lemma(L), [json([step=lemma, depth=Depth, literal=T])|R], R) :- lit_text(L, T).
step_json(Depth, reduction(L), [json([step=reduction, depth=Depth, literal=T])|R], R) :- lit_text(L, T).
step_json(Depth, extension(L, I, _, Sub), [json([step=extension, depth=Depth, literal=T, clause=I, from=From])|R0], R) :-
    lit_text(L, T), clause_of(I, _, Tag), tag_json(Tag, From), D1 is Depth + 1, foldl(step_json(D1), Sub, R0, R).

%  an equational proof's steps (equational.pl): an input equation, an equation derived from
%  earlier steps (uses: their 0-based numbers), and the goal its conversion closes
record_json(_, e(_, L, R, input(I, Tag)), json([step=equation, depth=0, clause=I, from=From, literal=T])) :- !,
    tag_json(Tag, From), lit_text(rel('=', [L, R]), T).
record_json(Ids, e(_, L, R, conv(C)), json([step=derived, depth=0, literal=T, uses=Uses])) :-
    lit_text(rel('=', [L, R]), T), chain_uses(C, Ids, Uses).

chain_uses([_|Links], Ids, Uses) :-
    findall(K, ( member(s(Id, _, _, _), Links), nth0(K, Ids, Id) ), Ks), sort(Ks, Uses).

exhaustion_text(monadic(K), N, T) :-
    format(string(T), "no model of at most ~w elements, and a formula with ~w unary predicates only (no equality, no functions) has one if it is satisfiable", [N, K]).
exhaustion_text(closure(K), N, T) :-
    format(string(T), "no model of at most ~w elements, and an axiom says every element is one of ~w named ones", [N, K]).
exhaustion_text(herbrand(C), _, T) :-
    format(string(T), "no model over the ~w constants: every instance of the clauses over them, decided by DPLL, and a clausal form without functions has a model there if it is satisfiable", [C]).
exhaustion_text(function_free(C), N, T) :-
    format(string(T), "no model of at most ~w elements, and a clausal form without functions and with ~w constants has one if it is satisfiable", [N, C]).

tag_json(premise(I), I) :- !.
tag_json(Tag, Tag).

lit_text(L, T) :- with_output_to(string(T), print_lit(L)).
print_lit(-A) :- !, write('¬'), print_lit(A).
print_lit(rel('=', [S, T])) :- !, print_term_(S), write(' = '), print_term_(T).
print_lit(rel(def(K), _)) :- !, format("def~w", [K]).
print_lit(rel(P, [])) :- !, write(P).
print_lit(rel(P, As)) :- write(P), write('('), print_args(As), write(')').
print_args([A]) :- !, print_term_(A).
print_args([A|As]) :- print_term_(A), write(', '), print_args(As).
print_term_('$VAR'(N)) :- !, format("X~w", [N]).
print_term_(fn(F, As)) :- !, write(F), write('('), print_args(As), write(')').
print_term_(T) :- compound(T), T =.. [sk, K|As], !,
    format("sk~w", [K]), ( As == [] -> true ; write('('), print_args(As), write(')') ).
print_term_(T) :- write(T).


/* ------------------------------------------------------------------------------------
   Finite bounds: where the model search (finite_models.pl) decides
   ------------------------------------------------------------------------------------ */

%  model_or_exhaustion(+Fs, +F, +Bound, +MaxDomain, -S): with Bound = herbrand(Clauses, C) (Fs's
%  clausal form, function-free, C constants: herbrand.pl), unsat(exhausted(C, herbrand(C), Tags))
%  when the clauses have no Herbrand model, else sat(Model): the smallest model the finite search
%  finds within a share of the stage's inferences (the Herbrand model has at most C elements, so
%  one that small exists), or the Herbrand model itself (its elements: the constants' classes
%  under the true equations). Otherwise sat(Model) for a model of F of at most MaxDomain elements; with Bound = bound(N, Why) (F, for Why, has a model of at most N
%  elements if it has one at all: finite_bound/4), unsat(exhausted(N, Why, Tags)) when there
%  is none of at most N elements (the search was a decision); none otherwise.
model_or_exhaustion(Fs, F, herbrand(Clauses, C), MaxDom, S) :- !,
    herbrand_decide(Clauses, R, U),
    (   R == unsat
    ->  pairs_keys(Fs, Tags), S = unsat(exhausted(C, herbrand(C), Tags))
    ;   R = sat(Elements, Trues),
        length(Elements, N),
        (   N > 1, N =< MaxDom, smaller_model(F, N, M) -> S = sat(M)
        ;   herbrand_model_term(U, Elements, Trues, M), S = sat(M)
        )
    ).
model_or_exhaustion(Fs, F, Bound, MaxDom, S) :-
    (   Bound = bound(N, Why)
    ->  find_model(F, N, M),
        (   M == none -> pairs_keys(Fs, Tags), S = unsat(exhausted(N, Why, Tags)) ; S = sat(M) )
    ;   find_model(F, MaxDom, M),
        (   M == none -> S = none ; S = sat(M) )
    ).

%  finite_bound(+Fs, +F, -N, -Why): F has a model of at most N elements if it has one:
%  monadic(K) when F has unary predicates only (K of them), no equality and no function terms
%  (elements of the same type, the same predicates true of them, can be merged: N = 2^K, the
%  Löwenheim bound); function_free(C) when F's clausal form, Skolem terms included, has no
%  function of one argument or more, and C constants (the constants' values are a model of
%  the universal clauses: N = max(1, C), the Herbrand bound of the Bernays-Schönfinkel class).
%  The smaller bound when both hold.
finite_bound(Fs, F, N, Why) :-
    findall(B-W, ( monadic_bound(F, B, W) ; function_free_bound(Fs, B, W) ; closure_bound(Fs, B, W) ), Bs),
    msort(Bs, [N-Why|_]).

%  closure_bound(+Fs, -N, -closure(N)): a clause x = c1 ∨ ... ∨ x = cN (one variable, N constants:
%  names or Skolem constants) says every element is one of N: no model has more
closure_bound(Fs, N, closure(N)) :-
    clausal_form(Fs, Tagged),
    findall(K, ( member(Tag-C, Tagged), Tag \== equality, closure_clause(C, K) ), Ks),
    Ks \== [], min_list(Ks, N).

closure_clause(C, N) :-
    C = [rel('=', [X0, Y0])|_], ( var(X0) -> X = X0 ; X = Y0 ), var(X),
    maplist(equation_with(X), C, Ts0), sort(Ts0, Ts), length(Ts, N).

equation_with(X, rel('=', [A, B]), T) :-
    (   A == X -> T = B ; B == X, T = A ), ground(T), ( atom(T) ; T = sk(_) ), !.

%  herbrand_bound(+Fs, -herbrand(Clauses, C)): Fs's clausal form is function-free (herbrand.pl
%  decides it), with C constants, and has at most herbrand_limit/1 ground instances
herbrand_bound(Fs, herbrand(Cs, C)) :-
    clausal_form(Fs, Tagged),
    pairs_values(Tagged, Cs),
    function_free(Cs),
    ground_size(Cs, Size), herbrand_limit(Limit), Size =< Limit,
    universe_size(Cs, C).

universe_size(Cs, C) :-
    findall(T, ( member(Cl, Cs), member(L, Cl), atom_of(L, rel(_, As)), member(T, As), nonvar(T) ), Ts0),
    sort(Ts0, Ts), length(Ts, C0), C is max(1, C0).

%  the most ground clause instances the Herbrand stage writes out (a few seconds' grounding)
herbrand_limit(200000).

definition_atom(def(_)-_).

%  smaller_model(+F, +N, -Model): the smallest model of F of at most N elements, found within a
%  fifth of what is left of the stage's inferences (fails when that runs out: the Herbrand
%  model is then the answer)
smaller_model(F, N, M) :-
    (   catch(call_with_inference_limit(find_model(F, N, M0), 2000000, R), error(resource_error(_), _), fail),
        R \== inference_limit_exceeded, M0 \== none
    ->  M = M0
    ;   fail
    ).

%  herbrand_model_term(+Universe, +Elements, +Trues, -Model): herbrand.pl's model as
%  finite_models.pl writes one: the named constants' elements (Skolem constants and the fresh
%  element are no names), the true atoms, no function tables
herbrand_model_term(U, Elements, Trues0, model(N, Vals, Trues, [])) :-
    length(Elements, N),
    exclude(definition_atom, Trues0, Trues),
    findall(C-I, ( member(C, U), atom(C), C \== '$e', nth1(I, Elements, Class), memberchk(C, Class) ), Vals).

monadic_bound(F, N, monadic(K)) :-
    \+ ( sub_term(T, F), compound(T), ( T = eq(_, _) ; T = fn(_, _) ; T = rel(_, [_, _|_]) ) ),
    findall(P, sub_term(rel(P, [_]), F), Ps0), sort(Ps0, Ps), length(Ps, K),
    K =< 10, N is max(1, 2 ** K).

function_free_bound(Fs, N, function_free(C)) :-
    clausal_form(Fs, Tagged),
    pairs_values(Tagged, Cs),
    \+ ( member(Cl, Cs), member(L, Cl), atom_of(L, rel(_, As)), member(A, As), compound(A),
          \+ ( A =.. [sk, _] ) ),
    findall(T, ( member(Cl, Cs), member(L, Cl), atom_of(L, rel(_, As)), member(T, As), nonvar(T) ), Ts0),
    sort(Ts0, Ts), length(Ts, C),
    N is max(1, C).
