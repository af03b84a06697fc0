"""`ambit generate amp ...` and `ambit generate amp-prompts ...`: JSONL on stdout."""

from __future__ import annotations

import argparse
import json
import os
import sys

from ambit.logic.syntax.dialect import FOL
from ambit.generators.amp.generate import FORMATS, generate
from ambit.generators.amp.prompts import INGREDIENTS, fewshot_prompts, zeroshot_prompts
from ambit.generators.amp.spec import families


def _ratios(text: str) -> list[float]:
    return [float(x) for x in text.split(",") if x.strip()]


def _amp_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="ambit generate amp",
                                description="AmP rows {surface, lf, unfilled_template, template_tags, "
                                            "var_bindings, template_idx, type} as JSONL.")
    p.add_argument("--type", default="all", choices=["all", *families(), "scope_reverse"],
                   help="an ambiguous type (with its prompt ingredient families), a family, or all")
    p.add_argument("--format", default=FOL, choices=FORMATS)
    p.add_argument("--canonical", action="store_true", help="canonical FOL (Lisp is always canonical)")
    p.add_argument("--ambiguous-only", action="store_true")
    return p


def _prompts_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="ambit generate amp-prompts",
                                description="AmP prompt records {id, type, prompt, lf0, lf1, surface, ratio?} as JSONL.")
    p.add_argument("--setting", required=True, choices=("zeroshot", "fewshot"))
    p.add_argument("--type", default="all", choices=["all", "pp", "scope", "revscope", "bound", "conj", "scope_reverse"])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--limit", type=int, default=None, help="test items per type (default: all)")
    p.add_argument("--ratios", type=_ratios, default=None, help="few-shot LF0 ratios, e.g. 0,0.5,1")
    p.add_argument("--shots", type=int, default=None, help="few-shot demonstrations (default 10)")
    p.add_argument("--format", default=FOL, choices=FORMATS)
    p.add_argument("--canonical", choices=("yes", "no"), default=None,
                   help="canonical FOL (default: no for zeroshot, yes for fewshot, as AmP's files)")
    p.add_argument("--ingredients", choices=INGREDIENTS, default="own",
                   help="zeroshot demonstrations: own (default: unambiguous sentences made from the "
                        "test sentence's own words, as AmP's appendix A.2) or sampled (examples of "
                        "the ingredient families with other words)")
    return p


def _write(records) -> None:
    out = sys.stdout
    try:
        for rec in records:
            out.write(json.dumps(rec, ensure_ascii=False) + "\n")
        out.flush()
    except BrokenPipeError:  # `... | head`: the reader has gone, which is not an error
        sys.stdout = open(os.devnull, "w")


def main(argv: list[str]) -> int:
    command, args = argv[0], argv[1:]
    if command == "amp":
        a = _amp_parser().parse_args(args)
        _write(generate(a.type, a.format, a.ambiguous_only, a.canonical))
    elif command == "amp-prompts":
        a = _prompts_parser().parse_args(args)
        canonical = {"yes": True, "no": False, None: a.setting == "fewshot"}[a.canonical]
        if a.setting == "zeroshot":
            _write(zeroshot_prompts(a.type, a.seed, a.limit, a.format, canonical, a.ingredients))
        else:
            _write(fewshot_prompts(a.type, a.ratios, a.seed, a.limit, a.format, canonical, a.shots))
    else:
        print(f"unknown command {command!r}", file=sys.stderr)
        return 2
    return 0
