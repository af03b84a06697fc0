"""`ambit eval folio`: NL→FOL translation of FOLIO stories, evaluated by proof.

Three modes over one split (`--split NAME`: `<data root>/folio/folio-NAME.jsonl`):
- translate (default): a model writes each premise and the conclusion under the decode grammar
  (`folio_translate`), with a seeded k-shot prompt from `--demo-split` (`folio_prompt`); each
  sentence is compared with its gold formula and each sample's label comes from the prover
  (`folio_score`); `--samples k` votes as LINC did;
- `--oracle-translations`: the gold formulas stand in for the translations (no model): every
  sentence is EQUIVALENT and label accuracy equals the audit's agreement rate;
- `--audit-gold`: only the gold formulas, proved: `agrees` per story, disagreements listed.

The model runs in this process through the `ModelBackend` interface (`server.model`), as the
server's servicer drives it: the folio grammar is not one of the formats ParseDistribution
serves, so `--server` is refused.
"""

from __future__ import annotations

import argparse
import sys
import threading
from collections.abc import Sequence
from typing import Any

from ambit.client.eval import folio_data as D
from ambit.client.eval import folio_prompt as P
from ambit.client.eval import folio_report as FR
from ambit.client.eval import folio_score as S
from ambit.client.eval import folio_translate as T
from ambit.client.eval.suite import MissingData, Option, RunContext, Suite, data_root, option


def mode(args: argparse.Namespace) -> str:
    if getattr(args, "audit_gold", False) and getattr(args, "oracle_translations", False):
        raise ValueError("folio: --audit-gold and --oracle-translations are two different runs; pick one")
    return "audit" if args.audit_gold else "oracle" if args.oracle_translations else "translate"


def decoding(args: argparse.Namespace) -> T.Decoding:
    if args.samples < 1 or args.beam < 1 or args.shots < 0 or args.max_tokens < 1:
        raise ValueError("folio: --samples, --beam and --max-tokens must be at least 1, --shots at least 0")
    return T.Decoding(samples=args.samples, beam=args.beam, temperature=args.temperature,
                      max_tokens=args.max_tokens, seed=args.seed)


class FolioSuite(Suite):
    name = "folio"

    def __init__(self) -> None:
        self._backend: Any = None
        self._lock = threading.Lock()

    def options(self) -> Sequence[Option]:
        return (
            option("--split", default="train", help="FOLIO split NAME: <data root>/folio/folio-NAME.jsonl (default train)"),
            option("--demo-split", default="train", help="split the demonstrations come from (default train)"),
            option("--shots", type=int, default=2, help="demonstration stories per prompt (default 2)"),
            option("--samples", type=int, default=1,
                   help="translations per story; more than 1 are sampled and voted on as LINC did (default 1: beam search)"),
            option("--beam", type=int, default=1, help="beam width of a single-sample run (default 1)"),
            option("--temperature", type=float, default=0.7, help="sampling temperature with --samples > 1"),
            option("--max-tokens", type=int, default=160, help="token budget of one formula"),
            option("--audit-gold", action="store_true", help="prove each story's gold FOL; no model"),
            option("--oracle-translations", action="store_true",
                   help="score the gold formulas as if they were translations; no model"),
        )

    def needs_server(self, args: argparse.Namespace) -> bool:
        return False

    def missing_data(self, args: argparse.Namespace) -> MissingData | None:
        root = data_root(args)
        needed = [args.split] + ([args.demo_split] if mode(args) == "translate" else [])
        for split in dict.fromkeys(needed):
            if (m := D.missing(root, split, self.name)) is not None:
                return m
        return None

    def desc(self, ctx: RunContext) -> str:
        return f"folio-{mode(ctx.args)}"

    def run_key(self, ctx: RunContext) -> dict:
        a = ctx.args
        key = {"suite": self.name, "mode": mode(a), "split": a.split,
               "data": str(D.split_path(data_root(a), a.split)), "limit": a.limit}
        if key["mode"] == "translate":
            key.update(model=a.model or "default", demo_split=a.demo_split, shots=a.shots,
                       **vars(decoding(a)))
        return key

    def items(self, ctx: RunContext) -> list[dict]:
        a = ctx.args
        if getattr(a, "server", None) and mode(a) == "translate":
            raise ValueError("folio translates in this process (--model; the folio grammar is not served "
                             "over gRPC): drop --server")
        stories = D.read_split(D.split_path(data_root(a), a.split))
        if a.limit is not None:
            stories = stories[: a.limit]
        return [{"id": s.id, "row": D.to_row(s)} for s in stories]

    def processor(self, ctx: RunContext):
        a = ctx.args
        m = mode(a)
        if m == "audit":
            return lambda item: self._audit(item)
        if m == "oracle":
            return lambda item: self._oracle(item)
        d = decoding(a)
        pool = P.demo_pool(D.read_split(D.split_path(data_root(a), a.demo_split)))
        return lambda item: self._translate(item, pool, d, a.shots, a.model)

    @staticmethod
    def _story(item: dict) -> D.Story:
        return D.story_from_row(item["row"], f"item {item['id']}", item["id"])

    def _audit(self, item: dict) -> dict:
        s = self._story(item)
        return {"story_id": s.story_id, "label": s.label, **S.audit(s)}

    def _oracle(self, item: dict) -> dict:
        s = self._story(item)
        return S.score_story(s, [[{"text": g} for g in s.gold_fol]])

    def backend(self, model: str | None) -> Any:
        """The model, loaded once per process: the embedded engine, or a model served elsewhere
        (`openai:<MODEL>@<BASE_URL>`, key from $OPENAI_API_KEY), through `server.model.load_backend`."""
        with self._lock:
            if self._backend is None:
                from ambit.server.model import load_backend

                print(f"folio: loading model {model or '(default)'} ...", file=sys.stderr, flush=True)
                self._backend = load_backend(model)
            return self._backend

    def _translate(self, item: dict, pool, d: T.Decoding, shots: int, model: str | None) -> dict:
        s = self._story(item)
        backend = self.backend(model)
        demos = P.pick_demos(pool, s, shots, d.seed)
        head = P.header(demos)
        samples = T.translate(backend, head, s.id, s.sentences, d)
        rec = S.score_story(s, samples)
        rec.update(model_id=backend.info().get("model_id", ""), demos=[x.id for x in demos],
                   demo_story_ids=[x.story_id for x in demos], prompt_header=head,
                   sentences=list(s.sentences))
        return rec

    def summarise(self, records, items, ctx: RunContext) -> dict:
        a = ctx.args
        out = FR.summary(records, mode(a))
        out.update(split=a.split, seed=a.seed)
        if mode(a) == "translate":
            out.update(model=next((r.get("model_id") for r in records if r.get("model_id")), a.model or "default"),
                       demo_split=a.demo_split, shots=a.shots, decoding=vars(decoding(a)))
        return out

    def write_reports(self, records, summary: dict, ctx: RunContext) -> None:
        FR.write_reports(ctx.out, records, summary)

    def headline(self, summary: dict) -> str:
        return FR.headline(summary)
