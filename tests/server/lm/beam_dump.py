"""A byte dump of beam-search outputs: every hypothesis field, floats as exact hex, for a fixed set
of decodes on the tiny GPT-2 (grammars of several sizes, FOL and Lisp, constrained and not).

Two dumps are equal byte for byte only when every text, token path, probability and score is
identical: the test that search modes (lazy, eager, pipelined masks) change nothing, and, run as a
script on two checkouts, the check that a change to the search loop changes no output:

    .venv/bin/python -m tests.server.lm.beam_dump out.json [--eager-masks true|false]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Callable

from ambit import logic
from ambit.server.lm import Decoder, Hypothesis
from tests.helpers.engine import TEST_SENTENCES, amp_prompt

TINY_FOL = r"""
start: formula
formula: QUANT VAR " . " atom
atom: PRED VAR ")"
QUANT: "exists " | "forall "
PRED: "man(" | "bird(" | "sings("
VAR: "x" | "y"
"""
MID_FOL = r"""
start: formula
formula: quant atom | quant formula
quant: QUANT VAR " . "
atom: PRED "(" VAR ")" | PRED "(" VAR ")" " AND " atom | PRED "(" VAR ", " VAR ")" " OR " atom
QUANT: "exists " | "forall "
PRED: "man" | "bird" | "saw" | "agent"
VAR: "x" | "y" | "a"
"""


Search = Callable[..., list[Hypothesis]]  # (prompt, fmt, grammar, beam=, max_tokens=, constrained=, early_stop=)


def closed(fmt: str) -> str:
    return logic.closed_grammar(fmt, unary=["man", "bird", "hears", "saw"], binary=["agent", "patient"],
                                constants=["Mary", "Galileo"], variables=["x", "y", "a"])


def cases() -> list[dict]:
    """The decodes of the dump: (prompt, format, grammar, beam, budget, constrained, early stop)."""
    out = []
    for kind in ("scope", "pp", "conj"):
        for fmt in ("fol", "lisp"):
            out.append(dict(kind=kind, fmt=fmt, grammar="closed", beam=3, max_tokens=28, constrained=True,
                            early_stop=True))
            out.append(dict(kind=kind, fmt=fmt, grammar="full", beam=5, max_tokens=12, constrained=True,
                            early_stop=False))
    for kind in TEST_SENTENCES:
        out.append(dict(kind=kind, fmt="fol", grammar="mid", beam=5, max_tokens=30, constrained=True,
                        early_stop=True))
    out.append(dict(kind="pp", fmt="fol", grammar="mid", beam=6, max_tokens=20, constrained=True,
                    early_stop=False))
    out.append(dict(kind="scope", fmt="fol", grammar="tiny", beam=12, max_tokens=24, constrained=True,
                    early_stop=True))
    out.append(dict(kind="bound", fmt="fol", grammar="full", beam=4, max_tokens=8, constrained=False,
                    early_stop=False))
    out.append(dict(kind="bound", fmt="fol", grammar="full", beam=1, max_tokens=10, constrained=True,
                    early_stop=True))
    return out


def _hex(x: float | None) -> str | None:
    return None if x is None else float(x).hex()


def hypothesis_record(h: Hypothesis) -> dict:
    """Every field of a hypothesis as plain values (floats as hex: exact)."""
    return {"text": h.text, "ids": h.token_ids, "tokens": h.tokens, "logprob": _hex(h.logprob),
            "probs": [_hex(p) for p in h.token_probs], "min_prob": _hex(h.min_prob), "finished": h.finished,
            "end": _hex(h.end_logprob), "score": _hex(h.score)}


def decoder_search(dec: Decoder) -> Search:
    """The search of `Decoder.beam_search`, as a `Search`."""
    def search(prompt: str, fmt: str, grammar: str | None, **kw) -> list[Hypothesis]:
        return dec.beam_search(prompt, fmt=fmt, grammar=grammar, **kw).hypotheses
    return search


def dump(search: Search, only: Callable[[dict], bool] = lambda case: True) -> bytes:
    """The dump of every case (or those `only` keeps) decoded by `search`."""
    out = []
    for case in filter(only, cases()):
        fmt = case["fmt"]
        grammar = {"closed": closed(fmt), "full": None, "tiny": TINY_FOL, "mid": MID_FOL}[case["grammar"]]
        hyps = search(amp_prompt(TEST_SENTENCES[case["kind"]], fmt), fmt, grammar, beam=case["beam"],
                      max_tokens=case["max_tokens"], constrained=case["constrained"], early_stop=case["early_stop"])
        out.append({"case": case, "hypotheses": [hypothesis_record(h) for h in hyps]})
    return json.dumps(out, indent=1).encode()


def main() -> None:
    from tests.helpers.engine import tiny_gpt2

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--eager-masks", choices=("true", "false"), default=None)
    args = ap.parse_args()
    opts = {} if args.eager_masks is None else {"eager_masks": args.eager_masks == "true"}
    lm = tiny_gpt2(Path(tempfile.mkdtemp(prefix="ambit-dump-")))
    args.out.write_bytes(dump(decoder_search(Decoder(lm, **opts))))
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
