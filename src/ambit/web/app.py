"""The Starlette application: the page (plain HTML, CSS and one script, shipped as package data:
no build step, nothing fetched from elsewhere), the JSON API on the service core, and the runs
viewer's endpoints; all behind `guard.Guard`."""

from __future__ import annotations

from importlib.resources import files

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ambit.server.service import AmbitCore
from ambit.web.api import Api
from ambit.web.guard import Guard, TokenCheck
from ambit.web.runs import Runs, RunsError

STATIC = {"app.css": "text/css; charset=utf-8", "app.js": "text/javascript; charset=utf-8"}


def _static(name: str) -> bytes:
    return (files("ambit.web") / "static" / name).read_bytes()


class RunsApi:
    """The runs viewer's endpoints (404 for everything when no --runs folder was given)."""

    def __init__(self, runs: Runs | None) -> None:
        self.runs = runs

    async def _call(self, fn, *args) -> Response:
        if self.runs is None:
            return JSONResponse({"error": "no --runs folder was given to this server", "status": 404}, status_code=404)
        try:
            out = await run_in_threadpool(fn, self.runs, *args)
        except RunsError as e:
            return JSONResponse({"error": str(e), "status": e.status}, status_code=e.status)
        return out if isinstance(out, Response) else JSONResponse(out)

    async def listing(self, request: Request) -> Response:
        return await self._call(lambda runs: {"runs": runs.listing()})

    async def summary(self, request: Request) -> Response:
        return await self._call(lambda runs, run: runs.summary(run), request.query_params.get("run", ""))

    async def items(self, request: Request) -> Response:
        q = request.query_params
        filters = {k: q.get(k, "") for k in ("type", "ratio", "outcome", "q")}
        offset, limit = _int(q.get("offset"), 0), _int(q.get("limit"), 100)
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


def _int(text: str | None, default: int) -> int:
    return int(text) if text and text.isdigit() else default


def make_app(core: AmbitCore, runs: Runs | None = None, tokens: TokenCheck | None = None,
             hosts: frozenset[str] | None = None) -> Guard:
    """The web application over `core` (the server's own service core), behind the guard:
    `hosts` the accepted Host values (None: any), `tokens` the token store (None: none needed)."""
    api = Api(core, runs=runs is not None, auth=tokens is not None)
    viewer = RunsApi(runs)
    page = _static("index.html")

    async def index(request: Request) -> Response:
        return Response(page, media_type="text/html; charset=utf-8")

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            return JSONResponse({"error": "not found", "status": 404}, status_code=404)
        return Response(_static(name), media_type=STATIC[name])

    routes = [
        Route("/", index), Route("/static/{name}", static),
        Route("/api/info", api.info), Route("/api/examples", api.examples),
        Route("/api/equivalence", api.equivalence, methods=["POST"]),
        Route("/api/entailment", api.entailment, methods=["POST"]),
        Route("/api/radd", api.radd, methods=["POST"]),
        Route("/api/explain", api.explain, methods=["POST"]),
        Route("/api/canonical", api.canonical, methods=["POST"]),
        Route("/api/parse", api.parse, methods=["POST"]),
        Route("/api/runs", viewer.listing), Route("/api/runs/summary", viewer.summary),
        Route("/api/runs/items", viewer.items), Route("/api/runs/record", viewer.record),
        Route("/api/runs/file", viewer.file),
    ]
    return Guard(Starlette(routes=routes), hosts, tokens, core.limits.max_message_bytes)
