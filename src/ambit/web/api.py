"""The JSON API: each handler calls the `AmbitCore` method its RPC calls, in the call scope an RPC
opens (`AmbitCore.open_call`: deadline, cancellation, admission: 503/429 past its bounds, 504 at the
deadline without waiting for the work). Bodies are read under a budget and parsed off the loop
(`body.parse`); model work goes to `upstream.Upstream` when a gRPC server does it.
"""

from __future__ import annotations

import asyncio
import logging
import math
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Awaitable, Callable

from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response

from ambit.logic.syntax.dialect import FOL, FOLIO, dialect
from ambit.logic.syntax.parse import DIALECTS
from ambit.server.service import (
    AmbitCore, CanonicalQuery, DecodingOptions, Deadline, EntailmentQuery, EquivalenceQuery, ExplainQuery,
    InvalidField, ParseQuery, RaddQuery, ServiceError,
)
from ambit.server.service.deadline import CallScope
from ambit.server.service.errors import Cancelled, DeadlineExceeded
from ambit.server.status import normalise
from ambit.web import body as bodies
from ambit.web import views
from ambit.web.errors import error_response
from ambit.web.guard import BodyTooLarge
from ambit.web.limits import WebLimits

log = logging.getLogger("ambit.web")

DEFAULT_TIMEOUT_S = 30.0  # a request's deadline when it names none
MAX_TIMEOUT_S = 120.0  # the longest deadline a page may ask for
MAX_BEAM = 16  # readings a page asks the model for at most (the core's own limit is higher)
EXAMPLES_PER_TYPE = 3

Work = Callable[[dict, Deadline], Any]  # a handler's work on a thread: (body, deadline) -> JSON value
Remote = Callable[[dict, CallScope, Request], Awaitable[Any]]  # work another server does (async)


