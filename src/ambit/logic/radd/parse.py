"""Parse a RADD prompt (the benchmark's `messages[0]`) into a `RaddInstance`. Nothing is guessed:
a prompt that fits no phrasing raises `RaddParseError` saying which part does not fit (the
inverse is `generators/radd/render.py`)."""

from __future__ import annotations

import re

from ambit.logic.radd.instance import READINGS, MonthDate, Option, PropertyFact, RaddInstance, RaddParseError, RelationSpan
from ambit.logic.radd.phrasings import DATE_RE, PROMPT_STYLES, Phrasing, default_phrasings, match, prefix_candidates

_PREMISE = re.compile(r"\(P(\d+)\) (.+)")
_QUESTION = re.compile(
    rf"If it is currently (?P<current>{DATE_RE}), what is the most likely interpretation of the following "
    r'sentence "(?P<sentence>.+)"'
)
_OPTION = re.compile(r"  (?P<number>\d)\. (?P<text>.+)")


def parse_prompt(text: str, phrasings: dict[str, Phrasing] | None = None, source: str | None = None) -> RaddInstance:
    """The instance a RADD prompt describes (without its label)."""
    phrasings = phrasings or default_phrasings()
    head, sep, question = text.partition("\n\nQuestion: \n")
    if not sep or not head.startswith("Premises: \n"):
        raise RaddParseError("no 'Premises:' / 'Question:' sections")
    blocks = head[len("Premises: \n") :].split("\n\n")
    if len(blocks) != 3:
        raise RaddParseError(f"expected 3 premise blocks (relations, properties, regularity), found {len(blocks)}")
    numbered = [[_premise(line) for line in block.split("\n")] for block in blocks]
    flat = [n for block in numbered for n, _ in block]
    if flat != list(range(1, len(flat) + 1)):
        raise RaddParseError(f"premises are not numbered P1..P{len(flat)} in order")
    rel_lines, prop_lines, reg_lines = numbered
    if len(reg_lines) != 1:
        raise RaddParseError("the last premise block must hold exactly one line (the regularity)")
    regularity = reg_lines[0]
    phrasing = next((p for p in phrasings.values() if p.regularity == regularity[1]), None)
    if phrasing is None:
        raise RaddParseError(f"unknown regularity {regularity[1]!r}")

    qlines = question.split("\n")
    if len(qlines) < 5 or qlines[3] != "":
        raise RaddParseError("question section must be: question line, two options, blank line, instruction")
    qm = _QUESTION.fullmatch(qlines[0])
    if qm is None:
        raise RaddParseError(f"unrecognised question line {qlines[0]!r}")
    instruction = "\n".join(qlines[4:])
    style = next((s for s, turns in PROMPT_STYLES.items() if turns[0] == instruction), None)
    if style is None:
        raise RaddParseError(f"unknown answer instruction {instruction!r}")

    entity, spans = _entity_and_spans(phrasing, rel_lines, qm.group("sentence"))
    names = sorted({s.relation for s in spans}, key=len, reverse=True)
    properties = tuple(_property(phrasing, n, line, names) for n, line in prop_lines)

    q_variant, sent = _sentence(phrasing, qm.group("sentence"), entity)
    value_text, qdate = sent["property"], sent["question_date"]
    options = tuple(_option(phrasing, qlines[n], entity, value_text, qdate, q_variant, n)
                    for n in (1, 2))
    if {o.reading for o in options} != set(READINGS):
        raise RaddParseError("the two options must spell out one de dicto and one de re reading")
    return RaddInstance(
        pair=phrasing.key, entity=entity, spans=spans, properties=properties,
        regularity=regularity[1], regularity_premise=regularity[0],
        current_date=MonthDate.from_text(qm.group("current")),
        sentence_date=MonthDate.from_text(qdate), value_text=value_text,
        values=phrasing.split_values(value_text), options=options,  # type: ignore[arg-type]
        question_variant=q_variant, prompt_style=style, source=source)


def _premise(line: str) -> tuple[int, str]:
    m = _PREMISE.fullmatch(line)
    if m is None:
        raise RaddParseError(f"not a numbered premise: {line!r}")
    return int(m.group(1)), m.group(2)


def _entity_and_spans(phrasing: Phrasing, lines: list[tuple[int, str]],
                      sentence: str) -> tuple[str, tuple[RelationSpan, ...]]:
    """The entity (the one split of the relation lines that fits them all and the sentence)."""
    if not lines:
        raise RaddParseError("no entity-relation premises")
    for entity in prefix_candidates(phrasing.entity_relation, lines[0][1], "entity"):
        fields = [match(phrasing.entity_relation, text, entity=entity) for _, text in lines]
        if all(fields) and any(match(q, sentence, entity=entity) for q in phrasing.questions):
            date = MonthDate.from_text
            return entity, tuple(RelationSpan(n, f["relation"], date(f["start_time"]),
                                              date(f["end_time"]))
                                 for (n, _), f in zip(lines, fields))
    raise RaddParseError(f"relation premises do not fit {phrasing.key!r}: {lines[0][1]!r}")


def _property(phrasing: Phrasing, number: int, line: str, names: list[str]) -> PropertyFact:
    for name in names:  # prefer the relations the premises name (longest first)
        if line.startswith(name) and (f := match(phrasing.relation_property, line, relation=name)):
            return PropertyFact(number, name, f["property"], phrasing.split_values(f["property"]))
    f = match(phrasing.relation_property, line)
    if f is None:
        raise RaddParseError(f"property premise P{number} does not fit {phrasing.key!r}: {line!r}")
    return PropertyFact(number, f["relation"], f["property"], phrasing.split_values(f["property"]))


def _sentence(phrasing: Phrasing, sentence: str, entity: str) -> tuple[int, dict[str, str]]:
    for i, q in enumerate(phrasing.questions):
        if f := match(q, sentence, entity=entity):
            return i, f
    raise RaddParseError(f"sentence does not fit {phrasing.key!r}: {sentence!r}")


def _option(phrasing: Phrasing, line: str, entity: str, value_text: str, qdate: str, q_variant: int,
            expected: int) -> Option:
    m = _OPTION.fullmatch(line)
    if m is None or int(m.group("number")) != expected:
        raise RaddParseError(f"option {expected} line not recognised: {line!r}")
    for v in sorted(range(len(phrasing.interpretations)), key=lambda v: v != q_variant):
        for reading, template in zip(READINGS, phrasing.interpretations[v]):
            f = match(template, m.group("text"), entity=entity, property=value_text, question_date=qdate)
            if f:
                return Option(expected, reading, f["relation"], v)
    raise RaddParseError(f"option {expected} fits no interpretation of {phrasing.key!r}: {line!r}")
