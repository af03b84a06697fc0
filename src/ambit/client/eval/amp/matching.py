"""Whether a predicted LF matches a gold LF, as AmP counts it ("logically equivalent formulae with
varying syntax are treated as identical"): ``canonical`` (equal canonical strings) or
``equivalence`` (Prolog says EQUIVALENT); an UNKNOWN verdict is no match, kept to be counted."""

from __future__ import annotations

from collections.abc import Sequence

MATCHES = ("equivalence", "canonical")


def canonical_or_none(text: str, fmt: str) -> str | None:
    """The canonical form of ``text``, or None when it does not parse."""
    from ambit import logic
    try:
        return logic.canonical_form(text, fmt)
    except logic.LFParseError:
        return None


def _verdicts(pairs: Sequence[tuple[str, str]], fmt: str) -> list[str]:
    """Prolog's verdict per pair in one batch; on a parse error each alone (NOT_PARSED if bad)."""
    from ambit import logic
    if not pairs:
        return []
    try:
        return [v.verdict for v in logic.equivalent_batch(list(pairs), fmt)]
    except logic.LFParseError:
        out = []
        for a, b in pairs:
            try:
                out.append(logic.equivalent(a, b, fmt).verdict)
            except logic.LFParseError:
                out.append("NOT_PARSED")
        return out


def match_predictions(preds: Sequence[dict], golds: Sequence[str], fmt: str, match: str) -> list[list[str | None]]:
    """Per gold LF, per prediction: "canonical", a Prolog verdict (equivalence match) or None."""
    if match not in MATCHES:
        raise ValueError(f"unknown match {match!r}; expected one of {MATCHES}")
    table: list[list[str | None]] = [[None] * len(preds) for _ in golds]
    todo: list[tuple[int, int]] = []
    for g, gold in enumerate(golds):
        canon = canonical_or_none(gold, fmt)
        if canon is None:
            raise ValueError(f"gold LF does not parse as {fmt}: {gold!r}")
        for i, p in enumerate(preds):
            if p.get("status") == "OK" and p.get("canonical") == canon:
                table[g][i] = "canonical"
            elif p.get("status") == "OK" and match == "equivalence":
                todo.append((g, i))
    for (g, i), v in zip(todo, _verdicts([(preds[i]["text"], golds[g]) for g, i in todo], fmt)):
        table[g][i] = v
    return table


def first_match(row: Sequence[str | None], match: str) -> int | None:
    """The 0-based rank of the first prediction that matches under ``match``."""
    ok = {"canonical"} if match == "canonical" else {"canonical", "EQUIVALENT"}
    return next((i for i, v in enumerate(row) if v in ok), None)
