"""The figures say what they show: bars carry value and n, a 0 bar is drawn, a missing cell
reads "no data", overlapping series are kept apart, spread is a 95% Wilson interval inside the
axis, small samples get a strip plot, and the token page prints every p and both P(LF)."""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import pytest
from matplotlib.collections import LineCollection, PathCollection, PolyCollection

from ambit.client.eval.amp import suite as amp
from ambit.client.eval import report as R
from ambit.client.eval import report_common


@pytest.fixture
def drawn(monkeypatch):
    """The figures the plot functions would save, kept open for inspection."""
    figs = []
    monkeypatch.setattr(report_common, "_save", lambda fig, path: figs.append(fig))
    yield figs
    for f in figs:
        plt.close(f)


def _texts(fig) -> list[str]:
    return [t.get_text() for ax in fig.axes for t in ax.texts]


def test_wilson_interval_contains_the_proportion_and_narrows_with_n():
    for k, n in ((0, 2), (1, 2), (2, 2), (7, 12), (50, 100)):
        lo, hi = R.wilson_interval(k, n)
        assert 0 <= lo <= k / n <= hi <= 1
    assert R.wilson_interval(0, 2)[1] > R.wilson_interval(0, 20)[1] > 0
    # the textbook value for 0 of 10 at 95%: upper bound z²/(n+z²)
    assert math.isclose(R.wilson_interval(0, 10)[1], R.Z95 ** 2 / (10 + R.Z95 ** 2))
    with pytest.raises(ValueError, match="n must be positive"):
        R.wilson_interval(0, 0)


def test_zero_bars_are_drawn_and_labelled_and_missing_cells_say_no_data(drawn):
    summary = {"model": "m", "by_type": {
        "pp": {"n": 2, "acc_lf0": 0.0, "acc_lf1": 0.5},
        "scope": {"n": 0, "acc_lf0": None, "acc_lf1": None}}}
    R.plot_zeroshot_accuracy(summary, "unused.png")
    (fig,) = drawn
    texts = _texts(fig)
    assert "0%\nn=2" in texts and "50%\nn=2" in texts and texts.count("no data") == 2
    ax = fig.axes[0]
    zero_lines = [c for c in ax.collections if isinstance(c, LineCollection)]
    assert len(zero_lines) == 1 and all(seg[0][1] == 0 for seg in zero_lines[0].get_segments())
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["LF0", "LF1"]


def test_fewshot_series_at_the_same_value_stay_apart(drawn):
    same = {"acc_lf0_by_ratio": {"0.0": 0.0, "1.0": 0.0}, "p_lf0_mean_by_ratio": {"0.0": 0.5, "1.0": 0.5}}
    R.plot_fewshot_accuracy({"model": "m", "by_type": {t: same for t in amp.TYPES}}, "unused.png")
    ax = drawn[0].axes[0]
    series = [l for l in ax.lines if l.get_label() in amp.TYPES]
    assert len({tuple(l.get_xdata()) for l in series}) == len(amp.TYPES)
    assert len({l.get_marker() for l in series}) == len(amp.TYPES)


def test_implicature_interval_is_wilson_and_inside_the_axis(drawn):
    by_k = {"0": {"mean": 1.0, "std": 0.0, "n": 4, "by_template": {"1": 1.0}},
            "5": {"mean": 0.5, "std": 0.5, "n": 4, "by_template": {"1": 0.0, "2": 1.0}}}
    R.plot_implicature_vs_k({"model": "m", "by_k": by_k}, "unused.png")
    ax = drawn[0].axes[0]
    (band,) = [c for c in ax.collections if isinstance(c, PolyCollection)]
    ys = band.get_paths()[0].vertices[:, 1]
    assert ys.min() >= 0 and ys.max() <= 100
    assert math.isclose(ys.min(), 100 * R.wilson_interval(2, 4)[0], rel_tol=1e-9)
    assert any("Wilson" in t.get_text() for t in ax.get_legend().get_texts())
    assert "100%\nn=4" in _texts(drawn[0])


