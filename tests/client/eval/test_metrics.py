"""Metric definitions (GUIDE §5) checked against values worked out by hand."""

from __future__ import annotations

import math

import pytest

from ambit.client.eval import metrics as M


def test_accuracy():
    assert M.accuracy([True, False, True, True]) == 0.75
    assert M.accuracy([]) is None
    assert M.accuracy([False, False]) == 0.0


def test_first_rank():
    assert M.first_rank(["a", "b", "a"], "a") == 0
    assert M.first_rank(["a", "b"], "b") == 1
    assert M.first_rank(["a", "b"], "c") is None


def test_zm_k_by_hand():
    # item 1: LF0 at rank 0, LF1 at rank 2; item 2: LF0 at 1, LF1 absent; item 3: both at 3, 4
    ranks = [(0, 2), (1, None), (4, 3)]
    assert M.zm_k(ranks, 1) == 0.0
    assert M.zm_k(ranks, 2) == 0.0
    assert M.zm_k(ranks, 3) == pytest.approx(1 / 3)
    assert M.zm_k(ranks, 4) == pytest.approx(1 / 3)
    assert M.zm_k(ranks, 5) == pytest.approx(2 / 3)


def test_zm_k_no_item_matches_either_lf():
    assert M.zm_k([(None, None), (None, None)], 5) == 0.0
    assert M.zm_k([], 5) is None
    with pytest.raises(ValueError):
        M.zm_k([(0, 1)], 0)


def test_top1_fractions_neither_counts_against():
    assert M.top1_fractions([0, 1, None, 0]) == (0.5, 0.25)


def test_fdm_by_hand():
    # r=0.0: labels [1,1] -> p0=0, p1=1 -> |0-0|+|1-1| = 0
    # r=0.5: labels [0,None] -> p0=.5, p1=0 -> 0 + .5 = .5
    # r=1.0: labels [1,1] -> p0=0, p1=1 -> 1 + 1 = 2
    got = M.fdm({0.0: [1, 1], 0.5: [0, None], 1.0: [1, 1]})
    assert got == pytest.approx((0 + 0.5 + 2) / 3)


def test_fdm_edges_r0_r1():
    assert M.fdm({0.0: [1, 1, 1]}) == 0.0            # perfect at r=0
    assert M.fdm({1.0: [0, 0]}) == 0.0                # perfect at r=1
    assert M.fdm({0.0: [0, 0]}) == 2.0                # worst at r=0
    assert M.fdm({1.0: [None, None]}) == 1.0 + 0.0    # matches neither: |0-1| + |0-0|
    assert M.fdm({0.0: [None]}) == 1.0                # |0-0| + |0-1|
    assert M.fdm({}) is None


def test_fim_by_hand():
    # r=0: ps [0.2, 0.4] -> (0.04 + 0.16)/2 = 0.1 ; r=1: ps [0.5] -> 0.25
    assert M.fim({0.0: [0.2, 0.4], 1.0: [0.5]}) == pytest.approx((0.1 + 0.25) / 2)
    assert M.fim({0.0: [0.0], 1.0: [1.0]}) == 0.0
    assert M.fim({0.0: [1.0], 1.0: [0.0]}) == 1.0
    assert M.fim({}) is None


def test_renormalised_p0():
    assert M.renormalised_p0(0.3, 0.1) == pytest.approx(0.75)
    assert M.renormalised_p0(0.0, 0.0) is None


def test_precision_recall_f1_by_hand():
    gold = [1, 1, 2, 2, 1]
    pred = [1, 2, 2, 1, 1]
    r = M.precision_recall_f1(gold, pred, positive=1)
    # tp=2 fp=1 fn=1
    assert r["precision"] == pytest.approx(2 / 3)
    assert r["recall"] == pytest.approx(2 / 3)
    assert r["f1"] == pytest.approx(2 / 3)
    assert r["support"] == 3
    r2 = M.precision_recall_f1([1, 1], [2, 2], positive=1)
    assert r2["precision"] is None and r2["recall"] == 0.0 and r2["f1"] is None
    r3 = M.precision_recall_f1([2, 2], [1, 1], positive=1)
    assert r3["precision"] == 0.0 and r3["recall"] is None
    with pytest.raises(ValueError):
        M.precision_recall_f1([1], [1, 2], positive=1)


def test_mean_std_population():
    m, s = M.mean_std([0.5, 0.7, 0.6])
    assert m == pytest.approx(0.6)
    assert s == pytest.approx(math.sqrt((0.01 + 0.01 + 0) / 3))
    assert M.mean_std([]) == (None, None)
    assert M.mean_std([None, 1.0]) == (1.0, 0.0)


def test_confusion():
    c = M.confusion([1, 1, 2], [1, None, 1], classes=[1, 2])
    assert c == {"1": {"1": 1, "2": 0, "none": 1}, "2": {"1": 1, "2": 0, "none": 0}}
