"""The Starlette application: the page (plain HTML, CSS and one script, shipped as package data:
no build step, nothing fetched from elsewhere), the JSON API on the service core, and the runs
viewer's endpoints; all behind `guard.Guard`."""

from __future__ import annotations

from importlib.resources import files
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ambit.server.service import AmbitCore, ServiceError
from ambit.server.service.deadline import Admission
from ambit.web.api import Api
from ambit.web.errors import error_response
from ambit.web.limits import WebLimits
from ambit.web.guard import Guard, TokenCheck
from ambit.web import views
from ambit.web.runs import RUNS_SLOTS, Runs, RunsError

RUNS_QUEUE = 64  # runs-viewer requests waiting for a slot
RUNS_TIMEOUT_S = 30.0  # the longest one waits
STATIC = {"app.css": "text/css; charset=utf-8", "app.js": "text/javascript; charset=utf-8"}


def _static(name: str) -> bytes:
    return (files("ambit.web") / "static" / name).read_bytes()


class RunsApi:
    """The runs viewer's endpoints (404 without --runs): `runs.RUNS_SLOTS` read at once, each a page
    at most, `RUNS_QUEUE` more wait (beyond: 503), each for at most `RUNS_TIMEOUT_S`."""

    def __init__(self, runs: Runs | None) -> None:
        self.runs = runs
        self.admission = Admission(slots=RUNS_SLOTS, max_queue=RUNS_QUEUE)

    async def _call(self, fn, *args) -> Response:
        if self.runs is None:
            return error_response(404, "NOT_FOUND", "no --runs folder was given to this server")
        try:
            slot = await self.admission.enter("runs", RUNS_TIMEOUT_S)
            try:
                out = await run_in_threadpool(fn, self.runs, *args)
            finally:
                slot.release()
        except RunsError as e:
            return error_response(e.status, e.code, str(e), e.field)
        except ServiceError as e:
            return views.error_response(e)
        return out if isinstance(out, Response) else JSONResponse(out)

    async def listing(self, request: Request) -> Response:
        return await self._call(lambda runs: {"runs": runs.listing()})

    async def summary(self, request: Request) -> Response:
        return await self._call(lambda runs, run: runs.summary(run), request.query_params.get("run", ""))

    async def items(self, request: Request) -> Response:
        q = request.query_params
        filters = {k: q.get(k, "")[:1000] for k in ("type", "ratio", "outcome", "q")}
        try:
            offset, limit = _int(q.get("offset"), 0, "offset"), _int(q.get("limit"), 100, "limit")
        except RunsError as e:
            return error_response(e.status, e.code, str(e), e.field)
        return await self._call(lambda runs: runs.items(q.get("run", ""), filters, offset, limit))

    async def record(self, request: Request) -> Response:
        q = request.query_params
        return await self._call(lambda runs: runs.record(q.get("run", ""), q.get("id", "")))

    async def file(self, request: Request) -> Response:
        q = request.query_params

        def read(runs: Runs) -> Response:
            data, kind = runs.file(q.get("run", ""), q.get("name", ""))
            return Response(data, media_type=kind)

        return await self._call(read)


def _int(text: str | None, default: int, field: str) -> int:
    """A query's whole number (0 to 10**9), the default when absent; a 400 naming the field otherwise."""
    if not text:
        return default
    if not text.isdigit() or len(text) > 9:
        raise RunsError(f"{field}: a whole number from 0 to 999999999, not {text[:40]!r}", 400, field)
    return int(text)


def make_app(core: AmbitCore, runs: Runs | None = None, tokens: TokenCheck | None = None,
             hosts: frozenset[str] | None = None, upstream: Any = None, limits: WebLimits = WebLimits()) -> Guard:
    """The web application over `core` (the server's, or the web process's), behind the guard."""
    api = Api(core, runs=runs is not None, auth=tokens is not None, upstream=upstream, limits=limits)
    viewer = RunsApi(runs)
    page = _static("index.html")

    async def index(request: Request) -> Response:
        return Response(page, media_type="text/html; charset=utf-8")

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            return error_response(404, "NOT_FOUND", "not found")
        return Response(_static(name), media_type=STATIC[name])

    routes = [
        Route("/", index), Route("/static/{name}", static),
        Route("/api/info", api.info), Route("/api/examples", api.examples),
        *(Route(f"/api/{name}", getattr(api, name), methods=["POST"])
          for name in ("equivalence", "entailment", "radd", "explain", "canonical", "parse")),
        Route("/api/runs", viewer.listing), Route("/api/runs/summary", viewer.summary),
        Route("/api/runs/items", viewer.items), Route("/api/runs/record", viewer.record),
        Route("/api/runs/file", viewer.file),
    ]
    async def http_error(request: Request, exc: Exception) -> Response:  # Starlette's own 404, 405: the one shape
        status = getattr(exc, "status_code", 500)
        code = {404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED"}.get(status, "HTTP_ERROR")
        return error_response(status, code, str(getattr(exc, "detail", "")) or code.replace("_", " ").lower(),
                              headers=getattr(exc, "headers", None))

    app = Starlette(routes=routes, exception_handlers={HTTPException: http_error})
    guard = Guard(app, hosts, tokens, core.limits.max_message_bytes)
    guard.api = api  # type: ignore[attr-defined]  # for its owner to close, and for tests
    guard.runs = runs  # type: ignore[attr-defined]
    return guard
