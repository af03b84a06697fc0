% Problem  : in a group of exponent 3, [[x, y], y] = e
% Source   : written for ambit (a hard small problem; issue 36: no Prolog stage solved it when it was added)
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(assoc, axiom,
    ![X, Y, Z]: f(f(X, Y), Z) = f(X, f(Y, Z))).
fof(left_identity, axiom,
    ![X]: f(e, X) = X).
fof(left_inverse, axiom,
    ![X]: f(i(X), X) = e).
fof(cube, axiom,
    ![X]: f(X, f(X, X)) = e).
fof(commutator, axiom,
    ![X, Y]: c(X, Y) = f(f(i(X), i(Y)), f(X, Y))).
fof(goal, conjecture,
    ![X, Y]: c(c(X, Y), Y) = e).
