"""The one call scope of both edges (`server.service.deadline`): admission before work (slots, a
bounded first-come queue, a per-client bound), a deadline held while waiting (refused at it, never
started), a caller that leaves dropping its place, a slot passed on when the work ends; and the
scope's end cancelling its Prolog work."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from ambit.server.service import AmbitCore, DeadlineExceeded
from ambit.server.service.deadline import Admission, CallScope, Refused


def _run(coro):
    return asyncio.run(coro)


def test_a_free_slot_is_taken_at_once_and_given_back():
    adm = Admission(slots=2, max_queue=0)

    async def go():
        a = await adm.enter("x", 1.0)
        b = await adm.enter("y", 1.0)
        assert adm.running == 2
        with pytest.raises(Refused) as full:
            await adm.enter("z", 1.0)
        assert not full.value.per_client and full.value.retry_after_s > 0 and "--max-queue" in full.value.message
        a.release()
        a.release()  # idempotent
        assert adm.running == 1
        b.release()
        assert adm.running == 0 and adm.of("x") == 0

    _run(go())


def test_waiters_are_served_first_come_first_served():
    adm = Admission(slots=1, max_queue=10)
    order: list[str] = []

    async def go():
        holder = await adm.enter("h", 5.0)

        async def wait(name: str) -> None:
            slot = await adm.enter(name, 5.0)
            order.append(name)
            slot.release()

        tasks = [asyncio.ensure_future(wait(n)) for n in ("a", "b", "c")]
        await asyncio.sleep(0.05)
        assert adm.waiting == 3 and order == []
        holder.release()
        await asyncio.gather(*tasks)
        assert adm.running == 0 and adm.waiting == 0

    _run(go())
    assert order == ["a", "b", "c"]


def test_a_client_past_its_bound_is_refused_at_once_others_are_not():
    adm = Admission(slots=10, max_queue=10, per_client=2)

    async def go():
        held = [await adm.enter("greedy", 1.0) for _ in range(2)]
        with pytest.raises(Refused) as refused:
            await adm.enter("greedy", 1.0)
        assert refused.value.per_client and "retry after" in refused.value.message
        other = await adm.enter("bystander", 1.0)
        for s in (*held, other):
            s.release()

    _run(go())


def test_a_deadline_that_passes_in_the_queue_refuses_the_request_at_it():
    adm = Admission(slots=1, max_queue=10)

    async def go():
        holder = await adm.enter("h", 5.0)
        t0 = time.monotonic()
        with pytest.raises(DeadlineExceeded, match="never started"):
            await adm.enter("late", 0.2)
        waited = time.monotonic() - t0
        assert adm.waiting == 0 and adm.of("late") == 0 and adm.expired_waiting == 1
        holder.release()
        assert adm.running == 0
        return waited

    assert _run(go()) >= 0.2  # refused at its deadline, not before (and nothing else ever ran it)


def test_a_caller_that_leaves_drops_its_place():
    adm = Admission(slots=1, max_queue=10)

    async def go():
        holder = await adm.enter("h", 5.0)
        task = asyncio.ensure_future(adm.enter("gone", 5.0))
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert adm.waiting == 0 and adm.of("gone") == 0
        holder.release()
        assert adm.running == 0

    _run(go())


def test_a_slot_released_from_another_thread_wakes_a_waiter_on_its_loop():
    adm = Admission(slots=1, max_queue=10)

    async def go():
        holder = await adm.enter("h", 5.0)
        threading.Timer(0.05, holder.release).start()
        slot = await adm.enter("w", 5.0)
        assert adm.running == 1
        slot.release()

    _run(go())
    assert adm.running == 0


def test_ending_a_scope_cancels_its_prolog_work_and_runs_its_callbacks_once():
    scope = CallScope(30.0, "client", None)
    seen: list[str] = []
    scope.add_callback(lambda: seen.append("hook"))
    assert scope.is_active() and not scope.deadline.expired() and not scope.scope.cancelled
    scope.end()
    scope.end()
    assert scope.scope.cancelled and scope.deadline.expired() and seen == ["hook"]
    scope.add_callback(lambda: seen.append("late"))  # after the end: at once
    assert seen == ["hook", "late"]


def test_a_scope_ends_at_its_deadline_on_its_loop():
    async def go():
        scope = CallScope(0.1, "client", None)
        scope.end_at_deadline(asyncio.get_running_loop())
        await asyncio.sleep(0.3)
        return scope

    scope = _run(go())
    assert not scope.is_active() and scope.scope.cancelled


def test_the_core_opens_calls_on_its_own_admission():
    core = AmbitCore(admission=Admission(slots=1, max_queue=0, per_client=1))
    call = core.open_call(5.0, "web:127.0.0.1")
    assert call.admission is core.admission and call.scope.owner == "web:127.0.0.1"

    async def go():
        await call.admit()
        with pytest.raises(Refused):
            await core.open_call(5.0, "ipv4:127.0.0.1:5").admit()
        call.release()

    _run(go())
