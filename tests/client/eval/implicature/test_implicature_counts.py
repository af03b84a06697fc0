"""Implicature's n counts examples, not answers: one example under six templates is n=1, and the
interval is taken over examples (each example's share of templates right), so six answers to one
example do not narrow it as six independent answers would."""

from __future__ import annotations

import pytest
from matplotlib.collections import PolyCollection

from ambit.client.eval.implicature import suite as I
from ambit.client.eval import report as R
from ambit.client.eval import report_common


def _records(answers: dict[str, list[bool]], k: int = 0) -> list[dict]:
    return [{"k": k, "template": t + 1, "example_id": ex, "label": "yes", "predicted": "yes" if ok else "no",
             "correct": ok} for ex, oks in answers.items() for t, ok in enumerate(oks)]


def test_one_example_under_six_templates_is_n_1_with_a_wide_interval():
    (block,) = I.summary(_records({"e1": [True] * 6}), "m")["by_k"].values()
    assert (block["n"], block["answers"], block["mean"]) == (1, 6, 1.0)
    lo, hi = block["ci95"]
    assert (lo, hi) == pytest.approx(R.wilson_interval(1, 1))
    assert lo < R.wilson_interval(6, 6)[0]  # wider than six independent answers would give


def test_interval_is_over_examples_shares():
    # 4 examples: two right under every template, one under half of them, one under none
    recs = _records({"a": [True] * 6, "b": [True] * 6, "c": [True, False] * 3, "d": [False] * 6})
    (block,) = I.summary(recs, "m")["by_k"].values()
    assert (block["n"], block["answers"]) == (4, 24) and block["mean"] == pytest.approx(2.5 / 4)
    assert block["ci95"] == pytest.approx(list(R.wilson_interval(2.5, 4)))
    pooled = R.wilson_interval(15, 24)  # what treating the 24 answers as independent would say
    assert block["ci95"][1] - block["ci95"][0] > pooled[1] - pooled[0]


def test_the_figure_draws_the_interval_over_examples_and_n_examples(monkeypatch):
    figs = []
    monkeypatch.setattr(report_common, "_save", lambda fig, path: figs.append(fig))
    summary = I.summary(_records({"e1": [True] * 6}) + _records({"e1": [True, False] * 3}, k=5), "m")
    R.plot_implicature_vs_k(summary, "unused.png")
    ax = figs[0].axes[0]
    (band,) = [c for c in ax.collections if isinstance(c, PolyCollection)]
    ys = band.get_paths()[0].vertices[:, 1]
    assert ys.min() == pytest.approx(100 * min(b["ci95"][0] for b in summary["by_k"].values()))
    texts = [t.get_text() for t in ax.texts]
    assert "100%\nn=1" in texts and "50%\nn=1" in texts and not any("n=6" in t for t in texts)
    md = R.implicature_markdown(summary)
    assert "| 0 | 1 | 6 |" in md
