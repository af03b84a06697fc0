"""Two ways to read a RADD reply's answer (``--answer-parser``). ``paper``: the released regexes,
which reproduce Tables 3 and 4 but read "in 2010" as 2 and any other number as the other class.
``strict``: the explicit "Option N" / "FINAL ANSWER: N" that answers (first in a direct reply, last
in the chain-of-thought follow-up); none, two joined, or not 1 or 2 is "neither" (None)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ambit.generators.radd.prompts import parse_choice

PARSERS = ("paper", "strict")
DEFAULT = "paper"
_MENTION = re.compile(r"(?i)\b(?:option\s*|final\s+answer\s*:\s*(?:option\s*)?)(\d+)\b")
_JOINED = re.compile(r"(?i)^\s*,?\s*(?:and|or|nor|&|/)?\s*$")
_PLURAL = re.compile(r"(?i)\boptions\s*\d+\s*(?:,|and|or|&|/)\s*\d+\b")


def strict_choice(style: str, replies: Sequence[str]) -> int | None:
    """1 or 2 from the explicit mention that answers; None ("neither") otherwise."""
    want = 0 if style == "direct" else 1  # the direct reply, or the chain-of-thought follow-up
    text = replies[want] if len(replies) > want else None
    mentions = list(_MENTION.finditer(text)) if text else []
    if not mentions:
        return None
    at = 0 if style == "direct" else len(mentions) - 1
    here = mentions[at]
    if any(_JOINED.match(text[min(m.end(), here.end()):max(m.start(), here.start())])
           for m in mentions[max(at - 1, 0):at] + mentions[at + 1:at + 2]):
        return None  # "Option 1 and Option 2": both named as the answer
    if style != "direct" and any(m.start() > here.start() for m in _PLURAL.finditer(text)):
        return None  # "... Option 2 ... so options 1 and 2": both named last
    choice = int(here.group(1))
    return choice if choice in (1, 2) else None


def choices(style: str, replies: Sequence[str]) -> dict[str, int | None]:
    """{parser: choice} for one dialogue's replies."""
    return {"paper": parse_choice(style, list(replies)), "strict": strict_choice(style, replies)}