class Api:
    """The API's handlers over one service core (`upstream`: the gRPC server doing model work)."""

    def __init__(self, core: AmbitCore, runs: bool = False, auth: bool = False, upstream: Any = None,
                 limits: WebLimits = WebLimits()) -> None:
        self.core = core
        self.runs = runs
        self.auth = auth
        self.upstream = upstream
        self.limits = limits
        self.bodies = bodies.BodyBudget(limits.max_body_bytes_in_flight)
        self._parsers = ThreadPoolExecutor(limits.body_parsers, thread_name_prefix="ambit-web-body")
        self._workers = ThreadPoolExecutor(max(1, core.admission.slots), thread_name_prefix="ambit-web")

    def close(self) -> None:
        self._parsers.shutdown(wait=False, cancel_futures=True)
        self._workers.shutdown(wait=False, cancel_futures=True)

    # -- plumbing --------------------------------------------------------------------------
    async def _answer(self, request: Request, work: Work | None = None, remote: Remote | None = None) -> Response:
        """Run `work(body, deadline)` on a worker thread (or `remote`); answer JSON or an error."""
        held = bodies.Held(self.bodies)
        call: CallScope | None = None
        try:
            body = await self._body(request, held)
            call = self.core.open_call(_timeout(body), "web:" + (request.client.host if request.client else "-"))
            return JSONResponse(await self._run(request, call, body, work, remote))
        except ClientDisconnect:
            return error_response(499, "CANCELLED", "the client went away")
        except ServiceError as e:
            return views.error_response(e)
        except Exception as e:  # noqa: BLE001 - logged here; the page gets one line, no traceback
            meant = normalise(e)  # a Prolog call cancelled or out of budget, input too deep: as an RPC's
            if isinstance(meant, ServiceError):
                return views.error_response(meant)
            log.exception("web request %s failed", request.url.path)
            return error_response(500, "INTERNAL", "internal error (logged by the server)")
        finally:
            held.release()
            if call is not None:
                call.end()

    async def _run(self, request: Request, call: CallScope, body: dict, work: Work | None,
                   remote: Remote | None) -> Any:
        loop = asyncio.get_running_loop()
        ended = asyncio.Event()
        call.add_callback(lambda: loop.call_soon_threadsafe(ended.set))
        call.end_at_deadline(loop)  # HTTP has no deadline of its own: the scope ends at it
        watcher = asyncio.ensure_future(_watch(request, call))
        fut: Any = None
        try:
            await _unless_ended(call.admit(), ended, call)
            if remote is not None:
                try:
                    return await _unless_ended(remote(body, call, request), ended, call)
                finally:
                    call.release()
            fut = loop.run_in_executor(self._workers, call.run, work, body, call.deadline)
            call.release_when_done(fut)  # the slot is held while the thread works, not less
            return await _unless_ended(fut, ended, call)
        finally:
            watcher.cancel()
            if fut is None and remote is None:
                call.release()

    async def _body(self, request: Request, held: bodies.Held) -> dict:
        """The request's JSON object: read under the bytes-in-flight budget, parsed off the loop."""
        if request.method != "POST":
            return {}
        length = request.headers.get("content-length")
        if length is not None:  # the guard has checked it is digits and under the message limit
            held.take(int(length))
        chunks, size = [], 0
        try:
            async for chunk in request.stream():
                size += len(chunk)
                if length is None or size > held.n:
                    held.take(len(chunk) if length is None else size - held.n)
                chunks.append(chunk)
        except BodyTooLarge as e:
            raise _TooLarge(str(e)) from None
        raw = b"".join(chunks)
        del chunks
        lim = self.limits
        return await asyncio.get_running_loop().run_in_executor(
            self._parsers, bodies.parse, raw, lim.max_body_values, lim.max_int_digits)

    # -- handlers --------------------------------------------------------------------------
    async def info(self, request: Request) -> JSONResponse:
        i = self.core.info()
        amp = [f for f in i.formats if dialect(f).amp]
        model_loaded, model = i.model_loaded, i.model
        if self.upstream is not None:
            model_loaded, model = await self.upstream.model(request.headers.get("authorization"))
        return JSONResponse({
            "version": i.version, "model_loaded": model_loaded, "model": model, "formats": list(i.formats),
            "amp_formats": amp, "story_formats": [f for f in i.formats if f not in amp],
            "limits": {"max_lf_chars": i.limits.max_lf_chars, "max_prompt_chars": i.limits.max_prompt_chars,
                       "max_message_bytes": i.limits.max_message_bytes},
            "runs": self.runs, "auth": self.auth,
        })

    async def examples(self, request: Request) -> JSONResponse:
        return JSONResponse(await asyncio.get_running_loop().run_in_executor(self._workers, _examples))

    async def equivalence(self, request: Request) -> Response:
        def work(body: dict, deadline: Deadline) -> dict:
            q = EquivalenceQuery(_text(body, "a"), _text(body, "b"), _format(body, FOL))
            return views.equivalence(self.core.check_equivalence(q, deadline))

        return await self._answer(request, work)

    async def entailment(self, request: Request) -> Response:
        def work(body: dict, deadline: Deadline) -> dict:
            premises, conclusion = _lines(body, "premises"), _text(body, "conclusion")
            q = EntailmentQuery(tuple(premises), conclusion, _format(body, FOLIO))
            return views.decision(self.core.check_entailment(q, deadline), premises, conclusion)

        return await self._answer(request, work)

    async def radd(self, request: Request) -> Response:
        def work(body: dict, deadline: Deadline) -> dict:
            source = "instance_json" if "instance_json" in body else "text"
            return views.radd(self.core.verify_radd(RaddQuery(source, _text(body, source)), deadline))

        return await self._answer(request, work)

    async def explain(self, request: Request) -> Response:
        def work(body: dict, deadline: Deadline) -> dict:
            q = ExplainQuery(_text(body, "utterance"), tuple(_lines(body, "lfs")), _format(body, FOL))
            return self.core.explain_readings(q, deadline).to_dict()

        return await self._answer(request, work)

    async def canonical(self, request: Request) -> Response:
        def work(body: dict, deadline: Deadline) -> dict:
            fmt = _format(body, FOL)
            text = self.core.canonicalize(CanonicalQuery(_text(body, "lf"), fmt, _format(body, fmt, "to")))
            return {"canonical": text}

        return await self._answer(request, work)

    async def parse(self, request: Request) -> Response:
        if self.upstream is not None:
            async def remote(body: dict, call: CallScope, req: Request) -> dict:
                fmt, utterance, beam, explain = _parse_fields(body)
                return await self.upstream.parse(utterance, fmt, beam, explain, call,
                                                 req.headers.get("authorization"))

            return await self._answer(request, remote=remote)

        def work(body: dict, deadline: Deadline) -> dict:
            fmt, utterance, beam, explain = _parse_fields(body)
            q = ParseQuery(utterance=utterance, fmt=fmt, decoding=DecodingOptions(beam_size=beam), explain=explain)
            return views.distribution(self.core.parse_distribution(q, deadline), fmt)

        return await self._answer(request, work)


class _TooLarge(ServiceError):
    """A body without a Content-Length that ran past the message limit while being read (413)."""

    status, code = 413, "TOO_LARGE"


