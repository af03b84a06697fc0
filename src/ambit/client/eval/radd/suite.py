"""RADD rows, records and summaries (accuracy, per-class P/R/F1, confusion: Tables 3/4) shared by
every solver of the ``radd`` suite: answers into records, records into tables."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from ambit.client.eval.radd import metrics as M
from ambit.generators.radd.instance import RaddInstance
from ambit.generators.radd.loader import iter_jsonl
from ambit.client.eval.radd.parse import PARSERS
from ambit.client.eval.report_common import num, pct
from ambit.generators.radd.prompts import parse_choice
from ambit.generators.radd.wikidata import pair_with_label


@dataclass(frozen=True)
class Row:
    """One benchmark line: the parsed instance, the raw row, and where it came from."""

    instance: RaddInstance
    raw: dict[str, Any]
    model: str  # the folder the file lies in (chatgpt, koala, oasst, ...)
    source: str  # path:line

    @property
    def pair(self) -> str:
        return self.instance.pair


def data_files(paths: Iterable[Path]) -> list[Path]:
    """Files as given; folders (or a data root holding radd/benchmark) searched recursively."""
    paths = [Path(p) for p in paths]
    files: list[Path] = []
    for p in paths:
        if p.is_dir():
            root = p / "radd" / "benchmark" if (p / "radd" / "benchmark").is_dir() else p
            files += sorted(root.rglob("*_results_*.jsonl"))
        elif p.is_file():
            files.append(p)
        else:
            raise FileNotFoundError(f"--data: no such RADD file or folder: {p}")
    if not files:
        raise FileNotFoundError(f"--data: no RADD result files (*_results_*.jsonl) under {', '.join(map(str, paths))}")
    return files


def load_rows(files: Sequence[Path]) -> list[Row]:
    return [Row(inst, raw, Path(f).parent.name, inst.source or str(f)) for f in files for inst, raw in iter_jsonl(f)]


def unique_instances(rows: Sequence[Row]) -> list[Row]:
    """The first row of each distinct prompt (the models share their instances)."""
    first: dict[str, Row] = {}
    for r in rows:
        first.setdefault("\n".join(r.raw["messages"]), r)
    return list(first.values())


def recorded_choice(raw: dict[str, Any], style: str) -> int | None:
    """The option a model chose: `results.choice` when present, else parsed from `responses`."""
    results = raw.get("results")
    if isinstance(results, dict):
        choice = results.get("choice")
        return int(choice) if choice is not None and str(choice).strip().isdigit() else None
    return parse_choice(style, recorded_replies(raw))


def has_reply(raw: dict[str, Any]) -> bool:
    """Whether a benchmark row holds a recorded reply (`results`, or `responses`)."""
    return isinstance(raw.get("results"), dict) or bool(raw.get("responses"))


def recorded_replies(raw: dict[str, Any]) -> list[str]:
    """The text of each recorded reply of a benchmark row."""
    return [_reply_text(r) for r in raw.get("responses") or []]


def _reply_text(response: Any) -> str:
    if isinstance(response, str):
        return response
    return response["choices"][0]["message"]["content"]


def record(row: Row, choice: int | None, pred: str | None = None, **extra: Any) -> dict[str, Any]:
    """One item's record; ``pred`` overrides the reading of ``choice`` ("both_consistent")."""
    inst = row.instance
    pred = pred or M.reading_of(choice, inst.label_nr, inst.label_name)
    return {"id": row.source, "model": row.model, "pair": inst.pair, "style": inst.prompt_style,
            "label_nr": inst.label_nr, "label_name": inst.label_name, "choice": choice, "pred": pred,
            "correct": pred == inst.label_name, **extra}


def evaluate_chooser(rows: Sequence[Row], choose: Callable[[RaddInstance], int | None]) -> list[dict[str, Any]]:
    """The hook for other solvers: records for `choose(instance) -> option number | None`."""
    return [record(r, choose(r.instance)) for r in rows]