def test_p_lf0_uses_a_strip_plot_below_the_histogram_threshold(drawn):
    few = [0.1, 0.9]
    many = [i / (R.MIN_HISTOGRAM_ITEMS + 4) for i in range(R.MIN_HISTOGRAM_ITEMS + 4)]
    R.plot_p_lf0_distribution({"pp": few, "scope": many}, "unused.png")
    strip, hist = drawn[0].axes
    assert [len(c.get_offsets()) for c in strip.collections if isinstance(c, PathCollection)] == [2]
    assert not strip.patches and strip.get_title() == "pp (n=2)"
    assert len(hist.patches) == 10 and sum(p.get_height() for p in hist.patches) == len(many)


def test_token_page_prints_every_p_both_lf_probabilities_and_a_legend(tmp_path):
    toks = [{"text": "Ġexists", "prob": 0.25}, {"text": "Ġx", "prob": None}]
    record = {"id": "pp/1", "surface": "Alan saw Mary", "p_lf0": 0.25,
              "predictions": [{"text": "exists x . man(x)"}],
              "tokens_pred": toks, "tokens_lf0": toks, "tokens_lf1": toks}
    path = tmp_path / "fig4.html"
    R.token_confidence_html(amp._token_items([record]), path, "t")
    page = path.read_text()
    assert "LF0 (P=0.250)" in page and "LF1 (P=0.750)" in page
    assert page.count('<span class="p">0.25</span>') == 3 and page.count('<span class="p">—</span>') == 3
    assert 'class="legend"' in page and "nowrap" not in page and "flex-wrap:wrap" in page


def test_fig4_is_the_first_correctly_predicted_lf_per_type_with_its_alternative(tmp_path):
    def rec(i: str, t: str, r0, r1, p0: float, top: str) -> dict:
        return {"id": i, "type": t, "surface": f"s{i}", "p_lf0": p0, "rank_lf0": r0, "rank_lf1": r1,
                "predictions": [{"text": top}], "tokens_pred": [{"text": top, "prob": 0.9}],
                "tokens_lf0": [{"text": "L0", "prob": 0.4}], "tokens_lf1": [{"text": "L1", "prob": 0.6}]}
    records = [rec("pp/1", "pp", None, 2, 0.3, "wrong"), rec("pp/2", "pp", None, 0, 0.2, "lf1-text"),
               rec("pp/3", "pp", 0, None, 0.9, "lf0-text"), rec("scope/1", "scope", 1, None, 0.5, "x")]
    items = amp._fig4_items(records)
    assert [i["id"] for i in items] == ["pp (pp/2)", "scope"]
    pred, alt = items[0]["rows"]
    assert pred["label"] == "predicted, LF1 (beam search): lf1-text" and pred["tokens"][0]["text"] == "lf1-text"
    assert alt["label"] == "alternative, LF0 (forced decode, P=0.200)" and alt["tokens"][0]["text"] == "L0"
    assert items[1]["rows"] == [] and "no item's top prediction is LF0 or LF1 (1 item)" in items[1]["surface"]
    path = tmp_path / "fig4.html"
    R.token_confidence_html(amp._token_items(records), path, "t", fig4=items)
    page = path.read_text()
    assert page.count('class="item fig4"') == 2 and page.count('class="item"') == 4
    assert page.index("Fig. 4: the first correctly predicted LF") < page.index("Items in order")


