"""The RADD prompt wordings: property-pair phrasings (`pairs.yaml`), each prompt style's answer
instructions, and `{field}` templates: `fill` renders one, `match` inverts it, with known fields
matched literally so that names containing the template's own words split the consistent way."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

import yaml

DATE_RE = r"(?:January|February|March|April|May|June|July|August|September|October|November|December) \d{1,4}"
_DATE_FIELDS = {"start_time", "end_time", "question_date"}
_SLOT = re.compile(r"\{(\w+)\}")

# Each prompt style: the instruction appended to the question, then any follow-up user turns.
PROMPT_STYLES: dict[str, list[str]] = {
    "direct": ['Answer only with "Option 1" or "Option 2", explain your decision after.'],
    "step_by_step5": [
        "When answering, let's consider both options, and think step by step.\n"
        "DO NOT repeat the premises, only refer to their number.",
        'Based on this, what is your final answer, "Option 1" or "Option 2"?',
    ],
}


@dataclass(frozen=True)
class Phrasing:
    key: str
    name: str
    regularity: str
    entity_relation: str
    relation_property: str
    list_separator: str | None
    questions: tuple[str, ...]
    interpretations: tuple[tuple[str, str], ...]  # (de_dicto, de_re) per variant

    def split_values(self, value_text: str) -> tuple[str, ...]:
        sep = self.list_separator
        return (value_text,) if sep is None else tuple(value_text.split(sep))


def load_phrasings(path: str | Path | None = None) -> dict[str, Phrasing]:
    """All pairs from `pairs.yaml` (or another file in the same layout)."""
    source = Path(path) if path else resources.files("ambit.logic.radd").joinpath("pairs.yaml")
    return {key: Phrasing(key=key, name=d["name"], regularity=d["regularity"],
                          entity_relation=d["entity_relation"],
                          relation_property=d["relation_property"],
                          list_separator=d.get("list_separator"), questions=tuple(d["questions"]),
                          interpretations=tuple((a, b) for a, b in d["interpretations"]))
            for key, d in yaml.safe_load(source.read_text(encoding="utf-8")).items()}


@lru_cache(maxsize=None)
def default_phrasings() -> dict[str, Phrasing]:
    return load_phrasings()


def fill(template: str, **fields: str) -> str:
    return _SLOT.sub(lambda m: fields[m.group(1)], template)


def match(template: str, text: str, **known: str) -> dict[str, str] | None:
    """The fields that make `fill(template, **fields) == text`, with `known` fields fixed;
    None when the text does not fit. Unknown name fields match as little as they can."""
    m = _pattern(template, ()).fullmatch(text)  # fast path: one cached pattern per template
    if m is not None and all(m.group(k) == v for k, v in known.items()):
        return m.groupdict()
    if not known:
        return None
    m = _pattern(template, tuple(sorted(known.items()))).fullmatch(text)  # known fields as literals
    return None if m is None else {**known, **m.groupdict()}


@lru_cache(maxsize=2048)
def _pattern(template: str, known: tuple[tuple[str, str], ...]) -> re.Pattern:
    fixed = dict(known)
    out, seen = [], set()
    for i, chunk in enumerate(_SLOT.sub(lambda m: "\x00" + m.group(1) + "\x00", template).split("\x00")):
        if i % 2 == 0:
            out.append(re.escape(chunk))
        elif chunk in fixed:
            out.append(re.escape(fixed[chunk]))
        elif chunk in seen:
            out.append(f"(?P={chunk})")
        else:
            out.append(f"(?P<{chunk}>{DATE_RE if chunk in _DATE_FIELDS else '.+?'})")
            seen.add(chunk)
    return re.compile("".join(out), flags=re.DOTALL)


def prefix_candidates(template: str, text: str, field: str) -> list[str]:
    """Every value of `field`, the template's first slot, for which `text` could fit."""
    head = "{" + field + "}"
    if not template.startswith(head):
        return []
    nxt = _SLOT.split(template[len(head) :], maxsplit=1)[0]
    if not nxt:
        return []
    return [text[:i] for i in range(1, len(text)) if text.startswith(nxt, i)]
