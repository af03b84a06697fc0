"""From decoded hypotheses to a distribution over meanings: each candidate parsed and
canonicalised, probabilities normalised over the list, and candidates grouped into meaning
classes (same canonical form, then Prolog equivalence between the groups' best members).

The `folio` format is decoded under its own grammar (`logic/grammars/folio_decode.lark`, FOLIO's
symbols spelled in ASCII): a candidate's `text` is what the model wrote, and it is read, compared
and shown (`canonical`: the formula re-rendered in FOLIO's symbols) in FOLIO's spelling."""

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
    """Equivalent candidates: the best member's canonical form, their total probability, and
    (when explained) the canonical form's paraphrase."""

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
    """Candidates with parse status, canonical form and probability, most probable first.

    ``probability`` is the candidate's sequence probability (exp of its summed token
    log-probability) renormalised over the returned candidates, so the list sums to 1. The
    decoder ranks its beams by its own score, which can differ; the response lists them by
    this probability. Ties break by the higher ``min_prob`` (the least likely token), then by
    the decoder's order.
    """
    logps = [float(h.logprob) for h in hyps]
    top = max(logps, default=0.0)
    weights = [math.exp(lp - top) if math.isfinite(lp) else 0.0 for lp in logps]
    total = sum(weights) or 1.0
    d = dialect(fmt)
    out = [_candidate(h, w / total, d) for h, w in zip(hyps, weights)]
    return sorted(out, key=lambda c: (-c.probability, -c.min_prob))  # stable: decoder order last


def _candidate(h: Any, probability: float, d: Dialect) -> Candidate:
    c = Candidate(
        text=h.text, logprob=float(h.logprob), min_prob=float(h.min_prob),
        token_probs=[float(p) for p in h.token_probs], tokens=[token_text(str(t)) for t in h.tokens],
        probability=probability,
    )
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
    """A decoded text as the reader of `fmt` takes it: a `folio` output of the decode grammar in
    FOLIO's symbols (`all x (-A(x))` → `∀x (¬A(x))`); any other text as it is."""
    return dialect(fmt).from_decoded(text)


def _byte_decoder() -> dict[str, int]:
    """GPT-2's byte-level BPE alphabet, read backwards: printable character → the byte it stands for."""
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    chars, extra = {}, 0
    for b in range(256):
        if b in printable:
            chars[chr(b)] = b
        else:
            chars[chr(256 + extra)] = b
            extra += 1
    return chars


_BYTES = _byte_decoder()


def token_text(token: str) -> str:
    """A tokenizer's token as the text it stands for: byte-level BPE markers decoded (``Ġforall``
    → `` forall``, ``Ċ`` → a newline) and SentencePiece's ``▁`` as a space. A token that is not
    whole UTF-8 on its own (part of a character) is kept as the tokenizer wrote it."""
    token = token.replace("▁", " ")
    if all(c in _BYTES for c in token):
        try:
            return bytes(_BYTES[c] for c in token).decode("utf-8")
        except UnicodeDecodeError:
            return token
    return token


Equivalent = Callable[[str, str], str]  # verdict (EQUIVALENT | NOT_EQUIVALENT | UNKNOWN) for two LF texts


def group(out: Distribution, equivalent: Equivalent) -> None:
    """Fill `out`'s classes: same canonical form first, then equivalence between the groups'
    most probable members. UNKNOWN keeps groups apart and clears classes_exact."""
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
