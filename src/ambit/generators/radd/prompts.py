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
