"""FOLIO scoring speed without a model: seconds to score a 200-story split (target: under 60 s
on 2 cores), per input kind, side by side in one run.

    python benchmarks/folio_bench.py [--json] [--stories 200] [--seed 0] [--data DIR]

Kinds: `generated-perturbed` (generated stories with conclusion formulas; translations with
predicates renamed, opaquely in half the stories, and ~30% of formulas changed: the alignment
and every relation path are exercised), `generated-oracle` (the gold formulas as
translations), `folio-train-oracle` (the first stories of FOLIO's train split, which has no
conclusion formulas: premises and the audit; skipped when the split is absent),
`folio-train-perturbed` (its formulas perturbed as above), and the gold
audit alone on the same splits, and `logic-lm-recorded` (Logic-LM's released gpt-4 programs on
FOLIO's published validation file, as `--translations` scores them; skipped unless
`$AMBIT_FOLIO_DIR` and `$AMBIT_LOGICLM_DIR` point at FOLIO's and Logic-LLM's checkouts).
Scoring is what `client eval folio` runs per story
(`folio_score.score_story`): parsing, alignment, equivalence and entailment by proof, the
label by proof, the vote and the gold audit.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ambit.client.eval.folio import data as D  # noqa: E402
from ambit.client.eval.folio import recorded as REC  # noqa: E402
from ambit.client.eval.folio import score as S  # noqa: E402
from ambit.generators.folio import perturb, stories  # noqa: E402

TARGET_S = 60.0
DEFAULT_DATA = Path(os.environ.get("AMBIT_DATA") or ROOT.parent / "shared" / "data")


def _generated(n: int, seed: int) -> list[D.Story]:
    return [D.story_from_row(r, "generated", str(i)) for i, r in enumerate(stories(n, seed, noise=0.1))]


def _perturbed(split: list[D.Story], seed: int) -> list[list[list[dict]]]:
    rng = random.Random(seed)
    out = []
    for i, s in enumerate(split):
        rename = ("rename_opaque", "rename_normalised", None)[i % 3]
        texts, _ = perturb(list(s.gold_fol), rng, rename=rename, change_rate=0.3)
        out.append([[{"text": t} for t in texts]])
    return out


def _time(fn) -> tuple[float, float, object]:
    t, c = time.perf_counter(), time.process_time()
    result = fn()
    return time.perf_counter() - t, time.process_time() - c, result


def _score(split, samples, fmts=None) -> list[dict]:
    return [S.score_story(s, x, fmt=f) for s, x, f in zip(split, samples, fmts or ["folio"] * len(split))]


def _logic_lm(limit: int) -> tuple[list, list, list] | None:
    """FOLIO's validation file and Logic-LM's gpt-4 programs for it, when both checkouts are named."""
    folio, logiclm = os.environ.get("AMBIT_FOLIO_DIR"), os.environ.get("AMBIT_LOGICLM_DIR")
    if not folio or not logiclm:
        return None
    val = Path(folio) / "data" / "v0.0" / "folio-validation.jsonl"
    progs = Path(logiclm) / "outputs" / "logic_programs" / "FOLIO_dev_gpt-4.json"
    if not val.exists() or not progs.exists():
        return None
    split = D.read_split(val)[:limit]
    rec = REC.read(progs, "logic-lm").examples
    return split, [list(rec[s.id].samples) for s in split], [rec[s.id].dialect for s in split]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--stories", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = p.parse_args(argv)

    S.audit(_generated(1, args.seed)[0])  # start Prolog, consult prove.pl: not part of any figure
    gen = _generated(args.stories, args.seed)
    runs = {"generated-perturbed": (gen, _perturbed(gen, args.seed)),
            "generated-oracle": (gen, [[[{"text": t} for t in s.gold_fol]] for s in gen])}
    train_path = D.split_path(args.data, "train")
    train = D.read_split(train_path)[: args.stories] if train_path.exists() else None
    if train is not None:
        runs["folio-train-oracle"] = (train, [[[{"text": t} for t in s.gold_fol]] for s in train])
        runs["folio-train-perturbed"] = (train, _perturbed(train, args.seed))
    fmts: dict[str, list] = {}
    if (ll := _logic_lm(args.stories)) is not None:
        runs["logic-lm-recorded"] = ll[:2]
        fmts["logic-lm-recorded"] = ll[2]
    else:
        print("logic-lm-recorded: skipped, set AMBIT_FOLIO_DIR and AMBIT_LOGICLM_DIR to the checkouts", file=sys.stderr)
    results: dict[str, dict] = {}
    for name, (split, samples) in runs.items():
        wall, cpu, recs = _time(lambda: _score(split, samples, fmts.get(name)))
        rel: dict[str, int] = {}
        for r in recs:
            for x in r["samples"][0]["sentences"]:
                rel[str(x["relation"])] = rel.get(str(x["relation"]), 0) + 1
        results[name] = {"stories": len(split), "seconds": round(wall, 2), "cpu_seconds": round(cpu, 2),
                         "stories_per_s": round(len(split) / wall, 1), "relations": rel,
                         "under_target": wall < TARGET_S}
    for name, split in (("generated-audit", gen), ("folio-train-audit", train)):
        if split is not None:
            wall, cpu, _ = _time(lambda: S.audit_batch(split))
            results[name] = {"stories": len(split), "seconds": round(wall, 2), "cpu_seconds": round(cpu, 2),
                             "stories_per_s": round(len(split) / wall, 1), "under_target": wall < TARGET_S}
    out = {"target_seconds": TARGET_S, "cores": os.cpu_count(), "load_average": [round(x, 1) for x in os.getloadavg()],
           "folio_train": str(train_path) if train is not None else None, "runs": results,
           "targets_met": all(r["under_target"] for r in results.values())}
    if train is None:
        print(f"folio-train: skipped, {train_path} is absent", file=sys.stderr)
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(f"FOLIO scoring, {args.stories} stories per split (target < {TARGET_S:.0f} s; load {out['load_average']}):")
        for name, r in results.items():
            print(f"  {name:22s} {r['seconds']:7.2f} s  ({r['stories_per_s']} stories/s, cpu {r['cpu_seconds']} s)"
                  + (f"  {r['relations']}" if "relations" in r else ""))
        print(f"targets met: {out['targets_met']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
