"""`ambit generate implicature`: coherent/incoherent prompt pairs as JSONL."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ambit._paths import default_data_root
from ambit.generators.implicature.data import ImplicatureDataError
from ambit.generators.implicature.prompts import KS, SPLITS, build_records

DEFAULT_DATA = default_data_root() / "implicature"


def _ints(values: list[str], name: str) -> list[int]:
    """Accept `--k 0 5`, `--k 0,5` or a mix."""
    try:
        return [int(part) for value in values for part in value.split(",") if part]
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"{name}: {error}") from error


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="ambit generate implicature",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path,
                        default=DEFAULT_DATA if DEFAULT_DATA.is_dir() else None,
                        help="folder with the CSVs and prompt_templates.txt "
                        f"(default: {DEFAULT_DATA} if present)")
    parser.add_argument("--split", choices=SPLITS, default="test",
                        help="examples to prompt (demos come from dev)")
    parser.add_argument("--k", nargs="+", default=["0"],
                        help=f"demo counts, e.g. 5 or {','.join(map(str, KS))}")
    parser.add_argument("--template", nargs="+", default=["all"],
                        help="1-based template numbers, or all")
    parser.add_argument("--seed", type=int, default=0, help="seed of the demo draws")
    parser.add_argument("--limit", type=int, help="only the first N examples of the split")
    parser.add_argument("--out", default="-", help="output JSONL file (default: stdout)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "implicature":
        argv = argv[1:]
    args = parse_args(argv)
    if args.data is None:
        print(f"no --data given and {DEFAULT_DATA} does not exist", file=sys.stderr)
        return 2
    try:
        ks = _ints(args.k, "--k")
        templates = None if args.template == ["all"] else _ints(args.template, "--template")
        records = build_records(args.data, args.split, ks, templates, args.seed, args.limit)
    except (ImplicatureDataError, ValueError, OSError, argparse.ArgumentTypeError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    lines = "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records)
    if args.out == "-":
        sys.stdout.write(lines)
    else:
        Path(args.out).write_text(lines, encoding="utf-8", newline="\n")
    print(f"wrote {len(records)} records", file=sys.stderr)
    return 0
