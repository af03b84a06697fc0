"""RADD with this server's language model as the solver.

The model scores the continuations "Option 1" and "Option 2" of the benchmark's direct
prompt (``messages[0]`` plus an answer cue) by forced decoding (ScoreCandidates) and picks
the likelier. Rows, records and tables come from ``client.eval.radd``; this module adds the
choice of rows, the chooser and a per-pair plot.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path

from client.eval import radd
from client.eval import report as R
from client.eval.metrics_radd import CLASSES

OPTIONS = ("Option 1", "Option 2")
ANSWER_CUE = "\n\nAnswer: "


def select_rows(rows: Sequence[radd.Row], limit: int | None) -> list[radd.Row]:
    """Distinct instances of ``rows``, per pair with the two classes interleaved, ``limit`` per
    pair (the prolog and responses solvers' ``--limit`` takes the first N overall)."""
    rows = radd.unique_instances(rows)
    by_pair: dict[str, list] = defaultdict(list)
    for r in rows:
        by_pair[r.pair].append(r)
    out = []
    for i, pair in enumerate(sorted(by_pair)):
        # alternate which class leads, so that even limit 1 per pair covers both classes
        order = CLASSES if i % 2 == 0 else CLASSES[::-1]
        classes = [[r for r in by_pair[pair] if r.instance.label_name == c] for c in order]
        mixed = [r for two in zip(*classes) for r in two]
        mixed += [r for r in by_pair[pair] if r not in mixed]
        out += mixed[:limit] if limit is not None else mixed
    return out


def item_id(row: radd.Row) -> str:
    """The model solver's item id: ``<pair>/<line>``."""
    return f"{row.pair}/{row.source.rsplit(':', 1)[-1]}"


def model_chooser(client) -> Callable[[str], dict]:
    """``choose(prompt) -> {"choice": 1|2, "logprobs": [lp1, lp2]}`` from the server's scores."""
    def choose(prompt: str) -> dict:
        scores = client.score(prompt + ANSWER_CUE, list(OPTIONS)).scores
        lps = [s.sum_logprob for s in scores]
        return {"choice": 1 + max(range(len(lps)), key=lambda i: lps[i]), "logprobs": lps}
    return choose


def plot(s: dict, path: Path, n_by_pair: dict[str, int]) -> None:
    """Accuracy per property pair, each bar labelled with its value and its n items."""
    import matplotlib.pyplot as plt
    pairs = list(s["by_pair"])
    fig, ax = plt.subplots(figsize=(6.5, 3.8))
    bars = R.labelled_bars(ax, range(len(pairs)), [s["by_pair"][p] for p in pairs],
                    [n_by_pair.get(p, 0) for p in pairs], 0.6, "accuracy", "C0")
    chance = ax.axhline(50, ls="--", color="grey", lw=1, label="chance")
    ax.set_xticks(list(range(len(pairs))), pairs, rotation=20, fontsize=7)
    ax.set_ylabel("accuracy (%)")
    ax.set_ylim(0, 115)
    ax.set_yticks(range(0, 101, 20))
    ax.set_title(f"RADD — solver {s['solver']} — {s.get('model', '')}", fontsize=9)
    ax.legend(handles=[bars, chance], fontsize=7, loc="upper right")
    R._save(fig, path)
