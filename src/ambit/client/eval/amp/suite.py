"""AmP suites (Stengel-Eskin et al. 2024): zero-shot (Fig. 2, Table 2, Fig. 3) and few-shot
(Fig. 6, Table 3). ``*_items`` build work items (``client.eval.amp_items``), ``*_process`` turn
one item into a record with the server's help (``client.eval.amp_process``), ``*_summary`` are
pure functions of the records (``client.eval.amp_summary``, with the reports); ``ZeroShotSuite``
and ``FewShotSuite`` put them under the suite protocol (``client.eval.suite``). Every name of
those modules that callers use is importable from here."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence

from ambit.logic.syntax.dialect import AMP_NAMES, FOL
from ambit.client.eval.amp import items as amp_items
from ambit.client.eval.amp import matching as MT
from ambit.client.eval.amp import recorded as REC
from ambit.client.eval import metrics as M
from ambit.client.eval import report as R
from ambit.client.eval.amp.process import (  # noqa: F401 (re-exported: client.eval.amp.zeroshot_process, ...)
    continuation, fewshot_process, zeroshot_process,
)
from ambit.client.eval.amp.summary import (  # noqa: F401 (re-exported: client.eval.amp.zeroshot_summary, ...)
    ZM_KS, _fig4_items, _token_items, fewshot_summary, protocol_markdown, ratio_key, write_fewshot_reports,
    write_zeroshot_reports, zeroshot_summary,
)
from ambit.client.eval.suite import Option, RunContext, Suite, csv_of, option

TYPES = ("pp", "scope", "revscope", "bound", "conj")
RATIOS = tuple(round(0.1 * i, 1) for i in range(11))


# ---------------------------------------------------------------------------- items

zeroshot_items = amp_items.zeroshot_items
fewshot_items = amp_items.fewshot_items


# ---------------------------------------------------------------------------- the suites

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


def _forced_decode(ctx: RunContext) -> bool:
    """Whether the run's server scores the gold LFs (not an endpoint without prompt log-probabilities)."""
    from ambit.client.eval.remote import endpoint, forced_decode

    return ctx.client is None or forced_decode(endpoint(ctx.client))


TOP1_GOLD = "the top-1 prediction is LF0 or LF1, as the run's match decides"


def top1_gold(record: dict) -> bool:
    """Whether an item's top-1 prediction is one of its two gold readings (the run's match)."""
    return 0 in (record.get("rank_lf0"), record.get("rank_lf1"))


def _na(x: float | None, absent: bool) -> str:
    return "n/a" if absent else R.num(x, 2)


def _file_key(path: str) -> tuple:
    """What tells one state of a file from another: its path, size and modification time."""
    import os

    try:
        st = os.stat(path)
    except OSError:
        return (path,)
    return (path, st.st_size, st.st_mtime_ns)


