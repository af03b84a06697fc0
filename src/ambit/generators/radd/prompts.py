"""The paper's prompt styles (instruction turns, defined with the other wordings in
`logic/radd/phrasings.py`) and how it read a choice out of a reply."""

from __future__ import annotations

import re

from ambit.logic.radd.phrasings import PROMPT_STYLES

__all__ = ["PROMPT_STYLES", "parse_choice"]

_DIRECT = re.compile(r"Option (?P<choice>\d)")
_FOLLOW_UP = re.compile(r"(?i)(?: option)? (?P<choice>\d)")


def parse_choice(style: str, replies: list[str]) -> int | None:
    """The option number a model chose, read as the paper did: the first `Option N` of a direct
    reply, or the first ` N` of a chain of thought's second reply; None (the paper's "neither")."""
    turn, pattern = (0, _DIRECT) if style == "direct" else (1, _FOLLOW_UP)
    m = pattern.search(replies[turn]) if len(replies) > turn else None
    return int(m.group("choice")) if m else None
