"""Build RADD instances from facts (our JSON, or Wikidata SPARQL results) as the paper does: two
of an entity's rows with disjoint spans and different values give a de dicto and a de re
instance; unlike the paper, skipped when both readings would hold. Same seed, same bytes."""

from __future__ import annotations

import datetime as dt
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from ambit.generators.radd.render import render_messages
from ambit.logic.radd.instance import MonthDate, Option, PropertyFact, RaddInstance, RelationSpan
from ambit.logic.radd.phrasings import PROMPT_STYLES, Phrasing, default_phrasings


@dataclass(frozen=True)
class FactRow:
    entity: str
    relation: str
    start: dt.date
    end: dt.date
    value: str


@dataclass(frozen=True)
class FactSet:
    pair: str
    rows: tuple[FactRow, ...]
    question_variant: int = 0


def parse_date(text: str) -> dt.date:
    """`YYYY-MM`, `YYYY-MM-DD`, a Wikidata timestamp or `Month YYYY`; month-only: its first day."""
    text = str(text).strip()
    if text[:1].isalpha():
        md = MonthDate.from_text(text)
        return dt.date(md.year, md.month, 1)
    parts = text.lstrip("+").split("T")[0].split("-")
    if len(parts) == 2:
        return dt.date(int(parts[0]), int(parts[1]), 1)
    return dt.date(int(parts[0]), int(parts[1]) or 1, int(parts[2]) or 1)


def load_facts(path: str | Path, pair: str | None = None, question_variant: int | None = None) -> list[FactSet]:
    """Fact sets from our facts JSON or from Wikidata SPARQL JSON (then `pair` is required)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if isinstance(data, dict) and "results" in data and "bindings" in data.get("results", {}):
        if pair is None:
            raise ValueError("SPARQL results do not say which property pair they are: pass --pair")
        return [FactSet(pair, tuple(sparql_rows(data)), question_variant or 0)]
    blocks = data if isinstance(data, list) else [data]
    sets = []
    for b in blocks:
        rows = []
        props = b.get("properties", {})
        for r in b["relations"]:
            values = props.get(r["relation"], r.get("values", r.get("value")))
            if values is None:
                continue  # no property value: the relation cannot be premised (as in the query's join)
            for v in [values] if isinstance(values, str) else values:
                rows.append(FactRow(r["entity"], r["relation"], parse_date(r["start"]), parse_date(r["end"]), v))
        qv = question_variant if question_variant is not None else b.get("question_variant", 0)
        sets.append(FactSet(b.get("pair") or pair, tuple(rows), qv))
    return sets


def sparql_rows(data: dict[str, Any]) -> Iterator[FactRow]:
    """Rows of a Wikidata SPARQL JSON result set (rows missing a date are dropped)."""
    def val(b: dict, *names: str) -> str | None:
        return next((b[n]["value"] for n in names if n in b), None)

    for b in data["results"]["bindings"]:
        start, end = val(b, "startTime", "startTimeLabel"), val(b, "endTime", "endTimeLabel")
        entity, relation = val(b, "entityLabel", "entity"), val(b, "relationLabel", "relation")
        value = val(b, "propertyLabel", "property")
        if None in (start, end, entity, relation, value):
            continue
        try:
            yield FactRow(entity, relation, parse_date(start), parse_date(end), value)
        except ValueError:
            continue


def generate(facts: FactSet, seed: int = 0, style: str = "direct",
             phrasings: dict[str, Phrasing] | None = None) -> list[RaddInstance]:
    """All mirror instances of a fact set, de dicto then de re per relation pair."""
    ph = (phrasings or default_phrasings())[facts.pair]
    if style not in PROMPT_STYLES:
        raise ValueError(f"unknown prompt style {style!r}")
    rng = random.Random(seed)
    rows = [r for r in facts.rows if r.end > r.start]
    by_entity: dict[str, list[FactRow]] = {}
    for r in rows:
        by_entity.setdefault(r.entity, []).append(r)
    out: list[RaddInstance] = []
    for entity in sorted(by_entity):
        erows = by_entity[entity]
        spans, props = _premises(erows, ph, rng)
        values_of: dict[str, set[str]] = {}
        for r in erows:
            values_of.setdefault(r.relation, set()).add(r.value)
        for q1 in erows:
            for q2 in erows:
                if not (q1.start < q2.start and min(q1.end, q2.end) < max(q1.start, q2.start)):
                    continue
                if q1.value == q2.value or q1.value in values_of[q2.relation] or q2.value in values_of[q1.relation]:
                    continue
                for label in ("de_dicto", "de_re"):
                    out.append(_instance(entity, q1, q2, label, spans, props, ph, facts.question_variant, style, rng))
    return out


def _premises(rows: list[FactRow], ph: Phrasing, rng: random.Random):
    """The entity's span premises (first-seen order, no repeats), then its property premises
    (shuffled), numbered from P1; the regularity follows them."""
    span_keys = list(dict.fromkeys((r.relation, _month(r.start), _month(r.end)) for r in rows))
    prop_keys = list(dict.fromkeys((r.relation, r.value) for r in rows))
    rng.shuffle(prop_keys)
    spans = tuple(RelationSpan(i, rel, s, e) for i, (rel, s, e) in enumerate(span_keys, 1))
    props = tuple(PropertyFact(len(spans) + i, rel, v, ph.split_values(v))
                  for i, (rel, v) in enumerate(prop_keys, 1))
    return spans, props


def _instance(entity, q1: FactRow, q2: FactRow, label: str, spans, props, ph: Phrasing, variant: int,
              style: str, rng: random.Random) -> RaddInstance:
    question_date = _month(_sample(q1.start, q1.end, rng))
    current_date = _month(_sample(q2.start, q2.end, rng))
    readings = [("de_dicto", q1.relation), ("de_re", q2.relation)]
    rng.shuffle(readings)
    options = tuple(Option(n, reading, rel, variant) for n, (reading, rel) in enumerate(readings, 1))
    value = q1.value if label == "de_dicto" else q2.value
    return RaddInstance(
        pair=ph.key, entity=entity, spans=spans, properties=props, regularity=ph.regularity,
        regularity_premise=len(spans) + len(props) + 1, current_date=current_date, sentence_date=question_date,
        value_text=value, values=ph.split_values(value), options=options,  # type: ignore[arg-type]
        question_variant=variant, prompt_style=style,
        label_nr=next(o.number for o in options if o.reading == label), label_name=label,
    )


def _sample(start: dt.date, end: dt.date, rng: random.Random) -> dt.date:
    """A day drawn uniformly from [start, end]."""
    return start + dt.timedelta(days=rng.randint(0, (end - start).days))


def _month(d: dt.date) -> MonthDate:
    return MonthDate(d.year, d.month)


def to_row(inst: RaddInstance) -> dict[str, Any]:
    """The benchmark's row layout (without model responses)."""
    return {"label_nr": inst.label_nr, "label_name": inst.label_name, "messages": render_messages(inst),
            "entity": inst.entity, "property": inst.value_text, "prompt_style": inst.prompt_style}
