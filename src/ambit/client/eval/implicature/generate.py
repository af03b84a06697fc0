"""Implicature with generated answers (the paper's protocol for its API chat models): the
prompt as a chat turn, a greedy reply, read as the released code read it.

Prompts come from the released ``alignment_prompt_templates.csv``: its three instructions tell
the model to finish the text with yes or no, and each text stops after "which means", where
the yes/no word belongs (the six ranking templates ask nothing of a reply; two of them end in
"which means" with no instruction to answer at all). ``--cot`` appends a request to reason
first and end with "Final answer: yes|no", which the same reading rule finds.

Reading (do-pigs-fly ``src/probe_llm.py``, the completion task): the lower-cased reply after
its last "answer:", else its last 10 characters; the reply is valid when "yes" or "no" occurs
there, and correct when the gold label does (so a span holding both words counts as correct).
"""

from __future__ import annotations

TEMPLATE_FILE = "alignment_prompt_templates.csv"
COT_INSTRUCTION = ("\n\nThink step by step about what the response implies, then end with "
                   "\"Final answer: yes\" or \"Final answer: no\".")
DEFAULT_MAX_NEW_TOKENS = 500  # the released code's max_tokens for every completion
TAIL = 10  # characters read when the reply has no "answer:"
READ_RULE = ("released (do-pigs-fly src/probe_llm.py): the lower-cased reply after its last 'answer:', "
             f"else its last {TAIL} characters; valid when 'yes' or 'no' occurs there; correct when the "
             "gold label occurs there")


def answer_span(reply: str) -> str:
    """The part of a reply the released code reads: after the last "answer:", else the tail."""
    low = reply.lower()
    span = low.split("answer:")[-1]
    return span if "answer:" in low else span[-TAIL:]


def read_reply(reply: str) -> str | None:
    """``yes`` / ``no`` when exactly one of them occurs in the answer span, ``both`` when both
    do, None when neither does (an invalid reply)."""
    span = answer_span(reply)
    found = [w for w in ("yes", "no") if w in span]
    return found[0] if len(found) == 1 else ("both" if found else None)


def turn(item: dict, cot: bool) -> str:
    """The user turn: the prompt up to its answer cue, with the reasoning request for ``--cot``."""
    return item["prefix"] + (COT_INSTRUCTION if cot else "")


def process(client, item: dict, cot: bool, max_new_tokens: int) -> dict:
    """One pair answered by a greedy reply, scored by the released rule."""
    r = client.generate([("user", turn(item, cot))], max_new_tokens=max_new_tokens)
    span = answer_span(r.text)
    answer = read_reply(r.text)
    return {"template": item["template"], "k": item["k"], "label": item["label"],
            "example_id": item.get("example_id"), "protocol": "generate", "cot": cot,
            "reply": r.text, "finish": r.finish_reason, "chat_template": r.chat_template,
            "predicted": answer, "valid": answer is not None, "correct": item["label"] in span}
