"""Reading inside the time limit in every dialect (issue 44): a FOLIO or NLTK story or pair read
past its deadline stops with ReadingTimeLimit, `ambit logic entails --time-limit` then answers
UNKNOWN with reason `time_limit`, and an RPC answers DEADLINE_EXCEEDED, never a late answer.
The deadline is checked before each formula, so a story whose second premise does not read
stops on the deadline, not on the parse error. No wall-clock assertion: the tests check the
reason and that the answer arrives."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from ambit.logic.cli import prove
from ambit.logic.syntax import reading
from ambit.logic.syntax.reading import ReadingTimeLimit, read_pairs, read_stories, read_story
from ambit.logic.syntax.tptp_problem import ReadingTimeLimit as TPTPReadingTimeLimit

STORIES = {  # dialect -> (premises, conclusion); the second premise does not read
    "folio": (["∀x (Dog(x) → Animal(x))", "∀x (Dog(x) →", "Dog(bonnie)"], "Animal(bonnie)"),
    "nltk": (["all x.(dog(x) -> animal(x))", "all x.(dog(x) ->", "dog(bonnie)"], "animal(bonnie)"),
}
GOOD = {d: ([p for i, p in enumerate(ps) if i != 1], c) for d, (ps, c) in STORIES.items()}


def test_one_error_class_for_every_dialect() -> None:
    assert ReadingTimeLimit is TPTPReadingTimeLimit


@pytest.mark.parametrize("fmt", sorted(STORIES))
def test_a_past_deadline_stops_a_story_before_its_first_formula(fmt: str) -> None:
    premises, conclusion = STORIES[fmt]
    with pytest.raises(ReadingTimeLimit, match=r"premises\[0\]"):
        read_story(premises, conclusion, fmt, deadline=time.monotonic() - 1)
    ps, c, r = read_story(*GOOD[fmt], fmt, deadline=time.monotonic() + 3600)
    assert len(ps) == 2 and r.dialect == fmt


@pytest.mark.parametrize("fmt", sorted(STORIES))
def test_a_deadline_passed_while_reading_stops_a_story(fmt: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The clock moves one second per look (0, 1, ...): the deadline 0.5 passes at the second premise."""
    clock = iter(range(100))
    monkeypatch.setattr(reading, "time", SimpleNamespace(monotonic=lambda: float(next(clock))))
    premises, conclusion = GOOD[fmt]
    with pytest.raises(ReadingTimeLimit, match=r"premises\[1\]"):
        read_story(premises * 3, conclusion, fmt, deadline=0.5)


@pytest.mark.parametrize("fmt", sorted(STORIES))
def test_batches_of_pairs_and_stories_keep_the_deadline(fmt: str) -> None:
    premises, conclusion = GOOD[fmt]
    with pytest.raises(ReadingTimeLimit):
        read_pairs([(premises[0], conclusion)], fmt, deadline=time.monotonic() - 1)
    with pytest.raises(ReadingTimeLimit):
        read_stories([(premises, conclusion)], fmt, deadline=time.monotonic() - 1)
    parsed, readings = read_stories([(premises, conclusion)], fmt, deadline=None)
    assert len(parsed) == 1 and readings[0].dialect == fmt


@pytest.mark.parametrize("fmt", sorted(STORIES))
def test_the_command_answers_unknown_time_limit_when_reading_runs_out(fmt: str, tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """`--premises FILE` in FOLIO and NLTK: past the deadline (long past here) the answer is
    UNKNOWN time_limit, although the file's second line does not read."""
    premises, conclusion = STORIES[fmt]
    path = tmp_path / "premises.txt"
    path.write_text("\n".join(premises) + "\n", encoding="utf-8")
    real = time.monotonic
    monkeypatch.setattr(prove, "time", SimpleNamespace(monotonic=lambda: real() - 3600))  # the deadline: long past
    out = io.StringIO()
    rc = prove.main(["entails", "--from", fmt, "--premises", str(path), "--conclusion", conclusion,
                     "--time-limit", "5"], stdout=out)
    assert rc == 0
    verdict, body = out.getvalue().split("\n", 1)
    answer = json.loads(body)
    assert verdict == "UNKNOWN" and answer["reason"] == "time_limit" and answer["reading"]["dialect"] == fmt


def test_the_rpc_service_answers_deadline_exceeded_before_reading() -> None:
    """CheckEntailment and CheckEquivalence read inside the request's deadline: one already past
    is DEADLINE_EXCEEDED, not the parse error the second premise would give."""
    pytest.importorskip("grpc")
    from ambit.server.guard.limits import Limits
    from ambit.server.service import entailment, equivalence
    from ambit.server.service.deadline import Deadline
    from ambit.server.service.errors import DeadlineExceeded

    premises, conclusion = STORIES["folio"]
    past = Deadline(at=time.monotonic() - 1)
    with pytest.raises(DeadlineExceeded):
        entailment.check(entailment.EntailmentQuery(tuple(premises), conclusion, "folio"), Limits(), past, 5.0)
    with pytest.raises(DeadlineExceeded):
        equivalence.check(equivalence.EquivalenceQuery("∀x (Dog(x) →", "Dog(bonnie)", "folio"), Limits(), past, 5.0)


TWO = {  # dialect -> two equivalent formulas
    "fol": ("exists x . man(x)", "exists y . man(y)"),
    "lisp": ("( exists x ( man x ) )", "( exists y ( man y ) )"),
    "folio": ("∀x (Dog(x) → Animal(x))", "∀y (Dog(y) → Animal(y))"),
    "nltk": ("all x.(dog(x) -> animal(x))", "all y.(dog(y) -> animal(y))"),
    "tptp": ("![X]: (dog(X) => animal(X))", "![Y]: (dog(Y) => animal(Y))"),
}


def _equiv(fmt: str, time_limit: str) -> tuple[str, dict]:
    from ambit.logic import cli

    out = io.StringIO()
    assert cli.main(["equiv", "--from", fmt, "--time-limit", time_limit, *TWO[fmt]], stdout=out) == 0
    verdict, *rest = out.getvalue().splitlines()
    return verdict, json.loads("\n".join(rest))


@pytest.mark.parametrize("fmt", sorted(TWO))
def test_logic_equiv_of_two_formulas_answers_unknown_once_reading_passes_its_time_limit(
        fmt: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """`ambit logic equiv A B --time-limit 1.5` in every dialect (AmP's command and the full one):
    the clock moves one second per look, so the deadline (1.5) passes before B is read, and the
    answer is UNKNOWN with reason `time_limit`, not a verdict; with the real clock, the verdict."""
    from ambit.logic.cli import common

    assert _equiv(fmt, "3600")[0] == "EQUIVALENT"
    clock = iter(range(100))
    fake = SimpleNamespace(monotonic=lambda: float(next(clock)))
    monkeypatch.setattr(reading, "time", fake)
    monkeypatch.setattr(common, "time", fake)
    verdict, answer = _equiv(fmt, "1.5")
    assert verdict == "UNKNOWN" and answer["witness"]["reason"] == "time_limit", answer
    assert answer["witness"]["reading"]["dialect"] == fmt
