% Problem  : pigeonhole as inconsistent axioms: 5 distinct pigeons, each in one of 4 holes, no two in one hole
% Source   : written for ambit (a hard small problem; issue 36: no Prolog stage solved it when it was added)
% Status   : ContradictoryAxioms
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(pigeon1, axiom,
    in(p1, h1) | in(p1, h2) | in(p1, h3) | in(p1, h4)).
fof(pigeon2, axiom,
    in(p2, h1) | in(p2, h2) | in(p2, h3) | in(p2, h4)).
fof(pigeon3, axiom,
    in(p3, h1) | in(p3, h2) | in(p3, h3) | in(p3, h4)).
fof(pigeon4, axiom,
    in(p4, h1) | in(p4, h2) | in(p4, h3) | in(p4, h4)).
fof(pigeon5, axiom,
    in(p5, h1) | in(p5, h2) | in(p5, h3) | in(p5, h4)).
fof(one_per_hole, axiom,
    ![X, Y, H]: ((in(X, H) & in(Y, H)) => X = Y)).
fof(distinct_p1_p2, axiom,
    p1 != p2).
fof(distinct_p1_p3, axiom,
    p1 != p3).
fof(distinct_p1_p4, axiom,
    p1 != p4).
fof(distinct_p1_p5, axiom,
    p1 != p5).
fof(distinct_p2_p3, axiom,
    p2 != p3).
fof(distinct_p2_p4, axiom,
    p2 != p4).
fof(distinct_p2_p5, axiom,
    p2 != p5).
fof(distinct_p3_p4, axiom,
    p3 != p4).
fof(distinct_p3_p5, axiom,
    p3 != p5).
fof(distinct_p4_p5, axiom,
    p4 != p5).
fof(goal, conjecture,
    unreachable).
