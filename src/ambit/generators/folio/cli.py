"""`ambit generate folio [--n 200] [--seed 0] [--noise 0.0]`: generated FOLIO-format
examples (with `conclusion-FOL`) as JSONL on stdout; save them as
`<data root>/folio/folio-NAME.jsonl` and run `ambit eval folio --split NAME`."""

from __future__ import annotations

import argparse
import json
import sys

from ambit.generators.folio.generate import stories


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="ambit generate folio", description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=int, default=200, help="examples (three per story, one per label)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--noise", type=float, default=0.0, help="fraction of examples whose label is flipped")
    args = p.parse_args(argv[1:])
    try:
        rows = stories(args.n, args.seed, args.noise)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    for row in rows:
        sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")
    return 0