def test_implicature_labels_stay_inside_the_frame_and_count_examples_in_the_singular(drawn):
    """A 100% point's label goes below the point (inside the frame, not over its top edge), and
    a type with one example says "1 example"."""
    by_k = {"0": {"mean": 1.0, "std": 0.0, "n": 1, "by_template": {"1": 1.0}},
            "5": {"mean": 0.5, "std": 0.5, "n": 1, "by_template": {"1": 0.0, "2": 1.0}}}
    R.plot_implicature_vs_k({"model": "m", "by_k": by_k}, "unused.png")
    ax = drawn[0].axes[0]
    labels = {a.get_text(): a for a in ax.texts if "\nn=" in a.get_text()}
    top, mid = labels["100%\nn=1"], labels["50%\nn=1"]
    assert top.get_va() == "top" and top.xyann[1] < 0  # below its point
    assert mid.get_va() == "bottom" and mid.xyann[1] > 0
    drawn.clear()
    block = {"by_k": {"0": {"mean": 1.0, "std": 0.0, "n": 1}}}
    R.plot_implicature_by_type({"model": "m", "by_type": {"generalised": {**block, "examples": 1},
                                                          "particularised": {**block, "examples": 2},
                                                          "other": {**block, "examples": 1}}}, "unused.png")
    legend = [t.get_text() for t in drawn[0].axes[0].get_legend().get_texts()]
    assert "generalised (1 example)" in legend and "particularised (2 examples)" in legend, legend


@pytest.fixture
def laid_out(monkeypatch):
    """The figures as `_save` lays them out (tight layout, bar labels unclashed), kept open."""
    figs = []

    def save(fig, path):
        fig.tight_layout()
        report_common.unclash_bar_labels(fig)
        figs.append(fig)

    monkeypatch.setattr(report_common, "_save", save)
    yield figs
    for f in figs:
        plt.close(f)


def _boxes(fig, ax, texts):
    renderer = fig.canvas.get_renderer()
    return [t.get_window_extent(renderer) for t in texts if t.get_text()]


def _apart(boxes) -> bool:
    return not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])


def test_value_labels_of_narrow_bars_never_overlap(laid_out):
    """Compare's Fig. 2 with 100% beside 100% (once "100%100%"): the labels turn upright, apart
    from each other and from the legend, inside the axes."""
    from ambit.client.eval.compare import figures as F

    full = {t: {"n": 3, "lf0_canonical": 1.0, "lf0_equivalence": 1.0, "lf1_canonical": 0.0, "lf1_equivalence": 0.0}
            for t in amp.TYPES}
    F.fig2({"fig2": {"a": full, "b": full}}, [], "unused.png")
    R.plot_zeroshot_accuracy({"model": "m", "by_type": {t: {"n": 300, "acc_lf0": 1.0, "acc_lf1": 1.0}
                                                        for t in amp.TYPES}}, "unused.png")
    for fig in laid_out:
        for ax in fig.axes:
            labels = [t for t in ax.texts if t.get_gid() == report_common.BAR_LABEL]
            boxes = _boxes(fig, ax, labels)
            assert len(boxes) >= 10 and _apart(boxes), [t.get_text() for t in labels]
            frame = ax.get_window_extent(fig.canvas.get_renderer())
            assert all(b.y1 <= frame.y1 + 1 for b in boxes)
            legend = ax.get_legend().get_window_extent(fig.canvas.get_renderer())
            assert not any(b.overlaps(legend) for b in boxes)
    assert any(t.get_rotation() == 90 for t in laid_out[0].axes[0].texts)  # turned where they would clash


def test_implicature_point_labels_at_k0_and_k1_stay_apart(laid_out):
    by_k = {str(k): {"mean": m, "std": 0.05, "n": 6, "by_template": {}, "ci95": [max(0, m - 0.2), min(1, m + 0.1)]}
            for k, m in ((0, 0.83), (1, 1.0), (5, 0.9), (10, 0.95), (15, 1.0), (30, 0.7))}
    R.plot_implicature_vs_k({"by_k": by_k, "model": "m", "protocol": "score"}, "unused.png")
    fig = laid_out[0]
    ax = fig.axes[0]
    assert {"83%\nn=6", "100%\nn=6"} <= set(_texts(fig))
    assert _apart(_boxes(fig, ax, ax.texts))