class _AmpSuite(Suite):
    """What the zero-shot and few-shot suites share: options, run key, per-item work."""

    setting: str  # zeroshot | fewshot
    process_item: Callable[..., dict]  # (client, item, fmt=, beam=, match=, grammar=) -> record

    def options(self) -> Sequence[Option]:
        return AMP_OPTIONS

    def needs_server(self, args: argparse.Namespace) -> bool:
        return not getattr(args, "predictions", None)  # recorded predictions need no model

    def _recorded(self, ctx: RunContext) -> REC.Predictions | None:
        """The --predictions file, read once per run (None: a model run)."""
        path = getattr(ctx.args, "predictions", None)
        if not path:
            return None
        key = _file_key(path)
        if getattr(self, "_rec_key", None) != key:  # read again when the file changed between runs
            self._rec_key, self._rec = key, REC.read(path)
        return self._rec

    def settings(self, ctx: RunContext) -> dict:
        """The protocol of this run: what ``run.json`` and ``summary.json`` record."""
        a = ctx.args
        out = {"beam": a.beam, "grammar": a.grammar, "match": a.match,
               "items_source": amp_items.items_source(a.data, self.setting, a.types)}
        if (rec := self._recorded(ctx)) is not None:
            out.update(outputs="recorded", predictions=str(rec.path))
            del out["beam"], out["grammar"]  # the system decoded as it did: ambit did not
            if not rec.scored:
                out.update(forced_decode=False, forced_decode_absent=REC.NO_SCORES)
        elif not _forced_decode(ctx):
            out["forced_decode"] = False  # an endpoint without prompt log-probabilities: accuracy only
        return out

    def run_key(self, ctx: RunContext) -> dict:
        a = ctx.args
        return {"suite": self.name, "model": self._model(ctx), "types": a.types, "seed": a.seed,
                "limit": a.limit, "format": a.fmt, **self.settings(ctx)}

    def _model(self, ctx: RunContext) -> str | None:
        """The model the summary names: the run's, or `recorded: FILE` for recorded predictions."""
        rec = self._recorded(ctx)
        return f"recorded: {rec.path.name}" if rec is not None else ctx.model

    def processor(self, ctx: RunContext):
        a = ctx.args
        if (rec := self._recorded(ctx)) is not None:
            few = self.setting == "fewshot"
            return lambda item: self._from_file(item, rec, a.fmt, a.match, few)
        scores = _forced_decode(ctx)
        return lambda item: self.process_item(ctx.client, item, fmt=a.fmt, beam=a.beam,
                                              match=a.match, grammar=a.grammar, scores=scores)

    @staticmethod
    def _from_file(item: dict, rec: REC.Predictions, fmt: str, match: str, few: bool) -> dict:
        out = REC.record(item, REC.find(rec, item), fmt, match)
        return REC.fewshot_fields(out, item) if few else out

    def coverage(self, items, ctx: RunContext) -> dict | None:
        """A recorded run's coverage of its items (None: a model run)."""
        rec = self._recorded(ctx)
        return None if rec is None else REC.coverage(rec, items)

    def _recorded_summary(self, out: dict, records, items, ctx: RunContext) -> dict:
        """A recorded run's summary: its coverage (items scored, items the file had no line for, lines
        that named no item; accuracy over the items scored and over all items)."""
        if (rec := self._recorded(ctx)) is not None:
            out["items_without_predictions"] = sum(REC.find(rec, it) is None for it in items)
            out["lines_without_items"] = REC.unmatched(rec, items)
            out["coverage"] = M.coverage_accuracy(REC.coverage(rec, items), records, top1_gold, TOP1_GOLD)
        return out


class ZeroShotSuite(_AmpSuite):
    name = "amp-zeroshot"
    setting = "zeroshot"

    def options(self) -> Sequence[Option]:
        return (*AMP_OPTIONS, INGREDIENTS_OPTION)

    def settings(self, ctx: RunContext) -> dict:
        return {**super().settings(ctx), "ingredients": ctx.args.ingredients}

    def items(self, ctx: RunContext) -> list[dict]:
        a = ctx.args
        return zeroshot_items(a.types, a.seed, a.limit, a.fmt, a.data, a.ingredients)

    process_item = staticmethod(zeroshot_process)

    def summarise(self, records, items, ctx: RunContext) -> dict:
        a = ctx.args
        settings = self.settings(ctx)
        if settings["items_source"] == "amp-release":
            settings["release_matched"] = amp_items.release_matched(a.types, a.data, a.seed)
        return self._recorded_summary(zeroshot_summary(records, self._model(ctx), settings), records, items, ctx)

    def write_reports(self, records, summary: dict, ctx: RunContext) -> None:
        write_zeroshot_reports(ctx.out, records, summary)

    def headline(self, summary: dict) -> str:
        return "; ".join(f"{t}: LF0 {R.pct(v['acc_lf0'])}% LF1 {R.pct(v['acc_lf1'])}% ZM5 "
                         f"{R.pct(v['zm']['5'])}%" for t, v in summary["by_type"].items())


class FewShotSuite(_AmpSuite):
    name = "amp-fewshot"
    setting = "fewshot"

    def run_key(self, ctx: RunContext) -> dict:
        return {**super().run_key(ctx), "ratios": [ratio_key(r) for r in ctx.args.ratios]}

    def items(self, ctx: RunContext) -> list[dict]:
        a = ctx.args
        return fewshot_items(a.types, a.ratios, a.seed, a.limit, a.fmt, a.data)

    process_item = staticmethod(fewshot_process)

    def summarise(self, records, items, ctx: RunContext) -> dict:
        return self._recorded_summary(fewshot_summary(records, self._model(ctx), self.settings(ctx)), records, items,
                                      ctx)

    def write_reports(self, records, summary: dict, ctx: RunContext) -> None:
        write_fewshot_reports(ctx.out, records, summary)

    def headline(self, summary: dict) -> str:
        gone = summary.get("absent") or {}
        absent = bool(gone)
        return "; ".join(f"{t}: FDM {_na(v['fdm'], 'fdm' in gone)} FIM {_na(v['fim'], 'fim' in gone)}"
                         + (f" (no prompt log-probabilities; unparsed top-1 {v['unparsed_top1']}/{v['n']})"
                            if absent else "")
                         for t, v in summary["by_type"].items())
