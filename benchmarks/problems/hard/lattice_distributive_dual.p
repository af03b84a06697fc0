% Problem  : in a lattice, meet distributing over join gives join distributing over meet
% Source   : written for ambit (a hard small problem; issue 36: no Prolog stage solved it when it was added)
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(meet_comm, axiom,
    ![X, Y]: m(X, Y) = m(Y, X)).
fof(join_comm, axiom,
    ![X, Y]: j(X, Y) = j(Y, X)).
fof(meet_assoc, axiom,
    ![X, Y, Z]: m(m(X, Y), Z) = m(X, m(Y, Z))).
fof(join_assoc, axiom,
    ![X, Y, Z]: j(j(X, Y), Z) = j(X, j(Y, Z))).
fof(absorb1, axiom,
    ![X, Y]: m(X, j(X, Y)) = X).
fof(absorb2, axiom,
    ![X, Y]: j(X, m(X, Y)) = X).
fof(distributive, axiom,
    ![X, Y, Z]: m(X, j(Y, Z)) = j(m(X, Y), m(X, Z))).
fof(goal, conjecture,
    ![X, Y, Z]: j(X, m(Y, Z)) = m(j(X, Y), j(X, Z))).
