% Problem  : Andrews' challenge (Pelletier 34) with the two halves swapped
% Source   : written for ambit (a hard small problem)
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(goal, conjecture,
    ((?[X]: ![Y]: (q(X) <=> q(Y))) <=> ((?[X]: p(X)) <=> ![Y]: q(Y))) <=> ((?[X]: ![Y]: (p(X) <=> p(Y))) <=> ((?[X]: q(X)) <=> ![Y]: p(Y)))).
