"""`ambit eval folio`: NL→FOL translation of FOLIO stories, evaluated by proof.

Modes: translate (a model under the folio decode grammar, through the server like every suite),
`--oracle-translations` (the gold formulas stand in), `--audit-gold` (the gold formulas, proved)
and `--translations FILE` (another system's, `folio.recorded`); only translate needs a model.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ambit.logic.syntax.dialect import FOLIO
from ambit.client.eval import metrics as M
from ambit.client.eval.folio import data as D
from ambit.client.eval.folio import prompt as P
from ambit.client.eval.folio import recorded as REC
from ambit.client.eval.folio import report as FR
from ambit.client.eval.folio import score as S
from ambit.client.eval.folio import translate as T
from ambit.client.eval.suite import Common, MissingData, Named, Option, RunContext, Suite, named, option


def mode(args: argparse.Namespace) -> str:
    """The run's mode: translate, audit, oracle or recorded (two asked for: ValueError)."""
    picked = [f for f, on in (("--audit-gold", args.audit_gold), ("--oracle-translations", args.oracle_translations),
                              ("--translations", args.translations)) if on]
    if len(picked) > 1:
        raise ValueError(f"folio: {' and '.join(picked)} are different runs; pick one")
    return ("audit" if args.audit_gold else "oracle" if args.oracle_translations
            else "recorded" if args.translations else "translate")


def decoding(args: argparse.Namespace) -> T.Decoding:
    """The translate mode's decoding options, checked."""
    if args.samples < 1 or args.beam < 1 or args.shots < 0 or args.max_tokens < 1:
        raise ValueError("folio: --samples, --beam and --max-tokens must be at least 1, --shots at least 0")
    return T.Decoding(samples=args.samples, beam=args.beam, temperature=args.temperature,
                      max_tokens=args.max_tokens, seed=args.seed)


@dataclass(frozen=True)
class FolioSettings(Common):
    """The settings of a FOLIO run; ``recorded`` (--translations, read) is set once per run."""

    mode: str  # translate | audit | oracle | recorded
    split: str
    demo_split: str
    named: frozenset[str]  # the splits named on the command line (required, as --data is)
    shots: int
    decoding: T.Decoding | None  # the translate mode's
    free_variables: str | None  # --free-variables as given (None: the dialect's own rule)
    symbols: str  # the name-space rule: --symbols, else the full dialects' `shared`
    vote: str
    cross_check: bool
    translations: str | None
    translations_format: str
    from_dialect: str  # the dialect of recorded formulas whose line names none
    max_chars: int
    recorded: REC.Recorded | None = None

    @property
    def free_variable_rule(self) -> str:
        """The free-variable reading of the run (`--free-variables`, else the folio dialect's default)."""
        from ambit.logic.syntax.dialect import dialect

        return dialect(FOLIO, self.free_variables).free_variables


