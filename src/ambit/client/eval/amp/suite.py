"""AmP suites (Stengel-Eskin et al. 2024): zero-shot (Fig. 2, Table 2, Fig. 3) and few-shot
(Fig. 6, Table 3) under the suite protocol (``client.eval.suite``). Every name of
``client.eval.amp.items``, ``process`` and ``summary`` that callers use is importable from here."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from ambit.logic.syntax.dialect import AMP_NAMES, FOL
from ambit.client.eval.amp import items as amp_items
from ambit.client.eval.amp import matching as MT
from ambit.client.eval.amp import recorded as REC
from ambit.client.eval import metrics as M
from ambit.client.eval import report as R
from ambit.client.eval.amp.process import (  # noqa: F401 (re-exported: amp.suite.zeroshot_process, ...)
    continuation, fewshot_fields, fewshot_process, zeroshot_process,
)
from ambit.client.eval.amp.summary import (  # noqa: F401 (re-exported: amp.suite.zeroshot_summary, ...)
    ZM_KS, _fig4_items, _token_items, fewshot_summary, protocol_markdown, ratio_key, write_fewshot_reports,
    write_zeroshot_reports, zeroshot_summary,
)
from ambit.client.eval.recorded import FromFile
from ambit.client.eval.suite import Common, Option, RunContext, Suite, csv_of, option

TYPES = ("pp", "scope", "revscope", "bound", "conj")
RATIOS = tuple(round(0.1 * i, 1) for i in range(11))

zeroshot_items = amp_items.zeroshot_items
fewshot_items = amp_items.fewshot_items


def _positive(text: str) -> int:
    """An argparse ``type``: an integer of at least 1."""
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected an integer of at least 1, not {text!r}")
    return n


AMP_OPTIONS = (
    option("--types", type=csv_of(str), default=list(TYPES)),
    option("--ratios", type=csv_of(float), default=list(RATIOS)),
    option("--format", dest="fmt", choices=AMP_NAMES, default=FOL),
    option("--beam", type=_positive, default=5, help="beam size (default 5, the paper's)"),
    option("--grammar", choices=("closed", "open"), default="closed",
           help="closed: only the AmP lexicon's predicates and constants and the variables "
                "x y z a e i (the paper's restriction); open: any predicate and variable"),
    option("--match", choices=MT.MATCHES, default="equivalence",
           help="equivalence: a prediction matches a gold LF when Prolog says EQUIVALENT; "
                "canonical: equal canonical strings"),
    option("--no-equiv", dest="match", action="store_const", const="canonical",
           help="the same as --match canonical"),
    option("--predictions", metavar="FILE", default=None,
           help="score another system's recorded parses from FILE (JSONL, one line per item: docs/evaluation.md); "
                "no model"),
)
INGREDIENTS_OPTION = option(
    "--ingredients", choices=("own", "sampled"), default="own",
    help="zero-shot demonstrations: own (made from the test sentence's own words, the paper's) "
         "or sampled (ingredient families with other words)")


@dataclass(frozen=True)
class AmpSettings(Common):
    """An AmP run's settings; ``recorded`` and ``forced_decode`` are completed once per run."""

    types: tuple[str, ...]
    fmt: str
    beam: int
    grammar: str
    match: str
    predictions: str | None
    ratios: tuple[float, ...] = ()  # few-shot's
    ingredients: str | None = None  # zero-shot's
    recorded: REC.Predictions | None = None
    forced_decode: bool = True  # the server scores the gold LFs (not an endpoint without prompt log-probabilities)


TOP1_GOLD = "the top-1 prediction is LF0 or LF1, as the run's match decides"


def top1_gold(record: dict) -> bool:
    """Whether an item's top-1 prediction is one of its two gold readings (the run's match)."""
    return 0 in (record.get("rank_lf0"), record.get("rank_lf1"))


def _na(x: float | None, absent: bool) -> str:
    return "n/a" if absent else R.num(x, 2)


