"""``ambit explain UTTERANCE [--lf A --lf B ...] [--format fol|lisp] [--json]``: the
readings of an utterance explained (paraphrases, distinguishing situations, a clarification
question).

With ``--lf``: the given readings, explained locally by `logic.explain` (or by ``--server``).
Without: a server decodes the utterance and explains its two heaviest meaning classes."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence

from ambit.logic.syntax.dialect import AMP_NAMES, FOL
from ambit import _extras
from ambit.generators.amp.wordforms import amp_wordforms
from ambit.logic import LFParseError
from ambit.logic.explain import Explanation, Reading, explain_readings


def build_parser() -> argparse.ArgumentParser:
    from ambit.client import credentials
    from ambit.client.cli_options import add_log_level, add_prolog_seconds

    p = argparse.ArgumentParser(prog="ambit explain", description=__doc__.split("\n\n")[0])
    p.add_argument("utterance")
    p.add_argument("--lf", action="append", help="a reading's LF (repeat for each reading); none: ask a model")
    p.add_argument("--format", dest="fmt", choices=AMP_NAMES, default=FOL)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--server", help="host:port[,host:port...] (default: local with --lf, else embedded server)")
    p.add_argument("--model", help="model for the embedded server (without --lf)")
    p.add_argument("--timeout", type=float, default=600.0, help="per-call deadline, seconds")
    p.add_argument("--prompt", help='literal prompt, without --lf ("{utterance}" is filled in; '
                                    "default: the server's default prompt)")
    p.add_argument("--setting", choices=("zeroshot", "fewshot"), help="let the server build an AmP prompt instead")
    p.add_argument("--type", default="", help="AmP ambiguity type (with --setting)")
    p.add_argument("-k", type=int, default=5, help="beam size (without --lf)")
    add_prolog_seconds(p)
    credentials.add_arguments(p)
    add_log_level(p)
    return p


def human(e: Explanation, extra: Sequence[str] = ()) -> str:
    """The explanation as text: readings, situations, question; `extra` lines after the readings."""
    lines = [f"utterance: {e.utterance}  (universals read as {e.quantifiers})"]
    for i, r in enumerate(e.readings):
        mass = "" if r.weight is None else f" (mass {r.weight:.3f})"
        lines += [f"reading {i}{mass}: {r.paraphrase}", f"  {r.lf}"]
    lines += extra
    for s in e.situations:
        lines += [f"situation: reading {s.holds} true, reading {s.fails} false ({s.size} elements, least size):",
                  f"  {s.description}", f"  facts: {', '.join(s.facts)}"]
    if e.question is not None:
        lines.append(f"question: {e.question.text}")
        if e.question.yes_no:
            answers = ", ".join(f"{k} -> reading {v}" for k, v in e.question.answers.items())
            lines.append(f"  {e.question.yes_no} ({answers})")
    if e.note:
        lines.append(f"note: {e.note}")
    return "\n".join(lines)


def from_model(client, args: argparse.Namespace) -> tuple[Explanation, dict]:
    """The server's explained distribution as one Explanation of all classes, and figures."""
    out = client.parse_explained(args.utterance, args.prompt, fmt=args.fmt, k=args.k, setting=args.setting,
                                 type=args.type, prolog_seconds=args.prolog_seconds)
    dist = out.distribution
    readings = [Reading(c.canonical, p, c.probability_mass) for c, p in zip(dist.classes, out.paraphrases)]
    figures = {"model_id": dist.model_id, "classes_exact": dist.classes_exact, "unparsed_mass": dist.unparsed_mass}
    e = out.explanation
    if e is None:
        why = "one reading" if readings else "no candidate parsed"
        return Explanation(args.utterance, args.fmt, readings, [], None, f"nothing to tell apart: {why}"), figures
    return Explanation(e.utterance, e.format, readings, e.situations, e.question, e.note, e.quantifiers), figures


def explain(args: argparse.Namespace) -> tuple[Explanation, dict]:
    """The explanation the arguments ask for, and figures of the distribution it came from."""
    if args.prolog_seconds < 0:
        raise ValueError(f"--prolog-seconds {args.prolog_seconds}: a budget cannot be negative")
    if args.lf and not args.server:
        return explain_readings(args.utterance, args.lf, args.fmt, lexicon=amp_wordforms(),
                                time_limit=args.prolog_seconds or None), {}
    from ambit.client.connect import connect, require_model
    from ambit.client.credentials import from_args

    require_model(args.server, args.model, "--lf LF --lf LF (readings you give, explained locally, "
                                                   "no model) or --server HOST:PORT (a running ambit serve)")
    with connect(args.server, args.model, timeout=args.timeout, quiet=args.json, security=from_args(args)) as client:
        if args.lf:
            return client.explain_readings(args.utterance, args.lf, fmt=args.fmt,
                                           time_limit_ms=round(args.prolog_seconds * 1000)), {}
        return from_model(client, args)


def main(argv: list[str] | None = None) -> int:
    from ambit.client.cli_options import failed, quiet_grpc

    argv = list(sys.argv[1:] if argv is None else argv)
    quiet_grpc(argv)
    args = build_parser().parse_args(argv)
    from ambit.client.api import AmbitError

    try:
        e, figures = explain(args)
    except (LFParseError, ValueError, _extras.MissingExtra, AmbitError) as err:
        if isinstance(err, LFParseError) and err.fmt:  # the hint in this command's words (--format)
            from ambit.logic.cli.common import explain as hinted

            err = hinted(err, err.text, err.fmt, "--format")
        return failed(err)
    if args.json:
        print(json.dumps({**e.to_dict(), **figures}, ensure_ascii=False, indent=2))
    else:
        extra = [f"unparsed mass {figures['unparsed_mass']:.3f}; model {figures['model_id']}"] if figures else []
        print(human(e, extra))
    return 0


if __name__ == "__main__":
    sys.exit(main())
