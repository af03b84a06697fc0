"""RADD answer parsers: `strict` on hand-made replies (the issue's two examples among them),
both parsers in one summary with `parsers_differ`, `paper` still the default that reproduces
the paper's tables, and undefined figures printed as n/a."""

from __future__ import annotations

import json

import pytest

from ambit.client.eval.radd import metrics as MR
from ambit.client.eval.radd import suite as R
from ambit.client.eval.radd import model as R_MODEL
from ambit.client.eval.radd import parse as P
from ambit.client.eval.cli import main as eval_main
from tests.paths import need_shared

COT = "step_by_step5"


@pytest.mark.parametrize("style, reply, paper, strict", [
    (COT, "Based on premises 3 and 5, my final answer is Option 2.", 3, 2),
    (COT, "It happened in 2010, so the answer is Option 1.", 2, 1),
    (COT, "It happened in 2010.", 2, None),
    (COT, "Option 1 is ruled out by (P4), so Option 2.", 1, 2),
    (COT, "Option 1 and Option 2 are both consistent.", 1, None),
    (COT, "Option 2 ... so options 1 and 2 both fit.", 2, None),
    ("direct", "Option 3", 3, None),
    ("direct", "FINAL ANSWER: 1", None, 1),
    ("direct", "I believe option 2 is right. Option 1 would need a move.", 1, 2),
    ("direct", "Option 1, Option 2.", 1, None),
    ("direct", "Neither fits.", None, None),
])
def test_strict_reads_explicit_answers_and_calls_the_rest_neither(style, reply, paper, strict):
    replies = [reply] if style == "direct" else ["First I reason ...", reply]
    assert P.choices(style, replies) == {"paper": paper, "strict": strict}


def test_a_choice_that_is_not_1_or_2_is_neither_under_strict_and_the_other_class_under_paper():
    paper, strict = P.choices("direct", ["Option 3"]).values()
    assert MR.reading_of(paper, 1, "de_dicto") == "de_re"
    assert MR.reading_of(strict, 1, "de_dicto") is None


def _records(rows: list[tuple[str, str, int, int | None, int | None]], parser: str) -> list[dict]:
    return [{"id": str(i), "model": "m", "pair": pair, "style": "direct", "label_nr": 1, "label_name": gold,
             "choice": {"paper": p, "strict": s}[parser], "choice_paper": p, "choice_strict": s,
             "answer_parser": parser,
             "pred": MR.reading_of({"paper": p, "strict": s}[parser], 1, gold),
             "correct": MR.reading_of({"paper": p, "strict": s}[parser], 1, gold) == gold}
            for i, (pair, gold, _, p, s) in enumerate(rows)]


def test_summary_reports_both_parsers_and_how_many_readings_differ():
    rows = [("A", "de_dicto", 0, 1, 1), ("A", "de_re", 0, 1, 2), ("B", "de_dicto", 0, 3, None),
            ("B", "de_re", 0, 2, 2)]
    for parser in P.PARSERS:
        s = R.summarise(_records(rows, parser), "model")
        assert s["answer_parser"] == parser and s["parsers_differ"] == 2
        assert s["accuracy"] == s["by_parser"][parser]["direct"]["m"]["accuracy"]
    s = R.summarise(_records(rows, "paper"), "model")
    assert s["by_parser"]["paper"]["direct"]["m"]["accuracy"] == 0.5
    assert s["by_parser"]["strict"]["direct"]["m"]["accuracy"] == 0.25
    assert s["by_parser"]["strict"]["direct"]["m"]["neither"] == 1
    md = R.markdown(s)
    assert "Answers the two parsers read differently: 2" in md and "| strict | direct | m | 25.0 |" in md


def test_undefined_figures_print_na():
    s = R.summarise(_records([("A", "de_dicto", 0, 1, 1)], "paper"), "model")
    md = R.markdown(s)  # de re: never gold, never predicted: precision, recall, F1 undefined
    assert "| m | 1.00 | 1.00 | 1.00 | n/a | n/a | n/a |" in md


