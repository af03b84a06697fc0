"""Perturbed "translations" of a story's gold formulas, standing in for a model's output where no
model runs: each change has a known relation to the original, so the scorer can be checked.
Renamings (`Dog` → `dog_`, or opaque `P1`) are aligned by names or by matching; `drop_conjunct`
is WEAKER, `add_conjunct` STRONGER (or EQUIVALENT), `converse` and `negate` usually NOT_RELATED.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ambit.logic.syntax.dialect import FOLIO
from ambit import logic
from ambit.logic.syntax.ast import And, Atom, Const, Formula, Implies, Not, Quant

PERTURBATIONS = ("rename_normalised", "rename_opaque", "drop_conjunct", "add_conjunct", "converse", "negate")
STRUCTURAL = PERTURBATIONS[2:]


def _rename(f: Formula, m: dict[str, str]) -> Formula:
    t = type(f)
    if t is Atom:
        return Atom(m.get(f.pred, f.pred), f.args)
    if t is Not:
        return Not(_rename(f.body, m))
    if t is Quant:
        return Quant(f.kind, f.var, _rename(f.body, m))
    if hasattr(f, "children"):
        return t(tuple(_rename(c, m) for c in f.children))
    if hasattr(f, "left") and hasattr(f, "right") and t.__name__ != "Eq":
        return t(_rename(f.left, m), _rename(f.right, m))
    return f


def _body(f: Formula) -> tuple[list[Quant], Formula]:
    qs = []
    while type(f) is Quant:
        qs.append(f)
        f = f.body
    return qs, f


def _wrap(qs: list[Quant], body: Formula) -> Formula:
    for q in reversed(qs):
        body = Quant(q.kind, q.var, body)
    return body


def structural(f: Formula, kind: str, rng: random.Random) -> Formula | None:
    """`f` changed by `kind` (one of STRUCTURAL), or None when that change does not apply."""
    qs, body = _body(f)
    if kind == "drop_conjunct":
        if type(body) is And:
            kids = list(body.children)
            del kids[rng.randrange(len(kids))]
            return _wrap(qs, kids[0] if len(kids) == 1 else And(tuple(kids)))
        if type(body) is Implies and type(body.right) is And:
            kids = list(body.right.children)
            del kids[rng.randrange(len(kids))]
            return _wrap(qs, Implies(body.left, kids[0] if len(kids) == 1 else And(tuple(kids))))
        return None
    if kind == "add_conjunct":
        return And((f, Atom("Extra", (Const("extra"),))))
    if kind == "converse":
        return _wrap(qs, Implies(body.right, body.left)) if type(body) is Implies else None
    if kind == "negate":
        return Not(f)
    raise ValueError(f"unknown perturbation {kind!r}; expected one of {', '.join(STRUCTURAL)}")


def _read(text: str | None) -> Formula | None:
    try:
        return None if text is None else logic.parse(text, FOLIO)
    except logic.LFParseError:
        return None


def perturb(fols: Sequence[str | None], rng: random.Random, rename: str | None = None,
            change_rate: float = 0.3) -> tuple[list[str | None], list[str | None]]:
    """A story's formulas (`folio` texts) with all predicates renamed by `rename`, each changed with
    probability `change_rate`, and the structural change made to each (None: none). A formula
    that is missing or does not parse is passed through as it is."""
    forms = [_read(t) for t in fols]
    preds = sorted({p for f in forms if f is not None for p, _ in logic.predicates(f)}) if rename else []
    if rename == "rename_normalised":
        m = {p: p.lower() + "_" for p in preds}
    elif rename == "rename_opaque":
        m = {p: f"P{i + 1}" for i, p in enumerate(rng.sample(preds, len(preds)))}
    elif rename is None:
        m = {}
    else:
        raise ValueError(f"unknown renaming {rename!r}")
    out, changes = [], []
    for text, f in zip(fols, forms):
        if f is None:
            out.append(text)
            changes.append(None)
            continue
        change = None
        if rng.random() < change_rate:
            for kind in rng.sample(STRUCTURAL, len(STRUCTURAL)):
                g = structural(f, kind, rng)
                if g is not None:
                    f, change = g, kind
                    break
        out.append(logic.render(_rename(f, m), FOLIO))
        changes.append(change)
    return out, changes
