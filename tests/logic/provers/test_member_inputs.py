"""Preparing a member's input counts against the time limit and stops with the race (issue 57):
E's problem text is written a few hundred axioms at a time with the race's end looked at in
between, a large one goes to E as a file E reads itself (removed once E is done), and Z3's
formulas go to its process in parts, the stop and the deadline looked at before each."""

from __future__ import annotations

import os
import shutil
import threading
import time

import pytest

from ambit.logic import parse
from ambit.logic.provers import eprover
from ambit.logic.provers.portfolio_members import EMember, _check_stopped, _Stopped
from ambit.logic.provers.portfolio_question import Budget, story

needs_e = pytest.mark.skipif(shutil.which("eprover") is None, reason="E prover (eprover) not installed")
AXIOMS = [parse(f"p{i}(c{i}) | q(c{i})", "tptp") for i in range(3 * eprover.CHECK_EVERY)]


def test_writing_e_s_axioms_stops_when_the_check_says_so():
    seen = []

    def check():
        seen.append(1)
        if len(seen) == 2:
            raise _Stopped

    with pytest.raises(_Stopped):
        eprover.axiom_lines(AXIOMS, check)
    assert len(seen) == 2  # it stopped at its second look, not after writing every axiom
    assert len(eprover.axiom_lines(AXIOMS)) == len(AXIOMS)


def test_a_race_that_is_over_or_past_its_deadline_stops_a_preparation():
    stopped = threading.Event()
    _check_stopped(stopped, Budget(time_limit=5, deadline=time.monotonic() + 60))  # neither: goes on
    with pytest.raises(_Stopped):
        _check_stopped(stopped, Budget(time_limit=5, deadline=time.monotonic() - 1))
    stopped.set()
    with pytest.raises(_Stopped):
        _check_stopped(stopped, Budget(time_limit=5, deadline=time.monotonic() + 60))


def test_both_parts_of_a_story_share_e_s_axioms_written_once():
    q = story(AXIOMS, parse("q(c1) | ~q(c1)", "tptp"))
    shared = {"lock": threading.Lock()}
    budget = Budget(time_limit=5, deadline=time.monotonic() + 60)
    p1, p2 = (EMember().prepare(q, part, budget, threading.Event(), shared) for part in q.parts)
    assert p1.lines is p2.lines and p1.conjecture != p2.conjecture


@needs_e
def test_a_large_problem_goes_to_e_as_a_file_removed_once_e_is_done(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(eprover, "FILE_FROM_CHARS", 10)  # the rule made to bind on a small problem
    problem = eprover.Problem(eprover.axiom_lines([parse("p(a)", "tptp")]), parse("p(a)", "tptp"))
    e = problem.start(10, proof_object=False)
    path = e._remove
    assert path is not None and os.path.exists(path) and e._text is None
    assert e.result().status == "Theorem"
    assert not os.path.exists(path)


def test_z3_s_input_is_sent_in_parts_and_a_stop_ends_the_sending():
    pytest.importorskip("z3")
    from ambit.logic.provers import z3_prover

    sent = []

    class Recorder:
        def send(self, request):
            sent.append(request)

    fs = [parse(f"p(c{i})", "tptp") for i in range(2 * z3_prover.SEND_PART + 5)]
    check = z3_prover.Z3Process(fs, 5)
    assert check._send(Recorder())
    assert [len(part) for part, _ in sent] == [z3_prover.SEND_PART, z3_prover.SEND_PART, 5]
    assert [limit for _, limit in sent] == [None, None, 5]  # only the last part asks for the answer
    sent.clear()
    late = z3_prover.Z3Process(fs, 5, deadline=time.monotonic() - 1)
    assert not late._send(Recorder()) and sent == []
    assert z3_prover.Z3Process(fs[:3], 5).result().status == "sat"  # the process reads a request of one part