def summarise(records: Sequence[dict[str, Any]], solver: str) -> dict[str, Any]:
    """Figures of one model in one style at the top level; with several, only ``by_model`` and
    ``by_style`` (style -> model -> figures): models or styles are never pooled, as in the paper."""
    if solver == "prolog":  # one solver, whichever model's file an instance was read from
        records = [{**r, "model": "prolog"} for r in records]
    models = sorted({r["model"] for r in records})
    styles = sorted({r.get("style", "direct") for r in records})
    out: dict[str, Any] = {"suite": "radd", "solver": solver}
    if len(models) <= 1 and len(styles) <= 1:
        out.update(_block(records))
    else:
        out.update(n=len(records), accuracy=None, pooled=False)
    if solver != "prolog":
        out["by_model"] = {m: _block([r for r in records if r["model"] == m]) for m in models}
    out["by_style"] = _by_style(records, models, styles)
    if any("choice_strict" in r for r in records):
        out.update(answer_parsers(records, models, styles))
    if solver == "prolog":
        out["status"] = dict(Counter(r["status"] for r in records))
        out["cite_premises"] = sum(_cites_premises(r["verdict"]) for r in records)
        out["undecided"] = [r["id"] for r in records if r["status"] != "one"]
    return out


def answer_parsers(records: Sequence[dict[str, Any]], models: Sequence[str], styles: Sequence[str]) -> dict[str, Any]:
    """Both answer parsers' figures (``by_parser``: parser -> style -> model -> figures), the run's
    parser, and ``parsers_differ``: answers the two read as different readings."""
    def reread(parser: str) -> list[dict[str, Any]]:
        return [{**r, "pred": M.reading_of(r[f"choice_{parser}"], r["label_nr"], r["label_name"])} for r in records]
    by_parser = {parser: _by_style(reread(parser), models, styles) for parser in PARSERS}
    differ = sum(M.reading_of(r["choice_paper"], r["label_nr"], r["label_name"])
                 != M.reading_of(r["choice_strict"], r["label_nr"], r["label_name"]) for r in records)
    return {"answer_parser": records[0].get("answer_parser", "paper") if records else "paper",
            "by_parser": by_parser, "parsers_differ": differ}


def _by_style(records: Sequence[dict], models: Sequence[str], styles: Sequence[str]) -> dict:
    """style -> model -> figures, leaving out a model with no record in a style."""
    def of(st: str, m: str) -> list[dict[str, Any]]:
        return [r for r in records if r.get("style", "direct") == st and r["model"] == m]
    return {st: {m: _block(sub) for m in models if (sub := of(st, m))} for st in styles}


