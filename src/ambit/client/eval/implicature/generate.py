"""Implicature with generated answers (the paper's protocol for API chat models): the prompt of an
instruction template (``alignment_prompt_templates.csv``, which asks for yes or no) as a chat
turn, the greedy reply read as the released code read it (do-pigs-fly ``src/probe_llm.py``)."""

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
    """``yes`` / ``no`` when one of them occurs in the answer span, ``both``, or None (invalid)."""
    span = answer_span(reply)
    found = [w for w in ("yes", "no") if w in span]
    return found[0] if len(found) == 1 else ("both" if found else None)


def turn(item: dict, cot: bool) -> str:
    """The user turn: the prompt up to its answer cue, with the reasoning request for ``--cot``."""
    return item["prefix"] + (COT_INSTRUCTION if cot else "")


def process(client, item: dict, cot: bool, max_new_tokens: int) -> dict:
    """One pair answered by a greedy reply, scored by the released rule."""
    r = client.generate([("user", turn(item, cot))], max_new_tokens=max_new_tokens)
    return reply_record(item_fields(item), item, r.text, cot, r.finish_reason, r.chat_template)


def item_fields(item: dict) -> dict:
    """The fields every implicature record copies from its item."""
    return {"template": item["template"], "k": item["k"], "label": item["label"],
            "example_id": item.get("example_id")}


def reply_record(base: dict, item: dict, reply: str, cot: bool, finish, chat_template) -> dict:
    """``base`` with a reply and its reading by the released rule."""
    answer = read_reply(reply)
    return {**base, "protocol": "generate", "cot": cot, "reply": reply, "finish": finish,
            "chat_template": chat_template, "predicted": answer, "valid": answer is not None,
            "correct": item["label"] in answer_span(reply)}
