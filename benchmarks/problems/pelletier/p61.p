% Problem  : Pelletier 61
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 61
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    ![X, Y, Z]: f(X, f(Y, Z)) = f(f(X, Y), Z)).
fof(goal, conjecture,
    ![X, Y, Z, W]: f(X, f(Y, f(Z, W))) = f(f(f(X, Y), Z), W)).
