"""The worker's JSON calls through SWI-Prolog's C interface (logic/runtime/json_direct.py): the
goal text goes in as a Prolog string (no quoting), the reply comes back as UTF-8 text, and every
outcome reads as it did through pyswip's query: a value, None for a goal that fails, PrologError
with its reason for an error, a spent budget or a cancellation; the engine answers the next call."""

from __future__ import annotations

import threading
import time
from concurrent.futures import CancelledError

import pytest

from ambit.logic.runtime.worker import PrologError, PrologUnavailable, cancellable, worker

try:
    worker()
except PrologUnavailable as e:  # pragma: no cover - depends on the machine
    pytest.skip(f"SWI-Prolog unavailable: {e}", allow_module_level=True)


def test_text_crosses_both_ways_unchanged() -> None:
    """Quotes, backslashes, newlines and non-ASCII letters in the goal and in the reply."""
    text = "it's \\ a \"test\"\n∀x ¬P(x) — ok"
    goal = 'Out = "' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    assert worker().query_json(goal, time_limit=5) == text
    assert worker().query_json("Out = 'grüße'", time_limit=5) == "grüße"


def test_a_failing_goal_is_none_and_values_are_json() -> None:
    assert worker().query_json("fail", time_limit=5) is None
    assert worker().query_json("Out = _{a: [1, 2.5, true, null], b: \"x\"}", time_limit=5) == {
        "a": [1, 2.5, True, None], "b": "x"}


def test_an_error_is_a_prolog_error_and_the_next_call_is_answered() -> None:
    with pytest.raises(PrologError) as err:
        worker().query_json("throw(boom)", time_limit=5)
    assert err.value.reason == "error" and "boom" in str(err.value)
    with pytest.raises(Exception, match="syntax_error"):  # the goal text does not read: as pyswip raised it
        worker().query_json("Out = 1 +", time_limit=5)
    assert worker().query_json("Out = 3", time_limit=5) == 3


def test_spent_budgets_have_their_reasons() -> None:
    with pytest.raises(PrologError) as err:
        worker().query_json("between(1, inf, X), X < 0", time_limit=30, inferences=100_000)
    assert err.value.reason == "inference_limit"
    with pytest.raises(PrologError) as err:
        worker().query_json("repeat, fail", time_limit=0.2, inferences=10 ** 12)
    assert err.value.reason == "time_limit" and err.value.timed_out
    assert worker().query_json("Out = ok", time_limit=5) == "ok"


def test_a_cancelled_call_ends_with_reason_cancelled(tmp_path) -> None:
    """A running call is interrupted (a queued one would be dropped: CancelledError), so the goal
    first writes a file, and the scope is cancelled once the file is there."""
    flag = tmp_path / "running"
    with cancellable() as scope:
        future = worker().submit_json_quiet(f"open('{flag}', write, S), close(S), repeat, fail",
                                            time_limit=60, inferences=10 ** 12)
        started = time.monotonic()
        while not flag.exists() and time.monotonic() - started < 50:
            time.sleep(0.01)
        assert flag.exists(), "the goal never started"
        threading.Thread(target=scope.cancel).start()
        # the scope cancels the call's future and interrupts Prolog: the caller sees the future
        # cancelled, or Prolog's error with reason "cancelled" when the interrupt ends it first
        with pytest.raises((PrologError, CancelledError)) as err:
            future.result(timeout=30)
    assert isinstance(err.value, CancelledError) or err.value.reason == "cancelled"
    assert worker().query_json("Out = ok", time_limit=5) == "ok"
