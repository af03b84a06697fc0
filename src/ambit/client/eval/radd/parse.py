"""Two ways to read a RADD reply's answer (``--answer-parser``).

``paper`` (the default): the released regexes (``generators.radd.prompts.parse_choice``): the
first "Option N" of a direct reply, the first " N" of the chain-of-thought follow-up. It
reproduces the paper's Tables 3 and 4 from the recorded answers, but reads "premises 3 and 5
... Option 2" as 3 and "in 2010" as 2, and a choice that is neither 1 nor 2 then counts as the
other class.

``strict``: an explicit "Option N" or "FINAL ANSWER: N" in the reply that gives the answer. In
the chain-of-thought follow-up ("what is your final answer?") it is the last one; in a direct
reply, which the prompt asks to give the option first and explain after (and whose explanation
often names the other option: "I believe Option 1 ... Option 2 would mean ..."), the first one.
No such mention, a mention coordinated with another ("Option 1 and Option 2", "options 1 or 2"),
or a number other than 1 or 2 is "neither" (None), never the other class.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ambit.generators.radd.prompts import parse_choice

PARSERS = ("paper", "strict")
DEFAULT = "paper"
_MENTION = re.compile(r"(?i)\b(?:option\s*|final\s+answer\s*:\s*(?:option\s*)?)(\d+)\b")
_JOINED = re.compile(r"(?i)^\s*,?\s*(?:and|or|nor|&|/)?\s*$")
_PLURAL = re.compile(r"(?i)\boptions\s*\d+\s*(?:,|and|or|&|/)\s*\d+\b")


def answer_reply(style: str, replies: Sequence[str]) -> str | None:
    """The reply that carries the answer: the direct reply, or the chain-of-thought follow-up."""
    want = 0 if style == "direct" else 1
    return replies[want] if len(replies) > want else None


def strict_choice(style: str, replies: Sequence[str]) -> int | None:
    """1 or 2 from the explicit mention that answers (first in a direct reply, last in the
    chain-of-thought follow-up); None ("neither") otherwise."""
    text = answer_reply(style, replies)
    if not text:
        return None
    mentions = list(_MENTION.finditer(text))
    if not mentions:
        return None
    at = 0 if style == "direct" else len(mentions) - 1
    here = mentions[at]
    neighbours = [m for m in (mentions[at - 1] if at else None,
                              mentions[at + 1] if at + 1 < len(mentions) else None) if m is not None]
    for m in neighbours:  # "Option 1 and Option 2": both named as the answer
        between = text[min(m.end(), here.end()):max(m.start(), here.start())]
        if _JOINED.match(between):
            return None
    if style != "direct" and any(m.start() > here.start() for m in _PLURAL.finditer(text)):
        return None  # "... Option 2 ... so options 1 and 2": both named last
    choice = int(here.group(1))
    return choice if choice in (1, 2) else None


def paper_choice(style: str, replies: Sequence[str]) -> int | None:
    """The released regexes' reading (see the module docstring)."""
    return parse_choice(style, list(replies))


def choices(style: str, replies: Sequence[str]) -> dict[str, int | None]:
    """{parser: choice} for one dialogue's replies."""
    return {"paper": paper_choice(style, replies), "strict": strict_choice(style, replies)}