async def _unless_ended(work: Awaitable[Any], ended: asyncio.Event, call: CallScope) -> Any:
    """`work`'s value, unless the call ends first: then DeadlineExceeded or Cancelled at once."""
    task = asyncio.ensure_future(work)
    if ended.is_set():
        task.cancel()
    else:
        gone = asyncio.ensure_future(ended.wait())
        try:
            await asyncio.wait({task, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            gone.cancel()
        if task.done():
            try:
                return task.result()
            except BaseException as e:
                if call.is_active() or (isinstance(e, ServiceError) and not isinstance(e, Cancelled)):
                    raise  # the work's own failure, or what the wait for a slot said
                # the call ended as its work did: say why it ended, not how its work was stopped
        task.cancel()
    left = call.deadline.remaining()
    if call.ended_by == "deadline" or (left is not None and left <= 0):
        raise DeadlineExceeded("deadline exceeded (timeout_s)")
    raise Cancelled("the request was cancelled: its page went away")


async def _watch(request: Request, call: CallScope) -> None:
    """End `call` once the client disconnects (the body is read: the next message is the end)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            call.end("disconnect")
            return

# -- fields -------------------------------------------------------------------------------
def _timeout(body: dict) -> float:
    t = body.get("timeout_s", DEFAULT_TIMEOUT_S)
    if not isinstance(t, (int, float)) or isinstance(t, bool) or not math.isfinite(t) or t <= 0:
        raise InvalidField("timeout_s", f"a positive number of seconds (at most {MAX_TIMEOUT_S:g} are used)",
                           reason="OUT_OF_RANGE")
    return min(float(t), MAX_TIMEOUT_S)


def _parse_fields(body: dict) -> tuple[str, str, int, bool]:
    """/api/parse's fields: format, utterance, k (1 to MAX_BEAM), explain."""
    fmt = _format(body, FOL)
    beam = body.get("k", 5)
    if not isinstance(beam, int) or isinstance(beam, bool) or not 1 <= beam <= MAX_BEAM:
        raise InvalidField("k", f"a whole number from 1 to {MAX_BEAM}", reason="OUT_OF_RANGE")
    return fmt, _text(body, "utterance"), beam, bool(body.get("explain", False))


def _text(body: dict, name: str) -> str:
    value = body.get(name)
    if not isinstance(value, str):
        raise InvalidField(name, "a string is needed", reason="EMPTY" if value is None else "NOT_A_STRING")
    return value


def _lines(body: dict, name: str) -> list[str]:
    """A list of strings, or one string with one item a line (blank lines skipped)."""
    value = body.get(name)
    if isinstance(value, str):
        value = value.splitlines()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InvalidField(name, "a list of strings (or one string, one item a line) is needed", reason="NOT_A_LIST")
    return [v.strip() for v in value if v.strip()]


def _format(body: dict, default: str, name: str = "format") -> str:
    value = body.get(name, default)
    if not isinstance(value, str) or value not in DIALECTS:
        raise InvalidField(name, f"one of {', '.join(DIALECTS)} is needed", reason="UNKNOWN_FORMAT")
    return value


def _examples() -> dict:
    """A few AmP sentences of each type with both readings, RADD demo instances, stories."""
    from ambit.generators.amp.generate import pairs

    amp = [{"type": kind, "surface": p["surface"], "lf0": p["lf0"], "lf1": p["lf1"]}
           for kind in ("pp", "scope", "scope_reverse", "conj", "bound")
           for p in pairs(kind)[:EXAMPLES_PER_TYPE]]
    return {"amp": amp, "radd": radd_examples(), "stories": STORIES}


def radd_examples() -> list[dict]:
    """The RADD instances generated from the demo facts the package ships, as prompts."""
    from importlib.resources import files

    from ambit.generators.radd.generate import generate, load_facts
    from ambit.generators.radd.render import render_prompt

    facts = files("ambit.generators.radd") / "data" / "demo_facts.json"
    return [{"name": f"{inst.entity}: {inst.label_name}", "text": render_prompt(inst, "direct")}
            for fact_set in load_facts(str(facts))
            for inst in generate(fact_set, seed=0, style="direct")][:8]


STORIES = [
    {"name": "FOLIO: Rex is an animal", "format": FOLIO,
     "premises": ["∀x (Dog(x) → Animal(x))", "Dog(rex)", "Cat(tom)"], "conclusion": "Animal(rex)"},
    {"name": "FOLIO: is Tom an animal?", "format": FOLIO,
     "premises": ["∀x (Dog(x) → Animal(x))", "Dog(rex)"], "conclusion": "Animal(tom)"},
    {"name": "TPTP: Socrates", "format": "tptp",
     "premises": ["![X]: (man(X) => mortal(X))", "man(socrates)"], "conclusion": "mortal(socrates)"},
]
