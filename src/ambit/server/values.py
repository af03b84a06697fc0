"""The engine's value types and text helpers that the remote backends share; no torch here, so a
server fronting a remote model runs without `ambit-semantics[local]`."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field


@dataclass
class CandidateScore:
    text: str
    tokens: list[str]
    token_ids: list[int]
    token_probs: list[float]
    min_prob: float
    min_prob_renorm: float
    sum_logprob: float
    mean_logprob: float
    end_logprob: float | None = None
    token_logprobs: list[float] = field(default_factory=list)


def renormalise(scores: list[CandidateScore]) -> None:
    """Set `min_prob_renorm`: each `min_prob` over their sum (AmP's P(LF0) vs P(LF1))."""
    total = sum(s.min_prob for s in scores)
    for s in scores:
        s.min_prob_renorm = s.min_prob / total if total > 0 else 1.0 / len(scores)


@dataclass(frozen=True)
class ChatTurn:
    role: str  # system | user | assistant
    content: str


@dataclass(frozen=True)
class Generation:
    """One reply and the prompt the model saw; `finish_reason`: `stop` (end token) or `length`."""

    text: str
    prompt: str
    chat_template: bool
    prompt_tokens: int
    new_tokens: int
    finish_reason: str
    seconds: float


def split_lead(prompt: str) -> tuple[str, str]:
    """(prompt without its trailing spaces, the text forced in front of the LF)."""
    core = prompt.rstrip(" ")
    return core, prompt[len(core):] or (" " if core.endswith(":") else "")


def grammar_with_lead(text: str, lead: str) -> str:
    """The grammar `text` with `lead` forced in front of its single-line `start:` rule."""
    if not lead:
        return text
    new, n = re.subn(r"^start:[ \t]*(.+)$", lambda m: f"start: {json.dumps(lead)} ( {m.group(1)} )", text,
                     count=1, flags=re.M)
    if n != 1:
        raise ValueError("grammar has no single-line `start:` rule to put the lead in front of")
    return new
