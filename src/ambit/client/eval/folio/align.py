"""Aligning a translation's names with the gold formulas' names, story by story, before the
prover compares them (`DrinksCoffee(x)` for FOLIO's `Drinks(x)` can still be EQUIVALENT).
Deterministic, one-to-one, in three steps (docs/folio.md): **exact**, **normalised** (one
candidate), **matched** (greedy by votes from sentences of the same shape).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from ambit.logic.syntax.ast import And, Atom, Const, Eq, Formula, Iff, Implies, Not, Or, Quant, Var, Xor

Kind = tuple[str, int]  # ("const", 0) or ("pred", arity)
Name = tuple[Kind, str]


@dataclass(frozen=True)
class Alignment:
    """Translation name → gold name, and the step that decided each name."""

    mapping: dict[Name, str]
    steps: dict[Name, str]  # exact | normalised | matched | unmatched

    def counts(self) -> dict[str, int]:
        """How many names each step decided."""
        out = {"exact": 0, "normalised": 0, "matched": 0, "unmatched": 0}
        for s in self.steps.values():
            out[s] += 1
        return out

    def to_dict(self) -> dict:
        """JSON: renamed names only (`pred/arity` or `const`), and the counts per step."""
        renamed = {_label(n): g for n, g in sorted(self.mapping.items()) if g != n[1]}
        return {"renamed": renamed, "steps": self.counts()}


def _label(n: Name) -> str:
    (kind, arity), name = n
    return f"{name}/{arity}" if kind == "pred" else name


def normalised(name: str) -> str:
    """A name case folded, letters and digits only (`drink_coffee` ~ `DrinkCoffee`)."""
    return re.sub(r"[^0-9a-z]", "", name.casefold())


def _walk(f: Formula, bound: tuple[str, ...], names: list[Name]) -> tuple:
    """The shape of `f` with names erased (variables as binder depth); the names go to `names`."""
    t = type(f)
    if t is Atom:
        names.append((("pred", len(f.args)), f.pred))
        return ("atom", len(f.args), tuple(_term(a, bound, names) for a in f.args))
    if t is Eq:
        return ("eq", _term(f.left, bound, names), _term(f.right, bound, names))
    if t is Not:
        return ("not", _walk(f.body, bound, names))
    if t in (And, Or):
        return (t.__name__, tuple(_walk(c, bound, names) for c in f.children))
    if t in (Implies, Iff, Xor):
        return (t.__name__, _walk(f.left, bound, names), _walk(f.right, bound, names))
    if t is Quant:
        return (f.kind, _walk(f.body, (*bound, f.var), names))
    return ("other", repr(f))


def _term(a, bound: tuple[str, ...], names: list[Name]) -> tuple:
    if type(a) is Var and a.name in bound:
        return ("v", len(bound) - 1 - bound[::-1].index(a.name))
    if type(a) in (Var, Const):
        names.append((("const", 0), a.name))
        return ("c",)
    return ("other", repr(a))


def names_of(f: Formula) -> list[Name]:
    """The names `f` uses, in order."""
    return shape(f)[1]


def shape(f: Formula) -> tuple[tuple, list[Name]]:
    """`f` with names erased, and its names in order."""
    out: list[Name] = []
    return _walk(f, (), out), out


def align(translations: Sequence[Formula | None], golds: Sequence[Formula | None]) -> Alignment:
    """The alignment of a story's translated formulas with its gold ones (paired by index)."""
    t_names = {n for f in translations if f is not None for n in names_of(f)}
    g_names = {n for f in golds if f is not None for n in names_of(f)}
    mapping: dict[Name, str] = {}
    steps: dict[Name, str] = {}
    taken: set[Name] = set()
    for n in sorted(t_names):
        if n in g_names:
            mapping[n], steps[n] = n[1], "exact"
            taken.add(n)
    free_g = sorted(g_names - taken)
    for n in sorted(t_names - set(mapping)):
        hits = [g for g in free_g if g[0] == n[0] and normalised(g[1]) == normalised(n[1]) and g not in taken]
        if len(hits) == 1:
            mapping[n], steps[n] = hits[0][1], "normalised"
            taken.add(hits[0])
    votes = _votes(translations, golds, set(mapping), taken)
    for (tn, gn), _ in sorted(votes.items(), key=lambda kv: (-kv[1], kv[0])):
        if tn not in mapping and gn not in taken:
            mapping[tn], steps[tn] = gn[1], "matched"
            taken.add(gn)
    used = {n[1] for n in g_names} | {n[1] for n in t_names}
    for n in sorted(t_names - set(mapping)):
        mapping[n], steps[n] = _unclashed(n, g_names, used), "unmatched"
    return Alignment(mapping, steps)


