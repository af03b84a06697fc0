"""Implicature with generated answers: hand-made replies read by the released rule (after the
last "answer:", else the last 10 characters), records and summaries counting unreadable
replies, the prompts of the released instruction templates, and the reference lines."""

from __future__ import annotations

import json

import pytest

from ambit.client.eval.implicature import suite as I
from ambit.client.eval.implicature import generate as G
from ambit.client.eval import report as R
from ambit.client.eval.cli import main as eval_main
from ambit.client.generation import Reply
from ambit.client.testing import FakeAmbitServicer, FakeServer
from tests.paths import need_shared


@pytest.mark.parametrize("reply, span, read", [
    ("No.", "no.", "no"),
    ("  yes, he is", "yes, he is", "yes"),
    # no "answer:": only the last 10 characters count
    ("Yes, I think that he is not going to come", "ng to come", None),
    ("He is gentle, so not grumpy. Final answer: no", " no", "no"),
    ("Answer: yes at first sight... but the Answer: No.", " no.", "no"),
    ("It means yes.", "means yes.", "yes"),
    ("I cannot say.", "annot say.", "no"),  # "no" inside "cannot": the released substring rule
    ("answer: yes or no", " yes or no", "both"),
    ("", "", None),
])
def test_replies_are_read_as_the_released_code_read_them(reply, span, read):
    assert G.answer_span(reply) == span
    assert G.read_reply(reply) == read


class Scripted:
    def __init__(self, text: str):
        self.text, self.sent = text, []

    def generate(self, messages, max_new_tokens=0, **_):
        self.sent.append((messages, max_new_tokens))
        return Reply(self.text, "", 5, 3, "stop", "scripted", True)


ITEM = {"template": 1, "k": 0, "label": "no", "example_id": "test-000",
        "prefix": "Finish the text with yes or no.\n\nEsther asked \"Q\" and Juan responded \"R\", which means"}


def test_process_sends_the_prompt_as_a_turn_and_scores_by_the_released_rule():
    c = Scripted(" no, not at all")
    r = G.process(c, ITEM, cot=False, max_new_tokens=500)
    assert c.sent == [([("user", ITEM["prefix"])], 500)]
    assert r["predicted"] == "no" and r["correct"] and r["valid"] and r["reply"] == " no, not at all"
    c = Scripted("Let me think. Final answer: yes")
    r = G.process(c, ITEM, cot=True, max_new_tokens=200)
    assert c.sent[0][0][0][1].endswith(G.COT_INSTRUCTION) and r["predicted"] == "yes" and not r["correct"]
    # both words in the span: valid, and correct for either label, as the released code counts it
    r = G.process(Scripted("answer: yes or no"), ITEM, cot=False, max_new_tokens=8)
    assert r["predicted"] == "both" and r["valid"] and r["correct"]


def test_summary_counts_unparseable_and_carries_the_reference():
    recs = [G.process(Scripted(t), {**ITEM, "label": lab}, False, 8)
            for t, lab in [("yes", "yes"), ("no", "yes"), ("maybe", "no"), ("No", "no")]]
    s = I.summary(recs, "m")
    assert s["by_k"]["0"]["mean"] == 0.5 and s["by_k"]["0"]["unparseable"] == 1
    assert s["reference"]["human"] == 0.862 and s["reference"]["random"] == 0.5
    md = R.implicature_markdown({**s, "protocol": "generate"})
    assert "humans 86.2% (best 92%)" in md and "random 50%" in md and "Ruis et al. (2023)" in md
    assert "unparseable" in md


