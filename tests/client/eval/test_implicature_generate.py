"""Implicature with generated answers: hand-made replies read as yes/no (direct and chain of
thought), records and summaries counting unreadable replies, and the reference lines."""

from __future__ import annotations

import pytest

from client.eval import implicature as I
from client.eval import implicature_generate as G
from client.eval import report as R
from client.generation import Reply


@pytest.mark.parametrize("reply, cot, want", [
    ("No.", False, "no"), ("  yes, he is", False, "yes"), ("\nYes", False, "yes"),
    ("Nobody knows", False, None), ("I think yes", False, None), ("", False, None),
    ("He is gentle, so not grumpy. Final answer: no", True, "no"),
    ("Yes at first sight... but the answer is: No.", True, "no"),
    ("It means yes.", True, "yes"), ("I cannot say.", True, None),
])
def test_replies_are_read_as_yes_or_no(reply, cot, want):
    assert G.parse_yes_no(reply, cot) == want


class Scripted:
    def __init__(self, text: str):
        self.text, self.sent = text, []

    def generate(self, messages, max_new_tokens=0, **_):
        self.sent.append((messages, max_new_tokens))
        return Reply(self.text, "", 5, 3, "stop", "scripted", True)


ITEM = {"template": 1, "k": 0, "label": "no", "example_id": "test-000",
        "prefix": "Does the following response imply yes or no?\n\nquestion: Q\nresponse: R\nimplicature:"}


def test_process_sends_the_prompt_as_a_turn_and_reads_the_reply():
    c = Scripted(" no, not at all")
    r = G.process(c, ITEM, cot=False, max_new_tokens=16)
    assert c.sent == [([("user", ITEM["prefix"])], 16)]
    assert r["predicted"] == "no" and r["correct"] and r["reply"] == " no, not at all"
    c = Scripted("Let me think. Final answer: yes")
    r = G.process(c, ITEM, cot=True, max_new_tokens=200)
    assert c.sent[0][0][0][1].endswith(G.COT_INSTRUCTION) and r["predicted"] == "yes" and not r["correct"]


def test_summary_counts_unparseable_and_carries_the_reference():
    recs = [G.process(Scripted(t), {**ITEM, "label": lab}, False, 8)
            for t, lab in [("yes", "yes"), ("no", "yes"), ("maybe", "no"), ("No", "no")]]
    s = I.summary(recs, "m")
    assert s["by_k"]["0"]["mean"] == 0.5 and s["by_k"]["0"]["unparseable"] == 1
    assert s["reference"]["human"] == 0.862 and s["reference"]["random"] == 0.5
    md = R.implicature_markdown({**s, "protocol": "generate"})
    assert "humans 86.2% (best 92%)" in md and "random 50%" in md and "Ruis et al. (2023)" in md
    assert "unparseable" in md
