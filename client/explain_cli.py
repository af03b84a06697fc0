"""``python -m client explain UTTERANCE --lf A --lf B [--format fol|lisp] [--json]``: the readings
of an utterance explained (paraphrases, distinguishing situations, a clarification question),
computed locally by `logic.explain` with AmP's word forms; no model and no server needed."""

from __future__ import annotations

import argparse
import json
import sys

from generators.amp.wordforms import amp_wordforms
from logic import LFParseError
from logic.explain import Explanation, explain_readings


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m client explain", description=__doc__.split("\n\n")[0])
    p.add_argument("utterance")
    p.add_argument("--lf", action="append", required=True, help="a reading's LF (repeat for each reading)")
    p.add_argument("--format", dest="fmt", choices=("fol", "lisp"), default="fol")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    return p


def human(e: Explanation) -> str:
    """The explanation as text: readings, situations (description and facts), question."""
    lines = [f"utterance: {e.utterance}  (universals read as {e.quantifiers})"]
    for i, r in enumerate(e.readings):
        lines += [f"reading {i}: {r.paraphrase}", f"  {r.lf}"]
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


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        e = explain_readings(args.utterance, args.lf, args.fmt, lexicon=amp_wordforms())
    except LFParseError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(json.dumps(e.to_dict(), ensure_ascii=False, indent=2) if args.json else human(e))
    return 0


if __name__ == "__main__":
    sys.exit(main())