def test_by_type_groups_records_by_example_type():
    recs = [{"template": t, "k": 0, "label": "yes", "predicted": "yes" if ok else "no", "correct": ok,
             "example_id": ex} for ex, t, ok in [("a", 1, True), ("a", 2, False), ("b", 1, True),
                                                 ("b", 2, True), ("c", 1, False), ("c", 2, False)]]
    s = I.summary(recs, "m", {"a": "generalised", "b": "generalised", "c": "other"})
    g = s["by_type"]["generalised"]
    assert g["examples"] == 2 and g["by_k"]["0"]["by_template"] == {"1": 1.0, "2": 0.5}
    assert g["by_k"]["0"]["mean"] == 0.75 and g["by_k"]["0"]["n"] == 2  # examples
    assert g["by_k"]["0"]["answers"] == 4  # examples × templates
    assert s["by_type"]["other"]["by_k"]["0"]["mean"] == 0.0
    assert s["by_type"]["particularised"] == {"examples": 0, "by_k": {}}
    md = R.implicature_by_type_markdown(s)
    assert "| generalised | 2 | 75.0 ± 25.0 (n=2) |" in md and "| particularised | 0 | n/a |" in md


class Generating(FakeAmbitServicer):
    """The fake server without likelihoods (ScoreCandidates UNIMPLEMENTED) that answers
    Generate with a fixed reply."""

    def ScoreCandidates(self, request, context):
        import grpc
        context.abort(grpc.StatusCode.UNIMPLEMENTED, "no likelihoods here")

    def Generate(self, request, context):
        from ambit.proto.v1 import ambit_pb2 as pb
        return pb.GenerateResponse(request_id=request.request_id, text="The answer: yes", prompt="",
                                   new_tokens=3, finish_reason="stop", model_id=self.model_id,
                                   chat_template=True)


def test_auto_scores_when_likelihoods_exist_and_generates_only_when_they_do_not(tmp_path):
    need_shared("implicature")
    fake = FakeServer()
    try:
        assert eval_main(["implicature", "--out", str(tmp_path / "s"), "--server", fake.address,
                          "--k", "0", "--limit", "2"]) == 0
    finally:
        fake.stop(0)
    key = json.loads((tmp_path / "s" / "run.json").read_text())
    assert key["protocol"] == "score" and key["templates"] == [1, 2, 3, 4, 5, 6]
    s = json.loads((tmp_path / "s" / "summary.json").read_text())
    assert s["protocol"] == "score" and set(s["by_type"]) == {"generalised", "particularised", "other"}
    assert (tmp_path / "s" / "accuracy_by_type.png").stat().st_size > 0

    servicer = Generating()
    fake = FakeServer(servicer)
    try:
        assert eval_main(["implicature", "--out", str(tmp_path / "g"), "--server", fake.address,
                          "--k", "0,1", "--limit", "2"]) == 0
    finally:
        fake.stop(0)
    key = json.loads((tmp_path / "g" / "run.json").read_text())
    assert key["protocol"] == "generate" and key["templates"] == [1, 2, 3]
    assert key["template_file"] == "alignment_prompt_templates.csv" and key["max_new_tokens"] == 500
    assert key["read_rule"] == G.READ_RULE
    records = [json.loads(x) for x in (tmp_path / "g" / "results.jsonl").read_text().splitlines()]
    assert len(records) == 2 * 2 * 3 and all(r["predicted"] == "yes" and r["valid"] for r in records)
    s = json.loads((tmp_path / "g" / "summary.json").read_text())
    gold_yes = sum(r["label"] == "yes" for r in records) / len(records)
    assert s["protocol"] == "generate" and s["by_k"]["0"]["mean"] + s["by_k"]["1"]["mean"] == pytest.approx(
        2 * gold_yes)
    assert "which means %s" not in (tmp_path / "g" / "summary.md").read_text()


def test_generate_templates_number_the_alignment_file(tmp_path, capsys):
    need_shared("implicature")
    fake = FakeServer(Generating())
    try:
        assert eval_main(["implicature", "--out", str(tmp_path), "--server", fake.address, "--k", "0",
                          "--templates", "4", "--limit", "1"]) == 2
    finally:
        fake.stop(0)
    assert "templates of alignment_prompt_templates.csv (1-3), not [4]" in capsys.readouterr().err
