% Problem  : a group need not be commutative (function terms)
% Source   : written for ambit (a non-theorem)
% Status   : CounterSatisfiable
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    ![X, Y, Z]: f(f(X, Y), Z) = f(X, f(Y, Z))).
fof(ax2, axiom,
    ![X]: f(e, X) = X).
fof(ax3, axiom,
    ![X]: f(i(X), X) = e).
fof(goal, conjecture,
    ![X, Y]: f(X, Y) = f(Y, X)).