class _AmpSuite(FromFile, Suite):
    """What the zero-shot and few-shot suites share: options, run key, per-item work."""

    setting: str  # zeroshot | fewshot
    process_item: Callable[..., dict]  # (client, item, fmt=, beam=, match=, grammar=) -> record

    def options(self) -> Sequence[Option]:
        return AMP_OPTIONS

    def configure(self, args: argparse.Namespace, common: Common) -> AmpSettings:
        return AmpSettings(**vars(common), types=tuple(args.types), fmt=args.fmt, beam=args.beam,
                           grammar=args.grammar, match=args.match, predictions=args.predictions)

    def needs_server(self, s: AmpSettings) -> bool:
        return not s.predictions  # recorded predictions need no model

    def needs(self, s: AmpSettings, caps: set[str]) -> list[tuple[str, str]]:
        """Accuracy from any endpoint; FDM/FIM need prompt log-probabilities (``forced_decode``)."""
        searched = "beam_search" in caps and "grammar" not in caps and "completions" in caps
        if s.beam > 1 and not searched:
            return [("n_samples", f"{self.name} --beam {s.beam} (ZM_{s.beam}: the top {s.beam} from beam search or "
                                  f"n samples; --beam 1 gives accuracy alone)")]
        return []

    def fallback(self, s: AmpSettings) -> str | None:
        if amp_items.items_source(s.root, self.setting, s.types) == "generated":
            return f"AmP's {self.setting} archives under {s.root / 'amp' / self.setting}"
        return None

    def resolve(self, ctx: RunContext) -> AmpSettings:
        """The --predictions file read (once per run), or whether the server scores the gold LFs."""
        s = ctx.settings
        if s.predictions:
            return replace(s, recorded=REC.read(s.predictions))
        from ambit.client.eval.remote import endpoint, forced_decode

        return replace(s, forced_decode=ctx.client is None or forced_decode(endpoint(ctx.client)))

    def protocol(self, s: AmpSettings) -> dict:
        """The protocol of this run: what ``run.json`` and ``summary.json`` record."""
        out = {"beam": s.beam, "grammar": s.grammar, "match": s.match,
               "items_source": amp_items.items_source(s.root, self.setting, s.types)}
        if (rec := s.recorded) is not None:
            out.update(outputs="recorded", predictions=str(rec.path))
            del out["beam"], out["grammar"]  # the system decoded as it did: ambit did not
            if not rec.scored:
                out.update(forced_decode=False, forced_decode_absent=REC.NO_SCORES)
        elif not s.forced_decode:
            out["forced_decode"] = False  # an endpoint without prompt log-probabilities: accuracy only
        return out

    def run_key(self, ctx: RunContext) -> dict:
        s = ctx.settings
        return {"suite": self.name, "model": self.model(ctx), "types": list(s.types), "seed": s.seed,
                "limit": s.limit, "format": s.fmt, **self.protocol(s)}

    def processor(self, ctx: RunContext):
        s = ctx.settings
        if (rec := s.recorded) is not None:
            few = self.setting == "fewshot"
            return lambda item: self._from_file(item, rec, s.fmt, s.match, few)
        return lambda item: self.process_item(ctx.client, item, fmt=s.fmt, beam=s.beam, match=s.match,
                                              grammar=s.grammar, scores=s.forced_decode)

    @staticmethod
    def _from_file(item: dict, rec: REC.Predictions, fmt: str, match: str, few: bool) -> dict:
        out = REC.record(item, rec.find(item), fmt, match)
        return fewshot_fields(out, item) if few else out

    def _recorded_summary(self, out: dict, records, items, ctx: RunContext) -> dict:
        """A recorded run's summary with its coverage (items scored, missing, stray lines)."""
        if (rec := ctx.settings.recorded) is not None:
            out["items_without_predictions"] = sum(rec.find(it) is None for it in items)
            out["lines_without_items"] = [row["_where"] for row in rec.unmatched(items)]
            out["coverage"] = M.coverage_accuracy(rec.coverage(items), records, top1_gold, TOP1_GOLD)
        return out


class ZeroShotSuite(_AmpSuite):
    name = "amp-zeroshot"
    setting = "zeroshot"

    def options(self) -> Sequence[Option]:
        return (*AMP_OPTIONS, INGREDIENTS_OPTION)

    def configure(self, args: argparse.Namespace, common: Common) -> AmpSettings:
        return replace(super().configure(args, common), ingredients=args.ingredients)

    def protocol(self, s: AmpSettings) -> dict:
        return {**super().protocol(s), "ingredients": s.ingredients}

    def items(self, ctx: RunContext) -> list[dict]:
        s = ctx.settings
        return zeroshot_items(list(s.types), s.seed, s.limit, s.fmt, s.root, s.ingredients)

    process_item = staticmethod(zeroshot_process)

    def summarise(self, records, items, ctx: RunContext) -> dict:
        s = ctx.settings
        protocol = self.protocol(s)
        if protocol["items_source"] == "amp-release":
            protocol["release_matched"] = amp_items.release_matched(list(s.types), s.root, s.seed)
        return self._recorded_summary(zeroshot_summary(records, self.model(ctx), protocol), records, items, ctx)

    def write_reports(self, records, summary: dict, ctx: RunContext) -> None:
        write_zeroshot_reports(ctx.out, records, summary)

    def headline(self, summary: dict) -> str:
        return "; ".join(f"{t}: LF0 {R.pct(v['acc_lf0'])}% LF1 {R.pct(v['acc_lf1'])}% ZM5 "
                         f"{R.pct(v['zm']['5'])}%" for t, v in summary["by_type"].items())


class FewShotSuite(_AmpSuite):
    name = "amp-fewshot"
    setting = "fewshot"

    def configure(self, args: argparse.Namespace, common: Common) -> AmpSettings:
        return replace(super().configure(args, common), ratios=tuple(args.ratios))

    def run_key(self, ctx: RunContext) -> dict:
        return {**super().run_key(ctx), "ratios": [ratio_key(r) for r in ctx.settings.ratios]}

    def items(self, ctx: RunContext) -> list[dict]:
        s = ctx.settings
        return fewshot_items(list(s.types), list(s.ratios), s.seed, s.limit, s.fmt, s.root)

    process_item = staticmethod(fewshot_process)

    def summarise(self, records, items, ctx: RunContext) -> dict:
        summary = fewshot_summary(records, self.model(ctx), self.protocol(ctx.settings))
        return self._recorded_summary(summary, records, items, ctx)

    def write_reports(self, records, summary: dict, ctx: RunContext) -> None:
        write_fewshot_reports(ctx.out, records, summary)

    def headline(self, summary: dict) -> str:
        gone = summary.get("absent") or {}
        return "; ".join(f"{t}: FDM {_na(v['fdm'], 'fdm' in gone)} FIM {_na(v['fim'], 'fim' in gone)}"
                         + (f" (no prompt log-probabilities; unparsed top-1 {v['unparsed_top1']}/{v['n']})"
                            if gone else "")
                         for t, v in summary["by_type"].items())
