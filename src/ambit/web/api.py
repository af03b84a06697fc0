"""The JSON API: each handler reads its fields, calls the one `AmbitCore` method the matching RPC
calls (same limits, same Prolog budget, a deadline as gRPC calls carry one), and answers JSON.

A page that goes away stops its work as a cancelled RPC does (the deadline's liveness check).
A failure of the core is a JSON error with the HTTP status nearest to its gRPC status
(`views.STATUS`); the work runs on a thread of the server's pool, never on its event loop.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import threading
from typing import Any, Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse

from ambit.logic.syntax.dialect import FOL, FOLIO, dialect
from ambit.logic.syntax.parse import DIALECTS
from ambit.server.service import (
    AmbitCore, CanonicalQuery, DecodingOptions, Deadline, EntailmentQuery, EquivalenceQuery, ExplainQuery,
    InvalidField, ParseQuery, RaddQuery, ServiceError,
)
from ambit.server.service.validate import json_depth
from ambit.web import views
from ambit.web.guard import BodyTooLarge

log = logging.getLogger("ambit.web")

DEFAULT_TIMEOUT_S = 30.0  # a request's deadline when it names none
MAX_TIMEOUT_S = 120.0  # the longest deadline a page may ask for
MAX_BEAM = 16  # readings a page asks the model for at most (the core's own limit is higher)
EXAMPLES_PER_TYPE = 3


class Api:
    """The API's handlers over one service core (`core`)."""

    def __init__(self, core: AmbitCore, runs: bool = False, auth: bool = False) -> None:
        self.core = core
        self.runs = runs
        self.auth = auth

    # -- plumbing --------------------------------------------------------------------------
    async def _answer(self, request: Request, work: Callable[[dict, Deadline], Any]) -> JSONResponse:
        """Read the JSON body, run `work(body, deadline)` on a worker thread, answer its JSON."""
        try:
            raw = await request.body()
        except BodyTooLarge as e:
            return JSONResponse({"error": str(e), "status": 413}, status_code=413)
        try:
            body = json.loads(json_depth(raw.decode("utf-8"), "body")) if raw else {}
            if not isinstance(body, dict):
                raise InvalidField("body", "expected a JSON object", reason="BAD_JSON")
            gone = threading.Event()  # the page went away: the work stops, as a cancelled RPC does
            deadline = Deadline.after(_timeout(body), is_active=lambda: not gone.is_set())
            watcher = asyncio.ensure_future(_watch(request, gone))
            try:
                return JSONResponse(await run_in_threadpool(work, body, deadline))
            finally:
                watcher.cancel()
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            return JSONResponse({"error": f"body: not JSON ({e})", "field": "body", "status": 400}, status_code=400)
        except ServiceError as e:
            status, out = views.error(e)
            return JSONResponse(out, status_code=status)
        except Exception:  # noqa: BLE001 - logged here; the page gets one line, no traceback
            log.exception("web request %s failed", request.url.path)
            return JSONResponse({"error": "internal error (logged by the server)", "status": 500}, status_code=500)

    # -- handlers --------------------------------------------------------------------------
    async def info(self, request: Request) -> JSONResponse:
        i = self.core.info()
        amp = [f for f in i.formats if dialect(f).amp]
        return JSONResponse({
            "version": i.version, "model_loaded": i.model_loaded, "model": i.model, "formats": list(i.formats),
            "amp_formats": amp, "story_formats": [f for f in i.formats if f not in amp],
            "limits": {"max_lf_chars": i.limits.max_lf_chars, "max_prompt_chars": i.limits.max_prompt_chars,
                       "max_message_bytes": i.limits.max_message_bytes},
            "runs": self.runs, "auth": self.auth,
        })

    async def examples(self, request: Request) -> JSONResponse:
        return JSONResponse(await run_in_threadpool(_examples))

    async def equivalence(self, request: Request) -> JSONResponse:
        def work(body: dict, deadline: Deadline) -> dict:
            q = EquivalenceQuery(_text(body, "a"), _text(body, "b"), _format(body, FOL))
            return views.equivalence(self.core.check_equivalence(q, deadline))

        return await self._answer(request, work)

    async def entailment(self, request: Request) -> JSONResponse:
        def work(body: dict, deadline: Deadline) -> dict:
            premises = _lines(body, "premises")
            conclusion = _text(body, "conclusion")
            q = EntailmentQuery(tuple(premises), conclusion, _format(body, FOLIO))
            return views.decision(self.core.check_entailment(q, deadline), premises, conclusion)

        return await self._answer(request, work)

    async def radd(self, request: Request) -> JSONResponse:
        def work(body: dict, deadline: Deadline) -> dict:
            source = "instance_json" if "instance_json" in body else "text"
            return views.radd(self.core.verify_radd(RaddQuery(source, _text(body, source)), deadline))

        return await self._answer(request, work)

    async def explain(self, request: Request) -> JSONResponse:
        def work(body: dict, deadline: Deadline) -> dict:
            q = ExplainQuery(_text(body, "utterance"), tuple(_lines(body, "lfs")), _format(body, FOL))
            return self.core.explain_readings(q, deadline).to_dict()

        return await self._answer(request, work)

    async def canonical(self, request: Request) -> JSONResponse:
        def work(body: dict, deadline: Deadline) -> dict:
            fmt = _format(body, FOL)
            text = self.core.canonicalize(CanonicalQuery(_text(body, "lf"), fmt, _format(body, fmt, "to")))
            return {"canonical": text}

        return await self._answer(request, work)

    async def parse(self, request: Request) -> JSONResponse:
        def work(body: dict, deadline: Deadline) -> dict:
            fmt = _format(body, FOL)
            beam = body.get("k", 5)
            if not isinstance(beam, int) or isinstance(beam, bool) or not 1 <= beam <= MAX_BEAM:
                raise InvalidField("k", f"a whole number from 1 to {MAX_BEAM}", reason="OUT_OF_RANGE")
            q = ParseQuery(utterance=_text(body, "utterance"), fmt=fmt, decoding=DecodingOptions(beam_size=beam),
                           explain=bool(body.get("explain", False)))
            return views.distribution(self.core.parse_distribution(q, deadline), fmt)

        return await self._answer(request, work)


