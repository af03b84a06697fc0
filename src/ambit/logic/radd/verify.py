"""RADD verification through Prolog (`logic/engine/prolog/radd.pl`): which reading of an ambiguous
definite description the premises make consistent, with a derivation citing premises by number."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any, Sequence

from ambit.logic.runtime.worker import worker
from ambit.logic.syntax.full_render import escape
from ambit.logic.radd.instance import READINGS, MonthDate
from ambit.logic.radd.parse import parse_prompt

PROGRAM = "radd.pl"
CHUNK = 250  # instances per Prolog goal
SECONDS_PER_INSTANCE = 0.05


@dataclass(frozen=True)
class InterpretationVerdict:
    """The verdict on one reading: consistent | inconsistent | undetermined."""

    reading: str
    relation: str  # the relation the option names
    referent: str | None  # the relation reasoned with (None when the premises give none)
    verdict: str
    placed: bool  # a premise puts the named relation at the reading's reference time
    holders: tuple[str, ...]  # every relation the premises put at that time
    premises: tuple[str, ...]  # P-numbers used, e.g. ("P3", "P9", "P15")
    derivation: tuple[str, ...]
    findings: tuple[str, ...] = ()


@dataclass(frozen=True)
class RaddVerdict:
    interpretations: dict[str, InterpretationVerdict]
    status: str  # one | both | neither | undetermined
    answer_option: int | None
    answer_label: str | None
    derivation: tuple[str, ...]
    notes: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["interpretations"] = {k: asdict(v) for k, v in self.interpretations.items()}
        return d


def verify(instance: Any, time_limit: float = 5.0) -> RaddVerdict:
    return verify_batch([instance], time_limit=time_limit)[0]


def verify_text(text: str, time_limit: float = 5.0) -> RaddVerdict:
    """Verify a raw RADD prompt (the benchmark's `messages[0]`)."""
    return verify(parse_prompt(text), time_limit=time_limit)


def verify_batch(instances: Sequence[Any], time_limit: float | None = None) -> list[RaddVerdict]:
    """Verify many instances, `CHUNK` per Prolog goal."""
    w = worker()
    w.consult(PROGRAM)
    out: list[RaddVerdict] = []
    for i in range(0, len(instances), CHUNK):
        chunk = [prolog_input(inst, n) for n, inst in enumerate(instances[i : i + CHUNK], i)]
        text = json.dumps(chunk, ensure_ascii=False)
        limit = time_limit if time_limit is not None else 5.0 + SECONDS_PER_INSTANCE * len(chunk)
        results = w.query_json(f"radd_verify_json('{escape(text)}', Out)", time_limit=limit)
        if results is None or len(results) != len(chunk):
            raise RuntimeError("radd.pl failed on a batch of instances")
        out.extend(_verdict(r) for r in results)
    return out


def prolog_input(inst: Any, ident: Any = None) -> dict[str, Any]:
    """The JSON form `radd.pl` reads: dates as [year, month], values as item lists."""
    d = inst if isinstance(inst, dict) else inst.to_dict()
    return {
        "id": ident, "entity": d["entity"],
        "spans": [{"premise": s["premise"], "relation": s["relation"], "start": _ym(s["start"]),
                   "end": _ym(s["end"])} for s in d["spans"]],
        "properties": [{"premise": p["premise"], "relation": p["relation"],
                        "values": list(p["values"])} for p in d["properties"]],
        "regularity": {"premise": d["regularity_premise"], "text": d["regularity"]},
        "current": _ym(d["current_date"]),
        "sentence": {"date": _ym(d["sentence_date"]), "values": list(d["values"])},
        "options": [{"number": o["number"], "reading": o["reading"], "relation": o["relation"]}
                    for o in d["options"]]}


def _ym(date: Any) -> list[int]:
    if isinstance(date, (list, tuple)):
        return [int(date[0]), int(date[1])]
    md = MonthDate.from_text(date) if isinstance(date, str) else date
    return [md.year, md.month]


def _interp(r: dict[str, Any]) -> InterpretationVerdict:
    referent = r["referent"]
    return InterpretationVerdict(
        reading=r["reading"], relation=r["relation"],
        referent=None if referent == "none" else referent, verdict=r["verdict"],
        placed=bool(r["placed"]), holders=tuple(r["holders"]), premises=tuple(r["premises"]),
        derivation=tuple(r["derivation"]), findings=tuple(r["findings"]))


_STATUS_NOTES = {
    "both": "both interpretations are consistent with the premises: they do not decide between the readings",
    "neither": "neither interpretation is consistent with the premises",
    "undetermined": "the premises do not settle at least one interpretation",
}


def _verdict(r: dict[str, Any]) -> RaddVerdict:
    interps = {i["reading"]: _interp(i) for i in r["interpretations"]}
    derivation = tuple(step for reading in READINGS if reading in interps for step in interps[reading].derivation)
    notes = tuple(([_STATUS_NOTES[r["status"]]] if r["status"] in _STATUS_NOTES else []) + list(r["findings"]))
    return RaddVerdict(interpretations=interps, status=r["status"],
                       answer_option=r["answer_option"], answer_label=r["answer"],
                       derivation=derivation, notes=notes)
