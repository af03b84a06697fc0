"""Render a `RaddInstance` back into the paper's prompt text (exactly, byte for byte)."""

from __future__ import annotations

from ambit.logic.radd.instance import RaddInstance
from ambit.logic.radd.phrasings import PROMPT_STYLES, Phrasing, default_phrasings, fill


def render_prompt(inst: RaddInstance, style: str | None = None, phrasings: dict[str, Phrasing] | None = None) -> str:
    """The first user turn: premises, question, both options and the answer instruction."""
    ph = (phrasings or default_phrasings())[inst.pair]
    style = style or inst.prompt_style
    rel = [(s.premise, fill(ph.entity_relation, entity=inst.entity, relation=s.relation,
                            start_time=s.start.text(), end_time=s.end.text())) for s in inst.spans]
    props = [(p.premise, fill(ph.relation_property, relation=p.relation, property=p.value_text)) for p in inst.properties]
    blocks = [rel, props, [(inst.regularity_premise, inst.regularity)]]
    premises = "\n\n".join("\n".join(f"(P{n}) {t}" for n, t in block) for block in blocks)
    qdate = inst.sentence_date.text()
    sentence = fill(ph.questions[inst.question_variant], entity=inst.entity, property=inst.value_text, question_date=qdate)
    lines = ["Premises: ", premises, "", "Question: ",
             f"If it is currently {inst.current_date.text()}, what is the most likely "
             f'interpretation of the following sentence "{sentence}"']
    for o in inst.options:
        template = ph.interpretations[o.variant][0 if o.reading == "de_dicto" else 1]
        lines.append(f"  {o.number}. " + fill(template, entity=inst.entity, relation=o.relation,
                                               property=inst.value_text, question_date=qdate))
    lines += ["", PROMPT_STYLES[style][0]]
    return "\n".join(lines)


def render_messages(inst: RaddInstance, style: str | None = None) -> list[str]:
    """All user turns of the prompt style (direct: one; chain-of-thought: two)."""
    style = style or inst.prompt_style
    return [render_prompt(inst, style)] + PROMPT_STYLES[style][1:]