async def _watch(request: Request, gone: threading.Event, every_s: float = 0.1) -> None:
    """Set `gone` once the client has disconnected (checked every `every_s` while the work runs)."""
    while not await request.is_disconnected():
        await asyncio.sleep(every_s)
    gone.set()


# -- fields -------------------------------------------------------------------------------
def _timeout(body: dict) -> float:
    t = body.get("timeout_s", DEFAULT_TIMEOUT_S)
    if not isinstance(t, (int, float)) or isinstance(t, bool) or not math.isfinite(t) or t <= 0:
        raise InvalidField("timeout_s", "a positive number of seconds", reason="OUT_OF_RANGE")
    return min(float(t), MAX_TIMEOUT_S)


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
    """AmP's templates (a few sentences of each ambiguity type, with both readings) and the
    demo RADD instances the RADD page loads."""
    from ambit.generators.amp.generate import pairs

    amp = []
    for kind in ("pp", "scope", "scope_reverse", "conj", "bound"):
        amp += [{"type": kind, "surface": p["surface"], "lf0": p["lf0"], "lf1": p["lf1"]}
                for p in pairs(kind)[:EXAMPLES_PER_TYPE]]
    return {"amp": amp, "radd": radd_examples(), "stories": STORIES}


def radd_examples() -> list[dict]:
    """The RADD instances generated from the demo facts the package ships, as prompts."""
    from importlib.resources import files

    from ambit.generators.radd.generate import generate, load_facts
    from ambit.generators.radd.render import render_prompt

    facts = files("ambit.generators.radd") / "data" / "demo_facts.json"
    out = []
    for fact_set in load_facts(str(facts)):
        for inst in generate(fact_set, seed=0, style="direct"):
            out.append({"name": f"{inst.entity}: {inst.label_name}", "text": render_prompt(inst, "direct")})
    return out[:8]


STORIES = [
    {"name": "FOLIO: Rex is an animal", "format": FOLIO,
     "premises": ["∀x (Dog(x) → Animal(x))", "Dog(rex)", "Cat(tom)"], "conclusion": "Animal(rex)"},
    {"name": "FOLIO: is Tom an animal?", "format": FOLIO,
     "premises": ["∀x (Dog(x) → Animal(x))", "Dog(rex)"], "conclusion": "Animal(tom)"},
    {"name": "TPTP: Socrates", "format": "tptp",
     "premises": ["![X]: (man(X) => mortal(X))", "man(socrates)"], "conclusion": "mortal(socrates)"},
]
