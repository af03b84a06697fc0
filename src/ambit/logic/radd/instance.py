"""The structured RADD instance: premises, dates, the ambiguous sentence and its two readings."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

MONTHS = ("January", "February", "March", "April", "May", "June",
          "July", "August", "September", "October", "November", "December")
READINGS = ("de_dicto", "de_re")


class RaddParseError(ValueError):
    """A RADD prompt (or row) does not fit any known phrasing; the message names where."""


@dataclass(frozen=True, order=True)
class MonthDate:
    """A date at month precision; `index` = year*12 + month orders dates."""

    year: int
    month: int

    @property
    def index(self) -> int:
        return self.year * 12 + self.month

    def text(self) -> str:
        return f"{MONTHS[self.month - 1]} {self.year}"

    @classmethod
    def from_text(cls, text: str) -> "MonthDate":
        name, _, year = text.partition(" ")
        if name not in MONTHS or not year.isdigit():
            raise RaddParseError(f"not a 'Month YYYY' date: {text!r}")
        return cls(int(year), MONTHS.index(name) + 1)


@dataclass(frozen=True)
class RelationSpan:
    """Premise `premise`: the entity stood in the relation to `relation` from `start` to `end`."""

    premise: int
    relation: str
    start: MonthDate
    end: MonthDate


@dataclass(frozen=True)
class PropertyFact:
    """Premise `premise`: `relation` has `value_text` (its items, compared as a set: `values`)."""

    premise: int
    relation: str
    value_text: str
    values: tuple[str, ...]


@dataclass(frozen=True)
class Option:
    """An answer option: its number, which reading it spells out, and the relation it names."""

    number: int
    reading: str  # "de_dicto" | "de_re"
    relation: str
    variant: int = 0  # index into the pair's interpretation wordings


@dataclass(frozen=True)
class RaddInstance:
    pair: str
    entity: str
    spans: tuple[RelationSpan, ...]
    properties: tuple[PropertyFact, ...]
    regularity: str
    regularity_premise: int
    current_date: MonthDate
    sentence_date: MonthDate
    value_text: str
    values: tuple[str, ...]
    options: tuple[Option, Option]
    question_variant: int = 0
    prompt_style: str = "direct"
    label_nr: int | None = None
    label_name: str | None = None
    source: str | None = field(default=None, compare=False)

    def option(self, reading: str) -> Option:
        return next(o for o in self.options if o.reading == reading)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        for key in ("current_date", "sentence_date"):
            d[key] = getattr(self, key).text()
        for s in d["spans"]:
            s["start"] = MonthDate(**s["start"]).text()
            s["end"] = MonthDate(**s["end"]).text()
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "RaddInstance":
        date = MonthDate.from_text
        return cls(
            pair=d["pair"], entity=d["entity"],
            spans=tuple(RelationSpan(s["premise"], s["relation"], date(s["start"]), date(s["end"]))
                        for s in d["spans"]),
            properties=tuple(PropertyFact(p["premise"], p["relation"], p["value_text"],
                                          tuple(p["values"])) for p in d["properties"]),
            regularity=d["regularity"], regularity_premise=d["regularity_premise"],
            current_date=date(d["current_date"]), sentence_date=date(d["sentence_date"]),
            value_text=d["value_text"], values=tuple(d["values"]),
            options=tuple(Option(o["number"], o["reading"], o["relation"], o.get("variant", 0))
                          for o in d["options"]),
            question_variant=d.get("question_variant", 0),
            prompt_style=d.get("prompt_style", "direct"), label_nr=d.get("label_nr"),
            label_name=d.get("label_name"), source=d.get("source"))