def _unclashed(n: Name, g_names: set[Name], used: set[str]) -> str:
    """An unmatched name as it is, or a fresh `Name_<arity>` if the gold has another arity."""
    (kind, arity), name = n
    if kind != "pred" or not any(g[1] == name and g[0][0] == "pred" and g[0][1] != arity for g in g_names):
        return name
    fresh = f"{name}_{arity}"
    while fresh in used:
        fresh += "_"
    used.add(fresh)
    return fresh


def _votes(translations, golds, done: set[Name], taken: set[Name]) -> dict[tuple[Name, Name], float]:
    """Votes per free (translation, gold) name pair: one per occurrence at the same position of
    sentences of the same shape; else 1/(n·m) for every pair of one kind in the sentence."""
    votes: dict[tuple[Name, Name], float] = defaultdict(float)
    for t, g in zip(translations, golds):
        if t is None or g is None:
            continue
        (ts, tn), (gs, gn) = shape(t), shape(g)
        if ts == gs:
            for a, b in zip(tn, gn):
                if a not in done and b not in taken and a[0] == b[0]:
                    votes[(a, b)] += 1.0
            continue
        by_kind: dict[Kind, tuple[list, list]] = defaultdict(lambda: ([], []))
        for a in sorted({a for a in tn if a not in done}):
            by_kind[a[0]][0].append(a)
        for b in sorted({b for b in gn if b not in taken}):
            by_kind[b[0]][1].append(b)
        for ts_, gs_ in by_kind.values():
            for a in ts_:
                for b in gs_:
                    votes[(a, b)] += 1.0 / (len(ts_) * len(gs_))
    return votes


def rename(f: Formula, mapping: dict[Name, str]) -> Formula:
    """`f` with its predicate and constant names replaced by `mapping` (bound variables kept)."""
    return _rename(f, mapping, ())


def _rename(f: Formula, m: dict[Name, str], bound: tuple[str, ...]) -> Formula:
    t = type(f)
    if t is Atom:
        return Atom(m.get((("pred", len(f.args)), f.pred), f.pred), tuple(_rt(a, m, bound) for a in f.args))
    if t is Eq:
        return Eq(_rt(f.left, m, bound), _rt(f.right, m, bound))
    if t is Not:
        return Not(_rename(f.body, m, bound))
    if t in (And, Or):
        return t(tuple(_rename(c, m, bound) for c in f.children))
    if t in (Implies, Iff, Xor):
        return t(_rename(f.left, m, bound), _rename(f.right, m, bound))
    if t is Quant:
        return Quant(f.kind, f.var, _rename(f.body, m, (*bound, f.var)))
    return f


def _rt(a, m: dict[Name, str], bound: tuple[str, ...]):
    if type(a) is Var and a.name in bound:
        return a
    if type(a) in (Var, Const):
        return type(a)(m.get((("const", 0), a.name), a.name))
    return a


PAIRED_BY = ("order", "comment", "text", "unpaired")


def _sentence_key(text: str) -> str:
    """A sentence as compared for pairing: case folded, spaces collapsed, end punctuation dropped."""
    return re.sub(r"\s+", " ", text.casefold()).strip().rstrip(".!?;: ").strip()


def pair_sentences(sentences: Sequence[str], notes: Sequence[tuple[str | None, str | None]]
                   ) -> list[tuple[int | None, str]]:
    """Which premise sentence each formula translates, and how (PAIRED_BY): by `order` when the
    counts match, else by its (comment, text) in `notes` equal to a free sentence, else `unpaired`
    (index None). One-to-one."""
    if len(notes) == len(sentences):
        return [(i, "order") for i in range(len(notes))]
    free: dict[str, list[int]] = defaultdict(list)
    for i, s in enumerate(sentences):
        free[_sentence_key(s)].append(i)
    out: list[tuple[int | None, str]] = []
    for comment, text in notes:
        hit = None
        for how, note in (("comment", comment), ("text", text)):
            if note and free.get(_sentence_key(note)):
                hit = (free[_sentence_key(note)].pop(0), how)
                break
        out.append(hit or (None, "unpaired"))
    return out