def _block(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    gold = [r["label_name"] for r in records]
    pred = [r["pred"] for r in records]
    s = M.summarise(gold, pred)
    s["per_class_macro"] = M.per_class_macro(gold, pred, [r["pair"] for r in records])
    pairs = sorted({r["pair"] for r in records})
    s["by_pair"] = {p: M.accuracy(*zip(*[(r["label_name"], r["pred"]) for r in records if r["pair"] == p]))
                    for p in pairs}
    return s


def _cites_premises(verdict: dict[str, Any]) -> bool:
    """Every interpretation's derivation names the premises it used, and each step cites one."""
    return all(v["premises"] and all(f"{p}" in " ".join(v["derivation"]) for p in v["premises"])
               for v in verdict["interpretations"].values())


def markdown(s: dict[str, Any]) -> str:
    """``summary.md``: per prompt style (the paper splits Direct and CoT) Tables 3 and 4 and
    accuracy per pair, a row per model; for the prolog solver its verdict counts."""
    head = f"n = {s['n']}" + (f", accuracy = {pct(s['accuracy'])}%" if s.get("accuracy") is not None else
                              " (figures per model and style below; different models are not pooled)")
    from ambit.client.eval.glossary import glossary
    lines = [f"# RADD — solver `{s['solver']}`" + (f", protocol `{s['protocol']}`" if s.get("protocol") else ""), ""]
    if s.get("coverage"):  # recorded replies: a headline number (the tables count the rows that have one)
        from ambit.client.eval.report_common import coverage_markdown

        lines += [coverage_markdown(s["coverage"], s["coverage"].get("what", "recorded replies"))]
    lines += [glossary("radd"), head, ""]
    for style, blocks in s["by_style"].items():
        lines += [f"## Prompt style `{style}`", ""] + _style_section(blocks) + [""]
    lines += ["An undefined figure of a pair (e.g. precision of a class never predicted there) counts as 0 in "
              "the mean, as in the paper. *both consistent*: the solver found the premises leave both readings "
              "open; *neither*: no usable answer (an unparseable reply), as the paper counts it."]
    if "by_parser" in s:
        lines += _parsers_section(s)
    if "status" in s:
        lines += _prolog_section(s)
    return "\n".join(lines) + "\n"


def _parsers_section(s: dict[str, Any]) -> list[str]:
    """Accuracy and Table 3's F1 under both answer parsers, and how many answers they read apart."""
    lines = ["", f"## Answer parsers (figures above: `{s['answer_parser']}`)", "",
             "`paper`: the released regexes (first `Option N`; first ` N` of the chain-of-thought follow-up; "
             "a number other than the label counts as the other class). `strict`: the last explicit `Option N` / "
             "`FINAL ANSWER: N`; both options named, none, or a number other than 1 or 2 is *neither*.", "",
             f"Answers the two parsers read differently: {s['parsers_differ']}", "",
             "| parser | style | model | accuracy | neither | de dicto F1 (Table 3) | de re F1 (Table 3) |",
             "|---|---|---|---|---|---|---|"]
    for parser, styles in s["by_parser"].items():
        for style, blocks in styles.items():
            for name, b in blocks.items():
                macro = b["per_class_macro"]
                lines.append(f"| {parser} | {style} | {name} | {pct(b['accuracy'])} | {b['neither']} | "
                             f"{num(macro['de_dicto']['f1'], 2)} | {num(macro['de_re']['f1'], 2)} |")
    return lines


def _style_section(blocks: dict[str, dict[str, Any]]) -> list[str]:
    """The tables of one prompt style, a row per model."""
    lines = ["### Precision / recall / F1 per class, mean over property pairs (`per_class_macro`; the paper's "
             "Table 3)", ""]
    lines += _prf_table(blocks, "per_class_macro", with_accuracy=False)
    lines += ["", "### Precision / recall / F1 per class, pooled over all instances (`per_class`)", ""]
    lines += _prf_table(blocks, "per_class", with_accuracy=True)
    lines += ["", "### Confusion, % of all instances (Table 4 layout; rows gold)", "",
              "| model | gold | de dicto | de re | both consistent | neither |", "|---|---|---|---|---|---|"]
    for name, b in blocks.items():
        for g in M.CLASSES:
            row = b["confusion"][g]
            lines.append(f"| {name} | {g.replace('_', ' ')} | " + " | ".join(f"{row[c]:.1f}" for c in M.COLUMNS) + " |")
    pairs = sorted({p for b in blocks.values() for p in b["by_pair"]})
    lines += ["", "### Accuracy (%) per property pair", "",
              "| model | " + " | ".join(pair_with_label(p) for p in pairs) + " |", "|---" * (len(pairs) + 1) + "|"]
    for name, b in blocks.items():
        lines.append(f"| {name} | " + " | ".join(pct(b["by_pair"].get(p)) for p in pairs) + " |")
    return lines


def _prf_table(blocks: dict[str, dict[str, Any]], key: str, with_accuracy: bool) -> list[str]:
    """Rows: model; columns: de dicto P/R/F1, de re P/R/F1 (and accuracy) from ``block[key]``."""
    head = "| model | de dicto P | de dicto R | de dicto F1 | de re P | de re R | de re F1 |"
    lines = [head + (" accuracy |" if with_accuracy else ""), "|---" * (7 + with_accuracy) + "|"]
    for name, b in blocks.items():
        pc = b[key]
        cells = [num(pc[c][k], 2) for c in M.CLASSES for k in M.FIGURES]
        lines.append(f"| {name} | " + " | ".join(cells) + (f" | {num(b['accuracy'], 2)} |" if with_accuracy else " |"))
    return lines


def _prolog_section(s: dict[str, Any]) -> list[str]:
    lines = ["", "## Prolog verdicts", "", f"status counts: {s['status']}; derivations citing their "
             f"premises: {s['cite_premises']}/{s['n']}"]
    if s["undecided"]:
        lines += ["", "Instances the premises do not decide (both readings consistent, or neither):", ""]
        lines += [f"- {i}" for i in s["undecided"]]
        lines += ["", "Both readings are consistent when the two relations name the same entity listed "
                  "with two property values (e.g. one club from two countries). The benchmark's generator "
                  "pairs (relation, value) rows whose values differ and takes the sentence's value from the "
                  "row of the gold reading, so which row it picked, and so the label, is not in the text. "
                  "No reasoning from the premises can recover it; these count as `both consistent`."]
    return lines
