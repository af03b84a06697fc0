"""`ambit eval folio`: NL→FOL translation of FOLIO stories, evaluated by proof.

Three modes over one split (`--split NAME`: `<data root>/folio/folio-NAME.jsonl`):
- translate (default): a model writes each premise and the conclusion under the decode grammar
  (`folio_translate`), with a seeded k-shot prompt from `--demo-split` (`folio_prompt`); each
  sentence is compared with its gold formula and each sample's label comes from the prover
  (`folio_score`); `--samples k` votes as LINC did;
- `--oracle-translations`: the gold formulas stand in for the translations (no model): every
  sentence is EQUIVALENT and label accuracy equals the audit's agreement rate;
- `--audit-gold`: only the gold formulas, proved: `agrees` per story, disagreements listed;
- `--translations FILE`: another system's recorded translations (`folio_recorded`), scored like
  the translate mode's (no model).

The translate mode goes through the server like every other suite (ParseDistribution with the
`folio` format, decoded under the folio decode grammar): the embedded server, `--server
host:port`, a model served elsewhere with its key and cache options, and `--workers`. The audit
and the oracle need no model and run in this process.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from ambit.logic.syntax.dialect import FOLIO
from ambit.client.eval import metrics as M
from ambit.client.eval.folio import data as D
from ambit.client.eval.folio import prompt as P
from ambit.client.eval.folio import recorded as REC
from ambit.client.eval.folio import report as FR
from ambit.client.eval.folio import score as S
from ambit.client.eval.folio import translate as T
from ambit.client.eval.suite import MissingData, Named, Option, RunContext, Suite, data_root, named, option


def mode(args: argparse.Namespace) -> str:
    picked = [f for f, on in (("--audit-gold", getattr(args, "audit_gold", False)),
                              ("--oracle-translations", getattr(args, "oracle_translations", False)),
                              ("--translations", getattr(args, "translations", None))) if on]
    if len(picked) > 1:
        raise ValueError(f"folio: {' and '.join(picked)} are different runs; pick one")
    return ("audit" if args.audit_gold else "oracle" if args.oracle_translations
            else "recorded" if getattr(args, "translations", None) else "translate")


def decoding(args: argparse.Namespace) -> T.Decoding:
    if args.samples < 1 or args.beam < 1 or args.shots < 0 or args.max_tokens < 1:
        raise ValueError("folio: --samples, --beam and --max-tokens must be at least 1, --shots at least 0")
    return T.Decoding(samples=args.samples, beam=args.beam, temperature=args.temperature,
                      max_tokens=args.max_tokens, seed=args.seed)


def _free_variables(args: argparse.Namespace) -> str:
    """The free-variable reading of the run (`--free-variables`, else the folio dialect's default)."""
    from ambit.logic.syntax.dialect import dialect

    return dialect(FOLIO, getattr(args, "free_variables", None)).free_variables


def _symbols(args: argparse.Namespace) -> str:
    """The name-space rule of the run (`--symbols`, else the full dialects' `shared`)."""
    from ambit.logic.syntax.dialect import dialect

    return dialect(FOLIO, symbols=getattr(args, "symbols", None)).symbols


def _from(args: argparse.Namespace) -> str:
    """The dialect of recorded formulas whose line names none (`--from`, default folio)."""
    return getattr(args, "from_dialect", None) or FOLIO


def _vote(args: argparse.Namespace) -> str:
    """The voting rule of the run (`--vote`, default majority)."""
    return getattr(args, "vote", None) or "majority"


class FolioSuite(Suite):
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

    def needs_server(self, args: argparse.Namespace) -> bool:
        return mode(args) == "translate"  # the audit and the oracle run no model

    def missing_data(self, args: argparse.Namespace) -> MissingData | None:
        root = data_root(args)
        needed = [args.split] + ([args.demo_split] if mode(args) == "translate" else [])
        for split in dict.fromkeys(needed):
            if (m := D.missing(root, split, self.name)) is not None:
                given = [f"--{d.replace('_', '-')} {split}" for d in ("split", "demo_split")
                         if named(args, d) and getattr(args, d) == split]
                if given:  # a split named on the command line is required, as --data is
                    raise ValueError(f"{given[0]}: {m.files[0]} does not exist ({m.dataset}, from {m.origin})")
                return m
        return None

    def desc(self, ctx: RunContext) -> str:
        return f"folio-{mode(ctx.args)}"

    def run_key(self, ctx: RunContext) -> dict:
        a = ctx.args
        path = D.split_path(data_root(a), a.split)
        key = {"suite": self.name, "mode": mode(a), "split": a.split,
               "data": str(path), "data_shape": D.split_shape(path) if path.exists() else None, "limit": a.limit}
        key["free_variables"] = _free_variables(a)
        key.update(symbols=_symbols(a), vote=_vote(a))
        if key["mode"] == "recorded":
            rec = self._recorded_file(a)
            key.update(translations=str(rec.path), translations_format=rec.format, dialect=_from(a))
            if getattr(a, "max_chars", REC.MAX_CHARS) != REC.MAX_CHARS:  # the default keeps older run keys
                key.update(max_chars=a.max_chars)
        if key["mode"] == "translate":
            key.update(model=ctx.model or a.model or "default", demo_split=a.demo_split, shots=a.shots,
                       **vars(decoding(a)))
        return key

    def items(self, ctx: RunContext) -> list[dict]:
        a = ctx.args
        stories = D.read_split(D.split_path(data_root(a), a.split))
        if a.limit is not None:
            stories = stories[: a.limit]
        return [{"id": s.id, "row": D.to_row(s)} for s in stories]

    def processor(self, ctx: RunContext):
        a = ctx.args
        m = mode(a)
        fv = getattr(a, "free_variables", None)
        how = {"symbols": _symbols(a), "vote_rule": _vote(a)}
        if m == "audit":
            return lambda item: self._audit(item, fv, how["symbols"])
        if m == "oracle":
            return lambda item: self._oracle(item, fv, how)
        if m == "recorded":
            rec = self._recorded_file(a)
            return lambda item: self._recorded(item, rec, fv, how)
        d = decoding(a)
        pool = P.demo_pool(D.read_split(D.split_path(data_root(a), a.demo_split)))
        return lambda item: self._translate(item, pool, d, a.shots, ctx)

    @staticmethod
    def _story(item: dict) -> D.Story:
        return D.story_from_row(item["row"], f"item {item['id']}", item["id"])

    def _audit(self, item: dict, fv: str | None = None, symbols: str | None = None) -> dict:
        s = self._story(item)
        return {"story_id": s.story_id, "label": s.label, **S.audit(s, fv, symbols)}

    def _oracle(self, item: dict, fv: str | None = None, how: dict | None = None) -> dict:
        s = self._story(item)
        # every gold premise formula, paired with its sentence by order when the counts match
        # (else unpaired and counted), so that the label is the audit's
        return S.score_story(s, [{"premises": list(s.premises_fol), "conclusion": s.conclusion_fol, "oracle": True}],
                             free_variables=fv, **(how or {}))

    def _recorded_file(self, a: argparse.Namespace) -> REC.Recorded:
        """The --translations file, read once per run (its examples that name no item of the run
        are counted by `coverage`)."""
        key = (a.translations, a.translations_format, _from(a), getattr(a, "max_chars", REC.MAX_CHARS))
        if getattr(self, "_rec_key", None) != key:
            rec = REC.read(a.translations, a.translations_format, _from(a),
                           max_chars=getattr(a, "max_chars", REC.MAX_CHARS))
            self._rec_key, self._rec = key, rec
        return self._rec

    def coverage(self, items, ctx: RunContext) -> dict | None:
        """A recorded run's coverage of its items (None: the other modes)."""
        if mode(ctx.args) != "recorded":
            return None
        return REC.coverage(self._recorded_file(ctx.args), [str(it["id"]) for it in items], ctx.args.split)

    def _recorded(self, item: dict, rec: REC.Recorded, fv: str | None = None, how: dict | None = None) -> dict:
        s = self._story(item)
        ex = rec.examples.get(s.id)
        samples = list(ex.samples) if ex else [
            {"premises": None, "conclusion": None, "error": f"no translation of example {s.id} in {rec.path}"}]
        out = S.score_story(s, samples, fmt=ex.dialect if ex else FOLIO, free_variables=fv, **(how or {}))
        out.update(dialect=ex.dialect if ex else None, recorded=ex is not None)
        return out

    def _translate(self, item: dict, pool, d: T.Decoding, shots: int, ctx: RunContext) -> dict:
        s = self._story(item)
        demos = P.pick_demos(pool, s, shots, d.seed)
        head = P.header(demos)
        samples, model_id = T.translate(ctx.client, head, s.id, s.sentences, d, timeout=ctx.args.timeout)
        rec = S.score_story(s, samples, free_variables=getattr(ctx.args, "free_variables", None),
                            symbols=_symbols(ctx.args), vote_rule=_vote(ctx.args))
        rec.update(model_id=model_id or ctx.model or "", demos=[x.id for x in demos],
                   demo_story_ids=[x.story_id for x in demos], prompt_header=head,
                   sentences=list(s.sentences))
        return rec

    def summarise(self, records, items, ctx: RunContext) -> dict:
        a = ctx.args
        out = FR.summary(records, mode(a), _vote(a))
        path = D.split_path(data_root(a), a.split)
        out.update(split=a.split, seed=a.seed, data_shape=D.split_shape(path) if path.exists() else None,
                   free_variables=_free_variables(a), symbols=_symbols(a))
        if mode(a) == "recorded":
            rec = self._recorded_file(a)
            out.update(translations=str(rec.path), translations_format=rec.format,
                       examples_without_translations=sum(1 for r in records if not r.get("recorded", True)),
                       coverage=M.coverage_accuracy(REC.coverage(rec, [str(it["id"]) for it in items], a.split),
                                                    records, lambda r: r.get("voted_correct"),
                                                    f"the voted label is the gold label ({_vote(a)} vote)"))
        if getattr(a, "cross_check", False) and mode(a) != "audit":
            out["cross_check"] = REC.cross_check(records, {str(r["id"]): r.get("dialect") or FOLIO for r in records},
                                                 free_variables=getattr(a, "free_variables", None))
        if mode(a) == "translate":
            out.update(model=next((r.get("model_id") for r in records if r.get("model_id")), a.model or "default"),
                       demo_split=a.demo_split, shots=a.shots, decoding=vars(decoding(a)))
        return out

    def write_reports(self, records, summary: dict, ctx: RunContext) -> None:
        FR.write_reports(ctx.out, records, summary)

    def headline(self, summary: dict) -> str:
        return FR.headline(summary)
