"""RADD with this server's model as the solver: ``generate`` (the paper's protocol for dialogue
models: greedy chat replies, read like the recorded ones; plain text without a chat template) or
``score`` (base models: the likelihoods of "Option 1" and "Option 2" after the prompt)."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path

from ambit.client.eval.radd import suite as radd
from ambit.client.eval import report_common as R
from ambit.client.eval.radd.metrics import CLASSES
from ambit.client.eval.radd.parse import strict_choice
from ambit.generators.radd.prompts import PROMPT_STYLES, parse_choice
from ambit.generators.radd.render import render_messages
from ambit.generators.radd.wikidata import pair_label

OPTIONS = ("Option 1", "Option 2")
ANSWER_CUE = "\n\nAnswer: "
PROTOCOLS = ("auto", "generate", "score")
STYLES = tuple(PROMPT_STYLES)
# the first turn gets room for a chain of thought; the follow-up only has to name an option
DEFAULT_MAX_NEW_TOKENS = 512
DEFAULT_ANSWER_TOKENS = 64


def select_rows(rows: Sequence[radd.Row], limit: int | None) -> list[radd.Row]:
    """Distinct instances of ``rows``, ``limit`` per pair with the two classes interleaved."""
    by_pair: dict[str, list] = defaultdict(list)
    for r in radd.unique_instances(rows):
        by_pair[r.pair].append(r)
    out = []
    for i, pair in enumerate(sorted(by_pair)):
        # alternate which class leads, so that even limit 1 per pair covers both classes
        order = CLASSES if i % 2 == 0 else CLASSES[::-1]
        classes = [[r for r in by_pair[pair] if r.instance.label_name == c] for c in order]
        mixed = [r for two in zip(*classes) for r in two]
        mixed += [r for r in by_pair[pair] if r not in mixed]
        out += mixed[:limit]
    return out


def draw_per_pair(rows: Sequence[radd.Row], n: int, seed: int) -> list[radd.Row]:
    """``n`` distinct instances drawn per property pair, in the data's order (seeded by ``seed`` and
    the pair's name, so adding a pair changes no other pair's draw)."""
    if n < 1:
        raise ValueError(f"--limit-per-pair must be at least 1, not {n}")
    rows = radd.unique_instances(rows)
    by_pair: dict[str, list[int]] = defaultdict(list)
    for i, r in enumerate(rows):
        by_pair[r.pair].append(i)
    keep = {i for pair, idx in by_pair.items()
            for i in random.Random(f"{seed}:{pair}").sample(idx, min(n, len(idx)))}
    return [r for i, r in enumerate(rows) if i in keep]


def item_id(row: radd.Row, style: str | None = None) -> str:
    """The model solver's item id: ``<pair>/<line>``, prefixed by ``<style>/`` when given."""
    base = f"{row.pair}/{row.source.rsplit(':', 1)[-1]}"
    return f"{style}/{base}" if style else base


def user_turns(row: radd.Row, style: str) -> list[str]:
    """The user turns of ``style``: the row's own text if recorded in that style, else rendered."""
    if row.raw.get("prompt_style", row.instance.prompt_style) == style and len(row.raw["messages"]) == len(
            PROMPT_STYLES[style]):
        return list(row.raw["messages"])
    return render_messages(row.instance, style)


def model_chooser(client) -> Callable[[str], dict]:
    """``choose(prompt) -> {"choice": 1|2, "logprobs": [lp1, lp2]}`` from the server's scores."""
    def choose(prompt: str) -> dict:
        scores = client.score(prompt + ANSWER_CUE, list(OPTIONS)).scores
        lps = [s.sum_logprob for s in scores]
        return {"choice": 1 + max(range(len(lps)), key=lambda i: lps[i]), "logprobs": lps}
    return choose


