"""Convert the output of a plain `transformers` generation loop into AmP's recorded-predictions
contract (`recorded.py`; docs/evaluation.md, "Recorded predictions"):

    python -m ambit.client.eval.amp.convert GENERATIONS.jsonl PREDICTIONS.jsonl

Each generation is cut at its first line break (a model goes on with the next "Human:" turn);
empty ones and repeats are dropped (two distinct beams may decode to one LF text)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

PASSED_ON = ("id", "utterance", "type", "ratio", "lf0_logprobs", "lf1_logprobs", "lf0_tokens", "lf1_tokens")


def convert_line(row: dict, where: str) -> dict:
    """One generation-loop line as one predictions line; ValueError names the line and field."""
    gens = row.get("generations")
    if not isinstance(gens, list) or not all(isinstance(g, str) for g in gens):
        raise ValueError(f"{where}: field 'generations' must be a list of strings")
    scores = row.get("sequences_scores")
    if scores is not None and (not isinstance(scores, list) or len(scores) != len(gens)):
        raise ValueError(f"{where}: field 'sequences_scores' must be a list as long as 'generations'")
    preds, seen = [], set()
    for k, text in enumerate(gens):
        lf = text.split("\n", 1)[0].strip()
        if not lf or lf in seen:
            continue
        seen.add(lf)
        preds.append({"lf": lf, "score": None if scores is None else float(scores[k])})
    return {**{k: row[k] for k in PASSED_ON if k in row}, "predictions": preds}


def convert(src: Path, dst: Path) -> int:
    """Convert `src` into `dst`; the number of lines written."""
    from ambit import _files

    lines = []
    for ln in _files.iter_jsonl_lines(src):
        if ln.problem:
            raise ValueError(f"{src}:{ln.number}: {ln.problem}")
        if ln.text.strip():
            try:
                row = json.loads(ln.text)
            except json.JSONDecodeError as e:
                raise ValueError(f"{src}:{ln.number}: not JSON ({e.msg} at column {e.colno})") from None
            lines.append(json.dumps(convert_line(row, f"{src}:{ln.number}"), ensure_ascii=False))
    _files.write_atomic(dst, "".join(x + "\n" for x in lines), mode=0o644)
    return len(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m ambit.client.eval.amp.convert",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("generations", type=Path, help="JSONL written by the generation loop")
    p.add_argument("predictions", type=Path, help="where to write the predictions file")
    a = p.parse_args(argv)
    try:
        n = convert(a.generations, a.predictions)
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"wrote {n} items to {a.predictions}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
