"""FOLIO reports say what they counted: examples (not "stories") where examples are counted, the
examples left out of a figure, readable decoding options without a temperature that beam search
does not use, bar labels whose n is the value's own denominator, and no "n/a%"."""

from __future__ import annotations

import json
from pathlib import Path

from ambit.client.eval import cli
from ambit.client.eval.folio import report as FR
from ambit.client.eval import report as R
from ambit.generators.folio import stories


from tests.helpers.folio import run_rows as _run  # noqa: E402


def test_examples_are_called_examples_and_stories_are_counted_apart(tmp_path):
    rows = stories(5, seed=1)  # 5 examples of 2 stories (three conclusions per story)
    s, out = _run(tmp_path, rows, "--audit-gold")
    assert s["examples"] == s["stories"] == 5 and s["story_count"] == len({r["story_id"] for r in rows}) == 2
    md = (out / "summary.md").read_text()
    assert "5 examples from 2 stories" in md and "5 stories" not in md
    assert "of 5 examples" in md and "n/a%" not in md
    assert "examples" in FR.headline(s) and "stories" not in FR.headline(s)


def test_left_out_examples_are_said_and_the_figure_counts_the_denominator(tmp_path, monkeypatch):
    rows = stories(6, seed=2)
    for r in rows[:2]:
        del r["conclusion-FOL"]  # no conclusion formula: the oracle cannot label these two
    s, out = _run(tmp_path, rows, "--oracle-translations")
    assert s["left_out"] == {"examples": 2, "samples": 2, "why": {"missing_translation": 2}}
    assert s["labelled_samples"] == s["voted_examples"] == 4
    md = (out / "summary.md").read_text()
    assert "Left out of the label figures: 2 of 6 examples" in md
    seen = []
    monkeypatch.setattr(R, "labelled_bars", lambda ax, xs, fr, ns, *a: seen.append(list(ns)) or R.Patch())
    FR.plot(s, tmp_path / "f.png")
    assert seen[0] == [4, 4, s["audit"]["label_checked"]] == [4, 4, 4]


def test_nothing_counted_reads_n_a_and_the_figure_still_draws(tmp_path):
    rows = stories(3, seed=3)
    for r in rows:
        del r["conclusion-FOL"]
    s, out = _run(tmp_path, rows, "--oracle-translations")
    md = (out / "summary.md").read_text()
    assert "n/a%" not in md and "| n/a (n=0 samples) |" in md
    assert "no example has a conclusion formula" in md
    assert (out / "folio.png").stat().st_size > 0


def test_decoding_options_in_words():
    beam = FR.decoding_text({"samples": 1, "beam": 4, "temperature": 0.7, "max_tokens": 160, "seed": 0})
    assert beam == "beam search, beam width 4; at most 160 tokens per formula; seed 0"
    assert "temperature" not in beam
    sampled = FR.decoding_text({"samples": 5, "beam": 1, "temperature": 0.7, "max_tokens": 160, "seed": 3})
    assert sampled.startswith("5 samples at temperature 0.7") and "beam" not in sampled
    md = FR.markdown({**FR.summary([], "translate"), "split": "x", "model": "m", "shots": 2, "demo_split": "train",
                      "decoding": {"samples": 1, "beam": 1, "temperature": 0.7, "max_tokens": 9, "seed": 0}})
    assert "Decoding: beam search, beam width 1" in md and "{" not in md.split("Decoding:")[1].splitlines()[0]
