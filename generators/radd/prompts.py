"""The paper's prompt styles (instruction turns) and how it read a choice out of a reply."""

from __future__ import annotations

import re

# Each style: the instruction appended to the question, then any follow-up user turns.
PROMPT_STYLES: dict[str, list[str]] = {
    "direct": ['Answer only with "Option 1" or "Option 2", explain your decision after.'],
    "step_by_step5": [
        "When answering, let's consider both options, and think step by step.\n"
        "DO NOT repeat the premises, only refer to their number.",
        'Based on this, what is your final answer, "Option 1" or "Option 2"?',
    ],
}

_DIRECT = re.compile(r"Option (?P<choice>\d)")
_FOLLOW_UP = re.compile(r"(?i)(?: option)? (?P<choice>\d)")


def parse_choice(style: str, replies: list[str]) -> int | None:
    """The option number a model chose, read as the paper did: the first `Option N` of a direct
    reply; for chain-of-thought, the first ` N` (optionally ` Option N`) of the second reply.
    None when nothing matches (the paper's "neither")."""
    if style == "direct":
        if not replies:
            return None
        m = _DIRECT.search(replies[0])
    else:
        if len(replies) < 2:
            return None
        m = _FOLLOW_UP.search(replies[1])
    return int(m.group("choice")) if m else None
