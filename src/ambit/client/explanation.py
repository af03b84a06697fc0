"""The ExplainReadings message as `logic.explain`'s own `Explanation`, so that a server's answer
and a local `explain_readings` print and serialise alike."""

from __future__ import annotations

from ambit.logic.explain import Explanation, Question, Reading, Situation
from ambit.proto.v1 import ambit_pb2 as pb


def explanation(msg: pb.ExplainReadingsResponse, utterance: str, fmt: str) -> Explanation:
    """The message as an Explanation of `utterance`'s readings in format `fmt`."""
    readings = [Reading(r.lf, r.paraphrase, r.weight if r.HasField("weight") else None) for r in msg.readings]
    situations = [
        Situation(s.holds, s.fails, list(s.domain), dict(s.constants), list(s.facts), s.description, s.size,
                  s.searched_from, s.bound)
        for s in msg.situations
    ]
    question = None
    if msg.HasField("question"):
        q = msg.question
        question = Question(q.text, list(q.readings), q.yes_no or None,
                            q.situation if q.HasField("situation") else None,
                            {a: q.answers[a] for a in ("yes", "no") if a in q.answers})
    return Explanation(utterance, fmt, readings, situations, question, msg.note or None, msg.quantifiers)
