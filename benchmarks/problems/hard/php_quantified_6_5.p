% Problem  : pigeonhole over a pigeon predicate: 6 distinct pigeons in 5 holes share one
% Source   : written for ambit (a hard small problem; issue 36: no Prolog stage solved it when it was added)
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(housed, axiom,
    ![P]: (pigeon(P) => (in(P, h1) | in(P, h2) | in(P, h3) | in(P, h4) | in(P, h5)))).
fof(pigeon_p1, axiom,
    pigeon(p1)).
fof(pigeon_p2, axiom,
    pigeon(p2)).
fof(pigeon_p3, axiom,
    pigeon(p3)).
fof(pigeon_p4, axiom,
    pigeon(p4)).
fof(pigeon_p5, axiom,
    pigeon(p5)).
fof(pigeon_p6, axiom,
    pigeon(p6)).
fof(distinct_p1_p2, axiom,
    p1 != p2).
fof(distinct_p1_p3, axiom,
    p1 != p3).
fof(distinct_p1_p4, axiom,
    p1 != p4).
fof(distinct_p1_p5, axiom,
    p1 != p5).
fof(distinct_p1_p6, axiom,
    p1 != p6).
fof(distinct_p2_p3, axiom,
    p2 != p3).
fof(distinct_p2_p4, axiom,
    p2 != p4).
fof(distinct_p2_p5, axiom,
    p2 != p5).
fof(distinct_p2_p6, axiom,
    p2 != p6).
fof(distinct_p3_p4, axiom,
    p3 != p4).
fof(distinct_p3_p5, axiom,
    p3 != p5).
fof(distinct_p3_p6, axiom,
    p3 != p6).
fof(distinct_p4_p5, axiom,
    p4 != p5).
fof(distinct_p4_p6, axiom,
    p4 != p6).
fof(distinct_p5_p6, axiom,
    p5 != p6).
fof(goal, conjecture,
    ?[X, Y, H]: (pigeon(X) & pigeon(Y) & X != Y & in(X, H) & in(Y, H))).
