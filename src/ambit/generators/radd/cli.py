"""`ambit generate radd-parse FILE...` (benchmark rows -> parsed instances) and
`ambit generate radd --facts FILE ...` (a facts file -> benchmark-style rows)."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path

from ambit.generators.radd.generate import generate, load_facts, to_row
from ambit.generators.radd.loader import iter_jsonl
from ambit.logic.radd.instance import RaddParseError
from ambit.logic.radd.phrasings import PROMPT_STYLES, default_phrasings


def main(argv: list[str]) -> int:
    command, rest = argv[0], argv[1:]
    if command == "radd-parse":
        return parse_main(rest)
    if command == "radd":
        return generate_main(rest)
    print(f"unknown command {command!r}", file=sys.stderr)
    return 2


def parse_main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="ambit generate radd-parse",
                                description="Parse RADD benchmark JSONL into structured instances (JSONL).")
    p.add_argument("files", nargs="+", type=Path)
    p.add_argument("--out", type=Path, help="output file (default: stdout)")
    args = p.parse_args(argv)
    with _open(args.out) as out:
        try:
            for f in args.files:
                for inst, _ in iter_jsonl(f):
                    out.write(json.dumps(inst.to_dict(), ensure_ascii=False) + "\n")
        except RaddParseError as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
    return 0


def generate_main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="ambit generate radd",
                                description="Generate RADD instances from a facts file.")
    p.add_argument("--facts", type=Path, required=True, help="facts JSON, or Wikidata SPARQL JSON results")
    p.add_argument("--pair", choices=sorted(default_phrasings()), help="property pair (required for SPARQL input)")
    p.add_argument("--question-variant", type=int, help="which wording of the sentence (default: the facts' or 0)")
    p.add_argument("--style", choices=[*PROMPT_STYLES, "all"], default="direct",
                   help="direct (one turn) or step_by_step5 (chain of thought, two turns)")
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--limit", type=int, help="at most N instances per style")
    p.add_argument("--out", type=Path, help="output JSONL (default: stdout)")
    args = p.parse_args(argv)
    try:
        sets = load_facts(args.facts, pair=args.pair, question_variant=args.question_variant)
    except (ValueError, KeyError) as e:
        print(f"error: {args.facts}: {e}", file=sys.stderr)
        return 2
    with _open(args.out) as out:
        for style in list(PROMPT_STYLES) if args.style == "all" else [args.style]:
            rows = [to_row(inst) for i, fs in enumerate(sets) for inst in generate(fs, seed=args.seed + i, style=style)]
            for row in rows[: args.limit] if args.limit is not None else rows:
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
    return 0


@contextlib.contextmanager
def _open(path: Path | None):
    """A file opened for writing, or stdout (left open)."""
    if path is None:
        yield sys.stdout
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as f:
        yield f
