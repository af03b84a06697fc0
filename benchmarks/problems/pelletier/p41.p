% Problem  : Pelletier 41
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 41
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    ![Z]: ?[Y]: ![X]: (f(X, Y) <=> (f(X, Z) & ~f(X, X)))).
fof(goal, conjecture,
    ~?[Z]: ![X]: f(X, Z)).
