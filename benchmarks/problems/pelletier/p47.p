% Problem  : Pelletier 47
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 47
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    ![X]: (wolf(X) => animal(X))).
fof(ax2, axiom,
    ?[X]: wolf(X)).
fof(ax3, axiom,
    ![X]: (fox(X) => animal(X))).
fof(ax4, axiom,
    ?[X]: fox(X)).
fof(ax5, axiom,
    ![X]: (bird(X) => animal(X))).
fof(ax6, axiom,
    ?[X]: bird(X)).
fof(ax7, axiom,
    ![X]: (caterpillar(X) => animal(X))).
fof(ax8, axiom,
    ?[X]: caterpillar(X)).
fof(ax9, axiom,
    ![X]: (snail(X) => animal(X))).
fof(ax10, axiom,
    ?[X]: snail(X)).
fof(ax11, axiom,
    ![X]: (grain(X) => plant(X))).
fof(ax12, axiom,
    ?[X]: grain(X)).
fof(ax13, axiom,
    ![X]: (animal(X) => ((![Y]: (plant(Y) => eats(X, Y))) | ![Y]: ((animal(Y) & smaller(Y, X) & ?[Z]: (plant(Z) & eats(Y, Z))) => eats(X, Y))))).
fof(ax14, axiom,
    ![X, Y]: ((caterpillar(X) & bird(Y)) => smaller(X, Y))).
fof(ax15, axiom,
    ![X, Y]: ((snail(X) & bird(Y)) => smaller(X, Y))).
fof(ax16, axiom,
    ![X, Y]: ((bird(X) & fox(Y)) => smaller(X, Y))).
fof(ax17, axiom,
    ![X, Y]: ((fox(X) & wolf(Y)) => smaller(X, Y))).
fof(ax18, axiom,
    ![X, Y]: ((wolf(X) & fox(Y)) => ~eats(X, Y))).
fof(ax19, axiom,
    ![X, Y]: ((wolf(X) & grain(Y)) => ~eats(X, Y))).
fof(ax20, axiom,
    ![X, Y]: ((bird(X) & caterpillar(Y)) => eats(X, Y))).
fof(ax21, axiom,
    ![X, Y]: ((bird(X) & snail(Y)) => ~eats(X, Y))).
fof(ax22, axiom,
    ![X]: (caterpillar(X) => ?[Y]: (plant(Y) & eats(X, Y)))).
fof(ax23, axiom,
    ![X]: (snail(X) => ?[Y]: (plant(Y) & eats(X, Y)))).
fof(goal, conjecture,
    ?[X, Y]: (animal(X) & animal(Y) & ?[Z]: (grain(Z) & eats(Y, Z) & eats(X, Y)))).