def test_recorded_answers_under_both_parsers(tmp_path, capsys):
    data = need_shared("radd/benchmark")
    assert eval_main(["radd", "--solver", "responses", "--data", str(data), "--out", str(tmp_path / "p")]) == 0
    out = capsys.readouterr().out  # three models are never pooled: no accuracy of the whole run
    assert "accuracy=n/a" in out and "accuracy=0.0%" not in out
    assert eval_main(["radd", "--solver", "responses", "--data", str(data), "--out", str(tmp_path / "s"),
                      "--answer-parser", "strict"]) == 0
    paper = json.loads((tmp_path / "p" / "summary.json").read_text())
    strict = json.loads((tmp_path / "s" / "summary.json").read_text())
    assert paper["answer_parser"] == "paper" and strict["answer_parser"] == "strict"
    assert paper["by_parser"] == strict["by_parser"] and paper["parsers_differ"] == strict["parsers_differ"]
    # the default run's figures are the paper parser's; the strict run's are the strict parser's
    for model in ("chatgpt", "koala", "oasst"):
        assert paper["by_model"][model]["accuracy"] == paper["by_parser"]["paper"]["direct"][model]["accuracy"]
        assert strict["by_model"][model]["accuracy"] == strict["by_parser"]["strict"]["direct"][model]["accuracy"]
    # recomputed from the raw rows: how many answers the parsers read as different readings
    rows = R.load_rows(R.data_files([data]))
    differ = 0
    for row in rows:
        inst = row.instance
        paper_choice = R.recorded_choice(row.raw, inst.prompt_style)
        strict_choice = P.strict_choice(inst.prompt_style, R.recorded_replies(row.raw))
        differ += (MR.reading_of(paper_choice, inst.label_nr, inst.label_name)
                   != MR.reading_of(strict_choice, inst.label_nr, inst.label_name))
    assert paper["parsers_differ"] == differ > 0
    assert "answer_parser" not in json.loads((tmp_path / "p" / "run.json").read_text())
    assert json.loads((tmp_path / "s" / "run.json").read_text())["answer_parser"] == "strict"


class PlainGenerating:
    """A fake server whose model has no chat template and answers every turn the same."""

    def __init__(self, text: str):
        from ambit.client.testing import FakeAmbitServicer, FakeServer
        from ambit.proto.v1 import ambit_pb2 as pb

        class Servicer(FakeAmbitServicer):
            def Generate(self, request, context):
                return pb.GenerateResponse(request_id=request.request_id, text=text, prompt="", new_tokens=4,
                                           finish_reason="stop", model_id=self.model_id, chat_template=False)
        self.server = FakeServer(Servicer(model_id="plain"))


def test_generate_without_a_chat_template_says_how_prompts_are_sent(tmp_path, capsys):
    fake = PlainGenerating("Considering premises 3 and 5, my final answer is Option 2.")
    try:
        assert eval_main(["radd", "--solver", "model", "--protocol", "generate", "--source", "generated",
                          "--limit-per-pair", "1", "--style", "step_by_step5", "--answer-parser", "strict",
                          "--server", fake.server.address, "--out", str(tmp_path)]) == 0
    finally:
        fake.server.stop(0)
    assert "no chat template" in capsys.readouterr().err
    key = json.loads((tmp_path / "run.json").read_text())
    s = json.loads((tmp_path / "summary.json").read_text())
    assert key["prompt_format"] == s["prompt_format"] == R_MODEL.PLAIN_TEXT
    assert key["answer_parser"] == s["answer_parser"] == "strict"
    records = [json.loads(x) for x in (tmp_path / "results.jsonl").read_text().splitlines()]
    # the follow-up reply names premises 3 and 5 before its answer: paper reads 3, strict reads 2
    assert all(r["choice_paper"] == 3 and r["choice_strict"] == 2 == r["choice"] for r in records)
    # 3 is not the label (1 or 2): paper reads it as the other class; 2 differs from it where 2 is the label
    assert s["parsers_differ"] == sum(r["label_nr"] == 2 for r in records) > 0
    assert "Prompts sent as plain text" in (tmp_path / "summary.md").read_text()
