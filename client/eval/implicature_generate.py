"""Implicature with generated answers: the prompt as a chat turn, a greedy reply, read as yes
or no (the protocol of the paper's API models); ``--cot`` asks for reasoning first and reads
the final answer. Unreadable replies are counted, and count as wrong.

Reading a direct reply: its first word, lower-cased without punctuation, must be ``yes`` or
``no`` (the same leading-word rule the data's labels follow, ``generators.implicature.data``).
Reading a chain of thought: the word after the last ``answer`` (``Final answer: no``), else
the last standalone ``yes`` or ``no`` in the reply.
"""

from __future__ import annotations

import re

COT_INSTRUCTION = ("\n\nThink step by step about what the response implies, then end with "
                   "\"Final answer: yes\" or \"Final answer: no\".")
DEFAULT_MAX_NEW_TOKENS = 16
DEFAULT_COT_TOKENS = 256

_FIRST = re.compile(r"^\W*(yes|no)\b", re.IGNORECASE)
_ANSWER = re.compile(r"answer\W*(yes|no)\b", re.IGNORECASE)
_WORD = re.compile(r"\b(yes|no)\b", re.IGNORECASE)


def parse_yes_no(reply: str, cot: bool = False) -> str | None:
    """``yes``/``no`` read from a reply, or None when it names neither where it should."""
    if not cot:
        m = _FIRST.match(reply.strip())
        return m.group(1).lower() if m else None
    found = _ANSWER.findall(reply) or _WORD.findall(reply)
    return found[-1].lower() if found else None


def turn(item: dict, cot: bool) -> str:
    """The user turn: the prompt up to its answer cue (``implicature:``), with the reasoning
    instruction appended for ``--cot``."""
    return item["prefix"] + (COT_INSTRUCTION if cot else "")


def process(client, item: dict, cot: bool, max_new_tokens: int) -> dict:
    """One pair answered by a greedy reply."""
    r = client.generate([("user", turn(item, cot))], max_new_tokens=max_new_tokens)
    answer = parse_yes_no(r.text, cot)
    return {"template": item["template"], "k": item["k"], "label": item["label"],
            "example_id": item.get("example_id"), "protocol": "generate", "cot": cot,
            "reply": r.text, "finish": r.finish_reason, "predicted": answer,
            "correct": answer == item["label"]}