def dialogue_chooser(client, max_new_tokens: int = DEFAULT_MAX_NEW_TOKENS,
                     answer_tokens: int = DEFAULT_ANSWER_TOKENS) -> Callable[[list[str], str], dict]:
    """``choose(user_turns, style) -> {"choice", "replies", ...}``: greedy replies to each turn in
    turn, kept in the history; the choice read as the paper read recorded ones (None: "neither")."""
    def choose(turns: list[str], style: str) -> dict:
        history: list[tuple[str, str]] = []
        replies, finish, tokens = [], [], []
        for i, turn in enumerate(turns):
            history.append(("user", turn))
            r = client.generate(history, max_new_tokens=max_new_tokens if i == 0 else answer_tokens)
            history.append(("assistant", r.text))
            replies.append(r.text)
            finish.append(r.finish_reason)
            tokens.append(r.new_tokens)
        return {"choice": parse_choice(style, replies), "choice_strict": strict_choice(style, replies),
                "replies": replies, "finish": finish, "new_tokens": tokens, "chat_template": r.chat_template}
    return choose


PLAIN_TEXT = "plain text: the turns (and earlier replies) joined by blank lines, no chat template"
CHAT_TEMPLATE = "the model's chat template"


def has_chat_template(client) -> bool:
    """Whether the model has a chat template (embedded: its tokenizer's; else a 1-token reply)."""
    from ambit.client.connect import known_facts
    if (facts := known_facts(client)) is not None:
        return facts.chat_template
    return client.generate([("user", "Hi")], max_new_tokens=1).chat_template


def prompt_format(records: Sequence[dict]) -> str:
    """How the generate protocol's prompts were sent, from the records' ``chat_template``."""
    seen = {r.get("chat_template") for r in records}
    if seen == {True}:
        return CHAT_TEMPLATE
    if seen == {False}:
        return PLAIN_TEXT
    return "unknown" if seen <= {None} else "mixed"


def resolve_protocol(client, protocol: str) -> str:
    """``auto``: ``generate`` with a chat template, else (or without Generate) ``score``."""
    from ambit.client.api import AmbitError
    if protocol != "auto":
        return protocol
    try:
        return "generate" if has_chat_template(client) else "score"
    except AmbitError as e:
        if e.code == "UNIMPLEMENTED":
            return "score"
        raise


def tick_label(pair: str, width: int = 20) -> str:
    """A pair's x tick: its ids, then each property's name, wrapped to `width` characters."""
    import textwrap

    first, _, second = pair_label(pair).partition(" / ")
    lines = textwrap.wrap(first, width) or [""]
    lines[-1] += " /"  # the separator stays on the first name's last line, never on one of its own
    return "\n".join([pair.replace("_", " / "), *lines, textwrap.fill(second, width)])


def plot(s: dict, path: Path, n_by_pair: dict[str, int]) -> None:
    """Accuracy per property pair, each bar labelled with its value and its n items."""
    import matplotlib.pyplot as plt
    pairs = list(s["by_pair"])
    fig, ax = plt.subplots(figsize=(max(6.5, 1.5 * len(pairs)), 4.8))
    bars = R.labelled_bars(ax, range(len(pairs)), [s["by_pair"][p] for p in pairs],
                    [n_by_pair.get(p, 0) for p in pairs], 0.6, "accuracy", "C0")
    chance = ax.axhline(50, ls="--", color="grey", lw=1, label="chance")
    # ids, then each property's name on lines of its own (angled labels overlapped once long)
    ax.set_xticks(list(range(len(pairs))), [tick_label(p) for p in pairs], fontsize=6)
    ax.set_ylabel("accuracy (%)")
    ax.set_ylim(0, 115)
    ax.set_yticks(range(0, 101, 20))
    protocol = f", protocol {s['protocol']}" if s.get("protocol") else ""
    ax.set_title(f"RADD — solver {s['solver']}{protocol} — {s.get('model', '')}", fontsize=9)
    ax.legend(handles=[bars, chance], fontsize=7, loc="upper right")
    R._save(fig, path)