class FolioSuite(Suite):
    """The FOLIO suite."""

    name = "folio"

    def options(self) -> Sequence[Option]:
        return (
            option("--split", default="train", action=Named, help="FOLIO split NAME: <data root>/folio/folio-NAME.jsonl (default train)"),
            option("--demo-split", default="train", action=Named, help="split the demonstrations come from (default train)"),
            option("--shots", type=int, default=2, help="demonstration stories per prompt (default 2)"),
            option("--samples", type=int, default=1,
                   help="translations per story; more than 1 are sampled and voted on as LINC did (default 1: beam search)"),
            option("--beam", type=int, default=1, help="beam width of a single-sample run (default 1)"),
            option("--temperature", type=float, default=0.7, help="sampling temperature with --samples > 1"),
            option("--max-tokens", type=int, default=160, help="token budget of one formula"),
            option("--audit-gold", action="store_true", help="prove each story's gold FOL; no model"),
            option("--oracle-translations", action="store_true",
                   help="score the gold formulas as if they were translations; no model"),
            option("--translations", metavar="FILE", default=None,
                   help="score recorded translations from FILE (ambit's JSONL or Logic-LM's logic programs); no model"),
            option("--max-chars", type=int, default=REC.MAX_CHARS, metavar="N",
                   help=f"longest recorded formula read (default {REC.MAX_CHARS}); a longer one is a failed "
                        "sample that says so"),
            option("--translations-format", choices=REC.FORMATS, default="auto",
                   help="format of --translations FILE (default auto: detected)"),
            option("--from", dest="from_dialect", choices=REC.DIALECTS, default=None, metavar="DIALECT",
                   help=f"dialect of recorded formulas whose line names none: {', '.join(REC.DIALECTS)} "
                        f"(default folio)"),
            option("--free-variables", choices=("universal", "constant", "error"), default=None,
                   help="how a variable no quantifier binds is read, in translations and gold alike "
                        "(default: the dialect's, universal closure)"),
            option("--symbols", choices=("shared", "separate"), default=None,
                   help="shared (default): a name used as a predicate and as a constant or function in one "
                        "story is an error (label_problem symbol_kind), as in Prover9, E and TPTP; separate: "
                        "two symbols"),
            option("--vote", choices=S.VOTES, default="majority",
                   help="how samples vote: majority (default, as ambit always has) or drop-errors (a sample "
                        "without a label does not vote; an example with no labelled sample counts as wrong)"),
            option("--cross-check", action="store_true",
                   help="re-decide every definite label with E and with Z3 alone (summary.json: cross_check)"),
        )

    def configure(self, args: argparse.Namespace, common: Common) -> FolioSettings:
        from ambit.logic.syntax.dialect import dialect

        m = mode(args)
        return FolioSettings(**vars(common), mode=m, split=args.split, demo_split=args.demo_split,
                             named=named(args), shots=args.shots, decoding=decoding(args) if m == "translate" else None,
                             free_variables=args.free_variables, symbols=dialect(FOLIO, symbols=args.symbols).symbols,
                             vote=args.vote, cross_check=args.cross_check, translations=args.translations,
                             translations_format=args.translations_format, from_dialect=args.from_dialect or FOLIO,
                             max_chars=args.max_chars)

    def needs_server(self, s: FolioSettings) -> bool:
        return s.mode == "translate"  # the audit and the oracle run no model

    def missing_data(self, s: FolioSettings) -> MissingData | None:
        needed = [s.split] + ([s.demo_split] if s.mode == "translate" else [])
        for split in dict.fromkeys(needed):
            if (m := D.missing(s.root, split, self.name)) is not None:
                given = [f"--{d.replace('_', '-')} {split}" for d in ("split", "demo_split")
                         if d in s.named and getattr(s, d) == split]
                if given:  # a split named on the command line is required, as --data is
                    raise ValueError(f"{given[0]}: {m.files[0]} does not exist ({m.dataset}, from {m.origin})")
                return m
        return None

    def desc(self, s: FolioSettings) -> str:
        return f"folio-{s.mode}"

    def resolve(self, ctx: RunContext) -> FolioSettings:
        """The --translations file, read once per run."""
        s = ctx.settings
        if s.mode != "recorded":
            return s
        return replace(s, recorded=REC.read(s.translations, s.translations_format, s.from_dialect,
                                            max_chars=s.max_chars))

    def run_key(self, ctx: RunContext) -> dict:
        s = ctx.settings
        path = D.split_path(s.root, s.split)
        key = {"suite": self.name, "mode": s.mode, "split": s.split, "data": str(path),
               "data_shape": D.split_shape(path) if path.exists() else None, "limit": s.limit,
               "free_variables": s.free_variable_rule, "symbols": s.symbols, "vote": s.vote}
        if s.recorded is not None:
            key.update(translations=str(s.recorded.path), translations_format=s.recorded.format, dialect=s.from_dialect)
            if s.max_chars != REC.MAX_CHARS:  # the default keeps older run keys
                key.update(max_chars=s.max_chars)
        if s.mode == "translate":
            key.update(model=ctx.model or s.model or "default", demo_split=s.demo_split, shots=s.shots,
                       **vars(s.decoding))
        return key

    def items(self, ctx: RunContext) -> list[dict]:
        s = ctx.settings
        stories = D.read_split(D.split_path(s.root, s.split))
        if s.limit is not None:
            stories = stories[: s.limit]
        return [{"id": x.id, "row": D.to_row(x)} for x in stories]

    def processor(self, ctx: RunContext):
        s = ctx.settings
        how = {"free_variables": s.free_variables, "symbols": s.symbols, "vote_rule": s.vote}
        if s.mode == "audit":
            return lambda item: self._audit(item, s.free_variables, s.symbols)
        if s.mode == "oracle":
            return lambda item: self._oracle(item, how)
        if s.mode == "recorded":
            return lambda item: self._recorded(item, s.recorded, how)
        pool = P.demo_pool(D.read_split(D.split_path(s.root, s.demo_split)))
        return lambda item: self._translate(item, pool, how, ctx)

    @staticmethod
    def _story(item: dict) -> D.Story:
        return D.story_from_row(item["row"], f"item {item['id']}", item["id"])

    def _audit(self, item: dict, fv: str | None = None, symbols: str | None = None) -> dict:
        s = self._story(item)
        return {"story_id": s.story_id, "label": s.label, **S.audit(s, fv, symbols)}

    def _oracle(self, item: dict, how: dict) -> dict:
        s = self._story(item)
        # every gold premise formula, so that the label is the audit's
        return S.score_story(s, [{"premises": list(s.premises_fol), "conclusion": s.conclusion_fol, "oracle": True}],
                             **how)

    def coverage(self, items, ctx: RunContext) -> dict | None:
        """A recorded run's coverage of its items (None: the other modes)."""
        s = ctx.settings
        return None if s.recorded is None else REC.coverage(s.recorded, [str(it["id"]) for it in items], s.split)

    def _recorded(self, item: dict, rec: REC.Recorded, how: dict) -> dict:
        s = self._story(item)
        ex = rec.examples.get(s.id)
        samples = list(ex.samples) if ex else [
            {"premises": None, "conclusion": None, "error": f"no translation of example {s.id} in {rec.path}"}]
        out = S.score_story(s, samples, fmt=ex.dialect if ex else FOLIO, **how)
        out.update(dialect=ex.dialect if ex else None, recorded=ex is not None)
        return out

    def _translate(self, item: dict, pool, how: dict, ctx: RunContext) -> dict:
        s, d = self._story(item), ctx.settings.decoding
        demos = P.pick_demos(pool, s, ctx.settings.shots, d.seed)
        head = P.header(demos)
        samples, model_id = T.translate(ctx.client, head, s.id, s.sentences, d, timeout=ctx.settings.timeout)
        rec = S.score_story(s, samples, **how)
        rec.update(model_id=model_id or ctx.model or "", demos=[x.id for x in demos],
                   demo_story_ids=[x.story_id for x in demos], prompt_header=head,
                   sentences=list(s.sentences))
        return rec

    def summarise(self, records, items, ctx: RunContext) -> dict:
        s = ctx.settings
        out = FR.summary(records, s.mode, s.vote)
        path = D.split_path(s.root, s.split)
        out.update(split=s.split, seed=s.seed, data_shape=D.split_shape(path) if path.exists() else None,
                   free_variables=s.free_variable_rule, symbols=s.symbols)
        if (rec := s.recorded) is not None:
            out.update(translations=str(rec.path), translations_format=rec.format,
                       examples_without_translations=sum(1 for r in records if not r.get("recorded", True)),
                       coverage=M.coverage_accuracy(REC.coverage(rec, [str(it["id"]) for it in items], s.split),
                                                    records, lambda r: r.get("voted_correct"),
                                                    f"the voted label is the gold label ({s.vote} vote)"))
        if s.cross_check and s.mode != "audit":
            out["cross_check"] = REC.cross_check(records, {str(r["id"]): r.get("dialect") or FOLIO for r in records},
                                                 free_variables=s.free_variables)
        if s.mode == "translate":
            out.update(model=next((r.get("model_id") for r in records if r.get("model_id")), s.model or "default"),
                       demo_split=s.demo_split, shots=s.shots, decoding=vars(s.decoding))
        return out

    def write_reports(self, records, summary: dict, ctx: RunContext) -> None:
        FR.write_reports(ctx.out, records, summary)

    def headline(self, summary: dict) -> str:
        return FR.headline(summary)
