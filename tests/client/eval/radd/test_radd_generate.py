"""RADD with generated replies: the dialogue (history kept, budgets per turn), replies parsed
like the recorded ones (hand-made replies), seeded draws per pair, summaries split by style
and never pooled; the default model end to end through the embedded server is slow."""

from __future__ import annotations

import json

import pytest

from ambit.client.eval.radd import suite as R
from ambit.client.eval.radd import model as RM
from ambit.client.eval.cli import main as eval_main
from ambit.client.generation import Reply
from ambit.generators.radd.prompts import PROMPT_STYLES, parse_choice
from tests.paths import need_shared


class ScriptedClient:
    """Answers Generate with the next scripted reply and records what it was sent."""

    def __init__(self, replies: list[str]):
        self.replies = list(replies)
        self.calls: list[tuple[list, int]] = []

    def generate(self, messages, max_new_tokens=0, **_):
        self.calls.append((list(messages), max_new_tokens))
        text = self.replies.pop(0)
        return Reply(text, "", 10, len(text.split()), "stop", "scripted", True)


def _rows():
    data = need_shared("radd/benchmark")
    return R.load_rows(R.data_files([data / "chatgpt"]))


@pytest.mark.parametrize("style, replies, choice", [
    ("direct", ["Option 2. The current head ..."], 2),
    ("direct", ["I would say option 1"], None),  # the paper's rule is case-sensitive: "neither"
    ("step_by_step5", ["Option 1 says ... so Option 2 fits (P3).", "My final answer is Option 1."], 1),
    ("step_by_step5", ["Let's think.", "Option 2"], 2),
    ("step_by_step5", ["Option 1.", "I cannot tell."], None),
])
def test_dialogue_reads_replies_like_recorded_ones(style, replies, choice):
    client = ScriptedClient(replies)
    turns = ["premises and question"] + PROMPT_STYLES[style][1:]
    got = RM.dialogue_chooser(client, max_new_tokens=300, answer_tokens=20)(turns, style)
    assert got["choice"] == choice and got["replies"] == replies and got["finish"] == ["stop"] * len(replies)
    assert [n for _, n in client.calls] == [300, 20][: len(turns)]
    if style == "step_by_step5":  # the first reply is in the history of the follow-up
        assert client.calls[1][0] == [("user", turns[0]), ("assistant", replies[0]), ("user", turns[1])]


def test_user_turns_direct_are_the_benchmark_s_and_cot_is_rendered():
    row = _rows()[0]
    assert RM.user_turns(row, "direct") == row.raw["messages"]
    cot = RM.user_turns(row, "step_by_step5")
    assert len(cot) == 2 and cot[1] == PROMPT_STYLES["step_by_step5"][1]
    premises = row.raw["messages"][0].rsplit("\n\n", 1)[0]
    assert cot[0] == premises + "\n\n" + PROMPT_STYLES["step_by_step5"][0]


def test_draw_per_pair_is_seeded_and_balanced_over_pairs():
    rows = _rows()
    a, b, c = (RM.draw_per_pair(rows, 4, s) for s in (0, 0, 1))
    assert [r.source for r in a] == [r.source for r in b] and [r.source for r in a] != [r.source for r in c]
    counts = {p: sum(r.pair == p for r in a) for p in {r.pair for r in rows}}
    assert set(counts.values()) == {4} and len(counts) == 5
    with pytest.raises(ValueError, match="--limit-per-pair"):
        RM.draw_per_pair(rows, 0, 0)


def test_styles_and_models_are_never_pooled():
    rows = _rows()[:6]
    recs = [{**R.record(r, r.instance.label_nr), "style": "direct"} for r in rows]
    recs += [{**R.record(r, None), "style": "step_by_step5"} for r in rows]
    s = R.summarise(recs, "model")
    assert s["accuracy"] is None and s["pooled"] is False and s["n"] == 12
    assert s["by_style"]["direct"]["chatgpt"]["accuracy"] == 1.0
    cot = s["by_style"]["step_by_step5"]["chatgpt"]
    assert cot["accuracy"] == 0.0 and cot["neither"] == 6 and cot["both_consistent"] == 0
    md = R.markdown(s)
    assert "## Prompt style `direct`" in md and "## Prompt style `step_by_step5`" in md
    one = R.summarise(recs[:6], "model")
    assert one["accuracy"] == 1.0 and list(one["by_style"]) == ["direct"]


@pytest.mark.slow
@pytest.mark.timeout(3900)
def test_default_model_generates_both_styles(tmp_path):
    data = need_shared("radd/benchmark")
    argv = ["radd", "--solver", "model", "--data", str(data / "chatgpt"), "--limit-per-pair", "1",
            "--style", "direct", "step_by_step5", "--max-new-tokens", "48", "--answer-tokens", "12",
            "--out", str(tmp_path)]
    assert eval_main(argv) == 0
    s = json.loads((tmp_path / "summary.json").read_text())
    assert s["protocol"] == "generate" and s["n"] == 10 and s["limit_per_pair"] == 1
    assert set(s["by_style"]) == {"direct", "step_by_step5"}
    recs = [json.loads(x) for x in (tmp_path / "results.jsonl").read_text().splitlines()]
    for r in recs:
        assert len(r["replies"]) == (1 if r["style"] == "direct" else 2) and all(r["replies"])
        assert r["choice"] == parse_choice(r["style"], r["replies"])
        assert (r["pred"] is None) == (r["choice"] is None)
    assert (tmp_path / "accuracy_by_pair.png").exists() and (tmp_path / "accuracy_by_pair_step_by_step5.png").exists()
