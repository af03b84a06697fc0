"""Enumerating a template family: every slot filling allowed by its constraints, rendered as
AmP's rows `{surface, lf, unfilled_template, template_tags, var_bindings, template_idx, type}`."""

from __future__ import annotations

import itertools
import re
from typing import Iterator

from ambit.logic.syntax.dialect import AMP_NAMES, FOL
from ambit import logic

from ambit.generators.amp.spec import SLOT, Family, Lexicon, Template, Word, families, lexicon

FORMATS = AMP_NAMES
_A_AN = re.compile(r"(^| )a ([aeiou])")


def _fillings(t: Template, lex: Lexicon) -> Iterator[dict[str, Word]]:
    """Slot fillings in lexicon order (first slot varies slowest); no word twice in a group."""
    names = list(t.slots)
    for combo in itertools.product(*(lex.words(t.slots[s]) for s in names)):
        filling = dict(zip(names, combo))
        if all(len({filling[s].surface for s in g}) == len(g) for g in t.distinct):
            yield filling


def realise(t: Template, filling: dict[str, Word], lex: Lexicon) -> str:
    """The surface string: a plural-only noun right after a singular determiner takes its singular
    form ("a pair of binoculars"); "a" becomes "an" before a vowel."""
    parts = SLOT.split(t.surface)
    out = []
    for i, part in enumerate(parts):
        if i % 2 == 0:
            out.append(part)
            continue
        word = filling[part]
        # as in AmP, only a determiner that is the whole preceding literal forces the singular
        singular = word.singular and parts[i - 1].strip() in lex.singular_after
        out.append(word.singular if singular else word.surface)
    return _A_AN.sub(r"\1an \2", " ".join("".join(out).split()))


def render_lf(lf: str, fmt: str, canonical: bool = False) -> str:
    """FOL as filled in (AmP's zero-shot files) or canonical; Lisp always canonical, as AmP's."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; expected one of {FORMATS}")
    return lf if fmt == FOL and not canonical else logic.canonical_form(lf, FOL, to=fmt)


def template_rows(fam: Family, t: Template, fmt: str = FOL, canonical: bool = False) -> Iterator[dict]:
    """The rows of one template of a family, in enumeration order."""
    lex, tags = lexicon(), t.tags
    for filling in _fillings(t, lex):
        surface = realise(t, filling, lex)
        bindings = {s: w.lf for s, w in filling.items()}
        for idx, lf_template in enumerate(t.lfs):
            lf = render_lf(lf_template.format(**bindings), fmt, canonical)
            yield {"surface": surface, "lf": lf, "unfilled_template": lf_template,
                   "template_tags": list(tags), "var_bindings": dict(bindings), "template_idx": idx,
                   "type": fam.type}


def family_rows(fam: Family, fmt: str = FOL, canonical: bool = False) -> Iterator[dict]:
    """All rows of one family; an ambiguous utterance's LF0 and LF1 rows are adjacent."""
    for t in fam.templates:
        yield from template_rows(fam, t, fmt, canonical)


def resolve(name: str) -> list[Family]:
    """Families for a CLI/API type name: a family name, an AmP type (scope_reverse), or 'all'."""
    fams = families()
    if name == "all":
        return list(fams.values())
    if name in fams:
        return [fams[name]]
    if by_type := [f for f in fams.values() if f.type == name and f.ambiguous]:
        return by_type
    raise ValueError(f"unknown AmP type {name!r}; expected 'all' or one of {sorted(fams)}")


def generate(type: str = "all", fmt: str = FOL, ambiguous_only: bool = False,
             canonical: bool = False) -> Iterator[dict]:
    """Rows for `type`: an ambiguous type brings its zero-shot ingredient families along
    (unless `ambiguous_only`); a family name gives that family; 'all' gives every family."""
    selected = resolve(type)
    if type != "all" and not ambiguous_only:
        for fam in list(selected):
            selected += [families()[n] for n in fam.zeroshot if families()[n] not in selected]
    for fam in selected:
        if ambiguous_only and not fam.ambiguous:
            continue
        yield from family_rows(fam, fmt, canonical)


def pairs(type: str, fmt: str = FOL, canonical: bool = False) -> list[dict]:
    """One record per ambiguous utterance, with the Template it was made from (`template`)."""
    out = []
    for fam in [f for f in resolve(type) if f.ambiguous]:
        for t in fam.templates:
            rows = template_rows(fam, t, fmt, canonical)
            for r0, r1 in zip(rows, rows):
                out.append({"surface": r0["surface"], "lf0": r0["lf"], "lf1": r1["lf"],
                            "type": fam.type, "name": fam.name, "row0": r0, "row1": r1,
                            "template": t})
    return out


def vocabulary() -> dict[str, list[str]]:
    """Predicates (by arity) and constants of every LF the templates can produce, for
    `logic.closed_grammar`: each LF template is parsed once with its slots as markers."""
    lex = lexicon()
    unary: set[str] = set()
    binary: set[str] = set()
    consts: set[str] = set()
    for fam in families().values():
        for t in fam.templates:
            for lf in t.lfs:
                marked = SLOT.sub(r"SLOT_\1", re.sub(r"\{(\w+)\}\(", r"slot_\1(", lf))
                for atom in _atoms(logic.parse(marked, FOL)):
                    slot = atom.pred[len("slot_"):] if atom.pred.startswith("slot_") else None
                    preds = [w.lf for w in lex.words(t.slots[slot])] if slot else [atom.pred]
                    (unary if len(atom.args) == 1 else binary).update(preds)
                    for arg in atom.args:
                        if isinstance(arg, logic.Const) and arg.name.startswith("SLOT_"):
                            consts.update(w.lf for w in lex.words(t.slots[arg.name[len("SLOT_"):]]))
                        elif isinstance(arg, logic.Const):
                            consts.add(arg.name)
    return {"unary": sorted(unary), "binary": sorted(binary), "constants": sorted(consts)}


def _atoms(f: logic.Formula) -> Iterator[logic.Atom]:
    match f:
        case logic.Atom():
            yield f
        case logic.Quant(body=body):
            yield from _atoms(body)
        case logic.And(children) | logic.Or(children):
            for c in children:
                yield from _atoms(c)
