"""From decoded hypotheses to a distribution over meanings: candidates parsed, canonicalised,
normalised and grouped into meaning classes (same canonical form, then Prolog equivalence); a
`folio` candidate's text is the decode grammar's ASCII, read and shown in FOLIO's symbols."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

from ambit import logic
from ambit.logic import LFParseError
from ambit.logic.syntax.dialect import Dialect, dialect
from ambit.logic.explain import Explanation

OK, INVALID, UNFINISHED = "ok", "invalid", "unfinished"  # parse statuses


@dataclass
class Candidate:
    """One decoded LF: the model's figures, its parse status, canonical form and class."""

    text: str
    logprob: float
    min_prob: float
    token_probs: list[float]
    tokens: list[str]
    probability: float  # normalised over the returned candidates
    parse_status: str = OK
    canonical: str = ""  # set when parse_status is OK
    parse_error: LFParseError | None = None
    meaning_class: int = -1  # index into Distribution.classes; -1: in no class


@dataclass(frozen=True)
class MeaningClass:
    """Equivalent candidates: the best member's canonical form, total probability, paraphrase."""

    canonical: str
    probability_mass: float
    member_indices: list[int]
    paraphrase: str = ""


@dataclass
class Distribution:
    """The answer to a parse request, candidates best first, classes by mass."""

    prompt: str
    model_id: str
    candidates: list[Candidate]
    classes: list[MeaningClass] = field(default_factory=list)
    classes_exact: bool = True  # False when an equivalence check was UNKNOWN
    unparsed_mass: float = 0.0
    explanation: Explanation | None = None  # the two heaviest classes explained, when asked


def candidates(hyps: list[Any], fmt: str) -> list[Candidate]:
    """Candidates, most probable first: ``probability`` is exp(summed token log-probability)
    renormalised over the list (not the decoder's); ties by ``min_prob``, then decoder order."""
    logps = [float(h.logprob) for h in hyps]
    top = max(logps, default=0.0)
    weights = [math.exp(lp - top) if math.isfinite(lp) else 0.0 for lp in logps]
    total = sum(weights) or 1.0
    d = dialect(fmt)
    out = [_candidate(h, w / total, d) for h, w in zip(hyps, weights)]
    return sorted(out, key=lambda c: (-c.probability, -c.min_prob))  # stable: decoder order last


def _candidate(h: Any, probability: float, d: Dialect) -> Candidate:
    c = Candidate(h.text, float(h.logprob), float(h.min_prob), [float(p) for p in h.token_probs],
                  [token_text(str(t)) for t in h.tokens], probability)
    finished = getattr(h, "finished", True)
    try:
        f = logic.parse(d.from_decoded(h.text.strip()), d)
    except LFParseError as e:
        c.parse_status = INVALID if finished else UNFINISHED
        c.parse_error = e
        return c
    if finished:
        c.canonical = d.show(f)
    else:
        c.parse_status = UNFINISHED
    return c


def readable(text: str, fmt: "str | Dialect") -> str:
    """A decoded text as the reader of `fmt` reads it (folio: `all x (-A(x))` → `∀x (¬A(x))`)."""
    return dialect(fmt).from_decoded(text)


def _byte_decoder() -> dict[str, int]:
    """GPT-2's byte-level BPE alphabet, read backwards: printable character → the byte it stands for."""
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    others = [b for b in range(256) if b not in printable]
    return {chr(b): b for b in printable} | {chr(256 + i): b for i, b in enumerate(others)}


_BYTES = _byte_decoder()


def token_text(token: str) -> str:
    """A token as its text: byte-level BPE decoded (``Ġforall`` → `` forall``), SentencePiece's
    ``▁`` a space; a token that is not whole UTF-8 (part of a character) is kept as it is."""
    token = token.replace("▁", " ")
    if all(c in _BYTES for c in token):
        try:
            return bytes(_BYTES[c] for c in token).decode("utf-8")
        except UnicodeDecodeError:
            return token
    return token


Equivalent = Callable[[str, str], str]  # verdict (EQUIVALENT | NOT_EQUIVALENT | UNKNOWN) for two LF texts


def group(out: Distribution, equivalent: Equivalent) -> None:
    """Fill `out`'s classes; an UNKNOWN keeps two groups apart and clears classes_exact."""
    cands = out.candidates
    groups: dict[str, list[int]] = {}
    for i, c in enumerate(cands):
        if c.parse_status == OK:
            groups.setdefault(c.canonical, []).append(i)
    exact = True
    classes: list[list[int]] = []
    for members in groups.values():  # insertion order = best candidate first
        for cls in classes:
            verdict = equivalent(cands[cls[0]].text, cands[members[0]].text)
            if verdict == "EQUIVALENT":
                cls.extend(members)
                break
            exact &= verdict == "NOT_EQUIVALENT"
        else:
            classes.append(list(members))
    ranked = sorted(classes, key=lambda m: -sum(cands[i].probability for i in m))
    for k, members in enumerate(ranked):
        members.sort()
        best = max(members, key=lambda i: cands[i].probability)
        out.classes.append(MeaningClass(cands[best].canonical, sum(cands[i].probability for i in members), members))
        for i in members:
            cands[i].meaning_class = k
    out.classes_exact = exact
    out.unparsed_mass = sum(c.probability for c in cands if c.meaning_class < 0)
