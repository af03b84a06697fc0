"""Which failures the evaluation runner retries (`call_with_retries`): the transient gRPC statuses,
CANCELLED among them (a draining server resets the calls it had not started), and nothing else."""

from __future__ import annotations

import pytest

from ambit.client.eval.runner import call_with_retries


class Coded(Exception):
    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def _failing(codes: list[str]):
    calls = []

    def fn() -> dict:
        calls.append(1)
        if len(calls) <= len(codes):
            raise Coded(codes[len(calls) - 1])
        return {"ok": True}

    return fn, calls


@pytest.mark.parametrize("code", ["UNAVAILABLE", "RESOURCE_EXHAUSTED", "ABORTED", "CANCELLED"])
def test_a_transient_status_is_retried(code: str) -> None:
    fn, calls = _failing([code, code])
    assert call_with_retries(fn, retries=3, backoff_s=0) == {"ok": True} and len(calls) == 3


@pytest.mark.parametrize("code", ["INVALID_ARGUMENT", "FAILED_PRECONDITION", "INTERNAL", "DEADLINE_EXCEEDED"])
def test_other_statuses_fail_at_once(code: str) -> None:
    fn, calls = _failing([code])
    with pytest.raises(Coded):
        call_with_retries(fn, retries=3, backoff_s=0)
    assert len(calls) == 1


def test_retries_run_out() -> None:
    fn, calls = _failing(["CANCELLED"] * 5)
    with pytest.raises(Coded):
        call_with_retries(fn, retries=2, backoff_s=0)
    assert len(calls) == 3
