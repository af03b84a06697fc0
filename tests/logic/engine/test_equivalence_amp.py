"""Equivalence on AmP's ambiguous items: the two readings differ, each reading equals its canonical
form, a renamed-and-shuffled copy and its Lisp twin; the exists-forall scope reading entails the
forall-exists one and not conversely. Archives are extracted to a temp dir (conftest `amp`)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

pytest.importorskip("pyswip")

from ambit import logic  # noqa: E402
from ambit.logic import And, Atom, Or, Quant, Var, equivalent_batch  # noqa: E402
from tests.helpers.equivalence import check_witness  # noqa: E402


def rows(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def reading_pairs(fol_rows: list[dict], lisp_rows: list[dict] | None) -> list[dict]:
    """Consecutive (LF0, LF1) rows of one sentence: {type, lf0, lf1, lisp0?, lisp1?}."""
    out = []
    for i in range(0, len(fol_rows) - 1):
        r0, r1 = fol_rows[i], fol_rows[i + 1]
        if r0["surface"] == r1["surface"] and (r0["template_idx"], r1["template_idx"]) == (0, 1):
            item = {"type": r0["type"], "lf0": r0["lf"], "lf1": r1["lf"]}
            if lisp_rows is not None:
                item["lisp0"], item["lisp1"] = lisp_rows[i]["lf"], lisp_rows[i + 1]["lf"]
            out.append(item)
    return out


def items_of(amp, settings=("zeroshot", "fewshot"), pattern: str = "*_eval.jsonl") -> list[dict]:
    """Unique ambiguous items of the eval files; Lisp twins from the row-aligned few-shot files."""
    seen: dict[tuple, dict] = {}
    for setting in settings:
        for name in amp.names(setting):
            if name.endswith("_lisp"):
                continue
            folder = amp.split(setting, name)
            lisp_name = name[: -len("_fol")] + "_lisp"
            lisp_folder = amp.split(setting, lisp_name) if lisp_name in amp.names(setting) else None
            for path in sorted(folder.glob(pattern)):
                fol = rows(path)
                lisp = rows(lisp_folder / path.name) if lisp_folder else None
                assert lisp is None or len(lisp) == len(fol), path
                for it in reading_pairs(fol, lisp):
                    seen.setdefault(tuple(sorted(it.items())), it)
    return list(seen.values())


def renamed_shuffled(f, rng: random.Random):
    """f with fresh bound-variable names and AND/OR operands shuffled at every level."""
    counter = iter(range(10**6))

    def go(g, env):
        match g:
            case Atom(pred, args):
                return Atom(pred, tuple(Var(env[a.name]) if isinstance(a, Var) else a for a in args))
            case Quant(kind, var, body):
                new = f"w{next(counter)}"
                return Quant(kind, new, go(body, {**env, var: new}))
            case And(children) | Or(children):
                cs = [go(c, env) for c in children]
                rng.shuffle(cs)
                return type(g)(tuple(cs))
        raise TypeError(g)

    return go(f, {})


def scope_readings(lf0: str, lf1: str) -> tuple[str, str]:
    """(exists-forall reading, forall-exists reading) of a scope item."""
    def first_quant_is_exists_before_forall(lf: str) -> bool:
        return lf.index("exists") < lf.index("forall")
    return (lf0, lf1) if first_quant_is_exists_before_forall(lf0) else (lf1, lf0)


def check_items(items: list[dict], rng: random.Random) -> dict:
    """All the checks of the issue, in a few batches; returns counts."""
    pairs, expect = [], []  # expect: (kind, item) for each pair

    for it in items:
        pairs.append((it["lf0"], it["lf1"]))
        expect.append(("readings", it))
        for key in ("lf0", "lf1"):
            f = logic.parse(it[key])
            pairs.append((f, logic.parse(logic.canonical_form(f))))
            expect.append(("canonical", it))
            pairs.append((f, renamed_shuffled(f, rng)))
            expect.append(("renamed", it))
            lisp_key = key.replace("lf", "lisp")
            if lisp_key in it:
                pairs.append((f, logic.parse(it[lisp_key], "lisp")))
                expect.append(("lisp", it))
    verdicts = []
    for i in range(0, len(pairs), 2000):
        # Prolog proves every pair here, the equal-canonical-form shortcut off: the point is
        # that the logic agrees with the canonicaliser, not that the canonicaliser agrees with itself.
        verdicts += equivalent_batch(pairs[i : i + 2000], canonical_shortcut=False)

    counts: dict[str, int] = {}
    for (a, b), (kind, it), v in zip(pairs, expect, verdicts):
        counts[kind] = counts.get(kind, 0) + 1
        if kind == "readings":
            assert v.verdict == "NOT_EQUIVALENT", (it, v)
            check_witness(a, b, v)
            if it["type"] in ("scope", "scope_reverse"):
                ea, ae = scope_readings(it["lf0"], it["lf1"])
                ab, ba = (v.a_entails_b, v.b_entails_a) if ea == it["lf0"] else (v.b_entails_a, v.a_entails_b)
                assert (ab, ba) == (True, False), (it, v)
                counts["scope_direction"] = counts.get("scope_direction", 0) + 1
        else:
            assert v.verdict == "EQUIVALENT", (kind, it, v)
    return counts


def test_zeroshot_dev_eval_items(amp):
    items = items_of(amp, ("zeroshot",), "dev_eval.jsonl")
    assert len(items) >= 5 * 200 - 50
    counts = check_items(items, random.Random(0))
    assert counts["readings"] == len(items) and counts["scope_direction"] >= 300
    print(counts)


@pytest.mark.slow
def test_every_ambiguous_eval_item(amp):
    items = items_of(amp)
    assert len(items) > 1000
    counts = check_items(items, random.Random(1))
    assert counts["readings"] == len(items) and counts["lisp"] > 0
    print(f"{len(items)} unique ambiguous items checked: {counts}")
