"""RADD metrics (pure functions), checked against values computed by hand."""

from __future__ import annotations

import pytest

from ambit.client.eval.radd import metrics as M

# 6 instances: gold de_dicto x3, de_re x3.
GOLD = ["de_dicto", "de_dicto", "de_dicto", "de_re", "de_re", "de_re"]
PRED = ["de_dicto", "de_dicto", "de_re", "de_dicto", "de_re", None]


def test_reading_of_follows_the_paper():
    assert M.reading_of(1, 1, "de_dicto") == "de_dicto"
    assert M.reading_of(2, 1, "de_dicto") == "de_re"
    assert M.reading_of(1, 2, "de_dicto") == "de_re"
    assert M.reading_of(2, 2, "de_re") == "de_re"
    assert M.reading_of(None, 2, "de_re") is None
    assert M.reading_of(3, 2, "de_re") == "de_dicto"  # any other number: the other class (as calc_metrics.py)


def test_accuracy():
    assert M.accuracy(GOLD, PRED) == pytest.approx(3 / 6)
    assert M.accuracy([], []) is None


def test_precision_recall_f1_by_hand():
    # de_dicto: predicted 3 times (2 right), gold 3 -> P 2/3, R 2/3, F1 2/3
    d = M.precision_recall_f1(GOLD, PRED, "de_dicto")
    assert d["precision"] == pytest.approx(2 / 3) and d["recall"] == pytest.approx(2 / 3)
    assert d["f1"] == pytest.approx(2 / 3) and d["support"] == 3
    # de_re: predicted twice (1 right), gold 3 -> P 1/2, R 1/3, F1 = 2*(1/6)/(5/6) = 0.4
    r = M.precision_recall_f1(GOLD, PRED, "de_re")
    assert r["precision"] == pytest.approx(0.5) and r["recall"] == pytest.approx(1 / 3)
    assert r["f1"] == pytest.approx(0.4)


def test_precision_undefined_when_never_predicted():
    d = M.precision_recall_f1(["de_re", "de_dicto"], ["de_re", "de_re"], "de_dicto")
    assert d["precision"] is None and d["recall"] == 0.0 and d["f1"] is None


def test_confusion_in_percent_of_all_instances():
    c = M.confusion_percent(GOLD, PRED)
    assert c["de_dicto"] == pytest.approx({"de_dicto": 200 / 6, "de_re": 100 / 6, "both_consistent": 0.0, "neither": 0.0})
    assert c["de_re"] == pytest.approx({"de_dicto": 100 / 6, "de_re": 100 / 6, "both_consistent": 0.0, "neither": 100 / 6})
    assert sum(v for row in c.values() for v in row.values()) == pytest.approx(100.0)


def test_summarise_and_errors():
    s = M.summarise(GOLD, PRED)
    assert s["n"] == 6 and s["neither"] == 1 and set(s["per_class"]) == {"de_dicto", "de_re"}
    with pytest.raises(ValueError):
        M.accuracy(["de_dicto"], [])
    with pytest.raises(ValueError):
        M.accuracy(["dicto"], ["de_re"])


def test_macro_over_pairs_differs_from_pooled_worked_by_hand():
    # pair A: gold dd dd re re, pred dd dd dd re
    #   de_dicto: tp 2, predicted 3, gold 2 -> P 2/3, R 1,   F1 2*(2/3)*1/(2/3+1) = 0.8
    #   de_re:    tp 1, predicted 1, gold 2 -> P 1,   R 1/2, F1 2*1*(1/2)/(3/2) = 2/3
    # pair B: gold dd re re re, pred dd dd dd None
    #   de_dicto: tp 1, predicted 3, gold 1 -> P 1/3, R 1,   F1 2*(1/3)/(4/3) = 0.5
    #   de_re:    tp 0, predicted 0, gold 3 -> P undefined (0), R 0, F1 undefined (0)
    gold = ["de_dicto", "de_dicto", "de_re", "de_re", "de_dicto", "de_re", "de_re", "de_re"]
    pred = ["de_dicto", "de_dicto", "de_dicto", "de_re", "de_dicto", "de_dicto", "de_dicto", None]
    pairs = ["A"] * 4 + ["B"] * 4
    macro = M.per_class_macro(gold, pred, pairs)
    # mean over the two pairs
    #   de_dicto: P (2/3 + 1/3)/2 = 0.5, R (1 + 1)/2 = 1, F1 (0.8 + 0.5)/2 = 0.65
    #   de_re:    P (1 + 0)/2 = 0.5,     R (1/2 + 0)/2 = 0.25, F1 (2/3 + 0)/2 = 1/3
    assert macro["de_dicto"]["precision"] == pytest.approx(0.5)
    assert macro["de_dicto"]["recall"] == pytest.approx(1.0)
    assert macro["de_dicto"]["f1"] == pytest.approx(0.65)
    assert macro["de_re"]["precision"] == pytest.approx(0.5)
    assert macro["de_re"]["recall"] == pytest.approx(0.25)
    assert macro["de_re"]["f1"] == pytest.approx(1 / 3)
    assert macro["de_re"]["pairs"] == 2
    assert macro["de_re"]["undefined"] == {"precision": 1, "recall": 0, "f1": 1}
    assert macro["de_dicto"]["undefined"] == {"precision": 0, "recall": 0, "f1": 0}
    # pooled over all 8 instances
    #   de_dicto: tp 3, predicted 6, gold 3 -> P 0.5, R 1,   F1 2*0.5/1.5 = 2/3
    #   de_re:    tp 1, predicted 1, gold 5 -> P 1,   R 0.2, F1 2*0.2/1.2 = 1/3
    pooled = {c: M.precision_recall_f1(gold, pred, c) for c in M.CLASSES}
    assert pooled["de_dicto"]["f1"] == pytest.approx(2 / 3)
    assert pooled["de_re"]["precision"] == pytest.approx(1.0)
    assert pooled["de_re"]["recall"] == pytest.approx(0.2)
    assert pooled["de_re"]["f1"] == pytest.approx(1 / 3)


def test_macro_errors_and_empty_input():
    with pytest.raises(ValueError, match="property pairs"):
        M.per_class_macro(["de_dicto"], ["de_re"], [])
    empty = M.per_class_macro([], [], [])
    assert empty["de_re"] == {"precision": None, "recall": None, "f1": None, "pairs": 0,
                              "undefined": {"precision": 0, "recall": 0, "f1": 0}}
